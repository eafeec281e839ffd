import type { TripRef } from '../lib/trip-ref.ts'

/** What a booking does when the passenger extends, resets or outlives a hold it owns. */
export interface BookingHold {
  /** Asks the server for more time; answers the new expiry, or null when it could not. */
  extend: () => Promise<string | null>
  /** Gives the booking up (the reset button). */
  cancel: () => Promise<void>
  /** The hold clock ran out. */
  expired: () => void
}

/** What the booking store asks of the seat page's store while a booking holds seats. */
export interface SeatPageLink {
  /** The trip the seat page shows, if any. */
  tripId(): number | undefined
  tripRef(): TripRef | null
  holdForBooking(names: string[], expiration: string | null, hold: BookingHold | null): void
  loadTrip(ref: TripRef): Promise<unknown>
}

let link: SeatPageLink | null = null

/**
 * The seat-choice store registers itself here when it loads, so the booking store
 * reaches the seat page without importing it: pages without a seat map (the success
 * and failure pages) do not download the seat page's store.
 */
export function linkSeatPage(l: SeatPageLink): void {
  link = l
}

/** The seat page's store, once loaded; null before (then no seat page shows a trip). */
export function seatPage(): SeatPageLink | null {
  return link
}
