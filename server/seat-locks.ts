/**
 * Seat locks: a holder (`p:<passengerId>`, `d:<deviceId>` or `ip:<address>`) wins a
 * seat with one atomic upsert that only replaces an expired lock or its own. All
 * seats of one request are won together or not at all (one transaction).
 */
import { MAX_SEATS, OPEN_SEAT_NAME } from '../contract/schemas.ts';
import type { Db, Queryable } from './db.ts';
import { AppError } from './http.ts';
import { addMinutes, dhakaIsoOrNull, takenSql } from './trips.ts';

const deviceIdPattern = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * The lock holders that count as the caller: its own holder, plus the visitor
 * holder of its X-Device-Id when signed in (locks taken before logging in).
 */
export function holdersOf(call: { holder: string; auth: { passengerId: number } | null; req: { headers: Record<string, unknown> } }): string[] {
  const device = call.req.headers['x-device-id'];
  if (call.auth && typeof device === 'string' && deviceIdPattern.test(device)) return [call.holder, `d:${device}`];
  return [call.holder];
}

/** What the caller holds on a trip: seat names and the earliest lock expiry. */
export interface Held {
  seatNames: string[];
  expirationTime: string | null;
}

/** The caller's unexpired locks on the trip. */
export async function heldBy(q: Queryable, tripId: number, holders: string[], now: Date): Promise<Held & { earliest: Date | null }> {
  const rows = await q.query<{ seat_name: string; expires_at: Date }>(
    'SELECT seat_name, expires_at FROM seat_locks WHERE trip_id = $1 AND holder = ANY($2::text[]) AND expires_at > $3 ORDER BY seat_name',
    [tripId, holders, now],
  );
  let earliest: Date | null = null;
  for (const r of rows) if (!earliest || r.expires_at < earliest) earliest = r.expires_at;
  return { seatNames: rows.map((r) => r.seat_name), expirationTime: dhakaIsoOrNull(earliest), earliest };
}

/** Seats of the passenger's unpaid, unexpired bookings on the trip. */
export async function bookedUnpaidCount(q: Queryable, tripId: number, passengerId: number | null, now: Date): Promise<number> {
  if (passengerId == null) return 0;
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
      WHERE rs.trip_id = $1 AND rs.active AND x.passenger_id = $2 AND x.status = 2 AND x.expiration_time > $3`,
    [tripId, passengerId, now],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Seats the caller may still lock on the trip. */
export async function remainingSeatLimit(q: Queryable, tripId: number, holders: string[], passengerId: number | null, now: Date): Promise<number> {
  const held = await heldBy(q, tripId, holders, now);
  return Math.max(0, MAX_SEATS - held.seatNames.length - (await bookedUnpaidCount(q, tripId, passengerId, now)));
}

const LOST = Symbol('lost');

/**
 * Locks every seat in `seatNames` for `holders[0]` until now + holdMinutes, or none:
 * answers false when another holder has one of them or it is sold/booked.
 * SEAT_NOT_FOUND for a seat missing from the layout, MAX_SEAT_WARNING past the cap.
 */
export async function lockSeats(
  db: Db,
  opts: { tripId: number; layoutId: number; seatNames: string[]; holders: string[]; passengerId: number | null; now: Date; holdMinutes: number },
): Promise<Held | false> {
  const { tripId, holders, now } = opts;
  // Sorted, so two requests for overlapping seats take row locks in one order (no deadlock).
  const names = [...new Set(opts.seatNames.filter((n) => n !== OPEN_SEAT_NAME))].sort();
  if (names.length > 0) {
    const known = await db.query<{ name: string }>('SELECT name FROM layout_seats WHERE layout_id = $1 AND name = ANY($2::text[])', [opts.layoutId, names]);
    if (known.length !== names.length) throw new AppError('SEAT_NOT_FOUND');
  }
  if (names.length === 0) return strip(await heldBy(db, tripId, holders, now));
  try {
    return await db.transaction(async (tx) => {
      const won = await tx.query<{ seat_name: string }>(
        `INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at)
         SELECT $1, n, $3, $4 FROM unnest($2::text[]) AS n
         ON CONFLICT (trip_id, seat_name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
          WHERE seat_locks.expires_at <= $5 OR seat_locks.holder = ANY($6::text[])
         RETURNING seat_name`,
        [tripId, names, holders[0], addMinutes(now, opts.holdMinutes), now, holders],
      );
      if (won.length !== names.length) throw LOST;
      // Checked after the upsert: this statement's snapshot sees bookings committed while we waited.
      const taken = await tx.query(
        `SELECT 1 FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
          WHERE rs.trip_id = $1 AND rs.seat_name = ANY($2::text[]) AND ${takenSql('$3')} LIMIT 1`,
        [tripId, names, now],
      );
      if (taken.length > 0) throw LOST;
      const held = await heldBy(tx, tripId, holders, now);
      const booked = await bookedUnpaidCount(tx, tripId, opts.passengerId, now);
      if (held.seatNames.length + booked > MAX_SEATS) throw new AppError('MAX_SEAT_WARNING', { reason: `You can select at most ${MAX_SEATS}` });
      return strip(held);
    });
  } catch (err) {
    if (err === LOST) return false;
    // Deadlock or serialization failure under contention: the caller lost this round.
    const code = (err as { code?: string }).code;
    if (code === '40P01' || code === '40001') return false;
    throw err;
  }
}

/** Releases the caller's own locks among `seatNames`; others' locks are untouched. */
export async function unlockSeats(db: Db, opts: { tripId: number; seatNames: string[]; holders: string[]; now: Date }): Promise<Held> {
  await db.query('DELETE FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2::text[]) AND holder = ANY($3::text[])', [
    opts.tripId,
    opts.seatNames,
    opts.holders,
  ]);
  return strip(await heldBy(db, opts.tripId, opts.holders, opts.now));
}

function strip(h: Held): Held {
  return { seatNames: h.seatNames, expirationTime: h.expirationTime };
}

/** Deletes locks that expired before `now` (they are dead rows; for periodic housekeeping). */
export async function purgeExpiredLocks(q: Queryable, now: Date): Promise<number> {
  return (await q.query('DELETE FROM seat_locks WHERE expires_at < $1 RETURNING 1', [now])).length;
}
