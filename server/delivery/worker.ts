/**
 * The delivery worker: sends every outbox message at least once. Each pass claims a
 * batch in one statement (`FOR UPDATE SKIP LOCKED`, so several server processes on
 * one PostgreSQL never claim the same row), marks it SENDING with a lease and one
 * more attempt, sends outside any transaction, then records SENT with the provider's
 * id, or PENDING again after an exponential backoff, or FAILED when the refusal is
 * permanent or the attempts are used up. A process killed mid-send leaves its rows
 * SENDING; another process (or this one restarted) takes them over when the lease
 * runs out and sends them again with the same idempotency key. With a fallback SMS
 * provider, an SMS the first provider refuses for good, or that it has not taken
 * after DELIVERY_MAX_ATTEMPTS sends, is handed to the fallback (`route` 1, its own
 * attempts from 0) and never back, so each provider has it at most once. Every time
 * comes from `deps.now()`. Logs carry ids, channels, statuses and error texts, never
 * a body; a refusal that means wrong settings is logged as a configuration error.
 */
import type { Deps } from '../http/handle.ts'
import { addTime } from '../lib/time.ts'
import { DeliveryError, type OutgoingMessage, type Transports } from './transport.ts'

/** Tuning of the worker; the defaults come from the settings. */
export interface WorkerOptions {
  /** Messages claimed per pass (default 10). */
  batchSize?: number
  /** Wait between passes when there is nothing to do, ms (default 1000). */
  pollMs?: number
  /** How long a claimed message is reserved for this process, ms (default config.deliveryLeaseSeconds). */
  leaseMs?: number
  /** Sends of one message before it is FAILED (default config.deliveryMaxAttempts). */
  maxAttempts?: number
  /** Wait after the first failed send, doubled after each further one, ms (default 30 s). */
  backoffMs?: number
  /** Longest wait between two sends of one message, ms (default 30 min). */
  maxBackoffMs?: number
  /** A send still running after this long is abandoned and retried (default a third of the lease, at most 15 s). */
  sendTimeoutMs?: number
  /** Where problems are reported (default console.error). */
  log?: (line: string) => void
}

/** The running worker. */
export interface DeliveryWorker {
  /** Lets the sends in flight finish and be recorded, then stops claiming. */
  stop(): Promise<void>
  /** True until stop() is called. */
  running(): boolean
  /** Runs a pass soon (a message was just stored). */
  nudge(): void
}

interface ClaimedRow {
  id: number
  channel: 'SMS' | 'EMAIL'
  to: string
  subject: string | null
  body: string
  html: string | null
  attachments: { filename: string; contentType: string; content: string }[] | string
  attempts: number
  route: number
}

type Outcome = { provider: string | null } & (
  | { ok: true; providerMessageId: string | null }
  | { ok: false; error: string; permanent: boolean; retryAfterMs?: number; config: boolean }
)

/**
 * The send timeout that goes with a lease: a third of it, so every send of a batch
 * (sent together) ends well inside the lease; at most 15 s, so a shutdown waiting
 * for the sends in flight stays short.
 */
export function sendTimeoutFor(leaseMs: number): number {
  return Math.max(1000, Math.min(15_000, Math.floor(leaseMs / 3)))
}

