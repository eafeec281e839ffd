/**
 * Demo sales: on most trips of the next days a few seats are already sold (and on
 * some, booked), so seat maps look lived-in. All belong to a seed passenger that
 * cannot log in; the demo passenger's tickets and balance are never touched.
 * Idempotent and cheap: only trips with no reservation at all get seeded (so each
 * new day gets some), with a handful of set-based statements.
 */
import { reservationStatus } from '../../contract/schemas.ts'
import type { Queryable } from '../db/db.ts'
import type { Deps } from '../core.ts'
import { newPin, newPnr } from '../bookings/tickets.ts'
import { mulberry32 } from '../lib/seeded-random.ts'
import { addDays, addTime, dhakaDate } from '../lib/time.ts'

/** Days after today whose trips get demo sales. */
export const SEED_SALES_DAYS = 7

/** The seed passenger: owns the demo sales, has no password (cannot log in). */
export const SEED_PASSENGER = { mobile: '01900000001', fullName: 'Seed Traveller', email: 'seed.traveller@example.com', city: 'Dhaka' }

const travellers: [string, string][] = [
  ['Karim Ahmed', '01711000101'],
  ['Fatema Begum', '01811000202'],
  ['Nusrat Jahan', '01911000303'],
  ['Tanvir Hasan', '01611000404'],
  ['Shirin Akter', '01511000505'],
  ['Arif Hossain', '01311000606'],
  ['Sadia Islam', '01411000707'],
  ['Mahmudul Hasan', '01711000808'],
]

