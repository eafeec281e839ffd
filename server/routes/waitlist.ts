/** The waitlist of a sold-out trip: the caller's place, joining and leaving. */
import type { FastifyInstance } from 'fastify'
import { AppError, type Deps } from '../core.ts'
import { languageOf } from '../delivery/ticket-messages.ts'
import { handle } from '../http/handle.ts'
import { MAX_ID } from '../../contract/schemas.ts'
import { joinWaitlist, leaveWaitlist, waitlistEntryOf } from '../waitlist/waitlist.ts'

/** Registers GET /waitlist/:tripId, POST /waitlist and POST /waitlist/leave. */
export function register(app: FastifyInstance, deps: Deps): void {
  handle(app, deps, 'waitlist', async ({ params, auth }) => {
    const tripId = Number(params.tripId)
    if (!/^\d+$/.test(params.tripId ?? '') || tripId < 1 || tripId > MAX_ID) {
      throw new AppError('VALIDATION_FAILED', { fields: [{ path: 'tripId', message: 'Invalid path parameter' }] })
    }
    return waitlistEntryOf(deps.db, tripId, auth!.passengerId, deps.now())
  })

  handle(app, deps, 'joinWaitlist', async ({ body, auth, req }) =>
    joinWaitlist(deps, {
      tripId: body.tripId,
      passengerId: auth!.passengerId,
      seats: body.seats,
      language: languageOf(req.headers['accept-language']),
      now: deps.now(),
    }),
  )

  handle(app, deps, 'leaveWaitlist', async ({ body, auth }) =>
    leaveWaitlist(deps, { tripId: body.tripId, passengerId: auth!.passengerId, now: deps.now() }),
  )
}
