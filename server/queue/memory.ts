/**
 * What one server process remembers of a rush date between the crowd's polls, so that a waiting place's
 * poll reads nothing from the database (config.queueStatusCacheMs; 0: every poll reads, queue.ts).
 *
 * - The rush date's row (seats left, people waiting, rank_base, the rate) and the passengers with a live
 *   waitlist offer on it: read at most once per queueStatusCacheMs per process (concurrent polls share one
 *   read), and again whenever the server's clock has jumped by that much against real time (a test clock, moved
 *   by hand). The once-a-second refresh
 *   (refreshRush) runs from this read, as it did from every poll.
 * - Which place a caller (signed-in passenger, queue token) has: its id, as the last full read found it.
 * - The waiting places' ranks and whose they are (passenger, queue token), once the refresh has numbered them
 *   after the hour (the pre-queue drawn): loaded in one read, then only the places numbered since (behind the
 *   last one loaded: the queue only grows at its back after the hour), and in full again every RANKS_FULL_MS.
 *   So a place's first poll after the hour is answered from memory on any process.
 *
 * A poll is answered from memory only where memory cannot be wrong about the state: before the hour (the
 * pre-queue: only counted), a sold-out date, or a place whose rank is still behind rank_base (admissions go
 * from the front in rank order, so such a place is still waiting; its number of places ahead is rank less
 * rank_base less one, as in the database). Everything else (no place known, an admission, its expiry, a
 * waitlist offer, a place not yet numbered) is a full read, and the place it finds is remembered.
 */
import { prepared, type Queryable } from '../db/db.ts'
import { memoized } from '../lib/memo.ts'

/** A rush date as a request names it. */
export interface RushKey {
  tripDate: string
  originCode: string
  destinationCode: string
}

/** A rush date as a process last read it. */
export interface RushSnapshot {
  id: number
  opens_at: Date
  admit_per_minute: number | null
  admit_auto: boolean
  checked_at: Date | null
  seats_free: number | null
  seats_unbooked: number | null
  waiting: number
  rank_base: number
  /** Passengers with a live waitlist offer on the route that date: the end of their latest offer. */
  offers: Map<number, Date>
}

/** After the hour, ranks are taken into memory once a refresh this long after it has numbered the pre-queue (joins sent before the hour are in). */
export const RANKS_SETTLE_MS = 2000
/** The ranks in memory are read in full again this often (a place numbered out of (draw, id) order, one gone). */
const RANKS_FULL_MS = 30_000
/** Callers whose place is remembered, per process; past it the memory starts over. */
const MAX_PLACES = 200_000
/** A remembered caller → place is read again after this long (a passenger who claimed another place meanwhile). */
const PLACE_TTL_MS = 60_000

const SNAPSHOT_SQL = prepared(`
  SELECT r.id, r.opens_at, r.admit_per_minute, r.admit_auto, r.checked_at, r.seats_free, r.seats_unbooked, r.waiting, r.rank_base,
         o.passengers AS offer_passengers, o.until AS offer_until
    FROM rush_dates r
    LEFT JOIN LATERAL (
      SELECT array_agg(x.passenger_id) AS passengers, array_agg(x.until) AS until FROM (
        SELECT w.passenger_id, max(w.offer_expires_at) AS until FROM trips t JOIN routes ro ON ro.id = t.route_id JOIN waitlist w ON w.trip_id = t.id
         WHERE t.trip_date = r.trip_date AND ro.origin_code = r.origin_code AND ro.destination_code = r.destination_code
           AND w.status = 'OFFERED' AND w.offer_expires_at > $4
         GROUP BY w.passenger_id) x
    ) o ON true
   WHERE r.trip_date = $1 AND r.origin_code = $2 AND r.destination_code = $3`)

// the waiting places numbered behind ($2, $3) in queue order (the whole queue from (-Infinity, 0)): arrays in one row
const RANKS_SQL = prepared(`
  SELECT coalesce(array_agg(id::text ORDER BY draw, id), '{}') AS ids, coalesce(array_agg(rank ORDER BY draw, id), '{}') AS ranks,
         coalesce(array_agg(token_hash ORDER BY draw, id), '{}') AS tokens, coalesce(array_agg(passenger_id ORDER BY draw, id), '{}') AS passengers,
         (array_agg(draw ORDER BY draw DESC, id DESC))[1] AS last_draw
    FROM queue_places WHERE rush_id = $1 AND admitted_at IS NULL AND rank IS NOT NULL AND (draw, id) > ($2, $3)`)

interface Ranks {
  byPlace: Map<string, number>
  /** Whose each place is: a signed-in caller's by passenger, an anonymous one's by queue token (as the full read finds them). */
  byPassenger: Map<number, string>
  byToken: Map<string, string>
  /** The back of what is loaded, in queue order. */
  lastDraw: number
  lastId: string
  fullAt: number
  /** Date.now() of the last load, full or not. */
  loadedAt: number
  loading: Promise<void> | null
}

export interface QueueMemory {
  /** Memory time (ms); 0 or less: nothing is remembered. */
  readonly ttlMs: () => number
  /**
   * The rush date of `key` (null when it is not one), read again when older than ttlMs or the server clock jumped by as
   * much; `refresh` runs after a read and says whether it changed the row (then read once more: queue.ts).
   */
  snapshot(key: RushKey, now: Date, refresh: (s: RushSnapshot) => Promise<boolean>): Promise<RushSnapshot | null>
  /** The place id remembered for a caller of rush date `rushId`. */
  placeOf(rushId: number, passengerId: number | null, tokenHash: string | null): string | null
  remember(rushId: number, passengerId: number | null, tokenHash: string | null, placeId: string): void
  /** After the hour, the caller's waiting place and its rank as last numbered, or null when memory does not hold them. */
  ranked(snap: RushSnapshot, passengerId: number | null, tokenHash: string | null, now: Date): Promise<{ placeId: string; rank: number } | null>
}

