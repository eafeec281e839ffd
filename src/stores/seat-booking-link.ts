/**
 * The seat page's link between its two stores, seat choice (seat-choice.ts) and booking (booking.ts).
 * Neither imports or calls the other (scripts/import-cycles.test.ts checks it): each exposes signals
 * and verbs, and the seat page's booking slot runs this link while it is shown, so pages without a
 * seat map (the success and failure pages) use the booking store alone.
 * - An unpaid booking of the trip on the page holds its seats there: frozen, on the booking's clock,
 *   again after each fresh trip-details answer (which shows them as booked). When the booking is
 *   paid, cancelled or runs out, the seats go back; when it ends unpaid, the seat map is read again.
 * - The hold on the seat page running out (bookingHoldRanOut) ends the booking then and there,
 *   rather than up to a second later on the booking's own clock.
 */
import { effect, untracked } from '@preact/signals-react'
import * as booking from './booking.ts'
import * as seatChoice from './seat-choice.ts'

/** Links the seat page's two stores; returns the disposer. */
export function linkSeatsToBooking(): () => void {
  let before = booking.phase.peek()
  const stopHold = effect(() => {
    const r = booking.booking.value
    const phase = booking.phase.value
    const shownTrip = seatChoice.tripDetails.value?.tripId
    untracked(() => {
      const endedUnpaid = before === 'booked' && phase === 'ended'
      before = phase
      if (!r) return
      if (shownTrip === r.tripId) {
        if (phase === 'booked')
          seatChoice.holdForBooking(
            r.seats.map((s) => s.name),
            r.expirationTime,
          )
        else if (seatChoice.heldForBooking.value) seatChoice.endBookingHold()
      }
      // the seats the booking held are free again: show the seat map as it is now
      const ref = seatChoice.tripRef.value
      if (endedUnpaid && ref && ref.tripId === r.tripId) void seatChoice.loadTrip(ref)
    })
  })
  const stopExpiry = effect(() => {
    if (seatChoice.bookingHoldRanOut.value) untracked(booking.tick)
  })
  return () => {
    stopHold()
    stopExpiry()
  }
}

/** The seat page's reset (docs/spec.md section 4): a booking's seats are given back by cancelling the booking. */
export async function resetSeats(): Promise<void> {
  if (seatChoice.heldForBooking.peek()) await booking.cancelBooking()
  else await seatChoice.resetSeats()
}
