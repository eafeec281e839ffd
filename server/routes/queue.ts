/** The waiting room of a rush date: joining it and polling one's place (server/queue/). */
import type { FastifyInstance } from 'fastify'
import type { Deps } from '../core.ts'
import { handle } from '../http/handle.ts'
import { addressKey } from '../http/limits.ts'
import { memoized } from '../lib/memo.ts'
import { sha256 } from '../lib/tokens.ts'
import { createQueueMemory } from '../queue/memory.ts'
import { joinQueue, queueStatus } from '../queue/queue.ts'

/** Registers POST /queue: joins with `join: true` (`again`: at the back after an expired admission), else reads the place (a waiting one from memory). */
export function register(app: FastifyInstance, deps: Deps): void {
  // what this process remembers of each rush date between polls (config.queueStatusCacheMs)
  const memory = createQueueMemory(deps.db, () => deps.config.queueStatusCacheMs)
  // A poll's session as this process last found it (config.queueSessionCacheMs, longer than a poll's interval):
  // a poll memory answers then reads nothing. A poll only reads its own place; a join, and every other route
  // (seat locks check the admission), look the session up each time.
  const pollSession = memoized(deps.authenticate, { ttlMs: () => deps.config.queueSessionCacheMs, max: 100_000, key: sha256 })
  handle(
    app,
    deps,
    'queue',
    async ({ body, auth, req }) => {
      const { token, join, again, ...key } = body
      const caller = { token, passengerId: auth?.passengerId ?? null, address: addressKey(req.ip, deps.config.ipv6ClientPrefix), now: deps.now() }
      return join ? joinQueue(deps, key, caller, again ?? false, memory) : queueStatus(deps, key, caller, memory)
    },
    { authenticate: (token, body) => (body.join ? deps.authenticate(token) : pollSession(token)) },
  )
}
