/**
 * Moving a sold ticket or a live booking to another trip of its route: the quote, and the change itself (at once,
 * or through the gateway's page for a difference paid by wallet or card).
 */
import type { FastifyInstance } from 'fastify'
import { ownReservation } from '../bookings/bookings.ts'
import type { PaymentGateway } from '../bookings/gateways/gateway.ts'
import { openChangePayment } from '../bookings/payments.ts'
import { mustLoadReservation } from '../bookings/reservation-view.ts'
import { abandonChange, changeQuoteView, changeTicket, quoteChange } from '../bookings/ticket-change.ts'
import { withTicketCodes } from '../bookings/ticket-codes.ts'
import { offerFreedSeatsSafely } from '../waitlist/waitlist.ts'
import type { Deps } from '../core.ts'
import { handle } from '../http/handle.ts'
import { holdersOf } from '../trips/seat-locks.ts'

/** Registers the ticket change routes; `gateway` takes a difference paid by wallet or card. */
export function register(app: FastifyInstance, deps: Deps, gateway: PaymentGateway): void {
  handle(app, deps, 'changeQuote', async ({ body, auth }) => {
    const r = await ownReservation(deps.db, body.reservationId, auth!.passengerId)
    const quote = await quoteChange(deps.db, deps, r, { tripId: body.tripId, seatNames: body.seatNames, now: deps.now() })
    return changeQuoteView(deps.db, deps, r, quote)
  })

  handle(app, deps, 'changeTicket', async (call) => {
    const { body } = call
    const now = deps.now()
    const passengerId = call.auth!.passengerId
    const payWith = body.payWith ?? 'balance'
    const out = await changeTicket(deps, { ...body, passengerId, payWith, holders: holdersOf(call), now })
    if (!out.done) {
      const method = payWith === 'balance' ? 'card' : payWith
      try {
        const { payment, resultToken } = await openChangePayment(deps.db, gateway, {
          reservationId: body.reservationId,
          changeId: out.changeId,
          passengerId,
          amount: out.amount,
          now,
          payWith: method,
        })
        const { redirectUrl } = await gateway.open(payment, { reused: false })
        return { reservation: null, payment: { paymentId: payment.id, redirectUrl, resultToken } }
      } catch (err) {
        // no payment page to go to (below the gateway's minimum, the gateway down): the seats go back now
        await abandonChange(deps.db, out.changeId)
        throw err
      }
    }
    await offerFreedSeatsSafely(deps, body.fromTripId)
    return { reservation: withTicketCodes(deps, [await mustLoadReservation(deps.db, body.reservationId)])[0]!, payment: null }
  })
}
