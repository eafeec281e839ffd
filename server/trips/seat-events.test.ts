/**
 * The live seat map (GET /api/reservation/seatEvents/:tripId): on PGlite in one process, the
 * events a passenger's seat page receives for every kind of seat change (lock, release, expiry,
 * booking, sale, cancellation, the trip changed or gone), nothing for a rolled-back transaction,
 * the stream's headers and heartbeats, its refusals as catalogue errors, no watcher left behind
 * by a client that leaves, and streams ended by a shutdown; on PostgreSQL with two server
 * processes, a lock on one reaching a stream on the other, through a dropped LISTEN connection too.
 */
import pg from 'pg'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { bookingBody, freeSeats, lockBody, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { pgSuite, startPostgres, type TestPostgres } from '../test/pg.ts'
import { openEvents, type EventStream, type SseEvent } from '../../harness/sse-client.ts'
import { call, startServer, type ServerProcess } from '../../harness/spawn-server.ts'

const t = suite('seat events on PGlite')
let f: Fixture
let base: string
let tripSeq = 0
const streams: EventStream[] = []

t.before(async () => {
  f = await openFixture({ config: { seatStreamHeartbeatMs: 300, seatStreamsMax: 50 } })
  await f.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(f.app.server.address() as { port: number }).port}`
})
t.after.each(() => {
  for (const s of streams.splice(0)) s.close()
})
t.after(async () => {
  await f.close()
})

/** A trip no other test of this file uses. */
const nextTrip = () => pickTrip(f, { skip: 60 + tripSeq++ * 2 })

async function watch(tripId: number, headers: Record<string, string> = {}): Promise<EventStream> {
  const s = await openEvents(`${base}/api/reservation/seatEvents/${tripId}`, headers)
  streams.push(s)
  return s
}

/** The next `seats` event naming `seat`, and that seat's entry in it. */
async function change(s: EventStream, seat: string, timeoutMs = 3000): Promise<{ state: string; expiresAt: string | null }> {
  const e = await s.next((x) => x.event === 'seats' && x.data.seats.some((y: { name: string }) => y.name === seat), timeoutMs)
  return e.data.seats.find((y: { name: string }) => y.name === seat)
}

/**
 * The events (pings aside) `s` gets from now until the one a later change `mark` makes (found by
 * `isMark`), without it. Changes are sent in commit order, so an event the steps before caused
 * would arrive before the mark: no fixed wait for "nothing came".
 */
async function eventsBefore(s: EventStream, mark: () => Promise<unknown>, isMark: (e: SseEvent) => boolean): Promise<SseEvent[]> {
  const from = s.events.length
  await mark()
  const m = await s.next(isMark, 5000)
  return s.events.slice(from, s.events.indexOf(m)).filter((e) => e.event !== 'ping')
}
/** A seats event that names `seat`. */
const names = (seat: string) => (e: SseEvent) => e.event === 'seats' && e.data.seats.some((x: { name: string }) => x.name === seat)

async function gauge(): Promise<number> {
  const text = await f.deps.metrics.registry.getSingleMetricAsString('seat_event_streams')
  return Number(/^seat_event_streams (\d+)$/m.exec(text)?.[1])
}

t('the stream: event-stream headers, never compressed or cached, and a first snapshot of every seat without holders', async () => {
  const trip = await nextTrip()
  const [held] = await freeSeats(f, trip.id, 1)
  assert.is(
    (await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [held!]), { device: 'holder-device-0001' })).body.data.seatNames[0],
    held,
  )
  const s = await watch(trip.id, { 'accept-encoding': 'br, gzip, deflate' })
  assert.is(s.status, 200)
  assert.is(s.headers['content-type'], 'text/event-stream; charset=utf-8')
  assert.is(s.headers['cache-control'], 'no-store')
  assert.is(s.headers['x-accel-buffering'], 'no')
  assert.is(s.headers['content-encoding'], undefined)
  const snap = await s.next()
  assert.is(snap.event, 'snapshot')
  assert.is(snap.data.tripId, trip.id)
  const [{ n }] = await f.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM layout_seats s JOIN trips t ON t.layout_id = s.layout_id WHERE t.id = $1 AND s.name <> 'OPEN'",
    [trip.id],
  )
  assert.is(snap.data.seats.length, n)
  const mine = snap.data.seats.find((x: { name: string }) => x.name === held)
  assert.is(mine.state, 'held')
  assert.ok(Date.parse(mine.expiresAt) > f.now().getTime())
  assert.equal(Object.keys(mine).sort(), ['expiresAt', 'name', 'state'])
  assert.not.match(JSON.stringify(snap.data), /holder-device|"holder"|d:/)
})

t('a lock, its release, and a lock taken over from an expired one each reach another passenger at once', async () => {
  const trip = await nextTrip()
  const s = await watch(trip.id)
  await s.next()
  const [seat] = await freeSeats(f, trip.id, 1)
  const t0 = performance.now()
  const lock = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [seat!]), { device: 'first-device-0001' })
  let c = await change(s, seat!)
  assert.ok(performance.now() - t0 < 1000)
  assert.is(c.state, 'held')
  assert.ok(c.expiresAt && Date.parse(c.expiresAt) === Date.parse(lock.body.data.expirationTime))
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [seat!], false), { device: 'first-device-0001' })
  c = await change(s, seat!)
  assert.equal(c, { name: seat, state: 'available', expiresAt: null })
  // a lock asked again by its own holder changes nothing anyone can see: nothing is sent
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [seat!]), { device: 'first-device-0001' })
  await change(s, seat!)
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [seat!]), { device: 'first-device-0001' })
  // the next change (the seat let go) is the first thing sent
  assert.equal(
    await eventsBefore(
      s,
      () => f.api('POST', '/api/reservation/seatLock', lockBody(trip, [seat!], false), { device: 'first-device-0001' }),
      names(seat!),
    ),
    [],
  )
})

t('a hold that runs out is sent as available when it ends, with no write to notify it', async () => {
  const trip = await nextTrip()
  const [seat] = await freeSeats(f, trip.id, 1)
  const ends = new Date(f.now().getTime() + 1200)
  await f.db.query("INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at) VALUES ($1, $2, 'd:expiring-hold-01', $3)", [trip.id, seat, ends])
  const s = await watch(trip.id)
  const snap = await s.next()
  assert.is(snap.data.seats.find((x: { name: string }) => x.name === seat).state, 'held')
  // the server's clock passes the expiry while the real timer set for it runs
  f.setNow(new Date(ends.getTime() + 1))
  const c = await change(s, seat!, 4000)
  assert.equal(c, { name: seat, state: 'available', expiresAt: null })
  f.setNow(new Date(Date.now()))
})

t('a booking, its sale, and a cancelled booking: booked with its expiry, sold, available again', async () => {
  const trip = await nextTrip()
  const s = await watch(trip.id)
  await s.next()
  const p = await f.passenger({ balance: 100_000 })
  const [a, b] = await freeSeats(f, trip.id, 2)
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!, b!]), { token: p.token })
  await change(s, a!)
  const booking = await f.api('POST', '/api/reservation/booking', bookingBody(trip, [a!]), { token: p.token })
  assert.is(booking.status, 200, JSON.stringify(booking.body))
  let c = await change(s, a!)
  assert.is(c.state, 'booked')
  assert.is(Date.parse(c.expiresAt!), Date.parse(booking.body.data.expirationTime))
  const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: booking.body.data.id }, { token: p.token })
  assert.is(paid.status, 200, JSON.stringify(paid.body))
  c = await change(s, a!)
  assert.equal(c, { name: a, state: 'sold', expiresAt: null })

  const second = await f.api('POST', '/api/reservation/booking', bookingBody(trip, [b!]), { token: p.token })
  assert.is((await change(s, b!)).state, 'booked')
  const cancelled = await f.api('POST', '/api/reservation/cancelBooking', { reservationId: second.body.data.id }, { token: p.token })
  assert.is(cancelled.status, 200, JSON.stringify(cancelled.body))
  assert.equal(await change(s, b!), { name: b, state: 'available', expiresAt: null })
})

t('an unpaid booking that runs out is sent as available when it ends', async () => {
  const trip = await nextTrip()
  const p = await f.passenger()
  const [seat] = await freeSeats(f, trip.id, 1)
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [seat!]), { token: p.token })
  const booking = await f.api('POST', '/api/reservation/booking', bookingBody(trip, [seat!]), { token: p.token })
  const ends = new Date(f.now().getTime() + 1000)
  await f.db.query('UPDATE reservations SET expiration_time = $2 WHERE id = $1', [booking.body.data.id, ends])
  const s = await watch(trip.id)
  assert.is((await s.next()).data.seats.find((x: { name: string }) => x.name === seat).state, 'booked')
  f.setNow(new Date(ends.getTime() + 1))
  assert.equal(await change(s, seat!, 4000), { name: seat, state: 'available', expiresAt: null })
  f.setNow(new Date(Date.now()))
})

t('a rolled-back transaction sends nothing: a booking that fails after spending its locks, and writes to every watched table', async () => {
  const trip = await nextTrip()
  const p = await f.passenger()
  const [x, y, z] = await freeSeats(f, trip.id, 3)
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [x!]), { token: p.token })
  // a cancelled reservation whose seat row on x was left active: x still shows held by p, and the
  // booking below deletes p's lock, inserts its reservation, then fails on the seat and rolls back
  const [other] = await f.db.query<{ id: number }>(
    `INSERT INTO reservations (trip_id, status, boarding_station_id, dropping_station_id, passenger_name, passenger_mobile, subtotal, total, expiration_time)
     VALUES ($1, 5, $2, $3, 'Left over', '01712000000', 0, 0, NULL) RETURNING id`,
    [trip.id, trip.boardingId, trip.droppingId],
  )
  await f.db.query("INSERT INTO reservation_seats (reservation_id, trip_id, seat_name, seat_type, fare) VALUES ($1, $2, $3, 'Standard', 0)", [
    other!.id,
    trip.id,
    x,
  ])
  const s = await watch(trip.id)
  assert.is((await s.next()).data.seats.find((v: { name: string }) => v.name === x).state, 'held')
  const refused = await f.api('POST', '/api/reservation/booking', bookingBody(trip, [x!]), { token: p.token })
  assert.is(refused.body.error?.code, 'SEAT_UNAVAILABLE')
  const rollBack = new Error('roll back')
  const ended = await f.db
    .transaction(async (tx) => {
      await tx.query("INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at) VALUES ($1, $2, 'd:rolled-back-001', $3)", [
        trip.id,
        y,
        new Date(f.now().getTime() + 600_000),
      ])
      await tx.query('UPDATE reservation_seats SET fare = 1 WHERE reservation_id = $1', [other!.id])
      await tx.query('UPDATE reservations SET status = 1 WHERE id = $1', [other!.id])
      await tx.query('UPDATE trips SET fares = fares WHERE id = $1', [trip.id])
      throw rollBack
    })
    .catch((e: unknown) => e)
  assert.is(ended, rollBack, 'every write ran and the transaction ended by the deliberate rollback')
  // a write that commits afterwards is the first thing sent: nothing for the rolled-back writes
  const from = s.events.length
  assert.equal(
    await eventsBefore(s, () => f.api('POST', '/api/reservation/seatLock', lockBody(trip, [z!]), { device: 'committed-device-01' }), names(z!)),
    [],
    'nothing for the rolled-back writes',
  )
  const e = s.events.slice(from).find(names(z!))!
  assert.equal(
    e.data.seats.map((v: { name: string; state: string }) => [v.name, v.state]),
    [[z, 'held']],
  )
})

t('heartbeats keep an idle stream alive', async () => {
  const trip = await nextTrip()
  const s = await watch(trip.id)
  await s.next()
  const ping = await s.next((e) => e.event === 'ping', 2000)
  assert.ok(!Number.isNaN(Date.parse(ping.data.at)))
  await s.next((e) => e.event === 'ping', 2000)
})

t('bad and unknown trips answer catalogue errors as JSON, never a stream or a 5xx', async () => {
  for (const bad of ['abc', '0', '-1', '1.5', '99999999999', '2147483648', '%00', 'x'.repeat(120)]) {
    const s = await watch(bad as unknown as number)
    assert.is(s.status, 400, bad)
    assert.match(String(s.headers['content-type']), /application\/json/)
    const body = JSON.parse(await s.body())
    assert.is(body.error.code, 'VALIDATION_FAILED', bad)
  }
  const missing = await watch(2_000_000_000)
  assert.is(missing.status, 404)
  assert.is(JSON.parse(await missing.body()).error.code, 'TRIP_NOT_FOUND')
  const trip = await nextTrip()
  await f.db.query("UPDATE trips SET status = 'CLOSED' WHERE id = $1", [trip.id])
  const closed = await watch(trip.id)
  assert.is(closed.status, 409)
  assert.is(JSON.parse(await closed.body()).error.code, 'TRIP_IS_CLOSED')
  await f.db.query("UPDATE trips SET status = 'OPEN' WHERE id = $1", [trip.id])
})

t('the trip itself changing is a trip event; a deleted trip is gone and its streams end', async () => {
  // the last trip on sale with no reservation (demo sales sit on some trips, and which ones pickTrip meets depends on the hour): it may be deleted
  const [trip] = await f.db.query<{ id: number }>(
    `SELECT t.id FROM trips t
      WHERE t.status = 'OPEN' AND t.departure_at > $1 AND NOT EXISTS (SELECT 1 FROM reservations r WHERE r.trip_id = t.id)
      ORDER BY t.departure_at DESC, t.id DESC LIMIT 1`,
    [new Date(f.now().getTime() + 60 * 3_600_000)],
  )
  assert.ok(trip, 'a trip nobody booked')
  const s = await watch(trip.id)
  await s.next()
  await f.db.query("UPDATE trips SET fares = jsonb_set(fares, '{Standard}', '999') WHERE id = $1", [trip.id])
  assert.equal((await s.next((e) => e.event === 'trip')).data, { tripId: trip.id, change: 'changed' })
  await f.db.query('DELETE FROM trips WHERE id = $1', [trip.id])
  assert.equal((await s.next((e) => e.event === 'trip')).data, { tripId: trip.id, change: 'gone' })
  await s.ended
})

t('a client that leaves leaves no watcher behind; past SEAT_STREAMS_MAX a stream is refused with 503', async () => {
  const trip = await nextTrip()
  // the streams of the tests before are closed, but the server may not have seen every close yet
  for (let i = 0; i < 100 && (await gauge()) !== 0; i++) await new Promise((r) => setTimeout(r, 20))
  const before = await gauge()
  assert.is(before, 0)
  const opened = await Promise.all(Array.from({ length: 5 }, () => watch(trip.id)))
  await Promise.all(opened.map((s) => s.next()))
  assert.is(await gauge(), before + 5)
  for (const s of opened) s.close()
  for (let i = 0; i < 50 && (await gauge()) !== before; i++) await new Promise((r) => setTimeout(r, 20))
  assert.is(await gauge(), before)

  f.deps.config.seatStreamsMax = before + 1
  try {
    const one = await watch(trip.id)
    await one.next()
    const refused = await watch(trip.id)
    assert.is(refused.status, 503)
    assert.is(refused.headers['retry-after'], '30')
    assert.is(JSON.parse(await refused.body()).error.code, 'TOO_MANY_REQUESTS')
  } finally {
    f.deps.config.seatStreamsMax = 50
  }
})

t('closing the server ends its streams instead of waiting for their clients', async () => {
  const g = await openFixture()
  await g.app.listen({ port: 0, host: '127.0.0.1' })
  const trip = await pickTrip(g)
  const s = await openEvents(`http://127.0.0.1:${(g.app.server.address() as { port: number }).port}/api/reservation/seatEvents/${trip.id}`)
  await s.next()
  const t0 = performance.now()
  await g.close()
  await s.ended
  assert.ok(performance.now() - t0 < 3000, `closed in ${Math.round(performance.now() - t0)} ms`)
})

