/**
 * The fair waiting room of a rush date: a travel date on one route that the operator sells
 * through a queue (`rush_dates`, migration 046). Everything lives in the database, so any number
 * of server processes share one queue and a killed one loses nothing.
 *
 * A browser joins with the queue token the server issued it (one per browser, shared by its
 * tabs); a signed-in passenger has one place whatever the browser. A place joined before the
 * hour gets a random draw (PostgreSQL's random(), never the client's), a later one queues in
 * arrival order behind every drawn place. At most once a second one process refreshes a rush
 * date (seats left, people waiting) and admits from the front at its rate; a status poll is
 * one read. Seat locks on the route that date need an unexpired admission (assertAdmitted).
 */
import type { QueueStatus } from '../../contract/schemas.ts'
import { QUEUE_TOKEN_HEADER, queueTokenPattern } from '../../contract/values.ts'
import { AppError, type Deps } from '../core.ts'
import { prepared, type Queryable } from '../db/db.ts'
import { type Limit, refusal } from '../http/limits.ts'
import { addTime, dhakaIsoOrNull } from '../lib/time.ts'
import { newToken, sha256 } from '../lib/tokens.ts'
import { type QueueMemory, RANKS_SETTLE_MS, type RushKey, type RushSnapshot } from './memory.ts'
import type { RushRow } from './rush-dates.ts'

/** Who asks, from where and when. */
export interface QueueCaller {
  /** The queue token the client holds, or null. */
  token: string | null
  passengerId: number | null
  /** The client address key (limits.ts addressKey): queue tokens issued to it are limited. */
  address: string
  now: Date
}

/** What a poll reads: the rush date as memory holds it (memory.ts), and the caller's place. */
interface StatusRow extends Omit<RushSnapshot, 'offers' | 'rank_base'> {
  place_id: string | null
  admitted_at: Date | null
  admitted_until: Date | null
  ahead: number | null
  offer_until: Date | null
}

/** How often the rush date is refreshed (seats, waiting count, admissions), across all processes. */
const REFRESH_MS = 1000

/**
 * The refresh numbers the waiting places from this long before the hour: before it a pre-queue place shows no
 * place (its order is drawn at the hour) and every random draw joining would move the ranks of all behind it,
 * so it only counts them; numbering this early has the ranks ready for the crowd's polls at the hour.
 */
const NUMBER_LEAD_MS = 5000

/** Queue tokens one address may be issued in an hour: floods are refused, a crowd behind one carrier address is not. */
const devicesLimit = (deps: Deps): Limit => ({
  bucket: 'queue-device',
  max: deps.config.queueDevicesPerAddress,
  windowMs: 3_600_000,
  code: 'TOO_MANY_REQUESTS',
  reason: 'Too many browsers joined the waiting room from your network. Try again in {minutes} minutes.',
})

// One statement: the rush date, the caller's place (the passenger's, else the token's unless another passenger's), how many wait ahead of it,
// and the end of seats the signed-in caller's waitlist offers hold on the route that date (their turn as much as an admission).
// Ahead of a place the last refresh numbered: its number less one, no count. Of one joined since: everyone numbered then
// (waiting) and those behind the last numbered one and ahead of it, an index range over the second's few joins. Before
// the refresh numbers ($6: the instant it starts to, for a date opening at that instant), none: the pre-queue shows no place.
const STATUS_SQL = prepared(`
  SELECT r.id, r.opens_at, r.admit_per_minute, r.admit_auto, r.checked_at, r.seats_free, r.seats_unbooked, r.waiting,
         p.id::text AS place_id, p.admitted_at, p.admitted_until,
         CASE WHEN p.id IS NULL OR p.admitted_at IS NOT NULL OR r.opens_at > $6 THEN NULL
              WHEN p.rank IS NOT NULL THEN p.rank - r.rank_base - 1
              ELSE r.waiting + (SELECT count(*)::int FROM queue_places q WHERE q.rush_id = r.id AND q.admitted_at IS NULL
                                   AND (q.draw, q.id) > (coalesce(r.ranked_draw, '-Infinity'), coalesce(r.ranked_id, 0)) AND (q.draw, q.id) < (p.draw, p.id))
         END AS ahead,
         (SELECT max(w.offer_expires_at) FROM trips t JOIN routes ro ON ro.id = t.route_id JOIN waitlist w ON w.trip_id = t.id
           WHERE $4::int IS NOT NULL AND t.trip_date = r.trip_date AND ro.origin_code = r.origin_code AND ro.destination_code = r.destination_code
             AND w.passenger_id = $4::int AND w.status = 'OFFERED') AS offer_until
    FROM rush_dates r
    LEFT JOIN LATERAL (
      SELECT x.id, x.draw, x.rank, x.admitted_at, x.admitted_until FROM queue_places x
       WHERE x.rush_id = r.id AND (x.passenger_id = $4::int OR (x.token_hash = $5 AND (x.passenger_id IS NULL OR $4::int IS NULL)))
       ORDER BY x.passenger_id = $4::int DESC NULLS LAST LIMIT 1
    ) p ON true
   WHERE r.trip_date = $1 AND r.origin_code = $2 AND r.destination_code = $3`)

