/**
 * What every server domain shares: the catalogue error it throws (AppError) and what it is given to work with
 * (Deps: the database, the clock, the outbox, the settings, the metrics). Domains import these from here, not
 * from the HTTP layer.
 */
import { errorCatalogue, type ErrorCode } from '../contract/errors.ts'
import type { ServerConfig } from './config.ts'
import type { Db, Queryable } from './db/db.ts'
import type { Metrics } from './http/metrics.ts'

/** A catalogue error with its HTTP status; `fields` for VALIDATION_FAILED. */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly fields?: { path: string; message: string }[]
  /** Values for the client's message of this code (e.g. `{ minutes: 12 }`). */
  readonly values?: Record<string, string | number>
  /** Sent as `Retry-After` (seconds) with a 429. */
  readonly retryAfterSeconds?: number
  constructor(
    code: ErrorCode,
    opts: {
      reason?: string
      fields?: { path: string; message: string }[]
      status?: number
      values?: Record<string, string | number>
      retryAfterSeconds?: number
    } = {},
  ) {
    super(opts.reason ?? errorCatalogue[code].reason)
    this.code = code
    this.status = opts.status ?? errorCatalogue[code].status
    this.fields = opts.fields
    this.values = opts.values
    this.retryAfterSeconds = opts.retryAfterSeconds
  }
}

/** The signed-in passenger behind a bearer token. */
export interface Auth {
  passengerId: number
  tokenId: number
}

/** What every module gets: the database, the clock, the outbox and settings. */
export interface Deps {
  db: Db
  /** Current time; tests may move it. */
  now: () => Date
  outbox: Outbox
  /** Resolves a bearer token to its passenger, or null when missing, unknown or expired. */
  authenticate: (token: string) => Promise<Auth | null>
  /** Settings, read once from the environment (config.ts). */
  config: ServerConfig
  /** Prometheus metrics of this server. */
  metrics: Metrics
}

/**
 * Where SMS and e-mail go: each message is stored PENDING in `outbox_messages`
 * and the delivery worker (server/delivery/worker.ts) sends it.
 */
export interface Outbox {
  /**
   * Stores one message for delivery. Pass the open transaction as `tx` when calling
   * inside one: the message then commits or rolls back with it (on PGlite a query
   * outside the open transaction would wait forever).
   */
  send(msg: OutboxInput, tx?: Queryable): Promise<void>
  /** Calls `fn` after each stored message (the delivery worker wakes up); answers the unsubscribe. */
  subscribe(fn: () => void): () => void
}

/** One SMS or e-mail to send. `code` is the one-time code it carries, if any. */
export interface OutboxInput {
  channel: 'SMS' | 'EMAIL'
  to: string
  subject?: string | null
  body: string
  code?: string | null
  /** The e-mail's HTML part (every passenger-provided value escaped); `body` is its plain text. */
  html?: string | null
  /** Files attached to an e-mail. */
  attachments?: OutboxAttachment[]
}

/** A file attached to an e-mail. */
export interface OutboxAttachment {
  filename: string
  contentType: string
  content: string | Buffer
}
