/** Coupons on a booking: applying a coupon code and removing it. */
import type { FastifyInstance } from 'fastify'
import { applyCoupon, removeCoupon } from '../bookings/bookings.ts'
import type { Deps } from '../core.ts'
import { handle, pathId } from '../http/handle.ts'
import { mustLoadReservation } from '../bookings/reservation-view.ts'

/** Registers the coupon routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  handle(app, deps, 'applyCoupon', async ({ params, auth }) => {
    const id = pathId(params.reservationId, 'reservationId')
    const code = params.couponCode.trim().toUpperCase()
    await applyCoupon(deps.db, { id, passengerId: auth!.passengerId, code, now: deps.now() })
    return mustLoadReservation(deps.db, id)
  })

  handle(app, deps, 'removeCoupon', async ({ params, auth }) => {
    const id = pathId(params.reservationId, 'reservationId')
    await removeCoupon(deps.db, { id, passengerId: auth!.passengerId, now: deps.now() })
    return mustLoadReservation(deps.db, id)
  })
}
