/**
 * Seat locks: a holder (`p:<passengerId>`, `d:<deviceId>` or `ip:<address>`) wins a
 * seat with one atomic upsert that only replaces an expired lock or its own. All
 * seats of one request are won together or not at all, in one database call.
 */
import { MAX_SEATS, OPEN_SEAT_NAME } from '../../contract/schemas.ts'
import { batched } from './batch.ts'
import type { Db, Queryable } from '../db/db.ts'
import { AppError } from '../core.ts'
import { deviceHolder } from '../http/handle.ts'
import { addTime, dhakaIsoOrNull } from '../lib/time.ts'
import { assertOnSale, assertRoute, assertSaleOpen, findTrip, findTripByCoach, saleNotOpenError } from './trips.ts'

/**
 * The lock holders that count as the caller: its own holder, plus the visitor
 * holder of its X-Device-Id when signed in (locks taken before logging in).
 */
export function holdersOf(call: { holder: string; auth: { passengerId: number } | null; req: { headers: Record<string, unknown> } }): string[] {
  const device = call.auth ? deviceHolder(call.req) : null
  return device ? [call.holder, device] : [call.holder]
}

/** What the caller holds on a trip: seat names and the earliest lock expiry. */
export interface Held {
  seatNames: string[]
  expirationTime: string | null
}

/** The caller's unexpired locks on the trip. */
export async function heldBy(q: Queryable, tripId: number, holders: string[], now: Date): Promise<Held & { earliest: Date | null }> {
  const rows = await q.query<{ seat_name: string; expires_at: Date }>(
    'SELECT seat_name, expires_at FROM seat_locks WHERE trip_id = $1 AND holder = ANY($2::text[]) AND expires_at > $3 ORDER BY seat_name',
    [tripId, holders, now],
  )
  let earliest: Date | null = null
  for (const r of rows) if (!earliest || r.expires_at < earliest) earliest = r.expires_at
  return { seatNames: rows.map((r) => r.seat_name), expirationTime: dhakaIsoOrNull(earliest), earliest }
}

/** One lock request: the trip as the client names it, the seats and who asks. */
export interface LockRequest {
  trip: { tripId?: number; tripDate: string; coachCode: string; originCode: string; destinationCode: string }
  seatNames: string[]
  holders: string[]
  passengerId: number | null
  now: Date
  holdMinutes: number
  /** The client address key (limits.ts addressKey) the hold counts against. */
  address: string
}

/** Seats one client address may hold: on one trip, and across all trips. */
export interface HoldLimits {
  perTrip: number
  total: number
}

/**
 * Answers a function that locks every seat of a request for `holders[0]` until
 * now + holdMinutes (a seat the caller already holds keeps its expiry), or none:
 * false when another holder has one of them or it is sold/booked. TRIP_NOT_FOUND
 * (also for another route), TRIP_OMITTED, TRIP_IS_CLOSED, SALE_NOT_OPEN before the trip's
 * sale hour (the server's clock), SEAT_NOT_FOUND for a seat
 * missing from the layout, MAX_SEAT_WARNING past the cap, HOLD_LIMIT_EXCEEDED when
 * the client address holds too many seats, locked or in unpaid bookings (`limits()`).
 * A seat the caller's passenger or address booked before is held no later than that
 * first booking ended, and not at all (SEAT_HOLD_ENDED) once it has, for a while.
 *
 * All checks and the upsert are one database function (`lock_seats`, db/functions/lock_seats.sql);
 * requests that arrive while a call is running go together in the next call
 * (`lock_seats_many`), each still won or lost on its own. PGlite runs one statement
 * at a time, so it gets one call at a time; PostgreSQL a few side by side.
 */
export function seatLocker(db: Db, limits: () => HoldLimits): (req: LockRequest) => Promise<Held | false> {
  const run = batched(
    async (reqs: LockRequest[]) => {
      const { perTrip, total } = limits()
      const rows = await db.query<{ r: LockOutcome[] | string }>('SELECT lock_seats_many($1::jsonb, $2, $3, $4, $5) AS r', [
        JSON.stringify(
          reqs.map((q) => ({
            tripId: q.trip.tripId ?? null,
            tripDate: q.trip.tripDate,
            coachCode: q.trip.coachCode,
            originCode: q.trip.originCode,
            destinationCode: q.trip.destinationCode,
            seatNames: q.seatNames,
            holders: q.holders,
            passengerId: q.passengerId,
            now: q.now.toISOString(),
            expires: addTime(q.now, { minutes: q.holdMinutes }).toISOString(),
            address: q.address,
          })),
        ),
        MAX_SEATS,
        OPEN_SEAT_NAME,
        perTrip,
        total,
      ])
      const raw = rows[0]!.r
      return typeof raw === 'string' ? (JSON.parse(raw) as LockOutcome[]) : raw
    },
    { concurrency: db.kind === 'pglite' ? 1 : 4, maxBatch: 64 },
  )
  return async (req) => {
    const out = await run(req)
    if ('lost' in out) return false
    if ('failed' in out) throw new Error(`lock_seats failed (${out.failed}): ${out.message}`)
    if ('error' in out) {
      if (out.error === 'MAX_SEAT_WARNING')
        throw new AppError('MAX_SEAT_WARNING', { reason: `You can select at most ${MAX_SEATS}`, values: { count: MAX_SEATS } })
      if (out.error === 'HOLD_LIMIT_EXCEEDED') throw holdLimitError(out)
      if (out.error === 'HOLD_ENDED') throw holdEndedError(out.retry)
      if (out.error === 'SALE_NOT_OPEN') throw saleNotOpenError(new Date(out.opens))
      throw new AppError(out.error)
    }
    return { seatNames: out.seatNames, expirationTime: dhakaIsoOrNull(out.earliest ? new Date(out.earliest) : null) }
  }
}

