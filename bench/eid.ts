/**
 * Part `eid` (`npm run bench -- eid`, not in the default set: it takes minutes and both cores):
 * an Eid advance sale on this machine, two server processes on one PostgreSQL.
 * - the sale: EID_PASSENGERS (20,000) signed-in passengers arrive within EID_ARRIVALS_S (60 s)
 *   for one rush date (≥ 8 trips, ≥ 320 seats), search, look at a trip, lock seats, book and pay
 *   from their balance; each ends with a final answer (a ticket, or "sold out" once every trip
 *   of their route is full). Once with one address per passenger, once with all of them behind
 *   EID_ADDRESSES (50) shared addresses (a mobile carrier's NAT), as the proxy in front says in
 *   X-Forwarded-For. Checked from the database afterwards: no seat sold twice, nobody over the
 *   per-passenger cap of paid seats for the date;
 * - what one core does: requests/s per core of each hot path (search, trip details, seat lock,
 *   booking), from the CPU time the server processes and PostgreSQL spent, beside a bare Fastify
 *   route and `pgbench -S` measured in the same run.
 */
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import autocannon, { type Request } from 'autocannon'
import pg from 'pg'
import { pgBinary, startPostgres } from '../harness/postgres.ts'
import { mulberry32 } from '../server/lib/seeded-random.ts'
import {
  DEMO_ROUTES,
  dhakaDate,
  fig,
  freePort,
  int,
  makePassengers,
  ms,
  num,
  onCleanup,
  percentile,
  sec,
  seatLockBody,
  sleep,
  startServer,
  track,
  tripDetailsBody,
  type BenchServer,
  type Figure,
  type PartResult,
  type TripKey,
} from './lib.ts'

const PASSENGERS = Number(process.env.EID_PASSENGERS ?? 20_000)
const ARRIVALS_MS = Number(process.env.EID_ARRIVALS_S ?? 60) * 1000
const SHARED_ADDRESSES = Number(process.env.EID_ADDRESSES ?? 50)
const MIN_TRIPS = 8
const MIN_SEATS = 320
/** A passenger gives up after this many answers that were neither a seat nor "taken" (errors, time-outs). */
const GIVE_UP_AFTER = 5
const CAP = 4
/** The demo routes out of Dhaka: one date's trips on them make the rush. */
const ROUTES = DEMO_ROUTES.filter(([origin]) => origin === 'DHK')
const json = { 'content-type': 'application/json', accept: 'application/json' }

interface RushTrip extends TripKey {
  seats: number
  boardingId: number
  droppingId: number
}

type Kind = 'search' | 'details' | 'lock' | 'booking' | 'pay'
const KINDS: Kind[] = ['search', 'details', 'lock', 'booking', 'pay']

interface SaleResult {
  addresses: number
  requests: Record<Kind, number[]>
  status5xx: number
  /** Answers other than 2xx and the expected refusals (seat taken), by code. */
  refusals: Map<string, number>
  failures: number
  tickets: number
  soldOut: number
  gaveUp: number
  /** Passengers who saw "sold out" only after this many tries or more. */
  lateSoldOut: number
  soldTwice: number
  overCap: number
  seatsSold: number
  lastSeatSoldAfterMs: number
  wallMs: number
  cpu: { server: number; postgres: number }
}

/** A JSON POST through `agent`: its status and body (time-out 120 s). */
function post(agent: http.Agent, url: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { ...json, ...headers } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.setTimeout(120_000, () => req.destroy(new Error('no answer in 120 s')))
    req.end(body)
  })
}

/** CPU seconds (user + system) a process has used; with `children`, also its children, living and ended. */
function cpuSeconds(pid: number, children = false): number {
  const tick = 100
  const fields = (p: number) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8')
      return stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number)
    } catch {
      return []
    }
  }
  const own = fields(pid)
  // utime, stime; cutime, cstime: children that ended (PostgreSQL's backends end with their connection)
  let total = ((own[11] ?? 0) + (own[12] ?? 0) + (children ? (own[13] ?? 0) + (own[14] ?? 0) : 0)) / tick
  if (children)
    for (const d of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue
      const f = fields(Number(d))
      if (f[1] === pid) total += ((f[11] ?? 0) + (f[12] ?? 0)) / tick
    }
  return total
}

