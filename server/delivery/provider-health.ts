/**
 * What the delivery worker records about each provider, in the database so that every server
 * process counts and decides alike: sends, failures and failovers by provider (`delivery_counts`,
 * read by /metrics), and each SMS provider's failures in a row (`delivery_providers`). Once an SMS
 * provider has failed `failures` times in a row (it could not take messages, or our settings are
 * wrong there), messages go around it to the fallback provider for `openMs`; the first send after
 * that tries it again, and one more failure routes around it once more. A refusal of one message
 * (an invalid number, a duplicate id) says nothing about the provider and is not counted in a row.
 */
import type { Queryable } from '../db/db.ts'
import type { FailureReason } from './transport.ts'

/** When an SMS provider is routed around. */
export interface CircuitPolicy {
  /** Failures in a row that open the circuit. */
  failures: number
  /** How long messages go around it, ms. */
  openMs: number
}

/** Why an SMS left its first provider (`delivery_failovers_total{cause}`). */
export type FailoverCause = 'first_failure' | 'refused' | 'attempts_used' | 'routed_around' | 'no_answer'

const countEvent = `INSERT INTO delivery_counts (channel, provider, event, reason, n) VALUES ($1, $2, $3, $4, 1)
  ON CONFLICT (channel, provider, event, reason) DO UPDATE SET n = delivery_counts.n + 1`

/** Counts an accepted message; for SMS, the provider's failures in a row start again from 0 and its circuit closes. */
export async function recordSent(db: Queryable, channel: 'SMS' | 'EMAIL', provider: string): Promise<void> {
  await db.query(countEvent, [channel, provider, 'sent', ''])
  if (channel === 'SMS')
    await db.query(
      'UPDATE delivery_providers SET failures_in_a_row = 0, open_until = NULL WHERE provider = $1 AND (failures_in_a_row > 0 OR open_until IS NOT NULL)',
      [provider],
    )
}

/**
 * Counts a failed send. For an SMS whose provider could not take it (temporary, configuration),
 * adds one to its failures in a row and opens its circuit at the limit: answers the time it is
 * routed around until when this failure opened it, else null.
 */
export async function recordFailure(
  db: Queryable,
  f: { channel: 'SMS' | 'EMAIL'; provider: string; reason: FailureReason; error: string; now: Date },
  policy: CircuitPolicy,
): Promise<Date | null> {
  await db.query(countEvent, [f.channel, f.provider, 'failed', f.reason])
  if (f.channel !== 'SMS' || (f.reason !== 'temporary' && f.reason !== 'configuration')) return null
  const until = new Date(f.now.getTime() + policy.openMs)
  const [row] = await db.query<{ opened: boolean }>(
    `INSERT INTO delivery_providers AS p (provider, failures_in_a_row, open_until, last_error)
     VALUES ($1, 1, CASE WHEN 1 >= $2 THEN $3::timestamptz END, $4)
     ON CONFLICT (provider) DO UPDATE
       SET failures_in_a_row = p.failures_in_a_row + 1, last_error = EXCLUDED.last_error,
           open_until = CASE WHEN p.failures_in_a_row + 1 >= $2 THEN $3::timestamptz ELSE p.open_until END
     RETURNING failures_in_a_row >= $2 AS opened`,
    [f.provider, policy.failures, until, f.error.slice(0, 500)],
  )
  return row?.opened ? until : null
}

/** Counts SMS handed from `from` to the fallback provider, by cause. */
export async function recordFailovers(db: Queryable, from: string, cause: FailoverCause, n = 1): Promise<void> {
  if (n <= 0) return
  await db.query(
    `INSERT INTO delivery_counts (channel, provider, event, reason, n) VALUES ('SMS', $1, 'failover', $2, $3)
     ON CONFLICT (channel, provider, event, reason) DO UPDATE SET n = delivery_counts.n + EXCLUDED.n`,
    [from, cause, n],
  )
}
