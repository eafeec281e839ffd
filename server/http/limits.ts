/**
 * Abuse limits kept in the database (`limit_events`), so they hold across server
 * processes and restarts: "at most `max` events of a bucket per key in the last
 * `windowMs`". Used for wrong PINs per PNR, ticket e-mails per PNR, contact
 * messages per address and receipts per e-mail, sign-in and code requests per
 * address, wrong passwords per mobile, and code SMS per mobile and purpose, per
 * address and for the whole site.
 *
 * `take` counts and records in one transaction holding an advisory lock on the
 * bucket and key, so simultaneous requests (on any process) are counted one after
 * the other: exactly `max` of them pass, never more, never fewer. Refusals are not
 * recorded, so they never push the wait further out.
 */
import { type Db, prepared, type Queryable } from '../db/db.ts'
import { AppError } from '../core.ts'
import { addDhakaDays } from '../lib/time.ts'

/** A limit: at most `max` events per key in the last `windowMs` milliseconds. */
export interface Limit {
  bucket: string
  max: number
  windowMs: number
  /** The code a refusal answers with (default TOO_MANY_ATTEMPTS). */
  code?: 'TOO_MANY_ATTEMPTS' | 'TOO_MANY_REQUESTS' | 'SMS_PROVIDER_SERVICE_UNAVAILABLE'
  /** The refusal's reason; `{minutes}` is replaced by the wait. */
  reason?: string
}

/** A counted event: `release()` takes it back (e.g. the PIN was right after all). */
export interface Slot {
  release(): Promise<void>
}

/** The limit's window as a PostgreSQL interval, limit_wait's and limit_take's fourth argument (db/functions/). */
const interval = (limit: Limit) => `${limit.windowMs} milliseconds`

const WAIT_SQL = prepared('SELECT limit_wait($1, $2, $3, $4::interval, $5) AS wait')
const TAKE_SQL = prepared('SELECT id, wait_seconds FROM limit_take($1, $2, $3, $4::interval, $5)')

/** How long until one more event fits, in seconds (0 when it fits now): `limit_wait` (db/functions/limit_wait.sql), the rule's one spelling. */
export async function waitSeconds(q: Queryable, limit: Limit, key: string, now: Date): Promise<number> {
  const [row] = await q.query<{ wait: number }>(WAIT_SQL, [limit.bucket, key, limit.max, interval(limit), now])
  return row!.wait
}

/**
 * Counts one event of `limit` for `key` at `now`, or throws the limit's 429 (with
 * the minutes to wait) when `max` events are already in the window. Given the
 * database it runs in a transaction of its own; given a transaction it runs in it
 * (and the lock lasts until that commits).
 */
export async function take(q: Db | Queryable, limit: Limit, key: string, now: Date): Promise<Slot> {
  // db/functions/limit_take.sql: the lock, the count and the insert in one statement (given the database, that
  // statement is its own transaction, and the lock ends with it)
  const [row] = await q.query<{ id: number | null; wait_seconds: number }>(TAKE_SQL, [limit.bucket, key, limit.max, interval(limit), now])
  if (row!.id === null) throw refusal(limit, row!.wait_seconds)
  const id = row!.id
  return {
    async release() {
      await q.query('DELETE FROM limit_events WHERE id = $1', [id])
    },
  }
}

/** Throws the limit's 429 when no further event fits now (counts nothing). */
export async function check(q: Queryable, limit: Limit, key: string, now: Date): Promise<void> {
  const wait = await waitSeconds(q, limit, key, now)
  if (wait > 0) throw refusal(limit, wait)
}

/** Counts one event without checking (e.g. a wrong PIN after the check passed). */
export async function record(q: Queryable, limit: Limit, key: string, now: Date): Promise<void> {
  await q.query('INSERT INTO limit_events (bucket, key, at) VALUES ($1, $2, $3)', [limit.bucket, key, now])
}

const refusalListeners = new Set<(bucket: string) => void>()

/** Calls `fn` with the bucket of every refusal (metrics); answers the unsubscribe function. */
export function onRefusal(fn: (bucket: string) => void): () => void {
  refusalListeners.add(fn)
  return () => refusalListeners.delete(fn)
}

/** The limit's 429 for a wait of `seconds` (counted in the refusal metrics). */
export function refusal(limit: Limit, seconds: number): AppError {
  for (const fn of refusalListeners) fn(limit.bucket)
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  const code = limit.code ?? 'TOO_MANY_ATTEMPTS'
  const reason =
    limit.reason?.replace('{minutes}', String(minutes)) ?? `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
  return new AppError(code, { reason, values: { minutes }, retryAfterSeconds: seconds })
}

/** Deletes events older than every window (a day); answers how many went. */
export async function purgeLimitEvents(q: Queryable, now: Date): Promise<number> {
  return (await q.query('DELETE FROM limit_events WHERE at < $1 RETURNING 1', [addDhakaDays(now, -1)])).length
}

/** IPv6 clients are counted by their /48 unless IPV6_CLIENT_PREFIX says otherwise. */
export const IPV6_CLIENT_PREFIX = 48

/**
 * The key for a client address: an IPv4 address as it is, an IPv6 address cut to its
 * first `prefix` bits (default /48: a site's allocation, so the 65,536 /64 networks of
 * one holder count as one client), written `2001:db8:85a3::/48`.
 */
export function addressKey(ip: string, prefix = IPV6_CLIENT_PREFIX): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (v4) return v4[1]!
  if (!ip.includes(':')) return ip
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]!.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = ip.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left
  const kept = Math.ceil(prefix / 16)
  const spare = kept * 16 - prefix
  return (
    groups
      .slice(0, kept)
      .map((g, i) => (i === kept - 1 ? (Number.parseInt(g || '0', 16) >> spare) << spare : Number.parseInt(g || '0', 16)).toString(16))
      .join(':') + `::/${prefix}`
  )
}
