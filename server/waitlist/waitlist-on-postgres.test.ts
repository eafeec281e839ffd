/**
 * The waitlist's offer is made once across processes (issue 30 item 4), on a real PostgreSQL
 * with two server processes whose sweeps run every second: on each of several sold-out trips one
 * seat's hold lapses at the same instant while two passengers wait; both processes sweep, and
 * each freed seat is offered to exactly one passenger (the first), held for them once, with one
 * SMS queued.
 */
import * as assert from 'uvu/assert'
import { pickTrip } from '../test/booking-fixture.ts'
import { signedInPassenger } from '../test/pg-passengers.ts'
import { pgServersSuite } from '../test/pg-servers.ts'
import { until } from '../test/receivers.ts'
import { call } from '../../harness/spawn-server.ts'

const { test, pg } = pgServersSuite('waitlist on PostgreSQL', 'waitlist_offer', { WAITLIST_SWEEP_SECONDS: '1' })

const { ctx } = pg

const account = () => signedInPassenger(pg.db, '017')

test('a seat freed on two processes at once is offered to one passenger, with one SMS', async () => {
  const trips = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => pickTrip(ctx, { minHours: 48, skip: i * 7 })))
  // every seat held for an hour; once all wait, the first of each trip until the same instant
  const first: string[] = []
  for (const trip of trips) {
    const rows = await pg.db.query<{ seat_name: string }>(
      `INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at)
       SELECT $1, x, 'd:filler-device-0001', $3 FROM unnest(free_seats($1, $2)) AS x RETURNING seat_name`,
      [trip.id, new Date(), new Date(Date.now() + 3_600_000)],
    )
    first.push(rows.map((r) => r.seat_name).sort()[0]!)
  }
  const waiters: { id: number; token: string; mobile: string }[][] = []
  for (const [i, trip] of trips.entries()) {
    const pair = [await account(), await account()]
    for (const [k, w] of pair.entries()) {
      const r = await call(pg.url((i + k) % 2), 'POST', '/api/waitlist', { tripId: trip.id, seats: 1 }, { token: w.token })
      assert.is(r.status, 200, JSON.stringify(r.body))
    }
    waiters.push(pair)
  }
  const ids = trips.map((t) => t.id)
  await pg.db.query(
    'UPDATE seat_locks SET expires_at = $3 FROM unnest($1::int[], $2::text[]) AS f(trip_id, seat_name) WHERE seat_locks.trip_id = f.trip_id AND seat_locks.seat_name = f.seat_name',
    [ids, first, new Date(Date.now() + 1500)],
  )
  const offered = () =>
    pg.db.query<{ trip_id: number; passenger_id: number; offered_seats: string[] }>(
      "SELECT trip_id, passenger_id, offered_seats FROM waitlist WHERE trip_id = ANY($1::int[]) AND status = 'OFFERED' ORDER BY trip_id",
      [ids],
    )
  await until(async () => (await offered()).length >= trips.length, 'every freed seat offered', 30_000)
  // a probe seat lapsing after the offers: once it is offered, the sweeps after the race have run
  const probe = await pickTrip(ctx, { minHours: 48, skip: 60 })
  await pg.db.query(
    `INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at)
     SELECT $1, x, 'd:filler-device-0001', $3 FROM unnest(free_seats($1, $2)) AS x`,
    [probe.id, new Date(), new Date(Date.now() + 3_600_000)],
  )
  const late = await account()
  assert.is((await call(pg.url(0), 'POST', '/api/waitlist', { tripId: probe.id, seats: 1 }, { token: late.token })).status, 200)
  await pg.db.query(
    'UPDATE seat_locks SET expires_at = $2 WHERE trip_id = $1 AND seat_name = (SELECT min(seat_name) FROM seat_locks WHERE trip_id = $1)',
    [probe.id, new Date(Date.now() + 2500)],
  )
  await until(
    async () => (await pg.db.query("SELECT 1 FROM waitlist WHERE trip_id = $1 AND status = 'OFFERED'", [probe.id])).length === 1,
    'the probe offered',
    30_000,
  )

  const offers = await offered()
  assert.is(offers.length, trips.length, JSON.stringify(offers))
  for (const [i, trip] of trips.entries()) {
    const o = offers.filter((x) => x.trip_id === trip.id)
    assert.is(o.length, 1, `trip ${trip.id}: ${JSON.stringify(o)}`)
    assert.is(o[0]!.passenger_id, waiters[i]![0]!.id, 'the first to join')
    const locks = await pg.db.query<{ holder: string }>('SELECT holder FROM seat_locks WHERE trip_id = $1 AND seat_name = $2', [trip.id, first[i]])
    assert.equal(locks, [{ holder: `p:${waiters[i]![0]!.id}` }])
    const sms = await pg.db.query<{ to: string }>(
      `SELECT "to" FROM outbox_messages WHERE channel = 'SMS' AND body LIKE 'Waitlist:%' AND "to" = ANY($1::text[])`,
      [waiters[i]!.map((w) => w.mobile)],
    )
    assert.equal(sms, [{ to: waiters[i]![0]!.mobile }], `trip ${trip.id}: one SMS, to the first`)
    const status = await call(pg.url(1), 'GET', `/api/waitlist/${trip.id}`, undefined, { token: waiters[i]![1]!.token })
    assert.equal([status.body.data.status, status.body.data.place], ['WAITING', 1])
  }
})

test.run()