t.run()

// ---------- two server processes on one PostgreSQL ----------

const p = pgSuite('seat events on PostgreSQL, two processes')
let postgres: TestPostgres
let url: string
let a: ServerProcess
let b: ServerProcess
const pgStreams: EventStream[] = []

p.before(async () => {
  postgres = await startPostgres()
  url = await postgres.createDatabase('seat_events')
  a = await startServer({ DATABASE_URL: url })
  b = await startServer({ DATABASE_URL: url })
})
p.after.each(() => {
  for (const s of pgStreams.splice(0)) s.close()
})
p.after(async () => {
  await a?.kill()
  await b?.kill()
  await postgres?.stop()
})

let pgDay = 3
/** A trip of the demo data (days ahead, one per test) with its free seats, as the app finds it. */
async function demoTrip(): Promise<{ body: Record<string, unknown>; tripId: number; free: string[] }> {
  const tripDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Dhaka' }).format(new Date(Date.now() + pgDay++ * 86_400_000))
  const found = await call(a.url, 'POST', '/api/reservation/tripSearch', { originCode: 'DHK', destinationCode: 'CTG', tripDate })
  const trip = found.body.data[0]
  const d = await call(a.url, 'POST', '/api/reservation/tripDetails', {
    tripId: trip.tripId,
    originCode: 'DHK',
    destinationCode: 'CTG',
    originBusStationId: null,
    destinationBusStationId: null,
  })
  const free = d.body.data.seatLayout.seats.filter((s: any) => s.status === 0 && !s.lockedByOther && s.name !== 'OPEN').map((s: any) => s.name)
  return {
    tripId: trip.tripId,
    free,
    body: { tripId: trip.tripId, tripDate, coachCode: trip.coachCode, originCode: 'DHK', destinationCode: 'CTG' },
  }
}

