/**
 * Two changes of one ticket at once on PostgreSQL with two server processes (issue 31 item 2): one
 * to a dearer trip on one process, one to a cheaper trip on the other. Exactly one wins; the ticket
 * is on one trip with its own number of seats, the balance moved once, the loser refused.
 */
import * as assert from 'uvu/assert'
import { freeSeats, lockBody, pickTrip } from '../test/booking-fixture.ts'
import { signedInPassenger } from '../test/pg-passengers.ts'
import { bookOn, pgServersSuite } from '../test/pg-servers.ts'
import { call } from '../../harness/spawn-server.ts'

const { test, pg } = pgServersSuite('change a ticket twice at once on PostgreSQL, two processes', 'ticket_change')
const { ctx } = pg

const setFare = (tripId: number, fare: number) =>
  pg.db.query('UPDATE trips SET fares = (SELECT jsonb_object_agg(k, $2::int) FROM jsonb_object_keys(fares::jsonb) AS k) WHERE id = $1', [
    tripId,
    fare,
  ])

let seq = 0
/** A ticket of two seats at 500 a seat paid from a fresh passenger's balance (`pay` false: left a live booking), and two other trips of its route at 600 and 400. */
async function setUp(pay = true) {
  const trip = await pickTrip(ctx, { minHours: 80, skip: seq * 3 })
  await setFare(trip.id, 500)
  const others = await pg.db.query<{ id: number; trip_date: string; coach_code: string }>(
    `SELECT id, trip_date::text AS trip_date, coach_code FROM trips WHERE route_id = (SELECT route_id FROM trips WHERE id = $1) AND id <> $1
        AND status = 'OPEN' AND departure_at > $2 ORDER BY departure_at DESC OFFSET $3 LIMIT 2`,
    [trip.id, new Date(Date.now() + 80 * 3_600_000), seq * 2],
  )
  assert.is(others.length, 2, 'two other trips of the route')
  const [dear, cheap] = others.map((o) => ({ ...trip, id: o.id, tripDate: o.trip_date, coachCode: o.coach_code }))
  await setFare(dear!.id, 600)
  await setFare(cheap!.id, 400)
  const seats = await freeSeats(ctx, trip.id, 2)
  const who = await signedInPassenger(pg.db, '019', 50_000)
  seq++
  return { passengerId: who.id, token: who.token, sold: await bookOn(pg.url(0), who, trip, seats, pay), dear: dear!, cheap: cheap! }
}

const balance = async (id: number) => (await pg.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [id]))[0]!.balance

/** Locks two seats on each of the two trips and quotes both changes of `s`'s reservation: one on each process. */
async function twoChanges(s: Awaited<ReturnType<typeof setUp>>) {
  const bodies = []
  for (const [to, server] of [
    [s.dear, pg.url(0)],
    [s.cheap, pg.url(1)],
  ] as const) {
    const seats = await freeSeats(ctx, to.id, 2)
    assert.is((await call(server, 'POST', '/api/reservation/seatLock', lockBody(to, seats), { token: s.token })).status, 200)
    const q = await call(
      server,
      'POST',
      '/api/reservation/changeQuote',
      { reservationId: s.sold.id, tripId: to.id, seatNames: seats },
      { token: s.token },
    )
    assert.is(q.status, 200, JSON.stringify(q.body))
    bodies.push({
      reservationId: s.sold.id,
      tripId: to.id,
      seatNames: seats,
      fromTripId: s.sold.tripId,
      toPay: q.body.data.toPay,
      refund: q.body.data.refund,
    })
  }
  return bodies
}

/** Sends both changes at once, one per process; asserts exactly one wins and the other is refused as changed meanwhile; answers the winner's index. */
async function race(s: { token: string }, bodies: unknown[]): Promise<number> {
  const both = await Promise.all([
    call(pg.url(0), 'POST', '/api/reservation/change', bodies[0], { token: s.token }),
    call(pg.url(1), 'POST', '/api/reservation/change', bodies[1], { token: s.token }),
  ])
  const won = both.findIndex((x) => x.status === 200)
  assert.is(both.filter((x) => x.status === 200).length, 1, JSON.stringify(both.map((x) => x.body)))
  assert.is(both[1 - won]!.body.error.code, 'RESERVATION_NOT_CHANGEABLE')
  return won
}

/** Asserts the reservation's two live seats are on `tripId`. */
async function assertSeatsOn(id: number, tripId: number): Promise<void> {
  const live = await pg.db.query<{ trip_id: number }>('SELECT trip_id FROM reservation_seats WHERE reservation_id = $1 AND active', [id])
  assert.equal(
    live.map((l) => l.trip_id),
    [tripId, tripId],
  )
}

test('a change to a dearer trip and one to a cheaper trip at once: exactly one wins, the money moves once', async () => {
  for (let i = 0; i < 3; i++) {
    const s = await setUp()
    const bodies = await twoChanges(s)
    assert.equal([bodies[0]!.toPay, bodies[1]!.refund], [200, 200])
    const before = await balance(s.passengerId)
    const won = await race(s, bodies)
    const winner = bodies[won]!
    const [x] = await pg.db.query<{ trip_id: number; total: number; pnr: string }>('SELECT trip_id, total, pnr FROM reservations WHERE id = $1', [
      s.sold.id,
    ])
    assert.equal([x!.trip_id, x!.pnr], [winner.tripId, s.sold.pnr])
    await assertSeatsOn(s.sold.id, winner.tripId)
    assert.is(await balance(s.passengerId), before - winner.toPay + winner.refund)
    const done = await pg.db.query("SELECT id FROM ticket_changes WHERE reservation_id = $1 AND status = 'DONE'", [s.sold.id])
    assert.is(done.length, 1)
  }
})

test('two changes of one live unpaid booking at once: exactly one wins; it stays one booking, unpaid, on one trip', async () => {
  for (let i = 0; i < 3; i++) {
    const s = await setUp(false)
    const bodies = await twoChanges(s)
    assert.equal(
      bodies.map((x) => [x.toPay, x.refund]),
      [
        [0, 0],
        [0, 0],
      ],
    )
    const before = await balance(s.passengerId)
    const won = await race(s, bodies)
    const winner = bodies[won]!
    const [x] = await pg.db.query<{ trip_id: number; total: number; status: number }>(
      'SELECT trip_id, total, status FROM reservations WHERE id = $1',
      [s.sold.id],
    )
    assert.equal([x!.trip_id, x!.total, x!.status], [winner.tripId, won === 0 ? 1200 : 800, 2])
    await assertSeatsOn(s.sold.id, winner.tripId)
    assert.is(await balance(s.passengerId), before)
    const others = await pg.db.query('SELECT 1 FROM reservations WHERE passenger_id = $1', [s.passengerId])
    assert.is(others.length, 1, 'one reservation')
  }
})

test.run()
