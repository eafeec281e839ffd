/** The waiting room of a rush date: joining it and polling one's place (server/queue/). */
import type { FastifyInstance } from 'fastify'
import type { Deps } from '../core.ts'
import { handle } from '../http/handle.ts'
import { addressKey } from '../http/limits.ts'
import { createQueueMemory } from '../queue/memory.ts'
import { joinQueue, queueStatus } from '../queue/queue.ts'

/** Registers POST /queue: joins with `join: true` (`again`: at the back after an expired admission), else reads the place (a waiting one from memory). */
export function register(app: FastifyInstance, deps: Deps): void {
  // what this process remembers of each rush date between polls (config.queueStatusCacheMs)
  const memory = createQueueMemory(deps.db, () => deps.config.queueStatusCacheMs)
  handle(app, deps, 'queue', async ({ body, auth, req }) => {
    const { token, join, again, ...key } = body
    const caller = { token, passengerId: auth?.passengerId ?? null, address: addressKey(req.ip, deps.config.ipv6ClientPrefix), now: deps.now() }
    return join ? joinQueue(deps, key, caller, again ?? false, memory) : queueStatus(deps, key, caller, memory)
  })
}