/** HOLD_LIMIT_EXCEEDED: the client address holds `limit` seats (locked or in unpaid bookings) on the trip or on all trips. */
export function holdLimitError(out: { limit: number; scope: 'trip' | 'total'; retry: number | null }): AppError {
  const where = out.scope === 'trip' ? 'on this trip' : 'on all trips together'
  return new AppError('HOLD_LIMIT_EXCEEDED', {
    reason: `At most ${out.limit} seats may be held from one network ${where}. Book or release seats, or try again when a hold ends.`,
    values: { limit: out.limit },
    retryAfterSeconds: Math.max(1, out.retry ?? 60),
  })
}

/**
 * SEAT_HOLD_ENDED for a seat whose first booking by this passenger or address has
 * ended (first_holds): it cannot be held by them again for `retry` seconds.
 */
export function holdEndedError(retry: number): AppError {
  const minutes = Math.max(1, Math.ceil(retry / 60))
  return new AppError('SEAT_HOLD_ENDED', {
    reason: `Your time on these seats has run out; you can hold them again in ${minutes} minutes. Choose other seats.`,
    values: { minutes },
  })
}

type LockOutcome =
  | { error: 'TRIP_NOT_FOUND' | 'TRIP_OMITTED' | 'TRIP_IS_CLOSED' | 'SEAT_NOT_FOUND' | 'MAX_SEAT_WARNING' }
  | { error: 'HOLD_LIMIT_EXCEEDED'; limit: number; scope: 'trip' | 'total'; retry: number | null }
  | { error: 'HOLD_ENDED'; retry: number }
  | { error: 'SALE_NOT_OPEN'; opens: string }
  | { lost: true }
  | { failed: string; message: string }
  | { seatNames: string[]; earliest: string | null }

/**
 * Releases the caller's own locks among `seatNames`; others' locks are untouched. Seats a waitlist
 * offer holds for the caller stay held (a reload of the seat page releases its seats): leaving the
 * waitlist gives them up (server/waitlist/).
 */
export async function unlockSeats(db: Queryable, opts: { tripId: number; seatNames: string[]; holders: string[]; now: Date }): Promise<Held> {
  await db.query(
    `DELETE FROM seat_locks l WHERE l.trip_id = $1 AND l.seat_name = ANY($2::text[]) AND l.holder = ANY($3::text[])
        AND NOT EXISTS (SELECT 1 FROM waitlist w WHERE w.trip_id = l.trip_id AND w.status = 'OFFERED' AND l.seat_name = ANY(w.offered_seats)
                         AND l.holder = 'p:' || w.passenger_id AND w.offer_expires_at > $4)`,
    [opts.tripId, opts.seatNames, opts.holders, opts.now],
  )
  return strip(await heldBy(db, opts.tripId, opts.holders, opts.now))
}

function strip(h: Held): Held {
  return { seatNames: h.seatNames, expirationTime: h.expirationTime }
}

/** One extension request: the trip as the client names it, the held seats, who asks and until when. */
export interface ExtendRequest {
  trip: LockRequest['trip']
  seatNames: string[]
  holders: string[]
  at: Date
  now: Date
  /** Runs first in the extension's transaction; what it answers runs with the new end once the seats are kept (a round trip's outbound booking). */
  alsoKeep?: (tx: Queryable) => Promise<(at: Date) => Promise<void>>
}

/** The hold after an extension (contract extendSeatLockResponse, instants as Dhaka ISO). */
export interface Extended {
  seatNames: string[]
  expirationTime: string
  maxExpirationTime: string
  extensionsLeft: number
}

