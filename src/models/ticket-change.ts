/**
 * Moving a sold ticket to another trip of its route (issue 31): the trips of a date, the one
 * chosen (its live seat map is the seat page model this one receives), the quote once as many
 * seats are chosen as the ticket has, how a difference is paid, and the change. The page makes it
 * with the seat page model when the passenger asks to change the ticket, and disposes both on leave.
 */
import { batch, computed, createModel, effect, type ModelConstructor, type ReadonlySignal, signal } from '@preact/signals-core'
import type { ChangeQuote, ChangeTicketResult, Reservation, TripSummary } from '../../contract/schemas.ts'
import { type RequestError, requestError } from '../api/api-error.ts'
import { call } from '../api/index.ts'
import type { SeatPage } from './seat-page.ts'

/** How a difference is paid: from the balance, or on the gateway's page. */
export type ChangePay = 'balance' | 'bkash' | 'nagad' | 'rocket' | 'card'

/** The request running now. */
export type ChangeBusy = 'trips' | 'quote' | 'confirm'

/** The change's state and actions. */
export interface TicketChange {
  /** The other trips of the ticket's route on the date searched (null: not searched yet). */
  trips: ReadonlySignal<TripSummary[] | null>
  /** The trip whose seat map is shown. */
  trip: ReadonlySignal<TripSummary | null>
  /** Seats to choose on it: as many as the ticket has. */
  seatsNeeded: ReadonlySignal<number>
  /** The quote for the seats chosen, once there are as many as the ticket has. */
  quote: ReadonlySignal<ChangeQuote | null>
  busy: ReadonlySignal<ChangeBusy | null>
  /** The last request's failure, or null. */
  error: ReadonlySignal<RequestError | null>
  /** Lists the other trips of the ticket's route on `date` (yyyy-LL-dd). */
  searchTrips(date: string): Promise<void>
  /** Shows trip `t`'s live seat map; seats held on another trip are given back. */
  chooseTrip(t: TripSummary): Promise<void>
  /**
   * Confirms at the quoted amounts, a difference paid by `pay`: answers the ticket as changed, or the gateway's page to pay the
   * difference on (the seats are kept for the change), or null on failure (see `error`).
   */
  confirm(pay: ChangePay): Promise<ChangeTicketResult | null>
}

/** Creates the change of `ticket` over the visit's seat page model `seats`. */
export const TicketChangeModel: ModelConstructor<TicketChange, [Reservation, SeatPage]> = createModel(
  (ticket: Reservation, seats: SeatPage): TicketChange => {
    const trips = signal<TripSummary[] | null>(null)
    const trip = signal<TripSummary | null>(null)
    const quote = signal<ChangeQuote | null>(null)
    const busy = signal<ChangeBusy | null>(null)
    const error = signal<RequestError | null>(null)
    const seatsNeeded = computed(() => ticket.seats.length)
    const chosen = computed(() => seats.countedSeats.value.map((s) => s.name).sort())
    let asked = 0

    async function request<T>(kind: ChangeBusy, fn: () => Promise<T>): Promise<T | null> {
      batch(() => {
        busy.value = kind
        error.value = null
      })
      try {
        return await fn()
      } catch (err) {
        error.value = requestError(err)
        return null
      } finally {
        busy.value = null
      }
    }

    // the quote follows the seats chosen: asked again whenever they make the ticket's number
    effect(() => {
      const names = chosen.value
      const t = trip.value
      const seq = ++asked
      quote.value = null
      if (!t || names.length !== seatsNeeded.value) return
      void request('quote', () => call('changeQuote', { body: { reservationId: ticket.id, tripId: t.tripId, seatNames: names } })).then((q) => {
        if (q && seq === asked) quote.value = q
      })
    })

    return {
      trips,
      trip,
      seatsNeeded,
      quote,
      busy,
      error,
      async searchTrips(date) {
        const body = { originCode: ticket.origin.code, destinationCode: ticket.destination.code, tripDate: date }
        const found = await request('trips', () => call('tripSearch', { body }))
        if (found) trips.value = found.filter((t) => t.tripId !== ticket.tripId)
      },
      async chooseTrip(t) {
        trip.value = t
        await seats.loadTrip({ tripId: t.tripId, originCode: t.originCode, destinationCode: t.destinationCode, tripDate: t.tripDate })
      },
      async confirm(pay) {
        const q = quote.value
        if (!q || busy.value) return null
        const body = {
          reservationId: ticket.id,
          tripId: q.tripId,
          seatNames: q.seats.map((s) => s.name),
          fromTripId: q.fromTripId,
          toPay: q.toPay,
          refund: q.refund,
          payWith: q.toPay > 0 ? pay : undefined,
        }
        const out = await request('confirm', () => call('changeTicket', { body }))
        // the seats are the ticket's now, or the change's while the passenger pays: not given back on leave
        if (out) seats.keepSeatsOnLeave()
        return out
      },
    }
  },
)