async function pgWatch(server: ServerProcess, tripId: number): Promise<EventStream> {
  const s = await openEvents(`${server.url}/api/reservation/seatEvents/${tripId}`)
  pgStreams.push(s)
  await s.next((e) => e.event === 'snapshot')
  return s
}

p('a lock on process B reaches a stream on process A within a second; its release too', async () => {
  const trip = await demoTrip()
  const s = await pgWatch(a, trip.tripId)
  const seat = trip.free[0]!
  const t0 = performance.now()
  const lock = await call(
    b.url,
    'POST',
    '/api/reservation/seatLock',
    { ...trip.body, seatNames: [seat], locked: true },
    { device: 'process-b-device-1' },
  )
  assert.ok(lock.body.data, JSON.stringify(lock.body))
  const held = await s.next((e) => e.event === 'seats' && e.data.seats.some((x: any) => x.name === seat && x.state === 'held'), 1000)
  assert.ok(held.at - t0 < 1000, `${Math.round(held.at - t0)} ms`)
  await call(b.url, 'POST', '/api/reservation/seatLock', { ...trip.body, seatNames: [seat], locked: false }, { device: 'process-b-device-1' })
  await s.next((e) => e.event === 'seats' && e.data.seats.some((x: any) => x.name === seat && x.state === 'available'), 1000)
})

