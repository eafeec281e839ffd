/**
 * Security issue 21, items 1 and 6: the per-address limits behind the reverse proxy of docs/operating.md.
 * nginx runs that proxy configuration (harness/nginx.ts `proxySite`: `X-Forwarded-For
 * $proxy_add_x_forwarded_for`) in front of two server processes on one PostgreSQL, with
 * `TRUST_PROXY=1`. Two "clients" reach nginx from two loopback addresses, 127.0.0.1 and
 * 127.0.0.2, and the first writes a different made-up `X-Forwarded-For` on every request:
 * the limits count the address nginx saw, so the forgeries share one bucket and the
 * other client keeps its own. Then the live seat-map streams per address
 * (`SEAT_STREAMS_PER_ADDRESS`), counted across processes, and given back when a process
 * dies. Without nginx or PostgreSQL every test is reported skipped (a failure under CI).
 */
import http from 'node:http'
import * as assert from 'uvu/assert'
import { apiUpstream, nginxMissing, type Nginx, proxySite, runNginx } from '../../harness/nginx.ts'
import type { Db } from '../db/db.ts'
import { freeSeats, lockBody, pickTrip } from '../test/booking-fixture.ts'
import { pgSuite, type ServersOnPostgres, startServersOnPostgres } from '../test/pg.ts'
import { requires } from '../test/skip.ts'
import { call, freePort, type ServerProcess, startServer } from '../../harness/spawn-server.ts'
import { type EventStream, openEvents } from '../../harness/sse-client.ts'

const SUITE = 'per-address limits behind nginx on PostgreSQL'
const test = requires(pgSuite(SUITE), SUITE, nginxMissing())

/** The client that forges X-Forwarded-For, and an honest one on another address. */
const FORGER = '127.0.0.1'
const OTHER = '127.0.0.2'
const STREAMS_PER_ADDRESS = 4

let stack: ServersOnPostgres | undefined
let db: Db
let servers: ServerProcess[]
let proxy: Nginx
const streams: EventStream[] = []

const env = {
  TRUST_PROXY: '1',
  AUTH_RATE_LIMIT_MAX: '6',
  HOLD_LIMIT_PER_ADDRESS: '5',
  HOLD_LIMIT_PER_ADDRESS_TOTAL: '30',
  SEAT_STREAMS_PER_ADDRESS: String(STREAMS_PER_ADDRESS),
  // leases of a dead process's streams run out after three heartbeats
  SEAT_STREAM_HEARTBEAT_SECONDS: '1',
}

test.before(async () => {
  stack = await startServersOnPostgres('proxy', env)
  ;({ db, servers } = stack)
  const port = await freePort()
  // the docs' proxy, its upstream the two processes in turn
  const upstream = apiUpstream(
    'api_servers',
    servers.map((s) => new URL(s.url).host),
  )
  proxy = await runNginx(upstream + proxySite(port, 'http://api_servers'), `http://127.0.0.1:${port}`, undefined, '/healthz')
})

test.after.each(() => {
  for (const s of streams.splice(0)) s.close()
})

test.after(async () => {
  await proxy?.stop()
  await stack?.stop()
})

/** A made-up X-Forwarded-For, different for each `i` (some with several entries, as a chain of proxies would write). */
const forged = (i: number) => (i % 3 === 2 ? `198.51.100.${i}, 203.0.113.${i}` : `10.${i}.${i * 7}.1`)

