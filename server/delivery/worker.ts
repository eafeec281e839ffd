/**
 * The delivery worker: sends every outbox message at least once. Each pass claims a
 * batch in one statement (`FOR UPDATE SKIP LOCKED`, so several server processes on
 * one PostgreSQL never claim the same row), marks it SENDING with a lease and one
 * more attempt, sends outside any transaction, then records SENT with the provider's
 * id, or PENDING again after an exponential backoff, or FAILED when the refusal is
 * permanent or the attempts are used up. A process killed mid-send leaves its rows
 * SENDING; another process (or this one restarted) takes them over when the lease
 * runs out and sends them again with the same idempotency key (the installation id
 * and the outbox id, installation.ts). With a fallback SMS provider, an SMS the
 * first provider refuses for good, or that it has not taken after
 * DELIVERY_MAX_ATTEMPTS sends, is handed to the fallback (`Route.FALLBACK`, its own
 * attempts from 0) and never back, so each provider has it at most once. A one-time
 * code (`urgent`) cannot wait: it goes to the fallback after its first failed
 * attempt, and its retries wait seconds, not minutes. A provider that fails again and
 * again is routed around for a while (provider-health.ts). Every time comes from
 * `deps.now()`. Logs carry ids, channels, statuses and error texts, never a body; a
 * refusal that means wrong settings is logged as a configuration error, a duplicate
 * id as one to look into.
 */
import type { Deps } from '../core.ts'
import { addTime } from '../lib/time.ts'
import { installationId } from './installation.ts'
import { type CircuitPolicy, type FailoverCause, recordFailovers, recordFailure, recordSent } from './provider-health.ts'
import { DeliveryError, type FailureReason, type OutgoingMessage, Route, type RouteNumber, type Transports } from './transport.ts'

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
  /** Wait after a one-time code's first failed send, doubled after each further one, ms (default 5 s). */
  urgentBackoffMs?: number
  /** When an SMS provider is routed around (default 5 failures in a row, for 2 minutes). */
  circuit?: CircuitPolicy
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
  route: RouteNumber
  urgent: boolean
}

type Outcome = { provider: string | null } & (
  | { ok: true; providerMessageId: string | null }
  | { ok: false; error: string; permanent: boolean; retryAfterMs?: number; reason: FailureReason }
)