/**
 * The waiting room's answer for the caller: one read, plus this second's refresh when no process has done it yet.
 * With `memory` (the server's, memory.ts), a waiting place's poll is answered from what the process remembers
 * wherever that cannot be wrong about its state, and reads nothing; `full` (a join's answer) always reads.
 */
export async function queueStatus(deps: Deps, key: RushKey, caller: QueueCaller, memory?: QueueMemory, full = false): Promise<QueueStatus> {
  const hash = caller.token ? sha256(caller.token) : null
  if (memory && memory.ttlMs() > 0 && !full) {
    const remembered = await fromMemory(deps, memory, key, caller, hash)
    if (remembered) return remembered
  }
  let row = await readStatus(deps.db, key, caller.passengerId, hash, caller.now)
  if (row && (!row.checked_at || caller.now.getTime() - row.checked_at.getTime() >= REFRESH_MS)) {
    await refreshRush(deps, row.id, caller.now)
    row = await readStatus(deps.db, key, caller.passengerId, hash, caller.now)
  }
  if (memory && row?.place_id) memory.remember(row.id, caller.passengerId, hash, row.place_id)
  return toStatus(deps, row, caller.now, caller.token)
}

/**
 * The answer from the process's memory of the rush date, or null where only a full read can tell: no place
 * remembered for the caller, a waitlist offer of theirs, after the hour a place whose rank memory does not
 * hold or that rank_base has reached (admitted, or about to be: memory.ts).
 */
async function fromMemory(deps: Deps, memory: QueueMemory, key: RushKey, caller: QueueCaller, hash: string | null): Promise<QueueStatus | null> {
  const { now } = caller
  const snap = await memory.snapshot(key, now, async (s) => {
    if (s.checked_at && now.getTime() - s.checked_at.getTime() < REFRESH_MS) return false
    await refreshRush(deps, s.id, now)
    return true
  })
  if (!snap) return toStatus(deps, null, now, caller.token)
  const offer = caller.passengerId === null ? undefined : snap.offers.get(caller.passengerId)
  if (offer && offer > now) return null
  if (snap.seats_unbooked === 0) return toStatus(deps, remembered(snap, null, null), now, caller.token)
  if (now < snap.opens_at) {
    const placeId = memory.placeOf(snap.id, caller.passengerId, hash)
    return placeId ? toStatus(deps, remembered(snap, placeId, null), now, caller.token) : null
  }
  const place = await memory.ranked(snap, caller.passengerId, hash, now)
  if (!place || place.rank <= snap.rank_base) return null
  return toStatus(deps, remembered(snap, place.placeId, place.rank - snap.rank_base - 1), now, caller.token)
}

/** A status row of a place memory says is waiting (or of nobody's). */
function remembered(s: RushSnapshot, placeId: string | null, ahead: number | null): StatusRow {
  const { offers: _, rank_base: __, ...rush } = s
  return { ...rush, place_id: placeId, admitted_at: null, admitted_until: null, ahead, offer_until: null }
}