/** One JSON request to nginx from the loopback address `from`. */
function viaProxy(
  from: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${proxy.origin}${path}`,
      {
        method,
        localAddress: from,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (text += d))
        res.on('end', () => {
          let parsed: unknown = text
          try {
            parsed = JSON.parse(text)
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers })
        })
      },
    )
    req.on('error', reject)
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })
}

const statuses = (rs: { status: number }[]) => rs.map((r) => r.status).sort((a, b) => a - b)

test('sign-in and mobile look-ups: a forged X-Forwarded-For on every request still counts as the one address nginx saw', async () => {
  const logins = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      viaProxy(
        FORGER,
        'POST',
        '/api/checkPassenger',
        { mobile: `0171234${6000 + i}`, password: `Wrong@${1000 + i}` },
        { 'x-forwarded-for': forged(i) },
      ),
    ),
  )
  assert.equal(statuses(logins), [...Array(6).fill(401), ...Array(6).fill(429)], 'AUTH_RATE_LIMIT_MAX=6 for the forger')
  assert.ok(logins.filter((r) => r.status === 429).every((r) => r.body.error.code === 'TOO_MANY_REQUESTS'))

  const lookups = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      viaProxy(FORGER, 'GET', `/api/getPassengerByMobile/0171234${7000 + i}`, undefined, { 'x-forwarded-for': forged(i) }),
    ),
  )
  assert.is(lookups.filter((r) => r.status !== 429).length, 6, `look-ups answered: ${statuses(lookups)}`)

  // the other client, even forging the forger's first address, has its own bucket
  const other = await viaProxy(
    OTHER,
    'POST',
    '/api/checkPassenger',
    { mobile: '01712348000', password: 'Wrong@2000' },
    { 'x-forwarded-for': forged(0) },
  )
  assert.is(other.status, 401, JSON.stringify(other.body))
  const [counted] = await db.query<{ keys: string[] }>(
    "SELECT array_agg(DISTINCT key ORDER BY key) AS keys FROM limit_events WHERE bucket = 'auth:login'",
  )
  assert.equal(counted!.keys, [FORGER, OTHER], 'only the addresses nginx saw are counted, never a forged one')
})

test('contact messages: 5 an hour from the address nginx saw, whatever X-Forwarded-For says', async () => {
  const message = (i: number) => ({ name: 'Forger', email: `forger${i}@example.com`, subject: 'Hello', message: `Message ${i}` })
  const sent = await Promise.all(
    Array.from({ length: 7 }, (_, i) => viaProxy(FORGER, 'POST', '/api/reservation/contactUs', message(i), { 'x-forwarded-for': forged(i) })),
  )
  assert.equal(statuses(sent), [200, 200, 200, 200, 200, 429, 429])
  const other = await viaProxy(OTHER, 'POST', '/api/reservation/contactUs', message(99), { 'x-forwarded-for': forged(1) })
  assert.is(other.status, 200, JSON.stringify(other.body))
})

test('seat holds: HOLD_LIMIT_PER_ADDRESS counts the address nginx saw, across device ids and forged headers', async () => {
  const ctx = { db, now: () => new Date() }
  const trip = await pickTrip(ctx, { minHours: 48 })
  const seats = await freeSeats(ctx, trip.id, 8)
  const holds = await Promise.all(
    seats
      .slice(0, 7)
      .map((seat, i) =>
        viaProxy(FORGER, 'POST', '/api/reservation/seatLock', lockBody(trip, [seat]), { 'x-device-id': `device-${i}`, 'x-forwarded-for': forged(i) }),
      ),
  )
  assert.is(holds.filter((r) => r.status === 200 && r.body.data).length, 5, `holds granted: ${statuses(holds)}`)
  assert.ok(holds.filter((r) => r.status !== 200).every((r) => r.status === 429 && r.body.error.code === 'HOLD_LIMIT_EXCEEDED'))
  const other = await viaProxy(OTHER, 'POST', '/api/reservation/seatLock', lockBody(trip, [seats[7]!]), { 'x-device-id': 'honest' })
  assert.is(other.status, 200, JSON.stringify(other.body))
  const held = await db.query<{ address: string; n: number }>(
    // the servers' clock (TEST_NOW moves it), not PostgreSQL's
    'SELECT address, count(*)::int AS n FROM seat_locks WHERE trip_id = $1 AND expires_at > $2 GROUP BY address ORDER BY address',
    [trip.id, new Date()],
  )
  assert.equal(held, [
    { address: FORGER, n: 5 },
    { address: OTHER, n: 1 },
  ])
})

/** Opens the seat-map stream of `tripId` through nginx from `from`. */
async function streamViaProxy(from: string, tripId: number, forgedFor?: string): Promise<EventStream> {
  const s = await openEvents(`${proxy.origin}/api/reservation/seatEvents/${tripId}`, forgedFor ? { 'x-forwarded-for': forgedFor } : {}, {
    localAddress: from,
  })
  streams.push(s)
  return s
}

test('live seat maps: at most SEAT_STREAMS_PER_ADDRESS open from the address nginx saw, on both processes together; a closed one frees its place', async () => {
  const trip = await pickTrip({ db, now: () => new Date() }, { minHours: 48 })
  const opened = await Promise.all(Array.from({ length: 7 }, (_, i) => streamViaProxy(FORGER, trip.id, forged(i))))
  const live = opened.filter((s) => s.status === 200)
  const refused = opened.filter((s) => s.status !== 200)
  assert.is(live.length, STREAMS_PER_ADDRESS, `streams: ${opened.map((s) => s.status)}`)
  await Promise.all(live.map((s) => s.next((e) => e.event === 'snapshot')))
  for (const s of refused) {
    assert.is(s.status, 429)
    assert.is(s.headers['retry-after'], '30')
    assert.equal(JSON.parse(await s.body()).error, { code: 'TOO_MANY_REQUESTS', reason: 'Too many requests. Please wait a moment.' })
  }
  const [rows] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM seat_streams WHERE address = $1', [FORGER])
  assert.is(rows!.n, STREAMS_PER_ADDRESS)

  // another visitor still gets a live map
  const other = await streamViaProxy(OTHER, trip.id, forged(0))
  assert.is(other.status, 200)
  await other.next((e) => e.event === 'snapshot')

  // one closed: its place is free again once the server has seen it go
  live[0]!.close()
  const deadline = Date.now() + 15_000
  let again: EventStream
  for (;;) {
    again = await streamViaProxy(FORGER, trip.id, forged(50))
    if (again.status === 200 || Date.now() > deadline) break
    again.close()
    await new Promise((r) => setTimeout(r, 100))
  }
  assert.is(again.status, 200, 'a place is given back when its stream ends')
  await again.next((e) => e.event === 'snapshot')
})

test('live seat maps, three processes: the count is shared, and the places of a process that dies are given back when their leases run out', async () => {
  const trip = await pickTrip({ db, now: () => new Date() }, { minHours: 48 })
  const third = await startServer({ ...env, DATABASE_URL: stack!.url })
  try {
    // straight to the processes, as the one proxy hop they trust: the client is the X-Forwarded-For entry
    const as = { 'x-forwarded-for': '203.0.113.90' }
    const onThird = await Promise.all(
      Array.from({ length: STREAMS_PER_ADDRESS }, async () => {
        const s = await openEvents(`${third.url}/api/reservation/seatEvents/${trip.id}`, as)
        streams.push(s)
        return s
      }),
    )
    assert.equal(
      onThird.map((s) => s.status),
      Array(STREAMS_PER_ADDRESS).fill(200),
    )
    for (const base of servers) {
      const s = await openEvents(`${base.url}/api/reservation/seatEvents/${trip.id}`, as)
      streams.push(s)
      assert.is(s.status, 429, 'the places taken on another process count')
    }
    // the process dies without a word: its rows stay, but their leases (3 heartbeats) run out
    await third.kill('SIGKILL')
    const deadline = Date.now() + 20_000
    let back: EventStream
    for (;;) {
      back = await openEvents(`${servers[0]!.url}/api/reservation/seatEvents/${trip.id}`, as)
      streams.push(back)
      if (back.status === 200 || Date.now() > deadline) break
      back.close()
      await new Promise((r) => setTimeout(r, 200))
    }
    assert.is(back.status, 200, 'the dead process’s places came back')
    const alive = await call(servers[1]!.url, 'GET', '/healthz')
    assert.is(alive.status, 200)
  } finally {
    await third.kill('SIGKILL')
  }
})

test.run()