/** The caller a remembered place belongs to: one rush date, and the passenger and queue token as a poll names them. */
const placeKey = (rushId: number, passengerId: number | null, tokenHash: string | null) => `${rushId}|${passengerId ?? ''}|${tokenHash ?? ''}`

/** A process's memory of its rush dates (one per server; tests make their own). */
export function createQueueMemory(db: Queryable, ttlMs: () => number): QueueMemory {
  const places = new Map<string, { placeId: string; at: number }>()
  const ranks = new Map<number, Ranks>()

  async function read(key: RushKey, now: Date): Promise<RushSnapshot | null> {
    const [row] = await db.query<Omit<RushSnapshot, 'offers'> & { offer_passengers: number[] | null; offer_until: (Date | string)[] | null }>(
      SNAPSHOT_SQL,
      [key.tripDate, key.originCode, key.destinationCode, now],
    )
    if (!row) return null
    const { offer_passengers, offer_until, ...rest } = row
    return { ...rest, offers: new Map((offer_passengers ?? []).map((p, k) => [p, new Date(offer_until![k]!)])) }
  }

  async function loadRanks(r: Ranks, rushId: number, full: boolean): Promise<void> {
    const from = full ? { draw: '-Infinity', id: '0' } : { draw: String(r.lastDraw), id: r.lastId }
    const [row] = await db.query<{
      ids: string[]
      ranks: number[]
      tokens: (string | null)[]
      passengers: (number | null)[]
      last_draw: number | null
    }>(RANKS_SQL, [rushId, from.draw, from.id])
    if (full) {
      r.byPlace.clear()
      r.byPassenger.clear()
      r.byToken.clear()
    }
    const ids = row?.ids ?? []
    ids.forEach((id, k) => {
      r.byPlace.set(id, row!.ranks[k]!)
      const passenger = row!.passengers[k]
      const token = row!.tokens[k]
      if (passenger !== null && passenger !== undefined) r.byPassenger.set(passenger, id)
      if (token) r.byToken.set(token, id)
    })
    if (ids.length > 0) {
      r.lastDraw = row!.last_draw!
      r.lastId = ids[ids.length - 1]!
    }
    r.loadedAt = Date.now()
    if (full) r.fullAt = r.loadedAt
  }

  // The server clock is compared too: a test clock that jumps (by ttl or more against real time) reads the row again.
  const snapshot = memoized(
    async ({ key, now, refresh }: { key: RushKey; now: Date; refresh: (s: RushSnapshot) => Promise<boolean> }) => {
      const s = await read(key, now)
      return s && (await refresh(s)) ? read(key, now) : s
    },
    {
      ttlMs,
      max: 1000,
      key: ({ key }) => `${key.tripDate}|${key.originCode}|${key.destinationCode}`,
      stale: (arg, held, ageMs, ttl) => Math.abs(arg.now.getTime() - held.now.getTime() - ageMs) >= ttl,
    },
  )

  return {
    ttlMs,
    snapshot: (key, now, refresh) => snapshot({ key, now, refresh }),
    placeOf(rushId, passengerId, tokenHash) {
      const hit = places.get(placeKey(rushId, passengerId, tokenHash))
      return hit && Date.now() - hit.at < PLACE_TTL_MS ? hit.placeId : null
    },
    remember(rushId, passengerId, tokenHash, placeId) {
      if (ttlMs() <= 0) return
      if (places.size >= MAX_PLACES) places.clear()
      places.set(placeKey(rushId, passengerId, tokenHash), { placeId, at: Date.now() })
    },
    async ranked(snap, passengerId, tokenHash, now) {
      // numbered by a refresh that came after every join sent before the hour
      if (!snap.checked_at || snap.checked_at.getTime() < snap.opens_at.getTime() + RANKS_SETTLE_MS || now < snap.opens_at) return null
      let ranked = ranks.get(snap.id)
      if (!ranked) {
        ranked = {
          byPlace: new Map(),
          byPassenger: new Map(),
          byToken: new Map(),
          lastDraw: Number.NEGATIVE_INFINITY,
          lastId: '0',
          fullAt: 0,
          loadedAt: 0,
          loading: null,
        }
        ranks.set(snap.id, ranked)
      }
      const r = ranked
      // a signed-in caller's place by passenger (a token's place would be wrong for one whose own place is admitted), else by token
      const find = () =>
        this.placeOf(snap.id, passengerId, tokenHash) ??
        (passengerId !== null ? r.byPassenger.get(passengerId) : tokenHash ? r.byToken.get(tokenHash) : undefined)
      // one load at a time per rush date: in full at first and every RANKS_FULL_MS, else (a place not in memory,
      // at most once per ttlMs) the places numbered since
      const full = r.fullAt === 0 || Date.now() - r.fullAt >= RANKS_FULL_MS
      if (!r.loading && (full || (!find() && Date.now() - r.loadedAt >= ttlMs()))) {
        r.loading = loadRanks(r, snap.id, full).finally(() => {
          r.loading = null
        })
      }
      if (r.fullAt === 0 && r.loading) await r.loading
      const placeId = find()
      const rank = placeId === undefined ? undefined : r.byPlace.get(placeId)
      return placeId !== undefined && rank !== undefined ? { placeId, rank } : null
    },
  }
}