async function readStatus(q: Queryable, key: RushKey, passengerId: number | null, hash: string | null, now: Date): Promise<StatusRow | null> {
  const [row] = await q.query<StatusRow>(STATUS_SQL, [
    key.tripDate,
    key.originCode,
    key.destinationCode,
    passengerId,
    hash,
    addTime(now, { milliseconds: NUMBER_LEAD_MS }),
  ])
  return row ?? null
}

function toStatus(deps: Deps, row: StatusRow | null, now: Date, token: string | null): QueueStatus {
  const base: QueueStatus = {
    state: 'open',
    opensAt: null,
    place: null,
    ahead: null,
    waiting: 0,
    seatsLeft: null,
    estimateSeconds: null,
    admitPerMinute: 0,
    admittedUntil: null,
    pollSeconds: 0,
    token,
  }
  if (!row) return base
  const rate = admitRate(deps, row, row.seats_free ?? 0)
  const s: QueueStatus = { ...base, opensAt: dhakaIsoOrNull(row.opens_at), waiting: row.waiting, seatsLeft: row.seats_free, admitPerMinute: rate }
  const untilOpen = row.opens_at.getTime() - now.getTime()
  const admission = row.admitted_at && row.admitted_until && row.admitted_until > now ? row.admitted_until : null
  if (row.offer_until && row.offer_until > now && (!admission || row.offer_until > admission))
    return { ...s, state: 'admitted', admittedUntil: dhakaIsoOrNull(row.offer_until), pollSeconds: 30 }
  if (row.seats_unbooked === 0) return { ...s, state: 'soldOut', pollSeconds: 60 }
  if (!row.place_id) return { ...s, state: 'notJoined', pollSeconds: 15 }
  if (row.admitted_at && row.admitted_until) {
    if (row.admitted_until > now) return { ...s, state: 'admitted', admittedUntil: dhakaIsoOrNull(row.admitted_until), pollSeconds: 30 }
    return { ...s, state: 'expired', pollSeconds: 60 }
  }
  if (untilOpen > 0) return { ...s, state: 'preQueue', pollSeconds: preQueuePollSeconds(untilOpen, row.waiting, row.place_id) }
  const ahead = row.ahead ?? 0
  // every seat held for now (rate 0 under 'auto'): no honest estimate until some come free
  const estimateSeconds = rate > 0 ? Math.ceil(((ahead + 1) * 60) / rate) : null
  return {
    ...s,
    state: 'waiting',
    place: ahead + 1,
    ahead,
    estimateSeconds,
    pollSeconds: estimateSeconds === null ? 5 : pollSecondsFor(estimateSeconds),
  }
}

/** Admissions per minute: the rush date's rate, else the server's; 'auto' (either) admits as many a minute as seats are free now, none while none are. */
function admitRate(deps: Deps, r: { admit_per_minute: number | null; admit_auto: boolean }, seatsFree: number): number {
  const set = r.admit_auto ? 'auto' : (r.admit_per_minute ?? deps.config.queueAdmitPerMinute)
  return set === 'auto' ? Math.max(0, seatsFree) : set
}

/** Longest wait between polls: a sold-out date reaches the back of the queue within it. */
const MAX_POLL_SECONDS = 30

/**
 * When a waiting place asks again: every 2 s within 30 s of its turn, else a tenth of its wait (5–30 s). A crowd of
 * 20,000 polling every 5 s is 4,000 requests a second; far back, nothing changes for them faster than that.
 */
function pollSecondsFor(estimateSeconds: number): number {
  if (estimateSeconds <= 30) return 2
  return Math.min(MAX_POLL_SECONDS, Math.max(5, Math.ceil(estimateSeconds / 10)))
}

