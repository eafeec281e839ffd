/**
 * Where SMS and e-mail go. Every message is stored PENDING in `outbox_messages`, in
 * the transaction of whatever causes it, and the delivery worker
 * (server/delivery/worker.ts) sends it at least once. In development
 * `GET /dev/outbox` lists the rows with their one-time codes, so people and
 * end-to-end tests can read them; production never stores a code in plain text.
 */
import type { FastifyInstance } from 'fastify'
import { isStorableText, type OutboxMessage } from '../../contract/schemas.ts'
import type { Queryable } from '../db/db.ts'
import { AppError, type Deps, type Outbox, type OutboxInput } from '../core.ts'
import { normaliseMobile } from '../lib/mobile.ts'
import { toDhakaIso } from '../lib/time.ts'

/** What a redacted one-time code reads as in a stored body. */
export const REDACTED_CODE = '••••••'

/**
 * The outbox: stores each message PENDING (in the caller's transaction when given)
 * and tells subscribers. In production the `code` column stays NULL; the body keeps
 * the code only until the message is sent (or fails for good).
 */
export function createOutbox(db: Queryable, now: () => Date, opts: { production: boolean }): Outbox {
  const listeners = new Set<() => void>()
  return {
    async send(msg: OutboxInput, tx?: Queryable) {
      const at = now()
      const redacted = msg.code ? msg.body.split(msg.code).join(REDACTED_CODE) : null
      const attachments = (msg.attachments ?? []).map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: (typeof a.content === 'string' ? Buffer.from(a.content, 'utf8') : a.content).toString('base64'),
      }))
      await (tx ?? db).query(
        `INSERT INTO outbox_messages (channel, "to", subject, body, code, created_at, status, next_attempt_at, html, attachments, redacted_body, urgent)
         VALUES ($1, $2, $3, $4, $5, $6, 'PENDING', $6, $7, $8::jsonb, $9, $10)`,
        [
          msg.channel,
          msg.to,
          msg.subject ?? null,
          msg.body,
          opts.production ? null : (msg.code ?? null),
          at,
          msg.html ?? null,
          JSON.stringify(attachments),
          redacted,
          // A one-time code expires in minutes: its SMS fails over to the second provider at once.
          !!msg.code,
        ],
      )
      for (const fn of listeners) fn()
    },
    subscribe(fn) {
      listeners.add(fn)
      return () => void listeners.delete(fn)
    },
  }
}

interface OutboxRow {
  id: number
  channel: 'SMS' | 'EMAIL'
  to: string
  subject: string | null
  body: string
  code: string | null
  created_at: Date
  status: 'PENDING' | 'SENDING' | 'SENT' | 'FAILED'
  attempts: number
  next_attempt_at: Date | null
  locked_until: Date | null
  sent_at: Date | null
  provider_message_id: string | null
  last_error: string | null
  attachment_names: string[] | null
}

/** A /dev/outbox row: the contract's message plus its delivery state. */
export interface DevOutboxMessage extends OutboxMessage {
  status: OutboxRow['status']
  attempts: number
  nextAttemptAt: string | null
  lockedUntil: string | null
  sentAt: string | null
  providerMessageId: string | null
  lastError: string | null
  attachments: string[]
}

const iso = (d: Date | null) => (d ? toDhakaIso(d) : null)

/** Registers `GET /dev/outbox[?to=]` (newest first, whatever the delivery status) unless in production. */
export function registerDevOutbox(app: FastifyInstance, deps: Deps): void {
  if (deps.config.production) return
  app.get('/dev/outbox', async (req) => {
    const q = (req.query ?? {}) as Record<string, unknown>
    const to = typeof q.to === 'string' && q.to.length > 0 && q.to.length <= 254 ? q.to.trim() : null
    if (to !== null && !isStorableText(to))
      throw new AppError('VALIDATION_FAILED', { fields: [{ path: 'to', message: 'Contains a character that is not allowed' }] })
    const wanted = to ? [...new Set([to, normaliseMobile(to) ?? to])] : null
    const rows = await deps.db.query<OutboxRow>(
      `SELECT id, channel, "to", subject, body, code, created_at, status, attempts, next_attempt_at, locked_until, sent_at,
              provider_message_id, last_error, ARRAY(SELECT a->>'filename' FROM jsonb_array_elements(attachments) a) AS attachment_names
         FROM outbox_messages
        WHERE ($1::text[] IS NULL OR "to" = ANY($1::text[])) ORDER BY id DESC LIMIT 200`,
      [wanted],
    )
    const data: DevOutboxMessage[] = rows.map((r) => ({
      id: r.id,
      channel: r.channel,
      to: r.to,
      subject: r.subject,
      body: r.body,
      code: r.code,
      createdAt: toDhakaIso(r.created_at),
      status: r.status,
      attempts: r.attempts,
      nextAttemptAt: iso(r.next_attempt_at),
      lockedUntil: iso(r.locked_until),
      sentAt: iso(r.sent_at),
      providerMessageId: r.provider_message_id,
      lastError: r.last_error,
      attachments: r.attachment_names ?? [],
    }))
    return { data }
  })
}