/** Default circuit: 5 failures in a row route an SMS provider around for 2 minutes. */
export const DEFAULT_CIRCUIT: CircuitPolicy = { failures: 5, openMs: 2 * 60_000 }

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
  const urgentBackoffMs = opts.urgentBackoffMs ?? 5_000
  const circuit = opts.circuit ?? DEFAULT_CIRCUIT
  const sendTimeoutMs = opts.sendTimeoutMs ?? sendTimeoutFor(leaseMs)
  const log = opts.log ?? ((line: string) => console.error(line))

  let stopping = false
  let again = false
  let wake: (() => void) | null = null
  let lastProblem = ''
  let lastProblemAt = 0
  let installation: string | null = null

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
  const transportOf = (row: ClaimedRow) => (row.channel === 'SMS' && row.route === Route.FALLBACK && fallback ? fallback : transports[row.channel])
  const primaryName = transports.SMS.name ?? 'SMS'
  const fallbackName = fallback?.name ?? 'the fallback provider'

  const claim = async (): Promise<ClaimedRow[]> => {
    const now = deps.now()
    // To the fallback provider: an SMS whose first provider used up its attempts, a code whose
    // attempt got no answer (the process stopped mid-send), and any due SMS while the first
    // provider is routed around.
    if (fallback) {
      const moved = await deps.db.query<{ id: number; cause: FailoverCause }>(
        `UPDATE outbox_messages o SET status = 'PENDING', route = ${Route.FALLBACK}, attempts = 0, next_attempt_at = $1, locked_until = NULL,
                last_error = ${stoppedMidSend}
          FROM (SELECT id, CASE WHEN attempts >= $2 THEN 'attempts_used' WHEN urgent AND attempts > 0 THEN 'no_answer' ELSE 'routed_around' END AS cause
                  FROM outbox_messages
                 WHERE ((status = 'SENDING' AND locked_until <= $1) OR (status = 'PENDING' AND next_attempt_at <= $1))
                   AND channel = 'SMS' AND route = ${Route.PRIMARY}
                   AND (attempts >= $2 OR (urgent AND attempts > 0)
                        OR EXISTS (SELECT 1 FROM delivery_providers WHERE provider = $3 AND open_until > $1))
                 ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED) due
          WHERE o.id = due.id
          RETURNING o.id, due.cause`,
        [now, maxAttempts, primaryName],
      )
      for (const cause of new Set(moved.map((m) => m.cause))) {
        const ids = moved.filter((m) => m.cause === cause).map((m) => m.id)
        await tally(() => recordFailovers(deps.db, primaryName, cause, ids.length))
        log(`[delivery] message(s) ${ids.join(', ')} (SMS) go to ${fallbackName}: ${causeText(cause, primaryName)}`)
      }
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
        RETURNING o.id, o.channel, o."to", o.subject, o.body, o.html, o.attachments, o.attempts, o.route, o.urgent`,
      [now, addTime(now, { milliseconds: leaseMs }), batchSize, maxAttempts],
    )
  }

  const send = async (row: ClaimedRow, inst: string): Promise<Outcome> => {
    const files = typeof row.attachments === 'string' ? (JSON.parse(row.attachments) as Exclude<ClaimedRow['attachments'], string>) : row.attachments
    const msg: OutgoingMessage = {
      id: row.id,
      channel: row.channel,
      to: row.to,
      subject: row.subject,
      text: row.body,
      html: row.html,
      attachments: (files ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content, 'base64') })),
      installationId: inst,
      idempotencyKey: `outbox-${inst}-${row.id}`,
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
      return { ok: false, provider, error: e.message.slice(0, 500), permanent: e.permanent, retryAfterMs: e.retryAfterMs, reason: e.reason }
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
      await tally(() => recordSent(deps.db, row.channel, out.provider ?? row.channel))
      return
    }
    const label = out.reason === 'configuration' ? 'configuration error: ' : out.reason === 'duplicate' ? 'duplicate id, look into it: ' : ''
    await tally(async () => {
      const until = await recordFailure(
        deps.db,
        { channel: row.channel, provider: out.provider ?? row.channel, reason: out.reason, error: out.error, now },
        circuit,
      )
      if (until && fallback && row.route === Route.PRIMARY)
        log(`[delivery] ${out.provider} failed ${circuit.failures} times in a row: SMS go to ${fallbackName} until ${until.toISOString()}`)
    })
    if ((out.permanent || row.attempts >= maxAttempts || row.urgent) && row.channel === 'SMS' && row.route === Route.PRIMARY && fallback) {
      // The first provider refused it or could not take it (a code: at its first failure): the fallback provider gets it, once.
      await deps.db.query(
        `UPDATE outbox_messages SET status = 'PENDING', route = ${Route.FALLBACK}, attempts = 0, next_attempt_at = $3, last_error = $4, provider = $5,
                locked_until = NULL ${fence}`,
        [row.id, row.attempts, now, `${out.provider ?? 'SMS'}: ${out.error}`.slice(0, 500), out.provider],
      )
      const cause: FailoverCause = out.permanent ? 'refused' : row.urgent ? 'first_failure' : 'attempts_used'
      await tally(() => recordFailovers(deps.db, out.provider ?? primaryName, cause))
      log(
        `[delivery] ${label}message ${row.id} (SMS) goes to ${fallbackName} after ${row.attempts} attempt(s) with ${out.provider ?? 'the first provider'}: ${out.error}`,
      )
      worker.nudge()
      return
    }
    if (out.permanent || row.attempts >= maxAttempts) {
      // The first provider's reason stays beside the fallback's when the fallback refuses at once.
      const earlier = row.route === Route.FALLBACK && row.attempts === 1 ? "COALESCE(last_error || '; ', '') || " : ''
      await deps.db.query(
        `UPDATE outbox_messages SET status = 'FAILED', last_error = left(${earlier}$3, 1000), provider = $4, locked_until = NULL,
                body = COALESCE(redacted_body, body), redacted_body = NULL ${fence}`,
        [row.id, row.attempts, row.route === Route.FALLBACK ? `${out.provider ?? 'SMS'}: ${out.error}` : out.error, out.provider],
      )
      log(`[delivery] ${label}message ${row.id} (${row.channel}) FAILED after ${row.attempts} attempt(s): ${out.error}`)
      return
    }
    const base = row.urgent ? urgentBackoffMs : backoffMs
    const wait = Math.max(Math.min(maxBackoffMs, base * 2 ** (row.attempts - 1)), Math.min(out.retryAfterMs ?? 0, maxBackoffMs))
    await deps.db.query(
      `UPDATE outbox_messages SET status = 'PENDING', next_attempt_at = $3, last_error = $4, provider = $5, locked_until = NULL ${fence}`,
      [row.id, row.attempts, addTime(now, { milliseconds: wait }), out.error, out.provider],
    )
    log(`[delivery] message ${row.id} (${row.channel}) attempt ${row.attempts} not accepted, retry in ${Math.round(wait / 1000)} s: ${out.error}`)
  }

  /** Counts for /metrics and the circuit: a failure to count is reported, never stops the delivery. */
  const tally = async (fn: () => Promise<void>): Promise<void> => {
    try {
      await fn()
    } catch (err) {
      problem(`counting a delivery failed: ${(err as Error).message}`)
    }
  }

  const pass = async (): Promise<number> => {
    installation ??= await installationId(deps.db)
    const inst = installation
    const rows = await claim()
    await Promise.all(
      rows.map(async (row) => {
        const out = await send(row, inst)
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

/** Why SMS went to the fallback provider, for the log. */
function causeText(cause: FailoverCause, primary: string): string {
  switch (cause) {
    case 'attempts_used':
      return `${primary} did not take them in the attempts allowed`
    case 'no_answer':
      return `one-time code(s) got no answer from ${primary} (the process stopped mid-send)`
    default:
      return `${primary} is routed around after failing again and again`
  }
}