p('a rolled-back transaction on PostgreSQL sends nothing to either process', async () => {
  const trip = await demoTrip()
  const sa = await pgWatch(a, trip.tripId)
  const sb = await pgWatch(b, trip.tripId)
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    await c.query('BEGIN')
    // expiry by the servers' clock (TEST_NOW moves it), not PostgreSQL's now()
    await c.query("INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at) VALUES ($1, $2, 'd:rolled-back-pg-1', $3)", [
      trip.tripId,
      trip.free[0],
      new Date(Date.now() + 600_000),
    ])
    await c.query('ROLLBACK')
    // a lock committed afterwards is the first thing either process sends: nothing for the rolled-back one
    const from = [sa.events.length, sb.events.length]
    await c.query("INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at) VALUES ($1, $2, 'd:committed-pg-01', $3)", [
      trip.tripId,
      trip.free[1],
      new Date(Date.now() + 600_000),
    ])
    for (const [i, s] of [sa, sb].entries()) {
      const e = await s.next(names(trip.free[1]!), 5000)
      assert.equal(
        s.events.slice(from[i], s.events.indexOf(e)).filter((x) => x.event !== 'ping'),
        [],
      )
      assert.equal(
        e.data.seats.map((x: any) => x.name),
        [trip.free[1]],
      )
    }
  } finally {
    await c.end()
  }
})

