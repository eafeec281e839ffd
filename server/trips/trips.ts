/**
 * Trips: the search, loading one with its route and layout, sale checks, and the
 * seat map with each seat's state as the trip-details answer shows it.
 */
import {
  MAX_SEATS,
  OPEN_SEAT_NAME,
  seatStatus,
  seatTypes,
  type CoachType,
  type Seat,
  type SeatType,
  type TripDetails,
  type TripSummary,
} from '../../contract/schemas.ts'
import { formatTime } from '../../contract/dhaka-dates.ts'
import { formatWeekdayDate } from '../../contract/weekday-date.ts'
import { pgArray, type Queryable } from '../db/db.ts'
import { AppError } from '../core.ts'
import { activeStations } from './lookups.ts'
import { dhakaIsoOrNull, timeBetween, toDhakaIso } from '../lib/time.ts'

/** A trip joined with its route and layout. */
export interface TripRow {
  id: number
  trip_date: string
  coach_code: string
  route_id: number
  layout_id: number
  departure_at: Date
  arrival_at: Date
  status: string
  fares: Record<string, number>
  /** When it goes on sale (migration 040); null: on sale. */
  sale_opens_at: Date | null
  origin_code: string
  destination_code: string
  duration_minutes: number
  coach_type: CoachType
  layout_name: string
  rows: number
  columns: number
  aisle_columns: number[]
  decks: ('LOWER' | 'UPPER')[]
}

const TRIP_SELECT = `
  SELECT t.id, t.trip_date::text AS trip_date, t.coach_code, t.route_id, t.layout_id, t.departure_at, t.arrival_at,
         t.status, t.fares, t.sale_opens_at, r.origin_code, r.destination_code, r.duration_minutes,
         l.coach_type, l.name AS layout_name, l.rows, l.columns, l.aisle_columns, l.decks
    FROM trips t JOIN routes r ON r.id = t.route_id JOIN layouts l ON l.id = t.layout_id`

/** Loads a trip by id, or null. */
export async function findTrip(q: Queryable, tripId: number): Promise<TripRow | null> {
  const rows = await q.query<TripRow>(`${TRIP_SELECT} WHERE t.id = $1`, [tripId])
  return rows[0] ? fixTrip(rows[0]) : null
}

/**
 * The trip's sale status now, read past any memory of its row: the operator may have closed it
 * (`npm run trip`, another process) a moment ago. Null when there is no such trip.
 */
export async function tripStatusNow(q: Queryable, tripId: number): Promise<string | null> {
  const rows = await q.query<{ status: string }>('SELECT status FROM trips WHERE id = $1', [tripId])
  return rows[0]?.status ?? null
}

/** Loads a trip by its date and coach code, or null. */
export async function findTripByCoach(q: Queryable, tripDate: string, coachCode: string): Promise<TripRow | null> {
  const rows = await q.query<TripRow>(`${TRIP_SELECT} WHERE t.trip_date = $1::date AND t.coach_code = $2`, [tripDate, coachCode])
  return rows[0] ? fixTrip(rows[0]) : null
}

function fixTrip(t: TripRow): TripRow {
  if (typeof t.fares === 'string') t.fares = JSON.parse(t.fares)
  t.aisle_columns = pgArray(t.aisle_columns).map(Number)
  t.decks = pgArray(t.decks) as TripRow['decks']
  return t
}

/** Throws the catalogue error when the trip is not on sale at `now`. */
export function assertOnSale(trip: TripRow, now: Date): void {
  if (trip.status === 'OMITTED') throw new AppError('TRIP_OMITTED')
  if (trip.status !== 'OPEN') throw new AppError('TRIP_IS_CLOSED')
  if (trip.departure_at.getTime() <= now.getTime()) throw new AppError('TRIP_IS_CLOSED')
}

/** When the trip goes on sale as a Dhaka ISO instant, while it is not yet on sale at `now`; null once it is. */
export function saleOpensAt(opens: Date | null, now: Date): string | null {
  return opens && opens.getTime() > now.getTime() ? toDhakaIso(opens) : null
}

