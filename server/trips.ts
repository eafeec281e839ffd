/**
 * Trips as the reservation routes see them: loading one with its route and
 * layout, sale checks, seat availability (Asia/Dhaka time helpers live in time.ts).
 */
import { seatTypes, type CoachType, type SeatType } from '../contract/schemas.ts';
import type { Queryable } from './db.ts';
import { AppError } from './http.ts';
import { toDhakaIso } from './time.ts';

/** Nullable variant of toDhakaIso (time.ts). */
export function dhakaIsoOrNull(d: Date | null | undefined): string | null {
  return d ? toDhakaIso(d) : null;
}

/** Adds minutes to an instant. */
export function addMinutes(d: Date, minutes: number): Date {
  return new Date(d.getTime() + minutes * 60_000);
}

/** A trip joined with its route and layout. */
export interface TripRow {
  id: number;
  trip_date: string;
  coach_code: string;
  route_id: number;
  layout_id: number;
  departure_at: Date;
  arrival_at: Date;
  status: string;
  fares: Record<string, number>;
  origin_code: string;
  destination_code: string;
  duration_minutes: number;
  coach_type: CoachType;
  layout_name: string;
  rows: number;
  columns: number;
  aisle_columns: number[];
  decks: ('LOWER' | 'UPPER')[];
}

const TRIP_SELECT = `
  SELECT t.id, t.trip_date::text AS trip_date, t.coach_code, t.route_id, t.layout_id, t.departure_at, t.arrival_at,
         t.status, t.fares, r.origin_code, r.destination_code, r.duration_minutes,
         l.coach_type, l.name AS layout_name, l.rows, l.columns, l.aisle_columns, l.decks
    FROM trips t JOIN routes r ON r.id = t.route_id JOIN layouts l ON l.id = t.layout_id`;

/** Loads a trip by id, or null. */
export async function findTrip(q: Queryable, tripId: number): Promise<TripRow | null> {
  const rows = await q.query<TripRow>(`${TRIP_SELECT} WHERE t.id = $1`, [tripId]);
  return rows[0] ? fixTrip(rows[0]) : null;
}

/** Loads a trip by its date and coach code, or null. */
export async function findTripByCoach(q: Queryable, tripDate: string, coachCode: string): Promise<TripRow | null> {
  const rows = await q.query<TripRow>(`${TRIP_SELECT} WHERE t.trip_date = $1::date AND t.coach_code = $2`, [tripDate, coachCode]);
  return rows[0] ? fixTrip(rows[0]) : null;
}

function fixTrip(t: TripRow): TripRow {
  if (typeof t.fares === 'string') t.fares = JSON.parse(t.fares);
  t.aisle_columns = parseArray(t.aisle_columns).map(Number);
  t.decks = parseArray(t.decks) as TripRow['decks'];
  return t;
}

function parseArray(v: unknown): string[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return v.replace(/^\{|\}$/g, '').split(',').filter(Boolean);
  return [];
}

/** Throws the catalogue error when the trip is not on sale at `now`. */
export function assertOnSale(trip: TripRow, now: Date): void {
  if (trip.status === 'OMITTED') throw new AppError('TRIP_OMITTED');
  if (trip.status !== 'OPEN') throw new AppError('TRIP_IS_CLOSED');
  if (trip.departure_at.getTime() <= now.getTime()) throw new AppError('TRIP_IS_CLOSED');
}

/** Throws TRIP_NOT_FOUND unless the trip runs from origin to destination. */
export function assertRoute(trip: TripRow, originCode: string, destinationCode: string): void {
  if (trip.origin_code !== originCode || trip.destination_code !== destinationCode) throw new AppError('TRIP_NOT_FOUND');
}

/**
 * SQL predicate over `rs` (reservation_seats) and `x` (reservations) for a seat that
 * is taken: sold, or booked and not yet expired. `$now` is the caller's placeholder.
 */
export const takenSql = (now: string) => `rs.active AND (x.status = 1 OR (x.status = 2 AND x.expiration_time > ${now}))`;

/** One seat of a trip's map: its place, whether it is sold (1) or booked (2), and its unexpired lock. */
export interface SeatState {
  name: string;
  row: number;
  col: number;
  deck: 'LOWER' | 'UPPER';
  seat_type: SeatType;
  status: number;
  holder: string | null;
  expires_at: Date | null;
}

/**
 * The trip's seats in layout order with their state, in one call (the `seat_map`
 * function, migration 005): sold or booked (unexpired) from the seat's one active
 * reservation row, and its unexpired lock.
 */
export async function seatStates(q: Queryable, trip: { id: number; layout_id: number }, now: Date): Promise<SeatState[]> {
  return q.query<SeatState>('SELECT * FROM seat_map($1, $2, $3)', [trip.layout_id, trip.id, now]);
}

/** Seat types in catalogue order. */
export function sortSeatTypes(types: string[]): SeatType[] {
  return seatTypes.filter((t) => types.includes(t));
}

/**
 * Marks booked reservations past their expiration as canceled (reason EXPIRED) and
 * frees their seats. One statement, so it never races a payment that locked the row.
 */
export async function expireBookings(q: Queryable, now: Date, scope: { tripId?: number; reservationId?: number; passengerId?: number } = {}): Promise<void> {
  await q.query(
    `WITH expired AS (
       UPDATE reservations SET status = 5, canceled_at = expiration_time, cancel_reason = 'EXPIRED'
        WHERE status = 2 AND expiration_time <= $1
          AND ($2::int IS NULL OR trip_id = $2) AND ($3::int IS NULL OR id = $3) AND ($4::int IS NULL OR passenger_id = $4)
        RETURNING id)
     UPDATE reservation_seats SET active = false WHERE active AND reservation_id IN (SELECT id FROM expired)`,
    [now, scope.tripId ?? null, scope.reservationId ?? null, scope.passengerId ?? null],
  );
}
