/** Periodic clean-up of expired sign-in state and old limit counters, so those tables stay small. */
import type { Queryable } from './db/db.ts'
import { purgeLimitEvents } from './http/limits.ts'
import { addDhakaDays } from './lib/time.ts'

/** Deletes sessions, one-time codes, reset tokens and sign-ups that expired more than a day ago, and old limit events; answers how many rows went. */
export async function purgeExpired(q: Queryable, now: Date): Promise<number> {
  const cutoff = addDhakaDays(now, -1)
  let n = 0
  for (const table of ['sessions', 'otps', 'password_resets', 'registrations']) {
    n += (await q.query(`DELETE FROM ${table} WHERE expires_at < $1 RETURNING 1`, [cutoff])).length
  }
  // A first booking's hold is remembered until its keep_until (first_holds).
  n += (await q.query('DELETE FROM first_holds WHERE keep_until < $1 RETURNING 1', [now])).length
  return n + (await purgeLimitEvents(q, now))
}

/** Runs `purgeExpired` now and every hour; answers a stop function. */
export function startHousekeeping(q: Queryable, now: () => Date, log: (msg: string) => void = console.error): () => void {
  const run = () => purgeExpired(q, now()).catch((err: Error) => log(`[housekeeping] ${err.message}`))
  void run()
  const timer = setInterval(run, 3_600_000)
  timer.unref()
  return () => clearInterval(timer)
}