/** Seeds demo sales on trips of today..today+SEED_SALES_DAYS that have none. */
export async function seedReservations(tx: Queryable, deps: Deps): Promise<void> {
  const now = deps.now()
  const today = dhakaDate(now)
  const trips = await tx.query<{
    id: number
    layout_id: number
    fares: Record<string, number> | string
    origin_code: string
    destination_code: string
    departure_at: Date
  }>(
    `SELECT t.id, t.layout_id, t.fares, r.origin_code, r.destination_code, t.departure_at
       FROM trips t JOIN routes r ON r.id = t.route_id
      WHERE t.trip_date BETWEEN $1::date AND $2::date AND t.status = 'OPEN' AND t.departure_at > $3
        AND NOT EXISTS (SELECT 1 FROM reservations x WHERE x.trip_id = t.id)
      ORDER BY t.id`,
    [today, addDays(today, SEED_SALES_DAYS), now],
  )
  if (trips.length === 0) return
  const passengerId = await seedPassenger(tx, now)

  const seats = await tx.query<{ layout_id: number; name: string; seat_type: string }>(
    "SELECT layout_id, name, seat_type FROM layout_seats WHERE name <> 'OPEN' ORDER BY layout_id, row, col, name",
  )
  const byLayout = new Map<number, { name: string; seat_type: string }[]>()
  for (const s of seats) (byLayout.get(s.layout_id) ?? byLayout.set(s.layout_id, []).get(s.layout_id)!).push(s)
  const stations = await tx.query<{ id: number; city_code: string }>(
    'SELECT DISTINCT ON (city_code) id, city_code FROM bus_stations ORDER BY city_code, offset_minutes, id',
  )
  const stationOf = new Map(stations.map((s) => [s.city_code, s.id]))

  type Plan = {
    key: string
    tripId: number
    status: typeof reservationStatus.sold | typeof reservationStatus.booked
    seats: { name: string; type: string; fare: number }[]
    boarding: number
    dropping: number
    who: [string, string]
    expires: Date | null
  }
  const plans: Plan[] = []
  for (const t of trips) {
    const rnd = mulberry32(t.id * 2654435761)
    // about one trip in five stays empty
    if (rnd() < 0.2) continue
    const layout = byLayout.get(t.layout_id) ?? []
    const boarding = stationOf.get(t.origin_code)
    const dropping = stationOf.get(t.destination_code)
    if (layout.length < 10 || boarding == null || dropping == null) continue
    const fares = typeof t.fares === 'string' ? (JSON.parse(t.fares) as Record<string, number>) : t.fares
    const pool = [...layout]
    const take = (n: number) =>
      Array.from({ length: n }, () => pool.splice(Math.floor(rnd() * pool.length), 1)[0]!).map((s) => ({
        name: s.name,
        type: s.seat_type,
        fare: fares[s.seat_type] ?? 0,
      }))
    const sold = 3 + Math.floor(rnd() * 6)
    plans.push({
      key: `${t.id}:${reservationStatus.sold}`,
      tripId: t.id,
      status: reservationStatus.sold,
      seats: take(sold),
      boarding,
      dropping,
      who: travellers[Math.floor(rnd() * travellers.length)]!,
      expires: null,
    })
    if (rnd() < 0.35) {
      // a booking held by the operator until two hours before departure
      const expires = addTime(t.departure_at, { hours: -2 })
      if (expires > now) {
        plans.push({
          key: `${t.id}:${reservationStatus.booked}`,
          tripId: t.id,
          status: reservationStatus.booked,
          seats: take(1 + Math.floor(rnd() * 2)),
          boarding,
          dropping,
          who: travellers[Math.floor(rnd() * travellers.length)]!,
          expires,
        })
      }
    }
  }
  if (plans.length === 0) return

  const paidAt = addTime(now, { hours: -1 })
  const rows = await tx.query<{ id: number; trip_id: number; status: number }>(
    `INSERT INTO reservations (trip_id, passenger_id, status, pnr, pin, boarding_station_id, dropping_station_id, passenger_name, passenger_mobile,
                               passenger_email, subtotal, discount, total, expiration_time, max_expiration_time, payment_method, paid_at, created_at)
     SELECT u.trip_id, $1, u.status, u.pnr, u.pin, u.boarding, u.dropping, u.name, u.mobile, NULL, u.total, 0, u.total, u.expires, u.expires,
            CASE WHEN u.status = ${reservationStatus.sold} THEN 'CARD' END, CASE WHEN u.status = ${reservationStatus.sold} THEN $2::timestamptz END, $2::timestamptz
       FROM unnest($3::int[], $4::int[], $5::text[], $6::text[], $7::int[], $8::int[], $9::text[], $10::text[], $11::int[], $12::timestamptz[])
            AS u(trip_id, status, pnr, pin, boarding, dropping, name, mobile, total, expires)
     RETURNING id, trip_id, status`,
    [
      passengerId,
      paidAt,
      plans.map((p) => p.tripId),
      plans.map((p) => p.status),
      plans.map((p) => (p.status === reservationStatus.sold ? newPnr() : null)),
      plans.map((p) => (p.status === reservationStatus.sold ? newPin() : null)),
      plans.map((p) => p.boarding),
      plans.map((p) => p.dropping),
      plans.map((p) => p.who[0]),
      plans.map((p) => p.who[1]),
      plans.map((p) => p.seats.reduce((a, s) => a + s.fare, 0)),
      plans.map((p) => p.expires),
    ],
  )
  const idOf = new Map(rows.map((r) => [`${r.trip_id}:${r.status}`, r.id]))
  const flat = plans.flatMap((p) => p.seats.map((s) => ({ rid: idOf.get(p.key)!, tripId: p.tripId, ...s })))
  await tx.query(
    `INSERT INTO reservation_seats (reservation_id, trip_id, seat_name, seat_type, fare)
     SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::int[])`,
    [flat.map((s) => s.rid), flat.map((s) => s.tripId), flat.map((s) => s.name), flat.map((s) => s.type), flat.map((s) => s.fare)],
  )
}

async function seedPassenger(tx: Queryable, now: Date): Promise<number> {
  const p = SEED_PASSENGER
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO passengers (mobile, full_name, email, city, password_hash, status, balance, created_at)
     VALUES ($1, $2, $3, $4, NULL, 'INACTIVE', 0, $5)
     ON CONFLICT (mobile) DO UPDATE SET mobile = EXCLUDED.mobile RETURNING id`,
    [p.mobile, p.fullName, p.email, p.city, now],
  )
  return row!.id
}

/**
 * Production: demo sales left by a development start (or an older version) on
 * trips that have not departed are deleted, so their seats are on sale again.
 * Only the seed passenger's, which has no password and pays nothing. Answers how many.
 */
export async function removeDemoSales(tx: Queryable, now: Date): Promise<number> {
  const p = SEED_PASSENGER
  const rows = await tx.query(
    `DELETE FROM reservations x USING passengers p, trips t
      WHERE p.mobile = $1 AND p.full_name = $2 AND p.email = $3 AND p.password_hash IS NULL
        AND x.passenger_id = p.id AND t.id = x.trip_id AND t.departure_at > $4
        AND NOT EXISTS (SELECT 1 FROM payments y WHERE y.reservation_id = x.id)
        AND NOT EXISTS (SELECT 1 FROM coupon_redemptions c WHERE c.reservation_id = x.id)
      RETURNING 1`,
    [p.mobile, p.fullName, p.email, now],
  )
  return rows.length
}
