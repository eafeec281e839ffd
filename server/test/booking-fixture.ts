/**
 * Test helpers for the reservation routes on the in-process app (harness/app-fixture.ts: the database, the
 * movable clock, passengers with sessions): free seats, request bodies, booking and buying.
 */
import type { Fixture, pickTrip } from '../../harness/app-fixture.ts'

export { type Fixture, openFixture, pickTrip } from '../../harness/app-fixture.ts'

/** Names of seats on the trip that are free right now (not sold, booked or locked). */
export async function freeSeats(f: Pick<Fixture, 'db' | 'now'>, tripId: number, n: number): Promise<string[]> {
  const rows = await f.db.query<{ name: string }>(
    `SELECT s.name FROM trips t JOIN layout_seats s ON s.layout_id = t.layout_id
      WHERE t.id = $1 AND s.name <> 'OPEN'
        AND NOT EXISTS (SELECT 1 FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
                         WHERE rs.trip_id = t.id AND rs.seat_name = s.name AND seat_taken(rs.active, x.status, x.expiration_time, $2))
        AND NOT EXISTS (SELECT 1 FROM seat_locks k WHERE k.trip_id = t.id AND k.seat_name = s.name AND k.expires_at > $2)
      ORDER BY s.row, s.col, s.name LIMIT $3`,
    [tripId, f.now(), n],
  )
  if (rows.length < n) throw new Error(`only ${rows.length} free seats on trip ${tripId}`)
  return rows.map((r) => r.name)
}

type Trip = Awaited<ReturnType<typeof pickTrip>>

/** The trip back of `out`: the reverse route, leaving after `out` arrives (on its travel date when `sameDate`, else a later one). */
export async function returnTripOf(fx: Pick<Fixture, 'db'>, out: Trip, sameDate = false): Promise<Trip> {
  const [row] = await fx.db.query<{ id: number; trip_date: string; coach_code: string; departure_at: Date }>(
    `SELECT t.id, t.trip_date::text AS trip_date, t.coach_code, t.departure_at FROM trips t JOIN routes r ON r.id = t.route_id
      WHERE t.status = 'OPEN' AND r.origin_code = $1 AND r.destination_code = $2
        AND t.departure_at > (SELECT arrival_at FROM trips WHERE id = $3) AND ($4 OR t.trip_date > $5::date) AND (NOT $4 OR t.trip_date = $5::date)
      ORDER BY t.departure_at, t.id LIMIT 1`,
    [out.destinationCode, out.originCode, out.id, sameDate, out.tripDate],
  )
  if (!row) throw new Error(`no return trip for trip ${out.id}`)
  return {
    id: row.id,
    tripDate: row.trip_date,
    coachCode: row.coach_code,
    originCode: out.destinationCode,
    destinationCode: out.originCode,
    departureAt: row.departure_at,
    boardingId: out.droppingId,
    droppingId: out.boardingId,
  }
}

/** Seat `seat` of the trip as its live seat map shows it now (its status and whether someone else's lock holds it). */
export async function seatOnMap(f: Pick<Fixture, 'api'>, trip: Trip, seat: string): Promise<{ status: number; lockedByOther: boolean }> {
  const d = await f.api('POST', '/api/reservation/tripDetails', {
    tripId: trip.id,
    originCode: trip.originCode,
    destinationCode: trip.destinationCode,
    originBusStationId: null,
    destinationBusStationId: null,
  })
  if (d.status !== 200) throw new Error(`trip details failed: ${JSON.stringify(d.body)}`)
  return d.body.data.seatLayout.seats.find((s: { name: string }) => s.name === seat)
}

/** The seatLock body for a trip. */
export function lockBody(trip: Trip, seatNames: string[], locked = true): Record<string, unknown> {
  return { tripDate: trip.tripDate, coachCode: trip.coachCode, originCode: trip.originCode, destinationCode: trip.destinationCode, seatNames, locked }
}

/** The booking body for a trip. */
export function bookingBody(trip: Trip, seatNames: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tripId: trip.id,
    seatNames,
    boardingStationId: trip.boardingId,
    droppingStationId: trip.droppingId,
    passengerName: 'Ayesha Rahman',
    passengerMobile: '01712000111',
    passengerEmail: 'ayesha@example.com',
    ...extra,
  }
}

/** Locks free seats for the passenger and books them; answers the reservation. */
export async function lockAndBook(f: Fixture, who: { token: string }, trip: Trip, n = 2): Promise<any> {
  const seats = await freeSeats(f, trip.id, n)
  const lock = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: who.token })
  if (lock.status !== 200 || !lock.body.data) throw new Error(`lock failed: ${JSON.stringify(lock.body)}`)
  const res = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats), { token: who.token })
  if (res.status !== 200) throw new Error(`booking failed: ${JSON.stringify(res.body)}`)
  return res.body.data
}

/** Books and pays from balance (the passenger needs the balance); answers the sold reservation. */
export async function buyTicket(f: Fixture, who: { token: string }, trip: Trip, n = 2): Promise<any> {
  const r = await lockAndBook(f, who, trip, n)
  const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: r.id }, { token: who.token })
  if (paid.status !== 200) throw new Error(`payment failed: ${JSON.stringify(paid.body)}`)
  return paid.body.data
}

/** The newest one-time code sent to a mobile. */
export async function lastCode(f: Fixture, mobile: string): Promise<string> {
  const [row] = await f.db.query<{ code: string }>('SELECT code FROM outbox_messages WHERE "to" = $1 AND code IS NOT NULL ORDER BY id DESC LIMIT 1', [
    mobile,
  ])
  if (!row) throw new Error(`no code sent to ${mobile}`)
  return row.code
}

/**
 * Locks, books (with `headers`, e.g. Accept-Language, and booking body fields in
 * `body`) and pays from balance; answers the sold reservation.
 */
export async function buyTicketWith(
  f: Fixture,
  who: { token: string },
  trip: Trip,
  opts: { seats?: number; headers?: Record<string, string>; body?: Record<string, unknown> } = {},
): Promise<any> {
  const seats = await freeSeats(f, trip.id, opts.seats ?? 1)
  const lock = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: who.token })
  if (lock.status !== 200 || !lock.body.data) throw new Error(`lock failed: ${JSON.stringify(lock.body)}`)
  const res = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats, opts.body), { token: who.token, headers: opts.headers })
  if (res.status !== 200) throw new Error(`booking failed: ${JSON.stringify(res.body)}`)
  const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: res.body.data.id }, { token: who.token })
  if (paid.status !== 200) throw new Error(`payment failed: ${JSON.stringify(paid.body)}`)
  return paid.body.data
}

/** A waiting room place's number counted the long way, in the database: the places waiting ahead of the token's in queue order, plus one. */
export async function queuePlaceCounted(f: Pick<Fixture, 'db'>, token: string): Promise<number> {
  const [row] = await f.db.query<{ place: number }>(
    `SELECT 1 + count(q.id)::int AS place FROM queue_places p JOIN queue_places q ON q.rush_id = p.rush_id AND q.admitted_at IS NULL AND (q.draw, q.id) < (p.draw, p.id)
      WHERE p.token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
    [token],
  )
  return row!.place
}
