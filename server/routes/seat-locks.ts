/** Seat locks: holding seats on a trip while the passenger decides, and releasing them. */
import type { FastifyInstance } from 'fastify'
import { AppError, type Deps } from '../core.ts'
import { handle } from '../http/handle.ts'
import { addressKey } from '../http/limits.ts'
import { MAX_HOLD_EXTENSIONS } from '../../contract/values.ts'
import { extendHold, holdersOf, seatLocker, unlockSeats } from '../trips/seat-locks.ts'
import { admissionToken, assertAdmitted } from '../queue/queue.ts'
import { parseInstant } from '../lib/time.ts'
import { lockOutboundForHold } from '../bookings/bookings.ts'
import type { Queryable } from '../db/db.ts'
import { assertRoute, findTrip, findTripByCoach } from '../trips/trips.ts'

/** Registers POST /reservation/seatLock and POST /reservation/extendSeatLock. */
export function register(app: FastifyInstance, deps: Deps): void {
  const lockSeats = seatLocker(deps.db, () => ({ perTrip: deps.config.holdLimitPerAddress, total: deps.config.holdLimitPerAddressTotal }))
  handle(app, deps, 'seatLock', async (call) => {
    const { body } = call
    const now = deps.now()
    const holders = holdersOf(call)
    if (body.locked) {
      // a rush date's seats need an admission from its waiting room (server/queue/)
      await assertAdmitted(deps.db, body, admissionToken(call.req), call.auth?.passengerId ?? null, now)
      // trip, route, sale and layout checks happen inside the one locking call
      try {
        const held = await lockSeats({
          trip: body,
          seatNames: body.seatNames,
          holders,
          passengerId: call.auth?.passengerId ?? null,
          now,
          holdMinutes: deps.config.holdMinutes,
          address: addressKey(call.req.ip, deps.config.ipv6ClientPrefix),
        })
        deps.metrics.seatLock(held ? 'won' : 'lost')
        return held
      } catch (err) {
        const code = err instanceof AppError ? err.code : null
        deps.metrics.seatLock(code === 'HOLD_LIMIT_EXCEEDED' ? 'refused_limit' : code === 'MAX_SEAT_WARNING' ? 'refused_max' : 'error')
        throw err
      }
    }
    const trip = body.tripId ? await findTrip(deps.db, body.tripId) : await findTripByCoach(deps.db, body.tripDate, body.coachCode)
    if (!trip) throw new AppError('TRIP_NOT_FOUND')
    assertRoute(trip, body.originCode, body.destinationCode)
    deps.metrics.seatLock('released')
    return unlockSeats(deps.db, { tripId: trip.id, seatNames: body.seatNames, holders, now })
  })

  // "extend booking time" for the hold before booking (the booking's own is /reservation/extendBookingTime)
  handle(app, deps, 'extendSeatLock', async (call) => {
    const { body } = call
    const at = parseInstant(body.expirationTime)
    if (!at) throw new AppError('INVALID_EXPIRATION_TIME')
    const now = deps.now()
    const outboundId = body.outboundReservationId
    // the outbound must be the signed-in caller's own booking: the id alone proves nothing
    const alsoKeep = outboundId ? (tx: Queryable) => lockOutboundForHold(tx, outboundId, call.auth?.passengerId ?? null, now) : undefined
    return extendHold(
      deps.db,
      { trip: body, seatNames: body.seatNames, holders: holdersOf(call), at, now, alsoKeep },
      { holdMinutes: deps.config.holdMinutes, maxHoldMinutes: deps.config.maxHoldMinutes, maxExtensions: MAX_HOLD_EXTENSIONS },
    )
  })
}