/** Starts delivering `deps.db`'s outbox through `transports`; answers the handle. */
export function startDeliveryWorker(deps: Deps, transports: Transports, opts: WorkerOptions = {}): DeliveryWorker {
  const batchSize = opts.batchSize ?? 10
  const pollMs = opts.pollMs ?? 1000
  const leaseMs = opts.leaseMs ?? deps.config.deliveryLeaseSeconds * 1000
  const maxAttempts = opts.maxAttempts ?? deps.config.deliveryMaxAttempts
  const backoffMs = opts.backoffMs ?? 30_000
  const maxBackoffMs = opts.maxBackoffMs ?? 30 * 60_000
  const sendTimeoutMs = opts.sendTimeoutMs ?? sendTimeoutFor(leaseMs)
  const log = opts.log ?? ((line: string) => console.error(line))

  let stopping = false
  let again = false
  let wake: (() => void) | null = null
  let lastProblem = ''
  let lastProblemAt = 0

  const problem = (text: string) => {
    // A database that is down fails every pass: say so once a minute, not once a second.
    if (text === lastProblem && Date.now() - lastProblemAt < 60_000) return
    lastProblem = text
    lastProblemAt = Date.now()
    log(`[delivery] ${text}`)
  }

  const fallback = transports.smsFallback ?? null
  const stoppedMidSend =
    "CASE WHEN status = 'SENDING' THEN COALESCE(last_error || '; ', '') || 'no answer recorded for the last attempt (process stopped mid-send)' ELSE last_error END"
  const transportOf = (row: ClaimedRow) => (row.channel === 'SMS' && row.route === 1 && fallback ? fallback : transports[row.channel])

  const claim = async (): Promise<ClaimedRow[]> => {
    const now = deps.now()
    // An SMS whose first provider used up its attempts goes to the fallback provider.
    if (fallback) {
      await deps.db.query(
        `UPDATE outbox_messages SET status = 'PENDING', route = 1, attempts = 0, next_attempt_at = $1, locked_until = NULL, last_error = ${stoppedMidSend}
          WHERE id IN (SELECT id FROM outbox_messages
                        WHERE ((status = 'SENDING' AND locked_until <= $1) OR (status = 'PENDING' AND next_attempt_at <= $1)) AND attempts >= $2
                          AND channel = 'SMS' AND route = 0
                        ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED)`,
        [now, maxAttempts],
      )
    }
    // A message whose lease ran out after its last allowed attempt is not sent again (nor one
    // left waiting when DELIVERY_MAX_ATTEMPTS was lowered).
    await deps.db.query(
      `UPDATE outbox_messages SET status = 'FAILED', locked_until = NULL, body = COALESCE(redacted_body, body), redacted_body = NULL,
              last_error = ${stoppedMidSend}
        WHERE id IN (SELECT id FROM outbox_messages
                      WHERE ((status = 'SENDING' AND locked_until <= $1) OR (status = 'PENDING' AND next_attempt_at <= $1)) AND attempts >= $2
                      ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED)`,
      [now, maxAttempts],
    )
    return deps.db.query<ClaimedRow>(
      `UPDATE outbox_messages o SET status = 'SENDING', attempts = o.attempts + 1, locked_until = $2
        WHERE o.id IN (SELECT id FROM outbox_messages
                        WHERE ((status = 'PENDING' AND next_attempt_at <= $1) OR (status = 'SENDING' AND locked_until <= $1))
                          AND attempts < $4
                        ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING o.id, o.channel, o."to", o.subject, o.body, o.html, o.attachments, o.attempts, o.route`,
      [now, addTime(now, { milliseconds: leaseMs }), batchSize, maxAttempts],
    )
  }

  const send = async (row: ClaimedRow): Promise<Outcome> => {
    const files = typeof row.attachments === 'string' ? (JSON.parse(row.attachments) as Exclude<ClaimedRow['attachments'], string>) : row.attachments
    const msg: OutgoingMessage = {
      id: row.id,
      channel: row.channel,
      to: row.to,
      subject: row.subject,
      text: row.body,
      html: row.html,
      attachments: (files ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content, 'base64') })),
      idempotencyKey: `outbox-${row.id}`,
    }
    const abort = new AbortController()
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort()
        reject(new DeliveryError(`no answer within ${Math.round(sendTimeoutMs / 1000)} s`, false))
      }, sendTimeoutMs)
    })
    const transport = transportOf(row)
    const provider = transport.name ?? null
    try {
      const r = await Promise.race([transport.send(msg, abort.signal), timeout])
      return { ok: true, provider, providerMessageId: r.providerMessageId }
    } catch (err) {
      const e = err instanceof DeliveryError ? err : new DeliveryError((err as Error)?.message ?? String(err), false)
      return { ok: false, provider, error: e.message.slice(0, 500), permanent: e.permanent, retryAfterMs: e.retryAfterMs, config: e.config }
    } finally {
      clearTimeout(timer)
    }
  }

  const record = async (row: ClaimedRow, out: Outcome): Promise<void> => {
    const now = deps.now()
    // `attempts` fences the update: a process whose lease ran out and was taken over records nothing.
    const fence = "WHERE id = $1 AND status = 'SENDING' AND attempts = $2"
    if (out.ok) {
      await deps.db.query(
        `UPDATE outbox_messages SET status = 'SENT', sent_at = $3, provider_message_id = $4, locked_until = NULL, last_error = NULL,
                provider = $5, body = COALESCE(redacted_body, body), redacted_body = NULL ${fence}`,
        [row.id, row.attempts, now, out.providerMessageId, out.provider],
      )
      return
    }
    const config = out.config ? 'configuration error: ' : ''
    if ((out.permanent || row.attempts >= maxAttempts) && row.channel === 'SMS' && row.route === 0 && fallback) {
      // The first provider refused it or could not take it: the fallback provider gets it, once.
      await deps.db.query(
        `UPDATE outbox_messages SET status = 'PENDING', route = 1, attempts = 0, next_attempt_at = $3, last_error = $4, provider = $5,
                locked_until = NULL ${fence}`,
        [row.id, row.attempts, now, `${out.provider ?? 'SMS'}: ${out.error}`.slice(0, 500), out.provider],
      )
      log(
        `[delivery] ${config}message ${row.id} (SMS) goes to ${fallback.name ?? 'the fallback provider'} after ${row.attempts} attempt(s) with ${out.provider ?? 'the first provider'}: ${out.error}`,
      )
      worker.nudge()
      return
    }
    if (out.permanent || row.attempts >= maxAttempts) {
      // The first provider's reason stays beside the fallback's when the fallback refuses at once.
      const earlier = row.route === 1 && row.attempts === 1 ? "COALESCE(last_error || '; ', '') || " : ''
      await deps.db.query(
        `UPDATE outbox_messages SET status = 'FAILED', last_error = left(${earlier}$3, 1000), provider = $4, locked_until = NULL,
                body = COALESCE(redacted_body, body), redacted_body = NULL ${fence}`,
        [row.id, row.attempts, row.route === 1 ? `${out.provider ?? 'SMS'}: ${out.error}` : out.error, out.provider],
      )
      log(`[delivery] ${config}message ${row.id} (${row.channel}) FAILED after ${row.attempts} attempt(s): ${out.error}`)
      return
    }
    const wait = Math.max(Math.min(maxBackoffMs, backoffMs * 2 ** (row.attempts - 1)), Math.min(out.retryAfterMs ?? 0, maxBackoffMs))
    await deps.db.query(
      `UPDATE outbox_messages SET status = 'PENDING', next_attempt_at = $3, last_error = $4, provider = $5, locked_until = NULL ${fence}`,
      [row.id, row.attempts, addTime(now, { milliseconds: wait }), out.error, out.provider],
    )
    log(`[delivery] message ${row.id} (${row.channel}) attempt ${row.attempts} not accepted, retry in ${Math.round(wait / 1000)} s: ${out.error}`)
  }

  const pass = async (): Promise<number> => {
    const rows = await claim()
    await Promise.all(
      rows.map(async (row) => {
        const out = await send(row)
        try {
          await record(row, out)
        } catch (err) {
          // The row stays SENDING: it is sent again when its lease runs out (at least once).
          problem(`message ${row.id} (${row.channel}): could not record ${out.ok ? 'SENT' : 'the failure'}: ${(err as Error).message}`)
        }
      }),
    )
    return rows.length
  }

  const loop = (async () => {
    while (!stopping) {
      let claimed = 0
      try {
        claimed = await pass()
      } catch (err) {
        problem(`claiming messages failed: ${(err as Error).message}`)
      }
      if (stopping) break
      if (claimed >= batchSize || again) {
        again = false
        continue
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollMs)
        timer.unref()
        function done() {
          clearTimeout(timer)
          wake = null
          resolve()
        }
        wake = done
      })
    }
  })()

  let nudgeTimer: NodeJS.Timeout | null = null
  const unsubscribe = deps.outbox.subscribe(() => worker.nudge())

  const worker: DeliveryWorker = {
    async stop() {
      if (stopping) return loop
      stopping = true
      unsubscribe()
      if (nudgeTimer) clearTimeout(nudgeTimer)
      wake?.()
      await loop
      for (const t of new Set([transports.EMAIL, transports.SMS, fallback])) t?.close?.()
    },
    running: () => !stopping,
    nudge() {
      if (stopping || nudgeTimer) return
      // A message is often stored inside a transaction that commits a moment later.
      nudgeTimer = setTimeout(() => {
        nudgeTimer = null
        if (wake) wake()
        else again = true
      }, 20)
      nudgeTimer.unref()
    },
  }
  return worker
}