/** SALE_NOT_OPEN: the trip goes on sale at `opens`; its English reason names the hour. */
export function saleNotOpenError(opens: Date): AppError {
  return new AppError('SALE_NOT_OPEN', {
    reason: `Tickets for this trip go on sale at ${formatTime(opens)}, ${formatWeekdayDate(opens)} (Asia/Dhaka).`,
    values: { opensAt: toDhakaIso(opens) },
  })
}

/** Throws SALE_NOT_OPEN while the trip is not yet on sale at `now` (the server's clock). */
export function assertSaleOpen(trip: TripRow, now: Date): void {
  if (saleOpensAt(trip.sale_opens_at, now)) throw saleNotOpenError(trip.sale_opens_at!)
}

/** Throws TRIP_NOT_FOUND unless the trip runs from origin to destination. */
export function assertRoute(trip: TripRow, originCode: string, destinationCode: string): void {
  if (trip.origin_code !== originCode || trip.destination_code !== destinationCode) throw new AppError('TRIP_NOT_FOUND')
}

/** One seat of a trip's map: its place, whether it is sold (1) or booked (2), and its unexpired lock. */
export interface SeatState {
  name: string
  row: number
  col: number
  deck: 'LOWER' | 'UPPER'
  seat_type: SeatType
  status: number
  holder: string | null
  expires_at: Date | null
}

/**
 * The trip's seats in layout order with their state, in one call (the `seat_map`
 * function, db/functions/seat_map.sql): sold or booked (the `seat_taken` rule) from the
 * seat's one active reservation row, and its unexpired lock.
 */
export async function seatStates(q: Queryable, trip: { id: number; layout_id: number }, now: Date): Promise<SeatState[]> {
  return q.query<SeatState>('SELECT * FROM seat_map($1, $2, $3)', [trip.layout_id, trip.id, now])
}

/** Seat types in catalogue order. */
export function sortSeatTypes(types: string[]): SeatType[] {
  return seatTypes.filter((t) => types.includes(t))
}

/**
 * The open trips from origin to destination on a Dhaka date that depart after `now`,
 * with their free seats (neither taken nor under an unexpired lock) and the route's stations.
 */
export async function searchTrips(q: Queryable, origin: string, destination: string, tripDate: string, now: Date): Promise<TripSummary[]> {
  const rows = await q.query<TripRow & { total_seats: number; unavailable: number; seat_types: string[] | string }>(
    `SELECT t.id, t.trip_date::text AS trip_date, t.coach_code, t.departure_at, t.arrival_at, t.fares, t.layout_id, t.sale_opens_at,
            r.origin_code, r.destination_code, l.coach_type,
            (SELECT count(*)::int FROM layout_seats s WHERE s.layout_id = t.layout_id AND s.name <> '${OPEN_SEAT_NAME}') AS total_seats,
            (SELECT array_agg(DISTINCT s.seat_type) FROM layout_seats s WHERE s.layout_id = t.layout_id AND s.name <> '${OPEN_SEAT_NAME}') AS seat_types,
            (SELECT count(*)::int FROM (
                SELECT rs.seat_name FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
                 WHERE rs.trip_id = t.id AND seat_taken(rs.active, x.status, x.expiration_time, $4)
                UNION
                SELECT k.seat_name FROM seat_locks k WHERE k.trip_id = t.id AND k.expires_at > $4 AND k.seat_name <> '${OPEN_SEAT_NAME}'
             ) u) AS unavailable
       FROM trips t JOIN routes r ON r.id = t.route_id JOIN layouts l ON l.id = t.layout_id
      WHERE t.trip_date = $3::date AND r.origin_code = $1 AND r.destination_code = $2 AND t.status = 'OPEN' AND t.departure_at > $4
      ORDER BY t.departure_at, t.coach_code`,
    [origin, destination, tripDate, now],
  )
  if (rows.length === 0) return []
  const stations = await activeStations(q, [origin, destination])
  const boarding = stations.filter((s) => s.city_code === origin).map((s) => s.name)
  const dropping = stations.filter((s) => s.city_code === destination).map((s) => s.name)
  return rows.map((t) => {
    const fares = typeof t.fares === 'string' ? (JSON.parse(t.fares) as Record<string, number>) : t.fares
    const types = sortSeatTypes(pgArray(t.seat_types))
    const prices = types.map((ty) => fares[ty]).filter((f): f is number => typeof f === 'number')
    return {
      tripId: t.id,
      tripDate: t.trip_date,
      coachCode: t.coach_code,
      coachType: t.coach_type,
      originCode: t.origin_code,
      destinationCode: t.destination_code,
      departureTime: toDhakaIso(t.departure_at),
      arrivalTime: toDhakaIso(t.arrival_at),
      durationMinutes: Math.round(timeBetween(t.departure_at, t.arrival_at, 'minutes')),
      boardingStations: boarding,
      droppingStations: dropping,
      fareFrom: prices.length ? Math.min(...prices) : 0,
      availableSeats: Math.max(0, Number(t.total_seats) - Number(t.unavailable)),
      totalSeats: Number(t.total_seats),
      seatTypes: types,
      saleOpensAt: saleOpensAt(t.sale_opens_at, now),
    }
  })
}

