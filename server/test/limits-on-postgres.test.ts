/**
 * Abuse limits under contention, where it matters: a real PostgreSQL with two server
 * processes behind a proxy (TRUST_PROXY=1), each attacker sending its requests to
 * both processes at once: seat holds per address, sign-in and code requests per
 * address, wrong PINs per PNR.
 */
import * as assert from 'uvu/assert'
import { openDb, type Db } from '../db/db.ts'
import { freeSeats, lockBody, pickTrip } from './booking-fixture.ts'
import { pgSuite, startPostgres, type TestPostgres } from './pg.ts'
import { call, startServer, type ServerProcess } from './spawn-server.ts'

const test = pgSuite('limits on PostgreSQL')
let pg: TestPostgres
let db: Db
const servers: ServerProcess[] = []

test.before(async () => {
  pg = await startPostgres()
  const url = await pg.createDatabase('limits')
  const env = { DATABASE_URL: url, TRUST_PROXY: '1', HOLD_LIMIT_PER_ADDRESS: '10', HOLD_LIMIT_PER_ADDRESS_TOTAL: '30', AUTH_RATE_LIMIT_MAX: '6' }
  servers.push(await startServer(env))
  servers.push(await startServer(env))
  db = await openDb({ databaseUrl: url, max: 4 })
})

test.after(async () => {
  await db?.close()
  for (const s of servers) await s.kill('SIGTERM')
  await pg?.stop()
})

test('PostgreSQL, two processes: 7 rotating device ids from one address hold at most 10 seats of a trip; others still get seats', async () => {
  const ctx = { db, now: () => new Date() }
  // Four attackers at once, each on its own trip from its own address, so both processes
  // run several lock transactions side by side: 30 single-seat requests per attacker,
  // alternating between the processes, from 7 rotating device ids.
  const attacks: { trip: Awaited<ReturnType<typeof pickTrip>>; seats: string[]; address: string }[] = []
  for (let skip = 0; attacks.length < 4; skip++) {
    const trip = await pickTrip(ctx, { minHours: 48, skip })
    const seats = await freeSeats(ctx, trip.id, 31).catch(() => null)
    if (seats) attacks.push({ trip, seats, address: `203.0.113.${7 + attacks.length}` })
  }
  const results = await Promise.all(
    attacks.map(({ trip, seats, address }) =>
      Promise.all(
        seats.slice(0, 30).map((seat, i) =>
          call(servers[i % 2]!.url, 'POST', '/api/reservation/seatLock', lockBody(trip, [seat]), {
            device: `rotating-device-${i % 7}`,
            headers: { 'x-forwarded-for': address },
          }),
        ),
      ),
    ),
  )
  for (const [a, rs] of results.entries()) {
    const won = rs.filter((r) => r.status === 200 && r.body.data)
    const refused = rs.filter((r) => r.status === 429)
    assert.is(won.length, 10, `attacker ${a}: ${won.length} holds granted`)
    assert.is(refused.length, 20)
    assert.ok(refused.every((r) => r.body.error.code === 'HOLD_LIMIT_EXCEEDED'))
    const [held] = await db.query<{ n: number }>(
      // the servers' clock (TEST_NOW moves it), not PostgreSQL's
      'SELECT count(*)::int AS n FROM seat_locks WHERE trip_id = $1 AND address = $2 AND expires_at > $3',
      [attacks[a]!.trip.id, attacks[a]!.address, new Date()],
    )
    assert.is(held!.n, 10)
  }
  const { trip, seats } = attacks[0]!
  const attacker = { 'x-forwarded-for': attacks[0]!.address }

  // the eleventh seat is refused with a clear reason, whichever process and device id asks
  const eleventh = await call(servers[1]!.url, 'POST', '/api/reservation/seatLock', lockBody(trip, [seats[30]!]), {
    device: 'brand-new-device',
    headers: attacker,
  })
  assert.is(eleventh.status, 429)
  assert.is(eleventh.body.error.code, 'HOLD_LIMIT_EXCEEDED')
  assert.is(
    eleventh.body.error.reason,
    'At most 10 seats may be held from one network on this trip. Book or release seats, or try again when a hold ends.',
  )
  assert.ok(Number(eleventh.headers.get('retry-after')) > 0)

  // a passenger from another address still gets a seat
  const other = await call(servers[0]!.url, 'POST', '/api/reservation/seatLock', lockBody(trip, [seats[30]!]), {
    device: 'another-visitor',
    headers: { 'x-forwarded-for': '198.51.100.9' },
  })
  assert.is(other.status, 200)
  assert.equal(other.body.data.seatNames, [seats[30]])
})

test('PostgreSQL, two processes: sign-in and mobile look-ups from one address share one limit a minute', async () => {
  const from = { 'x-forwarded-for': '203.0.113.50' }
  const logins = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      call(servers[i % 2]!.url, 'POST', '/api/checkPassenger', { mobile: '01712345678', password: `Wrong@${1000 + i}` }, { headers: from }),
    ),
  )
  assert.equal(logins.map((r) => r.status).sort(), [...Array(6).fill(401), ...Array(6).fill(429)])
  assert.ok(logins.filter((r) => r.status === 429).every((r) => r.body.error.code === 'TOO_MANY_REQUESTS'))
  const lookups = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      call(servers[i % 2]!.url, 'GET', `/api/getPassengerByMobile/0171234${String(5000 + i)}`, undefined, { headers: from }),
    ),
  )
  assert.is(lookups.filter((r) => r.status === 200).length, 6)
  // another address is not held back
  const other = await call(
    servers[1]!.url,
    'POST',
    '/api/checkPassenger',
    { mobile: '01712345678', password: 'Demo@1234' },
    { headers: { 'x-forwarded-for': '198.51.100.60' } },
  )
  assert.is(other.status, 200)
})

test('PostgreSQL, two processes: 40 simultaneous PIN guesses on one PNR get exactly 10 answers, then even the right PIN waits', async () => {
  const [sold] = await db.query<{ pnr: string; pin: string }>('SELECT pnr, pin FROM reservations WHERE status = 1 AND pnr IS NOT NULL LIMIT 1')
  assert.ok(sold, 'the demo data has a sold ticket')
  const tries = Array.from({ length: 41 }, (_, i) => String(i * 7).padStart(4, '0'))
    .filter((p) => p !== sold!.pin)
    .slice(0, 40)
  const rs = await Promise.all(
    tries.map((pin, i) =>
      call(servers[i % 2]!.url, 'GET', `/api/reservation/details/${sold!.pnr}/${pin}`, undefined, { headers: { 'x-forwarded-for': `192.0.2.${i}` } }),
    ),
  )
  assert.is(rs.filter((r) => r.status === 404 && r.body.error.code === 'WRONG_PNR_PIN').length, 10)
  assert.is(rs.filter((r) => r.status === 429 && r.body.error.code === 'TOO_MANY_ATTEMPTS').length, 30)
  const right = await call(servers[0]!.url, 'GET', `/api/reservation/details/${sold!.pnr}/${sold!.pin}`)
  assert.is(right.status, 429)
})

test.run()