/**
 * Polls a second (per rush date) the pre-queue's first asks after the hour are spread to (the draw is done by then;
 * only learning it waits). 1,000 a second over at most 10 s was too many for the bench's two cores even from memory:
 * two rush dates' 5,000 each asked within 5 s, 3,600 requests a second beside the arrivals, p95 151–223 ms in those
 * seconds; at 500 (2,300 requests a second) single seconds still reached p95 78–122 ms and a sale's status p95
 * 12–116 ms from run to run (2026-11-29 evening, docs/eid-sale.md). (400 a second over at most 25 s was tried
 * earlier, while each of these polls still read the database: the 20 s after the hour got worse.)
 */
const HOUR_POLLS_PER_SECOND = 400
/** ... over at most this long, so the first admitted learn it within seconds. */
const MAX_HOUR_SPREAD_SECONDS = 15
/**
 * ... starting this long after the hour: by then a refresh after the hour has numbered the drawn pre-queue and each
 * process can answer its polls from memory (memory.ts RANKS_SETTLE_MS, and a refresh a second); asked in the hour's
 * first seconds, each would be a full read (2026-11-29: p95 392 ms in the hour's first 10 s of the bench's sale).
 */
const HOUR_SETTLE_SECONDS = (RANKS_SETTLE_MS + REFRESH_MS) / 1000

/**
 * A pre-queue place asks every 15 s, then just after the hour, each at its own point of a spread that grows with
 * the pre-queue: the whole pre-queue asking in the hour's first second would be a crowd of its own.
 */
function preQueuePollSeconds(untilOpenMs: number, waiting: number, placeId: string | null): number {
  const untilOpen = Math.max(1, Math.ceil(untilOpenMs / 1000))
  if (untilOpen > 15) return 15
  const spread = Math.min(MAX_HOUR_SPREAD_SECONDS, waiting / HOUR_POLLS_PER_SECOND)
  // the place's own point in the spread, the same at every ask (its id scattered by a multiplicative hash)
  const point = placeId ? Number((BigInt(placeId) * 2654435761n) % 1000n) / 1000 : 0
  return untilOpen + HOUR_SETTLE_SECONDS + Math.round(spread * point * 10) / 10
}

const JOIN_SQL = prepared('SELECT joined, token, wait_seconds FROM queue_join($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::interval)')

/**
 * Joins the caller to the rush date's queue, or finds the place it has: the signed-in passenger's,
 * else the token's (claimed by the passenger when it has none). A caller without a valid token is
 * issued one (limited per address). `again`: an expired admission's place goes to the back of the queue.
 */
export async function joinQueue(deps: Deps, key: RushKey, caller: QueueCaller, again = false, memory?: QueueMemory): Promise<QueueStatus> {
  const { now, passengerId } = caller
  const limit = devicesLimit(deps)
  const issued = newToken()
  // server/db/functions/queue_join.sql: the whole join in one statement (one round trip, no transaction held open)
  const [r] = await deps.db.query<{ joined: boolean; token: 'given' | 'new'; wait_seconds: number }>(JOIN_SQL, [
    key.tripDate,
    key.originCode,
    key.destinationCode,
    passengerId,
    caller.token ? sha256(caller.token) : null,
    sha256(issued),
    caller.address,
    now,
    again,
    limit.max,
    `${limit.windowMs} milliseconds`,
  ])
  if (r!.wait_seconds > 0) throw refusal(limit, r!.wait_seconds)
  const joined = r!.joined
  const token = r!.token === 'new' ? issued : caller.token
  if (!joined) return toStatus(deps, null, now, token)
  return queueStatus(deps, key, { ...caller, token }, memory, true)
}

/**
 * The refresh's claim of its rush date ($1) unless refreshed since $2. FOR NO KEY UPDATE, not FOR UPDATE: it keeps
 * two refreshes apart (SKIP LOCKED: the other goes on) without holding up a join, whose new place's foreign key
 * takes FOR KEY SHARE on the same row; FOR UPDATE made every join wait out the whole refresh.
 */
export const CLAIM_SQL = `SELECT trip_date::text, origin_code, destination_code, opens_at, admit_per_minute, admit_auto, admit_minutes, admit_clock, rank_base
   FROM rush_dates WHERE id = $1 AND (checked_at IS NULL OR checked_at <= $2) FOR NO KEY UPDATE SKIP LOCKED`

