/**
 * Paying for a booking (card through the configured gateway, or balance), the
 * payment result pages, balance top-ups, and the gateway's own callback routes.
 */
import type { FastifyInstance } from 'fastify'
import { expireBookings } from '../bookings/bookings.ts'
import { handle, type Deps } from '../http/handle.ts'
import { createGateway, gatewayFor } from '../bookings/gateways/index.ts'
import { findPayment, openCardPayment, openTopUp, payFromBalance, paymentResult } from '../bookings/payments.ts'
import { mustLoadReservation } from '../bookings/reservation-view.ts'

/** Registers the payments routes and the configured gateway's routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  const gateway = createGateway(deps)
  gateway.register(app)

  handle(app, deps, 'payment', async (call) => {
    const req = { reservationId: call.body.reservationId, passengerId: call.auth!.passengerId, now: deps.now() }
    const { payment, reused } = await openCardPayment(deps.db, gateway, req)
    const { redirectUrl } = await gateway.open(payment, { reused })
    return { paymentId: payment.id, redirectUrl }
  })

  handle(app, deps, 'topUp', async (call) => {
    const payment = await openTopUp(deps.db, gateway, { passengerId: call.auth!.passengerId, amount: call.body.amount, now: deps.now() })
    const { redirectUrl } = await gateway.open(payment, { reused: false })
    return { paymentId: payment.id, redirectUrl }
  })

  handle(app, deps, 'paymentSuccess', async ({ body }) => {
    const p = await findPayment(deps.db, body.paymentId)
    await gatewayFor(deps, p).refresh(p)
    if (p.reservation_id != null) await expireBookings(deps.db, deps.now(), { reservationId: p.reservation_id })
    return paymentResult(deps.db, p.id)
  })

  handle(app, deps, 'paymentFailure', async ({ body }) => {
    const p = await findPayment(deps.db, body.paymentId)
    await gatewayFor(deps, p).abandon(p)
    if (p.reservation_id != null) await expireBookings(deps.db, deps.now(), { reservationId: p.reservation_id })
    return paymentResult(deps.db, p.id)
  })

  handle(app, deps, 'payFromBalance', async (call) => {
    const id = call.body.reservationId
    await payFromBalance(deps, { reservationId: id, passengerId: call.auth!.passengerId, now: deps.now() })
    return mustLoadReservation(deps.db, id)
  })
}
