/** Builds the `Deps` every module gets, from an open database and settings (env by default). */
import type { Db } from './db/db.ts'
import type { Deps, Outbox } from './core.ts'
import { readConfig, type ServerConfig } from './config.ts'
import { createMetrics } from './http/metrics.ts'
import { createOutbox } from './delivery/outbox.ts'
import { sessionAuthenticator } from './account/sessions.ts'

export interface DepsOptions {
  now?: () => Date
  outbox?: Outbox
  publicUrl?: string
  production?: boolean
  passwordMaxAgeDays?: number
  /** Trip-search cache time; default SEARCH_CACHE_MS or 2000, and 0 with a test clock. */
  searchCacheMs?: number
  /** Settings replacing what the environment says (tests). */
  config?: Partial<ServerConfig>
}

/** Wires the database, clock, outbox, authenticator and configuration. */
export function createDeps(db: Db, opts: DepsOptions = {}): Deps {
  const now = opts.now ?? (() => new Date())
  const config: ServerConfig = { ...readConfig().config, ...opts.config }
  if (opts.publicUrl !== undefined) config.publicUrl = config.appUrl = opts.publicUrl.replace(/\/+$/, '')
  if (opts.production !== undefined) config.production = opts.production
  if (opts.passwordMaxAgeDays !== undefined) config.passwordMaxAgeDays = opts.passwordMaxAgeDays
  if (opts.searchCacheMs !== undefined) config.searchCacheMs = opts.searchCacheMs
  else if (opts.now && process.env.SEARCH_CACHE_MS === undefined) config.searchCacheMs = 0
  // a test clock that tests move: the waiting room reads the database at every poll, unless a test asks for memory
  if (opts.now && opts.config?.queueStatusCacheMs === undefined && process.env.QUEUE_STATUS_CACHE_MS === undefined) config.queueStatusCacheMs = 0
  // ... and looks up each poll's session (a session a test ends, or lets expire by the clock, is gone at once)
  if (opts.now && opts.config?.queueSessionCacheMs === undefined && process.env.QUEUE_SESSION_CACHE_MS === undefined) config.queueSessionCacheMs = 0
  return {
    db,
    now,
    outbox: opts.outbox ?? createOutbox(db, now, { production: config.production }),
    authenticate: sessionAuthenticator(db, now),
    config,
    metrics: createMetrics(db, now),
  }
}