/** Search results as of `now`: a trip whose sale has opened since they were read says so. */
export function onSaleAt(trips: TripSummary[], now: Date): TripSummary[] {
  return trips.some((t) => t.saleOpensAt && Date.parse(t.saleOpensAt) <= now.getTime())
    ? trips.map((t) => (t.saleOpensAt && Date.parse(t.saleOpensAt) <= now.getTime() ? { ...t, saleOpensAt: null } : t))
    : trips
}

/**
 * The trip-details answer: the seat map as `holders` (the caller's lock holders) see
 * it, and the seats the caller may still take next to the `booked` unpaid seats it has
 * and within what it has left of the per-passenger cap for the date (`dateCap`).
 */
export function toTripDetails(
  trip: TripRow,
  states: SeatState[],
  holders: string[],
  booked: number,
  now: Date,
  dateCap?: { cap: number; left: number | null },
): TripDetails {
  const held: string[] = []
  let earliest: Date | null = null
  const seats: Seat[] = states.map((s) => {
    const locked = s.holder !== null && s.status === seatStatus.available
    const mine = locked && holders.includes(s.holder!)
    if (s.holder !== null && holders.includes(s.holder)) {
      held.push(s.name)
      if (!earliest || s.expires_at! < earliest) earliest = s.expires_at
    }
    return {
      name: s.name,
      row: s.row,
      column: s.col,
      deck: s.deck,
      seatType: s.seat_type,
      fare: trip.fares[s.seat_type] ?? 0,
      status: s.status,
      lockedByOther: locked && !mine,
      lockedByMe: mine,
    }
  })
  return {
    tripId: trip.id,
    tripDate: trip.trip_date,
    originCode: trip.origin_code,
    destinationCode: trip.destination_code,
    departureTime: toDhakaIso(trip.departure_at),
    arrivalTime: toDhakaIso(trip.arrival_at),
    coach: { code: trip.coach_code, type: trip.coach_type, name: trip.layout_name },
    availableSeats: seats.filter((s) => s.name !== OPEN_SEAT_NAME && s.status === seatStatus.available && !s.lockedByOther && !s.lockedByMe).length,
    seatLayout: { rows: trip.rows, columns: trip.columns, aisleColumns: trip.aisle_columns, decks: trip.decks, seats },
    remainingSeatLimit: Math.max(0, Math.min(MAX_SEATS - booked, dateCap ? (dateCap.left ?? dateCap.cap) : MAX_SEATS) - held.length),
    ...(dateCap ? { dateSeatLimit: dateCap } : {}),
    expirationTime: dhakaIsoOrNull(earliest),
    saleOpensAt: saleOpensAt(trip.sale_opens_at, now),
  }
}
