/**
 * The per-passenger cap for one travel date (SEATS_PER_PASSENGER_PER_DATE=4) on a real PostgreSQL
 * with two server processes: bookings of one passenger for one date sent at once, spread over both
 * processes and over several trips of the date, never add up to more than 4 seats, whether the
 * passenger is one account or several accounts booking for one traveller's mobile.
 */
import * as assert from 'uvu/assert'
import type { PassengerRow } from '../account/passengers.ts'
import { createSession } from '../account/sessions.ts'
import type { Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import { bookingBody, freeSeats, lockBody, pickTrip } from '../test/booking-fixture.ts'
import { pgSuite, type ServersOnPostgres, startServersOnPostgres } from '../test/pg.ts'
import { call, type ServerProcess } from '../../harness/spawn-server.ts'

const test = pgSuite('seats per passenger per date on PostgreSQL')
let stack: ServersOnPostgres | undefined
let db: Db
let servers: ServerProcess[]

test.before(async () => {
  // behind a proxy (TRUST_PROXY=1): each booking from a network of its own, so no per-address turn orders them
  stack = await startServersOnPostgres('date_cap', { TRUST_PROXY: '1', SEATS_PER_PASSENGER_PER_DATE: '4' })
  ;({ db, servers } = stack)
})

test.after(() => stack?.stop())

/** The test's pool and the servers' clock (the real one) for the fixture's trip and seat look-ups. */
const here = () => ({ db, now: () => new Date() })
type Trip = Awaited<ReturnType<typeof pickTrip>>
type Who = { id: number; token: string; mobile: string }

let mobileSeq = 0
const newMobile = () => `017${String(process.pid % 1000).padStart(3, '0')}${String(++mobileSeq).padStart(5, '0')}`

async function account(): Promise<Who> {
  const mobile = newMobile()
  const [row] = await db.query<PassengerRow>(
    `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at) VALUES ($1, 'Cap Tester', $2, 'Dhaka', 'ACTIVE', 0, now()) RETURNING *`,
    [mobile, `c${mobile}@example.com`],
  )
  const s = await createSession(db, createDeps(db), row!, true)
  return { id: row!.id, token: s.token, mobile }
}

/** `n` trips of the `dateIndex`-th travel date that has that many, departing in 2 days or more. */
async function tripsOfOneDate(n: number, dateIndex: number): Promise<Trip[]> {
  const byDate = new Map<string, Trip[]>()
  for (let skip = 0; ; skip++) {
    const trip = await pickTrip(here(), { minHours: 48, skip })
    const list = byDate.get(trip.tripDate) ?? []
    list.push(trip)
    byDate.set(trip.tripDate, list)
    const full = [...byDate.values()].filter((l) => l.length >= n)
    if (full.length > dateIndex) return full[dateIndex]!.slice(0, n)
  }
}

/** Seats counted for the date: sold or live unpaid, booked by these accounts or for this traveller's mobile. */
async function seatsFor(tripDate: string, passengerIds: number[], mobile: string | null): Promise<number> {
  const [r] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id JOIN trips t ON t.id = rs.trip_id
      WHERE t.trip_date = $1::date AND seat_taken(rs.active, x.status, x.expiration_time, $4)
        AND (x.passenger_id = ANY($2::int[]) OR x.passenger_mobile = $3)`,
    [tripDate, passengerIds, mobile, new Date()],
  )
  return r!.n
}

let network = 0
/**
 * Every lock first (on alternating processes), then every booking at once, each on the other process
 * and from a client address of its own.
 */
async function lockThenBookAtOnce(plan: { who: Who; trip: Trip; seats: string[]; traveller: string }[]) {
  const headers = plan.map(() => ({ 'x-forwarded-for': `198.51.100.${++network}` }))
  for (const [i, p] of plan.entries()) {
    const l = await call(servers[i % 2]!.url, 'POST', '/api/reservation/seatLock', lockBody(p.trip, p.seats), {
      token: p.who.token,
      headers: headers[i]!,
    })
    assert.is(l.status, 200, JSON.stringify(l.body))
    assert.ok(l.body.data, `seats ${p.seats.join(', ')} locked`)
  }
  return Promise.all(
    plan.map((p, i) =>
      call(servers[(i + 1) % 2]!.url, 'POST', '/api/reservation/booking', bookingBody(p.trip, p.seats, { passengerMobile: p.traveller }), {
        token: p.who.token,
        headers: headers[i]!,
      }),
    ),
  )
}

function assertRefusals(answers: Awaited<ReturnType<typeof lockThenBookAtOnce>>) {
  for (const b of answers.filter((b) => b.status !== 200)) {
    assert.is(b.status, 400, JSON.stringify(b.body))
    assert.is(b.body.error.code, 'SEAT_LIMIT_EXCEEDED')
    assert.match(
      b.body.error.reason,
      /^Seat limit exceeded\. One passenger may buy at most 4 seats for travel on \d{4}-\d{2}-\d{2}; you have [0-4] left\.$/,
    )
  }
}

test('one account, 2 seats on each of 4 trips of one date, booked at once on two processes: exactly 4 seats granted', async () => {
  const trips = await tripsOfOneDate(4, 0)
  const who = await account()
  const plan = await Promise.all(trips.map(async (trip) => ({ who, trip, seats: await freeSeats(here(), trip.id, 2), traveller: who.mobile })))
  const answers = await lockThenBookAtOnce(plan)
  assert.is(answers.filter((b) => b.status === 200).length, 2, JSON.stringify(answers.map((b) => b.body?.error ?? b.status)))
  assertRefusals(answers)
  assert.is(await seatsFor(trips[0]!.tripDate, [who.id], null), 4)
})

test('8 accounts booking 1 seat each for one traveller on 4 trips of one date, at once on two processes, 3 times: 4 seats for that mobile each time', async () => {
  const trips = await tripsOfOneDate(4, 1)
  for (let round = 0; round < 3; round++) {
    const traveller = newMobile()
    const who = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(() => account()))
    const seats = await Promise.all(trips.map((trip) => freeSeats(here(), trip.id, 2)))
    const plan = who.map((w, i) => ({ who: w, trip: trips[i % 4]!, seats: [seats[i % 4]![i >> 2]!], traveller }))
    const answers = await lockThenBookAtOnce(plan)
    assert.is(answers.filter((b) => b.status === 200).length, 4, JSON.stringify(answers.map((b) => b.body?.error ?? b.status)))
    assertRefusals(answers)
    assert.is(
      await seatsFor(
        trips[0]!.tripDate,
        who.map((w) => w.id),
        traveller,
      ),
      4,
    )
  }
})

test.run()