p('the LISTEN connections dropped (pg_terminate_backend): each process reconnects, and changes still arrive', async () => {
  const trip = await demoTrip()
  const s = await pgWatch(a, trip.tripId)
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    const killed = await c.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'listener'")
    assert.is(killed.rowCount, 2, 'one LISTEN connection per process')
    // a change made while nobody listens is read again after the reconnect
    await call(
      b.url,
      'POST',
      '/api/reservation/seatLock',
      { ...trip.body, seatNames: [trip.free[0]], locked: true },
      { device: 'while-down-device1' },
    )
    await s.next((e) => e.event === 'seats' && e.data.seats.some((x: any) => x.name === trip.free[0] && x.state === 'held'), 5000)
    let listeners = 0
    for (let i = 0; i < 50 && listeners < 2; i++) {
      await new Promise((r) => setTimeout(r, 100))
      listeners = (await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'listener'")).rows[0].n
    }
    assert.is(listeners, 2)
    await call(
      b.url,
      'POST',
      '/api/reservation/seatLock',
      { ...trip.body, seatNames: [trip.free[1]], locked: true },
      { device: 'after-up-device-01' },
    )
    await s.next((e) => e.event === 'seats' && e.data.seats.some((x: any) => x.name === trip.free[1] && x.state === 'held'), 1000)
  } finally {
    await c.end()
  }
})

p.run()

// ---------- a real process on PGlite: SIGTERM with streams open ----------

const proc = suite('seat events: shutdown of a server process')
proc('SIGTERM ends the open streams and the process exits 0 at once', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seat-events-proc-'))
  const server = await startServer({ DATA_DIR: dir })
  try {
    const tripDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Dhaka' }).format(new Date(Date.now() + 2 * 86_400_000))
    const found = await call(server.url, 'POST', '/api/reservation/tripSearch', { originCode: 'DHK', destinationCode: 'CTG', tripDate })
    const s = await openEvents(`${server.url}/api/reservation/seatEvents/${found.body.data[0].tripId}`)
    await s.next()
    const t0 = performance.now()
    await server.kill('SIGTERM')
    await s.ended
    assert.is(server.child.exitCode, 0)
    assert.ok(performance.now() - t0 < 5000, `${Math.round(performance.now() - t0)} ms`)
  } finally {
    await server.kill('SIGKILL')
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
proc.run()
