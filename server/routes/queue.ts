/** The waiting room of a rush date: joining it and polling one's place (server/queue/). */
import type { FastifyInstance } from 'fastify'
import type { Deps } from '../core.ts'
import { handle } from '../http/handle.ts'
import { addressKey } from '../http/limits.ts'
import { joinQueue, queueStatus } from '../queue/queue.ts'

/** Registers POST /queue/join and POST /queue/status. */
export function register(app: FastifyInstance, deps: Deps): void {
  handle(app, deps, 'queueJoin', async ({ body, auth, req }) => {
    const { token, again, ...key } = body
    return joinQueue(
      deps,
      key,
      { token, passengerId: auth?.passengerId ?? null, address: addressKey(req.ip, deps.config.ipv6ClientPrefix), now: deps.now() },
      again ?? false,
    )
  })
  handle(app, deps, 'queueStatus', async ({ body, auth, req }) => {
    const { token, again: _, ...key } = body
    return queueStatus(deps, key, {
      token,
      passengerId: auth?.passengerId ?? null,
      address: addressKey(req.ip, deps.config.ipv6ClientPrefix),
      now: deps.now(),
    })
  })
}
