/**
 * Paying for a booking (card through the configured gateway, or balance), the
 * payment result pages, balance top-ups, and the gateway's own callback routes.
 */
import type { FastifyInstance } from 'fastify'
import { expireBookings } from '../bookings/bookings.ts'
import type { Deps } from '../core.ts'
import { handle } from '../http/handle.ts'
import { createGateway, gatewayFor } from '../bookings/gateways/index.ts'
import { findPayment, openCardPayment, openTopUp, payFromBalance, paymentResult } from '../bookings/payments.ts'
import { mustLoadReservation } from '../bookings/reservation-view.ts'
import { withTicketCodes } from '../bookings/ticket-codes.ts'
import * as ticketChanges from './ticket-changes.ts'

/** Registers the payments routes and the configured gateway's routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  const gateway = createGateway(deps)
  gateway.register(app)
  ticketChanges.register(app, deps, gateway)

  handle(app, deps, 'payment', async (call) => {
    const { reservationId, payWith, outboundOnly } = call.body
    const req = { reservationId, passengerId: call.auth!.passengerId, now: deps.now(), payWith, outboundOnly }
    const { payment, reused, resultToken } = await openCardPayment(deps.db, gateway, req)
    const { redirectUrl } = await gateway.open(payment, { reused })
    return { paymentId: payment.id, redirectUrl, resultToken }
  })

  handle(app, deps, 'topUp', async (call) => {
    const { payment, resultToken } = await openTopUp(deps.db, gateway, {
      passengerId: call.auth!.passengerId,
      amount: call.body.amount,
      now: deps.now(),
    })
    const { redirectUrl } = await gateway.open(payment, { reused: false })
    return { paymentId: payment.id, redirectUrl, resultToken }
  })

  // The pages after the gateway. Both only read: the payment is brought up to date with what the gateway
  // itself says (refresh never declines), so a client call, whoever makes it, decides nothing. The result is
  // in full only for the tab holding the payment's result token or the passenger who opened it (paymentResult).
  for (const name of ['paymentSuccess', 'paymentFailure'] as const) {
    handle(app, deps, name, async ({ body, auth }) => {
      const p = await findPayment(deps.db, body.paymentId)
      await gatewayFor(deps, p).refresh(p)
      if (p.reservation_id != null) await expireBookings(deps.db, deps.now(), { reservationId: p.reservation_id })
      const result = await paymentResult(deps.db, p.id, { passengerId: auth?.passengerId ?? null, resultToken: body.resultToken ?? null })
      return result.reservation ? { ...result, reservation: withTicketCodes(deps, [result.reservation])[0]! } : result
    })
  }

  handle(app, deps, 'payFromBalance', async (call) => {
    const id = call.body.reservationId
    await payFromBalance(deps, { reservationId: id, passengerId: call.auth!.passengerId, now: deps.now(), outboundOnly: call.body.outboundOnly })
    return withTicketCodes(deps, [await mustLoadReservation(deps.db, id)])[0]!
  })
}