/**
 * Refreshes one rush date if no process did in the last second (the row is claimed with SKIP
 * LOCKED: the others go on reading): counts its seats neither booked nor held, admits from the
 * front what the rate allows since the allowance was last spent, and numbers the places still
 * waiting (their rank, migration 063) so that a poll reads its place instead of counting it.
 * No admission while no seat is free; time without free seats or without anyone waiting earns none.
 */
export async function refreshRush(deps: Deps, rushId: number, now: Date): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [r] = await tx.query<RushRow & { admit_clock: Date | null; rank_base: number }>(CLAIM_SQL, [
      rushId,
      addTime(now, { milliseconds: -REFRESH_MS }),
    ])
    if (!r) return
    const [seats] = await tx.query<{ free: number; unbooked: number }>(
      `SELECT count(*) FILTER (WHERE s.state = 'available')::int AS free, count(*) FILTER (WHERE s.state IN ('available', 'held'))::int AS unbooked
         FROM trips t JOIN routes ro ON ro.id = t.route_id CROSS JOIN LATERAL seat_states(t.layout_id, t.id, $4) s
        WHERE t.trip_date = $1 AND ro.origin_code = $2 AND ro.destination_code = $3 AND t.status = 'OPEN' AND t.departure_at > $4`,
      [r.trip_date, r.origin_code, r.destination_code, now],
    )
    let clock = r.admit_clock
    let admitted = 0
    if (now >= r.opens_at) {
      clock ??= r.opens_at
      const rate = admitRate(deps, r, seats!.free)
      const allowed = seats!.free > 0 && rate > 0 ? Math.floor(((now.getTime() - clock.getTime()) * rate) / 60_000) : 0
      const until = addTime(now, { minutes: r.admit_minutes ?? deps.config.queueAdmitMinutes })
      if (allowed > 0) {
        admitted = (
          await tx.query(
            `UPDATE queue_places SET admitted_at = $2, admitted_until = $3, rank = NULL
              WHERE id IN (SELECT id FROM queue_places WHERE rush_id = $1 AND admitted_at IS NULL ORDER BY draw, id LIMIT $4)
             RETURNING 1`,
            [rushId, now, until, allowed],
          )
        ).length
      }
      // unspent allowance is not saved up: a queue that empties, or has no free seat, starts again from now
      clock = admitted < allowed || seats!.free === 0 || rate === 0 ? now : new Date(clock.getTime() + (admitted * 60_000) / rate)
    }
    if (now.getTime() < r.opens_at.getTime() - NUMBER_LEAD_MS) {
      // the pre-queue is counted, not numbered (NUMBER_LEAD_MS)
      await tx.query(
        `UPDATE rush_dates SET checked_at = $2, seats_free = $3, seats_unbooked = $4, ranked_draw = NULL, ranked_id = NULL,
                waiting = (SELECT count(*)::int FROM queue_places WHERE rush_id = $1 AND admitted_at IS NULL)
          WHERE id = $1`,
        [rushId, now, seats!.free, seats!.unbooked],
      )
      return
    }
    // one snapshot numbers the waiting places and counts them; a place that only moved up by this refresh's admissions keeps its rank
    await tx.query(
      `WITH numbered AS (
         SELECT id, draw, $6::int + row_number() OVER (ORDER BY draw, id) AS rank FROM queue_places WHERE rush_id = $1 AND admitted_at IS NULL
       ), ranked AS (
         UPDATE queue_places q SET rank = n.rank FROM numbered n WHERE q.id = n.id AND q.rank IS DISTINCT FROM n.rank RETURNING 1
       ), back AS (
         SELECT draw, id, rank - $6::int AS waiting FROM numbered ORDER BY rank DESC LIMIT 1
       )
       UPDATE rush_dates SET checked_at = $2, admit_clock = $3, seats_free = $4, seats_unbooked = $5, rank_base = $6,
              waiting = coalesce((SELECT waiting FROM back), 0), ranked_draw = (SELECT draw FROM back), ranked_id = (SELECT id FROM back)
        WHERE id = $1`,
      [rushId, now, clock, seats!.free, seats!.unbooked, r.rank_base + admitted],
    )
  })
}