/** The postmaster listening on `port` (its command line says `-p <port>`). */
function postmasterPid(port: string): number {
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const cmd = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0')
      const p = cmd.indexOf('-p')
      if (cmd[0]?.endsWith('postgres') && p > 0 && cmd[p + 1] === port) return Number(d)
    } catch {
      // gone
    }
  }
  throw new Error(`no postmaster on port ${port}`)
}

/** Server and PostgreSQL CPU seconds so far. */
function cpuNow(servers: BenchServer[], postmaster: number): { server: number; postgres: number } {
  return { server: servers.reduce((n, s) => n + cpuSeconds(s.pid), 0), postgres: cpuSeconds(postmaster, true) }
}

/** The rush date's trips: from `days` ahead, the first date whose trips on ROUTES are untouched and add up to MIN_TRIPS / MIN_SEATS. */
async function rushTrips(base: string, days: number): Promise<{ date: string; trips: RushTrip[] }> {
  for (let d = days; d < days + 20; d++) {
    const date = dhakaDate(d)
    const trips: RushTrip[] = []
    for (const [originCode, destinationCode] of ROUTES) {
      const res = await fetch(`${base}/api/reservation/tripSearch`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ originCode, destinationCode, tripDate: date }),
      })
      if (!res.ok) continue
      const rows = (await res.json()) as { data: { tripId: number; coachCode: string; availableSeats: number; tripDate: string }[] }
      for (const r of rows.data) {
        const st = await fetch(`${base}/api/busStationsByOriginDestinationAndTripDate`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ originCode, destinationCode, tripDate: date, tripId: r.tripId }),
        })
        const stations = (await st.json()) as { data: { boarding: { id: number }[]; dropping: { id: number }[] } }
        trips.push({
          tripId: r.tripId,
          tripDate: r.tripDate,
          coachCode: r.coachCode,
          originCode,
          destinationCode,
          seats: r.availableSeats,
          boardingId: stations.data.boarding[0]!.id,
          droppingId: stations.data.dropping[0]!.id,
        })
      }
    }
    if (trips.length >= MIN_TRIPS && trips.reduce((n, t) => n + t.seats, 0) >= MIN_SEATS) return { date, trips }
  }
  throw new Error(`no date from ${days} days ahead with ${MIN_TRIPS} trips and ${MIN_SEATS} seats on ${ROUTES.length} routes`)
}

