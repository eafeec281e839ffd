/**
 * The one "seat is taken" rule (`seat_taken`, db/functions/seat_taken.sql): a seat is taken when its
 * active reservation_seats row belongs to a sold reservation, or to a booked one that
 * has not expired. Every caller follows it: the seat map, seat locks, the search's free
 * seats and the booking's "unavailable or your hold ran out".
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bookingBody, freeSeats, lockBody, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'

const t = suite('seat taken rule')
let f: Fixture
let trip: Awaited<ReturnType<typeof pickTrip>>
let token: string
const MIN = 60_000

interface Case {
  label: string
  status: number
  active: boolean
  /** Expiry relative to the fixture's now, in minutes (null: none). */
  expiresIn: number | null
  seat: string
}
let cases: Case[] = []

/** What the rule says for a case at `now` (minutes after the fixture's start). */
const expected = (c: Case, at: number) =>
  c.active && (c.status === 1 || c.status === 10 || (c.status === 2 && c.expiresIn !== null && c.expiresIn > at))

t.before(async () => {
  f = await openFixture()
  trip = await pickTrip(f)
  const p = await f.passenger()
  token = p.token
  const seats = await freeSeats(f, trip.id, 10)
  const plan: Omit<Case, 'seat'>[] = [
    { label: 'sold', status: 1, active: true, expiresIn: null },
    { label: 'booked, live for 30 minutes', status: 2, active: true, expiresIn: 30 },
    { label: 'booked, expired 5 minutes ago (not yet swept)', status: 2, active: true, expiresIn: -5 },
    { label: 'booked without an expiry', status: 2, active: true, expiresIn: null },
    { label: 'cancelled, seat freed', status: 5, active: false, expiresIn: 30 },
    { label: 'cancelled, seat row still active', status: 5, active: true, expiresIn: 30 },
    { label: 'sold, seat row inactive', status: 1, active: false, expiresIn: null },
    { label: 'admin booked (3)', status: 3, active: true, expiresIn: 30 },
    { label: 'moved to this trip by the operator (10)', status: 10, active: true, expiresIn: null },
    { label: 'moved, then refused (14)', status: 14, active: false, expiresIn: null },
  ]
  cases = plan.map((c, i) => ({ ...c, seat: seats[i]! }))
  const now = f.now().getTime()
  for (const c of cases) {
    const expires = c.expiresIn === null ? null : new Date(now + c.expiresIn * MIN)
    const [r] = await f.db.query<{ id: number }>(
      `INSERT INTO reservations (trip_id, passenger_id, status, boarding_station_id, dropping_station_id, passenger_name, passenger_mobile,
                                 subtotal, total, expiration_time, max_expiration_time, created_at)
       VALUES ($1, $2, $3, $4, $5, 'Fixture', '01712000999', 500, 500, $6, $6, $7) RETURNING id`,
      [trip.id, p.id, c.status, trip.boardingId, trip.droppingId, expires, f.now()],
    )
    await f.db.query(
      "INSERT INTO reservation_seats (reservation_id, trip_id, seat_name, seat_type, fare, active) VALUES ($1, $2, $3, 'Standard', 500, $4)",
      [r!.id, trip.id, c.seat, c.active],
    )
  }
})

t.after(async () => {
  await f.close()
})

t('seat_taken answers the rule before, between and after the expiries', async () => {
  for (const at of [-10, 0, 29, 31, 60 * 24]) {
    const rows = await f.db.query<{ seat_name: string; taken: boolean | null }>(
      `SELECT rs.seat_name, seat_taken(rs.active, x.status, x.expiration_time, $2) AS taken
         FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
        WHERE rs.trip_id = $1 AND rs.seat_name = ANY($3::text[])`,
      [trip.id, new Date(f.now().getTime() + at * MIN), cases.map((c) => c.seat)],
    )
    assert.is(rows.length, cases.length)
    for (const c of cases) {
      const row = rows.find((r) => r.seat_name === c.seat)!
      assert.is(row.taken === true, expected(c, at), `${c.label} at +${at} min`)
    }
  }
})

t('seat_map shows a taken seat as sold (1) or booked (2), every other one as available (0)', async () => {
  for (const at of [0, 31]) {
    const map = await f.db.query<{ name: string; status: number }>(
      'SELECT name, status FROM seat_map((SELECT layout_id FROM trips WHERE id = $1), $1, $2)',
      [trip.id, new Date(f.now().getTime() + at * MIN)],
    )
    for (const c of cases) {
      const seat = map.find((s) => s.name === c.seat)!
      // a moved ticket's seat shows as sold
      assert.is(seat.status, expected(c, at) ? (c.status === 10 ? 1 : c.status) : 0, `${c.label} at +${at} min`)
    }
  }
})

t('lock_seats refuses exactly the taken seats', async () => {
  for (const [i, c] of cases.entries()) {
    const device = `taken-rule-device-${i}`
    const res = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [c.seat]), { device })
    assert.is(res.status, 200)
    if (expected(c, 0)) assert.is(res.body.data, false, `${c.label}: lost`)
    else {
      assert.equal(res.body.data.seatNames, [c.seat], `${c.label}: held`)
      await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [c.seat], false), { device })
    }
  }
})

t('booking an unheld seat: SEAT_UNAVAILABLE when it is taken, BOOKING_TIME_EXCEED when it is free', async () => {
  for (const c of cases) {
    const res = await f.api('POST', '/api/reservation/booking', bookingBody(trip, [c.seat]), { token })
    assert.is(res.body.error?.code, expected(c, 0) ? 'SEAT_UNAVAILABLE' : 'BOOKING_TIME_EXCEED', c.label)
  }
})

t('the trip search counts the taken seats as unavailable; the others free', async () => {
  const search = async () => {
    const res = await f.api('POST', '/api/reservation/tripSearch', {
      originCode: trip.originCode,
      destinationCode: trip.destinationCode,
      tripDate: trip.tripDate,
    })
    return res.body.data.find((s: { tripId: number }) => s.tripId === trip.id) as { availableSeats: number; totalSeats: number }
  }
  const withCases = await search()
  // freeing every case's seat row gives back exactly the taken ones
  await f.db.query('UPDATE reservation_seats SET active = false WHERE trip_id = $1 AND seat_name = ANY($2::text[])', [
    trip.id,
    cases.map((c) => c.seat),
  ])
  const without = await search()
  assert.is(without.availableSeats - withCases.availableSeats, cases.filter((c) => expected(c, 0)).length)
})

t('the rule is inlined into the query that calls it (no function call per row)', async () => {
  const plan = await f.db.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (VERBOSE, COSTS OFF)
     SELECT rs.seat_name FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
      WHERE rs.trip_id = $1 AND seat_taken(rs.active, x.status, x.expiration_time, $2)`,
    [trip.id, f.now()],
  )
  const text = plan.map((r) => r['QUERY PLAN']).join('\n')
  assert.not.match(text, 'seat_taken', text)
  assert.match(text, /x\.status = ANY \('\{1,10\}'/, text)
})

t.run()
