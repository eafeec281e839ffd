/** Bookings: booking the caller's locked seats, extending the booking's time, cancelling it. */
import type { FastifyInstance } from 'fastify'
import { offerFreedSeatsSafely } from '../waitlist/waitlist.ts'
import { cancelBooking, createBooking, extendBooking } from '../bookings/bookings.ts'
import { languageOf } from '../delivery/ticket-messages.ts'
import { AppError, type Deps } from '../core.ts'
import { handle } from '../http/handle.ts'
import { mustLoadReservation } from '../bookings/reservation-view.ts'
import { holdersOf } from '../trips/seat-locks.ts'
import { addressKey } from '../http/limits.ts'
import { parseInstant } from '../lib/time.ts'

/** Registers the booking routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  handle(app, deps, 'booking', async (call) => {
    const id = await createBooking(deps, {
      ...call.body,
      passengerId: call.auth!.passengerId,
      holders: holdersOf(call),
      address: addressKey(call.req.ip, deps.config.ipv6ClientPrefix),
      language: languageOf(call.req.headers['accept-language']),
      now: deps.now(),
    })
    return mustLoadReservation(deps.db, id)
  })

  handle(app, deps, 'extendBooking', async ({ body, auth }) => {
    const at = parseInstant(body.expirationTime)
    if (!at) throw new AppError('INVALID_EXPIRATION_TIME')
    await extendBooking(deps.db, { id: body.reservationId, passengerId: auth!.passengerId, at, now: deps.now() })
    return mustLoadReservation(deps.db, body.reservationId)
  })

  handle(app, deps, 'cancelBooking', async ({ body, auth }) => {
    await cancelBooking(deps.db, { id: body.reservationId, passengerId: auth!.passengerId, now: deps.now() })
    const out = await mustLoadReservation(deps.db, body.reservationId)
    await offerFreedSeatsSafely(deps, out.tripId)
    return out
  })
}