/** One sale: every passenger arrives, tries until a ticket or "sold out", and the database is checked. */
async function sale(
  urls: string[],
  dbUrl: string,
  servers: BenchServer[],
  postmaster: number,
  rush: { date: string; trips: RushTrip[] },
  addresses: number,
  firstMobile: number,
  log: (s: string) => void,
): Promise<SaleResult> {
  const tokens = await makePassengers(dbUrl, PASSENGERS, firstMobile, 'Eid Passenger')
  const r: SaleResult = {
    addresses,
    requests: { search: [], details: [], lock: [], booking: [], pay: [] },
    status5xx: 0,
    refusals: new Map(),
    failures: 0,
    tickets: 0,
    soldOut: 0,
    gaveUp: 0,
    lateSoldOut: 0,
    soldTwice: 0,
    overCap: 0,
    seatsSold: 0,
    lastSeatSoldAfterMs: 0,
    wallMs: 0,
    cpu: { server: 0, postgres: 0 },
  }
  // a proxy's pool of connections to each process, not one socket per passenger
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  onCleanup(() => agent.destroy())
  const refuse = (code: string) => r.refusals.set(code, (r.refusals.get(code) ?? 0) + 1)

  /** One request; answers the data, 'taken' for a lost seat, or null for anything else (counted). */
  const call = async <T>(kind: Kind, base: string, path: string, body: unknown, headers: Record<string, string>): Promise<T | 'refused' | null> => {
    const t0 = performance.now()
    try {
      const { status, text } = await post(agent, `${base}/api${path}`, typeof body === 'string' ? body : JSON.stringify(body), headers)
      r.requests[kind].push(performance.now() - t0)
      if (status >= 500) r.status5xx++
      if (status >= 300) {
        let code = `HTTP ${status}`
        try {
          code = (JSON.parse(text) as { code?: string }).code ?? code
        } catch {
          // not JSON
        }
        refuse(`${kind}: ${code}`)
        return 'refused'
      }
      return (JSON.parse(text) as { data: T }).data
    } catch (err) {
      r.requests[kind].push(performance.now() - t0)
      refuse(`${kind}: ${(err as Error).message}`)
      r.failures++
      return null
    }
  }

  const byId = new Map(rush.trips.map((t) => [t.tripId, t]))
  const start = performance.now()
  const cpu0 = cpuNow(servers, postmaster)
  let lastSale = 0
  const passenger = async (i: number): Promise<void> => {
    const rnd = mulberry32(20_261_128 + i)
    await sleep(rnd() * ARRIVALS_MS)
    const base = urls[i % urls.length]!
    const address = `10.${(i % addresses) >> 8}.${(i % addresses) & 255}.${addresses === PASSENGERS ? (i >> 16) + 1 : 1}`
    const headers = { authorization: `Bearer ${tokens[i]}`, 'x-forwarded-for': address }
    const [originCode, destinationCode] = ROUTES[Math.floor(rnd() * ROUTES.length)]!
    const want = 1 + Math.floor(rnd() * 2)
    let tries = 0
    let troubles = 0
    while (troubles < GIVE_UP_AFTER) {
      tries++
      const rows = await call<{ tripId: number; coachCode: string; availableSeats: number; tripDate: string }[]>(
        'search',
        base,
        '/reservation/tripSearch',
        { originCode, destinationCode, tripDate: rush.date },
        headers,
      )
      if (!rows || rows === 'refused') {
        troubles++
        continue
      }
      const open = rows.filter((t) => t.availableSeats > 0)
      if (!open.length) {
        r.soldOut++
        if (tries >= 5) r.lateSoldOut++
        return
      }
      const row = open[Math.floor(rnd() * open.length)]!
      const trip = byId.get(row.tripId)
      if (!trip) {
        troubles++
        continue
      }
      const details = await call<{ seatLayout: { seats: { name: string; status: number; lockedByOther: boolean }[] } }>(
        'details',
        base,
        '/reservation/tripDetails',
        tripDetailsBody(trip),
        headers,
      )
      if (!details || details === 'refused') {
        troubles++
        continue
      }
      const free = details.seatLayout.seats.filter((s) => s.status === 0 && !s.lockedByOther && s.name !== 'OPEN').map((s) => s.name)
      if (!free.length) continue
      // choosing takes a moment
      await sleep(300 + rnd() * 1_200)
      const mine: string[] = []
      for (const seat of free.sort(() => rnd() - 0.5)) {
        if (mine.length >= want) break
        const won = await call<unknown>('lock', base, '/reservation/seatLock', seatLockBody(trip, [seat]), headers)
        if (won === null) troubles++
        else if (won !== 'refused' && won !== false) mine.push(seat)
        if (troubles >= GIVE_UP_AFTER) break
        if (mine.length === 0 && free.indexOf(seat) >= 3) break
      }
      if (!mine.length) continue
      const booking = await call<{ id: number }>(
        'booking',
        base,
        '/reservation/booking',
        {
          tripId: trip.tripId,
          seatNames: mine,
          boardingStationId: trip.boardingId,
          droppingStationId: trip.droppingId,
          passengerName: `Eid Passenger ${i}`,
          passengerMobile: `019${String(firstMobile + i + 1).padStart(8, '0')}`,
        },
        headers,
      )
      if (!booking || booking === 'refused') {
        troubles++
        continue
      }
      const paid = await call<unknown>('pay', base, '/reservation/payFromBalance', { reservationId: booking.id }, headers)
      if (paid && paid !== 'refused') {
        r.tickets++
        lastSale = performance.now()
        return
      }
      troubles++
    }
    r.gaveUp++
  }
  const ticker = setInterval(() => {
    const done = r.tickets + r.soldOut + r.gaveUp
    log(
      `eid: ${addresses} addresses, ${((performance.now() - start) / 1000).toFixed(0)} s: ${done} of ${PASSENGERS} answered (${r.tickets} tickets, ${r.soldOut} sold out, ${r.gaveUp} gave up), ${r.status5xx} 5xx`,
    )
  }, 15_000)
  try {
    await Promise.all(Array.from({ length: PASSENGERS }, (_, i) => passenger(i)))
  } finally {
    clearInterval(ticker)
    agent.destroy()
  }
  r.wallMs = performance.now() - start
  r.lastSeatSoldAfterMs = lastSale ? lastSale - start : 0
  const cpu1 = cpuNow(servers, postmaster)
  r.cpu = { server: cpu1.server - cpu0.server, postgres: cpu1.postgres - cpu0.postgres }

  const c = new pg.Client({ connectionString: dbUrl })
  await c.connect()
  try {
    const ids = rush.trips.map((t) => t.tripId)
    r.soldTwice = (
      await c.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT rs.trip_id, rs.seat_name FROM reservation_seats rs JOIN reservations v ON v.id = rs.reservation_id
          WHERE rs.trip_id = ANY($1) AND v.status = 1 AND rs.active GROUP BY 1, 2 HAVING count(*) > 1) x`,
        [ids],
      )
    ).rows[0]!.n
    r.seatsSold = (
      await c.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM reservation_seats rs JOIN reservations v ON v.id = rs.reservation_id WHERE rs.trip_id = ANY($1) AND v.status = 1 AND rs.active`,
        [ids],
      )
    ).rows[0]!.n
    r.overCap = (
      await c.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT v.passenger_id FROM reservation_seats rs JOIN reservations v ON v.id = rs.reservation_id
          WHERE rs.trip_id = ANY($1) AND v.status = 1 AND rs.active GROUP BY 1 HAVING count(*) > $2) x`,
        [ids, CAP],
      )
    ).rows[0]!.n
  } finally {
    await c.end()
  }
  return r
}

/** A bare Fastify route in its own process: the most requests/s one core serves here, and its CPU. */
async function bareFastify(): Promise<{ rps: number; perCore: number }> {
  const port = await freePort()
  const child = track(
    spawn(
      process.execPath,
      [
        '-e',
        `const f = require('fastify')(); f.get('/', async () => ({ ok: true })); f.listen({ port: ${port}, host: '127.0.0.1' }).then(() => console.log('up'))`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    ),
  )
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => d.toString().includes('up') && resolve())
      child.once('exit', () => reject(new Error('bare Fastify did not start')))
    })
    const cpu0 = cpuSeconds(child.pid!)
    const res = await autocannon({ url: `http://127.0.0.1:${port}/`, connections: 50, duration: 5 })
    const cpu = cpuSeconds(child.pid!) - cpu0
    return { rps: res.requests.average, perCore: res.requests.total / Math.max(cpu, 0.01) }
  } finally {
    child.kill('SIGKILL')
  }
}

