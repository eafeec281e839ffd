/**
 * What the delivery worker sends through: the message it hands over, the transport
 * interface each channel implements, the refusal that says whether to retry, and
 * the development console transport (which production never has).
 */
import type { ServerConfig } from '../config.ts'

/** One claimed outbox message, ready to send. */
export interface OutgoingMessage {
  id: number
  channel: 'SMS' | 'EMAIL'
  to: string
  subject: string | null
  /** The SMS text, or the e-mail's plain-text part. */
  text: string
  html: string | null
  attachments: { filename: string; contentType: string; content: Buffer }[]
  /** This database's installation id (installation.ts): with `id`, unique across databases on one provider account. */
  installationId: string
  /** Stable across retries of this message, so a provider can drop a repeat after a crash mid-send. */
  idempotencyKey: string
}

/** Which provider an SMS is with (`outbox_messages.route`); it only ever moves from PRIMARY to FALLBACK. */
export const Route = {
  /** SMS_PROVIDER. */
  PRIMARY: 0,
  /** SMS_FALLBACK_PROVIDER. */
  FALLBACK: 1,
} as const

/** A route's number as stored. */
export type RouteNumber = (typeof Route)[keyof typeof Route]

/** What a provider answered for an accepted message. */
export interface SendResult {
  providerMessageId: string | null
}

/** A channel's way out. Throwing means not accepted: a `DeliveryError` says whether to retry. */
export interface Transport {
  readonly kind: 'smtp' | 'sms-http' | 'console'
  /** The provider, as recorded in `outbox_messages.provider` and the log (sslwireless, bulksmsbd, http-json, smtp, console). */
  readonly name?: string
  send(msg: OutgoingMessage, signal: AbortSignal): Promise<SendResult>
  /** False while the channel is known not to work (e.g. the SMTP server refuses our login); /readyz reports it. */
  healthy?(): boolean
  /** Tries the connection and login once (null: it works, else the reason); the server runs it at start. */
  check?(): Promise<string | null>
  /** Releases connections (on shutdown). */
  close?(): void
}

/** The transport of each channel. */
export interface Transports {
  EMAIL: Transport
  SMS: Transport
  /** Where an SMS goes when `SMS` refuses it, cannot take it after its retries (a code: after one), or is routed around (SMS_FALLBACK_PROVIDER). */
  smsFallback?: Transport | null
}

/**
 * Why a send failed, as counted in /metrics: the provider could not take it now (temporary), refused
 * this message (refused), cannot send for us with these settings (configuration), or already has a
 * message with this id (duplicate: nothing was sent, someone should look into it).
 */
export type FailureReason = 'temporary' | 'refused' | 'configuration' | 'duplicate'

/** A refused send. `permanent`: retrying cannot help (FAILED at once); otherwise retried with backoff. */
export class DeliveryError extends Error {
  readonly permanent: boolean
  /** The provider's Retry-After, if it sent one. */
  readonly retryAfterMs?: number
  /** The operator's settings or account are wrong (credentials, sender id, IP not allowed): logged as a configuration error. */
  readonly config: boolean
  /** The provider answered that it already has a message with this id: never a send. */
  readonly duplicate: boolean
  constructor(message: string, permanent: boolean, retryAfterMs?: number, opts: { config?: boolean; duplicate?: boolean } = {}) {
    super(message)
    this.permanent = permanent || opts.duplicate === true
    this.retryAfterMs = retryAfterMs
    this.config = opts.config ?? false
    this.duplicate = opts.duplicate ?? false
  }

  /** The kind of failure. */
  get reason(): FailureReason {
    if (this.duplicate) return 'duplicate'
    if (this.config) return 'configuration'
    return this.permanent ? 'refused' : 'temporary'
  }
}

/**
 * The development transport: prints each message (one-time codes included) and
 * accepts it. Refused in production, where nothing may print a code or a PIN.
 */
export function consoleTransport(config: Pick<ServerConfig, 'production'>, log: (line: string) => void = (l) => console.log(l)): Transport {
  if (config.production) throw new Error('The console outbox does not exist in production: configure SMTP_URL and SMS_PROVIDER.')
  return {
    kind: 'console',
    name: 'console',
    async send(msg) {
      const files = msg.attachments.length > 0 ? ` [attached: ${msg.attachments.map((a) => a.filename).join(', ')}]` : ''
      log(`[outbox] ${msg.channel} to ${msg.to}${msg.subject ? ` (${msg.subject})` : ''}: ${msg.text}${files}`)
      return { providerMessageId: null }
    },
  }
}