/** Why a seat lock on a rush date was refused: no place (or a made-up token), not yet admitted, admission over, another passenger's place. */
export type RefusedBecause = 'notInQueue' | 'waiting' | 'expired' | 'borrowed'

const refusals: Record<RefusedBecause, string> = {
  notInQueue: 'Seats on this date are sold through a waiting room. Join it from the trip, and choose seats when it is your turn.',
  waiting: 'It is not your turn yet. Stay on the waiting page: it tells you when you can choose seats.',
  expired: 'Your time to choose seats has run out. Join the waiting room again.',
  borrowed: 'This place in the waiting room belongs to another passenger. Sign in as that passenger, or join the waiting room yourself.',
}

/**
 * Seat locks on a rush date's trips need an unexpired admission of the caller's place (the
 * signed-in passenger's, or the token's when no passenger holds it), or a live waitlist offer of the trip to the passenger. Other trips pass with one
 * indexed read. QUEUE_ADMISSION_REFUSED with `values.because` otherwise.
 */
export async function assertAdmitted(
  q: Queryable,
  trip: { tripId?: number; tripDate: string; coachCode: string },
  token: string | null,
  passengerId: number | null,
  now: Date,
): Promise<void> {
  const rows = await q.query<{
    mine: string | null
    admitted_at: Date | null
    admitted_until: Date | null
    token_passenger: number | null
    by_token: string | null
    offered: boolean
  }>(
    `SELECT mine.id::text AS mine, mine.admitted_at, mine.admitted_until, tok.id::text AS by_token, tok.passenger_id AS token_passenger,
            EXISTS (SELECT 1 FROM waitlist w WHERE w.trip_id = t.id AND w.passenger_id = $5::int AND w.status = 'OFFERED' AND w.offer_expires_at > $6) AS offered
       FROM trips t JOIN routes ro ON ro.id = t.route_id
       JOIN rush_dates r ON r.trip_date = t.trip_date AND r.origin_code = ro.origin_code AND r.destination_code = ro.destination_code
       LEFT JOIN queue_places tok ON tok.rush_id = r.id AND tok.token_hash = $4
       LEFT JOIN LATERAL (
         -- a signed-in passenger's own place, else the token's while no passenger holds it: never a second place
         SELECT x.id, x.admitted_at, x.admitted_until FROM queue_places x
          WHERE x.rush_id = r.id AND (x.passenger_id = $5::int OR (x.token_hash = $4 AND x.passenger_id IS NULL))
          ORDER BY x.passenger_id = $5::int DESC NULLS LAST LIMIT 1
       ) mine ON true
      WHERE CASE WHEN $1::int IS NULL THEN t.trip_date = $2::date AND t.coach_code = $3 ELSE t.id = $1::int END`,
    [trip.tripId ?? null, trip.tripDate, trip.coachCode, token ? sha256(token) : null, passengerId, now],
  )
  if (rows.length === 0) return
  // seats the waitlist offers the passenger on this trip are their turn too
  if (rows.some((r) => r.offered || (r.admitted_at && r.admitted_until && r.admitted_until > now))) return
  const mine = rows.find((r) => r.mine)
  const first = rows[0]!
  const because: RefusedBecause =
    first.by_token && first.token_passenger !== null && first.token_passenger !== passengerId && !mine
      ? 'borrowed'
      : mine?.admitted_at
        ? 'expired'
        : mine
          ? 'waiting'
          : 'notInQueue'
  throw new AppError('QUEUE_ADMISSION_REFUSED', { reason: refusals[because], values: { because } })
}

/** The queue token a request carries in X-Queue-Token, or null when missing or malformed. */
export function admissionToken(req: { headers: Record<string, unknown> }): string | null {
  const v = req.headers[QUEUE_TOKEN_HEADER.toLowerCase()]
  return typeof v === 'string' && queueTokenPattern.test(v) ? v : null
}