/** `pgbench -S` (select-only) on the same PostgreSQL: transactions/s and per PostgreSQL core. */
function pgbenchSelect(url: string, postmaster: number): { tps: number; perCore: number } {
  const u = new URL(url)
  const bin = pgBinary('pgbench')
  const args = ['-h', u.hostname, '-p', u.port, '-U', 'postgres']
  execFileSync(bin, [...args, '-i', '-s', '10', '-q', 'postgres'], { stdio: 'pipe' })
  const cpu0 = cpuSeconds(postmaster, true)
  const out = execFileSync(bin, [...args, '-S', '-c', '8', '-j', '2', '-T', '10', 'postgres'], { encoding: 'utf8' })
  const cpu = cpuSeconds(postmaster, true) - cpu0
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? Number.NaN)
  return { tps, perCore: (tps * 10) / Math.max(cpu, 0.01) }
}

/** Requests/s of one hot path through both processes, and per core of server and of PostgreSQL. */
async function hotPath(
  urls: string[],
  servers: BenchServer[],
  postmaster: number,
  request: Request,
): Promise<{ rps: number; perServerCore: number; perPgCore: number; non2xx: number }> {
  const c0 = cpuNow(servers, postmaster)
  const res = await autocannon({ url: urls, connections: 50, duration: 5, timeout: 10, requests: [request] })
  const c1 = cpuNow(servers, postmaster)
  return {
    rps: res.requests.average,
    perServerCore: res.requests.total / Math.max(c1.server - c0.server, 0.01),
    perPgCore: res.requests.total / Math.max(c1.postgres - c0.postgres, 0.01),
    non2xx: res.non2xx + res.errors,
  }
}