/**
 * "Extend booking time" for a hold before booking: moves the caller's unexpired locks on
 * `seatNames` to `at`, all together. Like a booking's extension, `at` must be after now and
 * after the hold's current end, and no later than its maximum: `maxHoldMinutes` from when the
 * hold was won (its first expiry minus `holdMinutes`), never after departure
 * (INVALID_EXPIRATION_TIME). At most MAX_HOLD_EXTENSIONS extensions per hold, and none once the
 * maximum is reached (HOLD_EXTENSION_REFUSED, with `until`: when the hold ends as it is). A seat the caller does not hold (any more):
 * BOOKING_TIME_EXCEED. The rows are locked FOR UPDATE, so two processes extending at once are
 * counted one after the other. Migration 017 keeps `extensions` and `first_expires_at` true; a hold
 * released and locked again by its passenger or address keeps both (migration 032).
 */
export async function extendHold(
  db: Db,
  req: ExtendRequest,
  limits: { holdMinutes: number; maxHoldMinutes: number; maxExtensions: number },
): Promise<Extended> {
  const names = [...new Set(req.seatNames)].filter((n) => n !== OPEN_SEAT_NAME).sort()
  if (names.length === 0) throw new AppError('SEAT_NOT_FOUND')
  return db.transaction(async (tx) => {
    const keepToo = await req.alsoKeep?.(tx)
    const trip = req.trip.tripId ? await findTrip(tx, req.trip.tripId) : await findTripByCoach(tx, req.trip.tripDate, req.trip.coachCode)
    if (!trip) throw new AppError('TRIP_NOT_FOUND')
    assertRoute(trip, req.trip.originCode, req.trip.destinationCode)
    assertOnSale(trip, req.now)
    assertSaleOpen(trip, req.now)
    const rows = await tx.query<{ seat_name: string; expires_at: Date; first_expires_at: Date | null; extensions: number }>(
      `SELECT seat_name, expires_at, first_expires_at, extensions FROM seat_locks
        WHERE trip_id = $1 AND seat_name = ANY($2::text[]) AND holder = ANY($3::text[]) AND expires_at > $4
        ORDER BY seat_name FOR UPDATE`,
      [trip.id, names, req.holders, req.now],
    )
    if (rows.length !== names.length) {
      const lost = names.filter((n) => !rows.some((r) => r.seat_name === n))
      throw new AppError('BOOKING_TIME_EXCEED', { reason: `Your hold on seat ${lost.join(', ')} has run out. Choose your seats again.` })
    }
    const ends = Math.min(...rows.map((r) => r.expires_at.getTime()))
    const firstEnd = Math.min(...rows.map((r) => (r.first_expires_at ?? r.expires_at).getTime()))
    const max = Math.min(firstEnd + (limits.maxHoldMinutes - limits.holdMinutes) * 60_000, trip.departure_at.getTime())
    const done = Math.max(...rows.map((r) => r.extensions))
    if (done >= limits.maxExtensions || max - ends < 1000) {
      throw new AppError('HOLD_EXTENSION_REFUSED', {
        reason: `Seats can be held longer at most ${limits.maxExtensions} times, and for at most ${limits.maxHoldMinutes} minutes in all. Book them before the time runs out.`,
        values: { count: limits.maxExtensions, minutes: limits.maxHoldMinutes, until: dhakaIsoOrNull(new Date(ends))! },
      })
    }
    const at = req.at.getTime()
    if (at <= req.now.getTime() || at <= ends || at > max) {
      throw new AppError('INVALID_EXPIRATION_TIME', {
        reason: `Invalid expiration time. The seats can be held until ${dhakaIsoOrNull(new Date(max))} at the latest.`,
      })
    }
    await tx.query(
      'UPDATE seat_locks SET expires_at = GREATEST(expires_at, $4), extensions = $5 WHERE trip_id = $1 AND seat_name = ANY($2::text[]) AND holder = ANY($3::text[])',
      [trip.id, names, req.holders, req.at, done + 1],
    )
    // The first lock's record carries the count and the end over a release and lock again (migration 032).
    await tx.query(
      `UPDATE first_holds h SET extensions = $5, expires_at = GREATEST(h.expires_at, $4), keep_until = GREATEST(h.keep_until, $4)
         FROM seat_locks l
        WHERE l.trip_id = $1 AND l.seat_name = ANY($2::text[]) AND l.holder = ANY($3::text[])
          AND h.trip_id = l.trip_id AND h.seat_name = l.seat_name AND h.kind = 'lock'
          AND h.holder_key = ANY(seat_lock_hold_keys(l.holder, l.address))`,
      [trip.id, names, req.holders, req.at, done + 1],
    )
    await keepToo?.(req.at)
    return {
      seatNames: names,
      expirationTime: dhakaIsoOrNull(req.at)!,
      maxExpirationTime: dhakaIsoOrNull(new Date(max))!,
      extensionsLeft: limits.maxExtensions - done - 1,
    }
  })
}