/** Passengers who each lock a seat and book it, as fast as 50 at a time go: the booking hot path. */
async function bookingPath(
  urls: string[],
  dbUrl: string,
  servers: BenchServer[],
  postmaster: number,
  trips: RushTrip[],
): Promise<{ rps: number; perServerCore: number; perPgCore: number; non2xx: number }> {
  const seats: { trip: RushTrip; seat: string }[] = []
  for (const t of trips) {
    const res = await fetch(`${urls[0]}/api/reservation/tripDetails`, { method: 'POST', headers: json, body: JSON.stringify(tripDetailsBody(t)) })
    const d = (await res.json()) as { data: { seatLayout: { seats: { name: string; status: number; lockedByOther: boolean }[] } } }
    for (const s of d.data.seatLayout.seats) if (s.status === 0 && !s.lockedByOther && s.name !== 'OPEN') seats.push({ trip: t, seat: s.name })
  }
  const tokens = await makePassengers(dbUrl, seats.length, 90_000_000, 'Eid Booker')
  const prepared: { token: string; mobile: string; trip: RushTrip; seat: string }[] = []
  await Promise.all(
    seats.map(async ({ trip, seat }, i) => {
      const res = await fetch(`${urls[i % urls.length]}/api/reservation/seatLock`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${tokens[i]}`, 'x-forwarded-for': `10.200.${i >> 8}.${i & 255}` },
        body: seatLockBody(trip, [seat]),
      })
      if (res.ok) prepared.push({ token: tokens[i]!, mobile: `019${String(90_000_000 + i + 1).padStart(8, '0')}`, trip, seat })
      await res.arrayBuffer()
    }),
  )
  let next = 0
  let non2xx = 0
  const c0 = cpuNow(servers, postmaster)
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: 50 }, async (_, w) => {
      for (let k = next++; k < prepared.length; k = next++) {
        const p = prepared[k]!
        const res = await fetch(`${urls[w % urls.length]}/api/reservation/booking`, {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${p.token}`, 'x-forwarded-for': `10.200.${k >> 8}.${k & 255}` },
          body: JSON.stringify({
            tripId: p.trip.tripId,
            seatNames: [p.seat],
            boardingStationId: p.trip.boardingId,
            droppingStationId: p.trip.droppingId,
            passengerName: 'Eid Booker',
            passengerMobile: p.mobile,
          }),
        })
        if (!res.ok) non2xx++
        await res.arrayBuffer()
      }
    }),
  )
  const took = (performance.now() - t0) / 1000
  const c1 = cpuNow(servers, postmaster)
  return {
    rps: prepared.length / took,
    perServerCore: prepared.length / Math.max(c1.server - c0.server, 0.01),
    perPgCore: prepared.length / Math.max(c1.postgres - c0.postgres, 0.01),
    non2xx,
  }
}

function saleFigures(x: SaleResult): Figure[] {
  const label = x.addresses === PASSENGERS ? 'one address each' : `${x.addresses} shared addresses`
  const kinds = KINDS.flatMap((k) => {
    const xs = x.requests[k]
    return xs.length
      ? [fig(`sale (${label}): ${k} p50 / p95`, percentile(xs, 95), () => `${ms(percentile(xs, 50))} / ${ms(percentile(xs, 95))}`)]
      : []
  })
  return [
    fig(`sale (${label}): seats sold twice (database)`, x.soldTwice, int, { exact: 0 }),
    fig(`sale (${label}): server errors (5xx)`, x.status5xx, int, { exact: 0 }),
    fig(`sale (${label}): passengers without a final answer`, x.gaveUp, int, { exact: 0 }),
    fig(`sale (${label}): passengers over the cap of ${CAP} paid seats`, x.overCap, int, { exact: 0 }),
    fig(`sale (${label}): tickets / sold out`, x.tickets, () => `${x.tickets} / ${x.soldOut}`),
    fig(`sale (${label}): last seat sold after`, x.lastSeatSoldAfterMs, sec),
    ...kinds,
  ]
}

function saleRow(x: SaleResult): string {
  const label = x.addresses === PASSENGERS ? 'one each' : String(x.addresses)
  const p = (k: Kind) => (x.requests[k].length ? `${ms(percentile(x.requests[k], 50))} / ${ms(percentile(x.requests[k], 95))}` : '—')
  const refusals = [...x.refusals].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`)
  return `| ${label} | ${sec(x.wallMs)} | ${x.tickets} | ${x.seatsSold} | ${x.soldOut} | ${x.lateSoldOut} | ${x.gaveUp} | ${sec(x.lastSeatSoldAfterMs)} | ${KINDS.map(p).join(' | ')} | ${x.status5xx} | ${x.soldTwice} | ${x.overCap} | ${x.cpu.server.toFixed(0)} s / ${x.cpu.postgres.toFixed(0)} s | ${refusals.join(', ').replace(/\|/g, '/') || '—'} |`
}

export async function runEid(log: (s: string) => void): Promise<PartResult> {
  const date = new Date().toISOString()
  const figures: Figure[] = []
  const details: string[] = []
  const errors: string[] = []
  const servers: BenchServer[] = []
  const runs: SaleResult[] = []
  const rows: string[] = []
  try {
    const pgServer = await startPostgres()
    onCleanup(() => pgServer.stop())
    const url = await pgServer.createDatabase('eid')
    const postmaster = postmasterPid(new URL(url).port)
    // the bench is the proxy in front: it says each passenger's address in X-Forwarded-For; a fresh date per measurement
    const env = { DATABASE_URL: url, TRUST_PROXY: '1', TRIP_DAYS_AHEAD: '60', SEATS_PER_PASSENGER_PER_DATE: String(CAP) }
    servers.push(await startServer(env))
    servers.push(await startServer(env))
    const urls = servers.map((s) => s.url)
    log(`eid: two servers on PostgreSQL ready in ${sec(servers[0]!.readyMs)} and ${sec(servers[1]!.readyMs)}`)

    const bare = await bareFastify()
    const bench = pgbenchSelect(url, postmaster)
    log(
      `eid: bare Fastify ${int(bare.rps)} requests/s (${int(bare.perCore)} per core); pgbench -S ${int(bench.tps)} tps (${int(bench.perCore)} per PostgreSQL core)`,
    )

    for (const [n, addresses] of [PASSENGERS, SHARED_ADDRESSES].entries()) {
      const rush = await rushTrips(urls[0]!, 20 + n * 10)
      const seats = rush.trips.reduce((k, t) => k + t.seats, 0)
      log(
        `eid: sale ${n + 1}: ${rush.date}, ${rush.trips.length} trips, ${seats} seats, ${PASSENGERS} passengers over ${addresses} addresses within ${ARRIVALS_MS / 1000} s`,
      )
      const x = await sale(urls, url, servers, postmaster, rush, addresses, 10_000_000 + n * 1_000_000, log)
      runs.push(x)
      figures.push(...saleFigures(x))
      log(
        `eid: sale ${n + 1} done in ${sec(x.wallMs)}: ${x.tickets} tickets, ${x.soldOut} sold out, ${x.gaveUp} gave up, ${x.status5xx} 5xx, ${x.soldTwice} sold twice`,
      )
    }

    // what one core does on each hot path, on a fresh date
    const hot = await rushTrips(urls[0]!, 40)
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!
    const seatsOf = new Map<number, string[]>()
    for (const t of hot.trips) {
      const res = await fetch(`${urls[0]}/api/reservation/tripDetails`, { method: 'POST', headers: json, body: JSON.stringify(tripDetailsBody(t)) })
      const d = (await res.json()) as { data: { seatLayout: { seats: { name: string }[] } } }
      seatsOf.set(
        t.tripId,
        d.data.seatLayout.seats.map((x) => x.name).filter((n) => n !== 'OPEN'),
      )
    }
    const device = () => `eid-${Math.random().toString(36).slice(2)}`
    const paths: [string, Request][] = [
      [
        'trip search',
        {
          method: 'POST',
          path: '/api/reservation/tripSearch',
          headers: json,
          setupRequest: (req) => {
            const [o, d] = pick(ROUTES)
            return { ...req, body: JSON.stringify({ originCode: o, destinationCode: d, tripDate: hot.date }) }
          },
        },
      ],
      [
        'trip details',
        {
          method: 'POST',
          path: '/api/reservation/tripDetails',
          headers: json,
          setupRequest: (req) => ({ ...req, body: JSON.stringify(tripDetailsBody(pick(hot.trips))) }),
        },
      ],
      [
        'seat lock (random seat, random device)',
        {
          method: 'POST',
          path: '/api/reservation/seatLock',
          setupRequest: (req) => {
            const t = pick(hot.trips)
            return {
              ...req,
              headers: { ...json, 'x-device-id': device() },
              body: seatLockBody(t, [pick(seatsOf.get(t.tripId)!)]),
            }
          },
        },
      ],
    ]
    for (const [name, request] of paths) {
      const h = await hotPath(urls, servers, postmaster, request)
      figures.push(fig(`${name}: requests/s per server core`, h.perServerCore, int))
      rows.push(`| ${name} | ${int(h.rps)} | ${int(h.perServerCore)} | ${int(h.perPgCore)} | ${h.non2xx} |`)
      log(`eid: ${name} ${int(h.rps)} requests/s, ${int(h.perServerCore)} per server core, ${int(h.perPgCore)} per PostgreSQL core`)
    }
    const book = await bookingPath(urls, url, servers, postmaster, (await rushTrips(urls[0]!, 50)).trips)
    figures.push(fig('booking: requests/s per server core', book.perServerCore, int))
    rows.push(`| booking (a held seat) | ${int(book.rps)} | ${int(book.perServerCore)} | ${int(book.perPgCore)} | ${book.non2xx} |`)
    rows.push(`| bare Fastify route (one process) | ${int(bare.rps)} | ${int(bare.perCore)} | — | 0 |`)
    rows.push(`| pgbench -S (8 clients) | ${int(bench.tps)} | — | ${int(bench.perCore)} | 0 |`)
    figures.push(
      fig('bare Fastify route: requests/s per core', bare.perCore, int),
      fig('pgbench -S: transactions/s per PostgreSQL core', bench.perCore, int),
    )

    figures.push(fig('eid: passengers', PASSENGERS, int), fig('eid: arrival window', ARRIVALS_MS / 1000, num(0)))
  } catch (err) {
    errors.push((err as Error).message)
  } finally {
    for (const s of servers) await s.stop()
  }
  details.push(
    `The sale: ${PASSENGERS} passengers with a session and a balance (made in the database) arrive at random within ${ARRIVALS_MS / 1000} s, half on each server process, for one date's trips on ${ROUTES.length} routes from Dhaka. Each searches their route, takes a trip with seats left, reads its seat map, waits 0.3–1.5 s, locks 1–2 seats that look free (a lost seat: the next), books and pays from the balance; a passenger whose route shows no seat left is "sold out"; ${GIVE_UP_AFTER} errors or time-outs and they give up (no final answer). Every answer is timed from the request to its whole body. "Late sold out": told only after 5 or more searches. CPU: user + system seconds of both server processes and of every PostgreSQL process during the sale. Refusals: every answer other than 2xx, by the error code.`,
    '',
    `| addresses | took | tickets | seats sold | sold out | late sold out | no answer | last seat sold after | ${KINDS.map((k) => `${k} p50 / p95`).join(' | ')} | 5xx | sold twice | over cap | CPU server / PostgreSQL | refusals |`,
    `|---|---|---|---|---|---|---|---|${KINDS.map(() => '---').join('|')}|---|---|---|---|---|`,
    ...runs.map(saleRow),
    '',
    'What one core does: autocannon, 50 connections for 5 s over both processes (booking: 50 at a time, each a passenger with a seat locked beforehand); per core = requests ÷ CPU seconds the server processes (or PostgreSQL) spent meanwhile. The bare Fastify route and pgbench run on the same machine in the same run.',
    '',
    '| path | requests/s (2 processes) | per server core | per PostgreSQL core | non-2xx |',
    '|---|---|---|---|---|',
    ...rows,
  )
  return { part: 'eid', title: 'Eid advance sale (two processes on PostgreSQL)', date, figures, details, errors }
}
