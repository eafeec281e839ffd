/**
 * Part `eid` (`npm run bench -- eid`, not in the default set: it takes minutes and both cores):
 * an Eid advance sale on this machine, two server processes on one PostgreSQL, every per-address limit at its default.
 * - the sale: EID_PASSENGERS (20,000) signed-in passengers arrive within EID_ARRIVALS_S (60 s)
 *   for one rush date (two routes, ≥ 8 trips, ≥ 320 seats) marked with the operator's command to open
 *   EID_OPENS_AFTER_S (30 s) after the first may arrive. Each searches, joins the waiting room, polls as
 *   told; admitted, locks seats with the admission, books and pays from the balance; each ends with a final
 *   answer (a ticket, a waitlist place or "sold out"). Once with one address per passenger, once with all of
 *   them behind EID_ADDRESSES (50) shared addresses (a mobile carrier's NAT), as the proxy in front says in
 *   X-Forwarded-For. Checked from the database afterwards: no seat sold twice, nobody over the
 *   per-passenger cap, no ticket without an admission, the pre-queue's order uncorrelated with arrival
 *   (Spearman's ρ) and first come first served after the hour (order.ts);
 * - what one core does: requests/s per core of each hot path (search, trip details, queue status,
 *   seat lock, booking), from the CPU time the server processes and PostgreSQL spent, beside a bare
 *   Fastify route and `pgbench -S` measured in the same run.
 */
import { execFile, execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import autocannon, { type Request } from 'autocannon'
import pg from 'pg'
import { QUEUE_TOKEN_HEADER } from '../contract/values.ts'
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
  stagedRoot,
  startServer,
  track,
  tripDetailsBody,
  type BenchServer,
  type Figure,
  type PartResult,
  type TripKey,
} from './lib.ts'
import { fifoViolations, spearman } from './order.ts'

const PASSENGERS = Number(process.env.EID_PASSENGERS ?? 20_000)
const ARRIVALS_MS = Number(process.env.EID_ARRIVALS_S ?? 60) * 1000
const SHARED_ADDRESSES = Number(process.env.EID_ADDRESSES ?? 50)
/** The rush date's queue opens this long after the first passenger may arrive: those before it are the pre-queue. */
const OPENS_AFTER_MS = Number(process.env.EID_OPENS_AFTER_S ?? 30) * 1000
/** Passengers each route's queue admits a minute (the operator's rate: `npm run trip -- rush mark … --rate`). */
const ADMIT_PER_MINUTE = Number(process.env.EID_ADMIT_PER_MINUTE ?? 600)
/** Places in the queue whose status the queue-status hot path polls. */
const QUEUE_PLACES = Number(process.env.EID_QUEUE_PLACES ?? 2_000)
/** EID_HOT_PATHS: 0 leaves out what one core does, a list (search,details,queue,lock,booking) measures those only; all by default. */
const HOT_PATHS = (process.env.EID_HOT_PATHS ?? 'search,details,queue,lock,booking').split(',').filter((x) => x && x !== '0')
/** Time allowed for marking the rush date (two runs of the operator's command) before arrivals start. */
const MARK_MARGIN_MS = 60_000
const MIN_TRIPS = 8
const MIN_SEATS = 320
/** A passenger gives up after this many answers that were neither a seat nor an expected refusal (errors, time-outs, 5xx). */
const GIVE_UP_AFTER = 5
/** ... or after this long in all: no final answer. */
const PASSENGER_DEADLINE_MS = 45 * 60_000
const CAP = 4
/** One passenger in this many is a tout who tries for 6 seats: the cap must hold. */
const TOUT_EVERY = 50
/** One passenger in this many told "sold out" joins a trip's waitlist. */
const WAITLIST_EVERY = 4
/** The routes out of Dhaka whose date is the rush: two routes, 5 trips each in the demo network. */
const ROUTES = DEMO_ROUTES.filter(([origin]) => origin === 'DHK').slice(0, 2)
const json = { 'content-type': 'application/json', accept: 'application/json' }
/** Refusals an honest passenger meets in a sale and handles (a seat someone else won, the cap, a sold-out trip): not troubles. */
const EXPECTED = new Set(['MAX_SEAT_WARNING', 'SEAT_LIMIT_EXCEEDED', 'SEAT_ALREADY_BOOKED', 'TRIP_NOT_SOLD_OUT', 'WAITLIST_ALREADY_JOINED'])
/** Refusals that would mean a per-address limit refused an honest passenger. */
const ADDRESS_LIMITS = new Set(['HOLD_LIMIT_EXCEEDED', 'TOO_MANY_REQUESTS', 'TOO_MANY_ATTEMPTS'])

interface RushTrip extends TripKey {
  seats: number
  boardingId: number
  droppingId: number
}

type Kind = 'search' | 'join' | 'status' | 'details' | 'lock' | 'booking' | 'pay' | 'waitlist'
const KINDS: Kind[] = ['search', 'join', 'status', 'details', 'lock', 'booking', 'pay', 'waitlist']

/** How the waiting room ordered its places (from the database after the sale). */
interface QueueOrder {
  /** Places joined before the hour. */
  preQueue: number
  /** Spearman's ρ of the pre-queue's arrival order against its queue order (draw), per route; and against its admission order among those admitted. */
  rhoQueue: number[]
  rhoAdmitted: number[]
  admittedPre: number
  /** Places joined after the hour, and those among them whose queue order is not their arrival order. */
  afterHour: number
  afterHourOutOfOrder: number
  /** Pre-queue places admitted while one drawn ahead of them was still waiting (or admitted later). */
  admittedOutOfTurn: number
  /** Places admitted while one that joined more than a second before them (by the draw) was still waiting. */
  admittedOutOfTurnAfter: number
  /** Places admitted while any place ahead of them in the queue was still waiting: joins still in flight at a refresh included. */
  admittedOutOfTurnStrict: number
  admitted: number
}

interface SaleResult {
  addresses: number
  requests: Record<Kind, number[]>
  /** When each request of `requests` was sent (performance.now()), in the same order. */
  sentAt: Record<Kind, number[]>
  /** performance.now() when the first passenger could arrive (the hour is OPENS_AFTER_MS later). */
  startedAt: number
  status5xx: number
  /** Answers other than 2xx, by route and code. */
  refusals: Map<string, number>
  /** Refusals by a per-address limit (HOLD_LIMIT_EXCEEDED, TOO_MANY_REQUESTS). */
  addressRefusals: number
  failures: number
  tickets: number
  waitlisted: number
  soldOut: number
  gaveUp: number
  soldTwice: number
  overCap: number
  /** Tickets whose seat lock had no admission (the database's view: a seat sold to a passenger never admitted). */
  soldUnadmitted: number
  seatsSold: number
  seats: number
  lastSeatSoldAfterMs: number
  wallMs: number
  /** CPU seconds of the server processes, PostgreSQL and this bench (the passengers' client) during the sale. */
  cpu: { server: number; postgres: number; client: number }
  load: string
  order: QueueOrder
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
export function cpuSeconds(pid: number, children = false): number {
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
/** The pid of the PostgreSQL server listening on `port`. */
export function postmasterPid(port: string): number {
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

const loadNow = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')

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

/** Marks `date` a rush date on every route of ROUTES as the operator does during a sale (`npm run trip -- rush mark`), opening at `opensAt`. */
async function markRush(dbUrl: string, date: string, opensAt: Date, perMinute: number): Promise<void> {
  await Promise.all(
    ROUTES.map(
      ([o, d]) =>
        new Promise<void>((resolve, reject) => {
          execFile(
            process.execPath,
            [
              '--import',
              'tsx',
              'server/commands/trip-command.ts',
              'rush',
              'mark',
              date,
              `${o}-${d}`,
              '--opens',
              opensAt.toISOString(),
              '--rate',
              String(perMinute),
            ],
            { cwd: stagedRoot(null), env: { ...process.env, DATABASE_URL: dbUrl, NODE_ENV: 'production' } },
            (err, _out, stderr) => (err ? reject(new Error(`rush mark ${o}-${d}: ${stderr || err.message}`)) : resolve()),
          )
        }),
    ),
  )
}

/** A QueueOrder of no places. */
const noOrder = (): QueueOrder => ({
  preQueue: 0,
  rhoQueue: [],
  rhoAdmitted: [],
  admittedPre: 0,
  afterHour: 0,
  afterHourOutOfOrder: 0,
  admittedOutOfTurn: 0,
  admittedOutOfTurnAfter: 0,
  admittedOutOfTurnStrict: 0,
  admitted: 0,
})

/** The queue's order from the database: arrival (joined_at) against the draw and the admissions, per route. */
async function queueOrder(c: pg.Client, date: string): Promise<QueueOrder> {
  const rows = (
    await c.query<{ rush: number; joined: Date; opens: Date; draw: number; id: string; admitted: Date | null }>(
      `SELECT p.rush_id AS rush, p.joined_at AS joined, r.opens_at AS opens, p.draw, p.id::text AS id, p.admitted_at AS admitted
         FROM queue_places p JOIN rush_dates r ON r.id = p.rush_id WHERE r.trip_date = $1`,
      [date],
    )
  ).rows
  const o = noOrder()
  for (const rush of new Set(rows.map((r) => r.rush))) {
    const places = rows.filter((r) => r.rush === rush)
    // the queue's order: by draw, then id
    const queue = [...places].sort((a, b) => a.draw - b.draw || Number(a.id) - Number(b.id))
    const rank = new Map(queue.map((p, k) => [p.id, k]))
    const pre = places.filter((p) => p.joined < p.opens)
    const after = places.filter((p) => p.joined >= p.opens)
    o.preQueue += pre.length
    o.afterHour += after.length
    o.rhoQueue.push(
      spearman(
        pre.map((p) => p.joined.getTime()),
        pre.map((p) => rank.get(p.id)!),
      ),
    )
    const preAdmitted = pre.filter((p) => p.admitted)
    o.admittedPre += preAdmitted.length
    // admitted in one refresh share an instant: the queue's order tells them apart
    o.rhoAdmitted.push(
      spearman(
        preAdmitted.map((p) => p.joined.getTime()),
        preAdmitted.map((p) => p.admitted!.getTime() * 1e6 + rank.get(p.id)!),
      ),
    )
    o.afterHourOutOfOrder += fifoViolations(after.map((p) => ({ came: p.joined.getTime(), served: rank.get(p.id)! })))
    const served = (p: (typeof places)[number]) => (p.admitted ? p.admitted.getTime() : null)
    // the pre-queue's places were all in before the draw: strictly in its order
    o.admittedOutOfTurn += fifoViolations(pre.map((p) => ({ came: rank.get(p.id)!, served: served(p) })))
    // later places by their draw (seconds after the hour): one still in flight when the refresh admitted a later one is forgiven within a second
    o.admittedOutOfTurnAfter += fifoViolations(
      places.map((p) => ({ came: p.draw, served: served(p) })),
      1,
    )
    o.admittedOutOfTurnStrict += fifoViolations(places.map((p) => ({ came: rank.get(p.id)!, served: served(p) })))
    o.admitted += places.filter((p) => p.admitted).length
  }
  return o
}

/** One sale: every passenger arrives, searches, queues, and when admitted tries until a ticket; the rest hear "sold out" (some join a waitlist). Then the database is checked. */
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
    requests: { search: [], join: [], status: [], details: [], lock: [], booking: [], pay: [], waitlist: [] },
    sentAt: { search: [], join: [], status: [], details: [], lock: [], booking: [], pay: [], waitlist: [] },
    startedAt: 0,
    status5xx: 0,
    refusals: new Map(),
    addressRefusals: 0,
    failures: 0,
    tickets: 0,
    waitlisted: 0,
    soldOut: 0,
    gaveUp: 0,
    soldTwice: 0,
    overCap: 0,
    soldUnadmitted: 0,
    seatsSold: 0,
    seats: rush.trips.reduce((n, t) => n + t.seats, 0),
    lastSeatSoldAfterMs: 0,
    wallMs: 0,
    cpu: { server: 0, postgres: 0, client: 0 },
    load: '',
    order: noOrder(),
  }
  // a proxy's pool of connections to each process, not one socket per passenger
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  onCleanup(() => agent.destroy())
  const refuse = (key: string) => r.refusals.set(key, (r.refusals.get(key) ?? 0) + 1)

  /** One request: its data, `{ refused: code }` for a 4xx, or null for anything else (a 5xx, an error, a time-out; counted). */
  const call = async <T>(
    kind: Kind,
    base: string,
    path: string,
    body: unknown,
    headers: Record<string, string>,
  ): Promise<T | { refused: string } | null> => {
    const t0 = performance.now()
    try {
      const { status, text } = await post(agent, `${base}/api${path}`, JSON.stringify(body), headers)
      r.requests[kind].push(performance.now() - t0)
      r.sentAt[kind].push(t0)
      if (status >= 300) {
        let code = `HTTP ${status}`
        try {
          code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? code
        } catch {
          // not JSON
        }
        refuse(`${kind}: ${code}`)
        if (ADDRESS_LIMITS.has(code)) r.addressRefusals++
        if (status >= 500) {
          r.status5xx++
          return null
        }
        return { refused: code }
      }
      return (JSON.parse(text) as { data: T }).data
    } catch (err) {
      r.requests[kind].push(performance.now() - t0)
      r.sentAt[kind].push(t0)
      refuse(`${kind}: ${(err as Error).message}`)
      r.failures++
      return null
    }
  }
  const refused = (x: unknown): x is { refused: string } => typeof x === 'object' && x !== null && 'refused' in x

  const byId = new Map(rush.trips.map((t) => [t.tripId, t]))
  // the operator marks the date well before the crowd comes; arrivals start OPENS_AFTER_MS before the hour
  const opensAt = new Date(Date.now() + MARK_MARGIN_MS + OPENS_AFTER_MS)
  await markRush(dbUrl, rush.date, opensAt, ADMIT_PER_MINUTE)
  const lead = opensAt.getTime() - OPENS_AFTER_MS - Date.now()
  if (lead < 0) throw new Error(`marking the rush date took ${sec(MARK_MARGIN_MS - lead)}: the queue would open before the sale starts`)
  await sleep(lead)
  const start = performance.now()
  r.startedAt = start
  const cpu0 = cpuNow(servers, postmaster)
  const client0 = process.cpuUsage()
  let lastSale = 0
  type Row = { tripId: number; availableSeats: number }
  type Status = { state: string; pollSeconds: number; token: string | null }
  type Outcome = 'ticket' | 'none' | 'expired' | 'trouble'

  const passenger = async (i: number): Promise<void> => {
    const rnd = mulberry32(20_261_128 + i)
    await sleep(rnd() * ARRIVALS_MS)
    const t0 = performance.now()
    const base = urls[i % urls.length]!
    const address = `10.${(i % addresses) >> 8}.${(i % addresses) & 255}.${addresses === PASSENGERS ? (i >> 16) + 1 : 1}`
    const headers: Record<string, string> = { authorization: `Bearer ${tokens[i]}`, 'x-forwarded-for': address }
    const [originCode, destinationCode] = ROUTES[Math.floor(rnd() * ROUTES.length)]!
    const key = { tripDate: rush.date, originCode, destinationCode }
    const want = i % TOUT_EVERY === 0 ? 6 : 1 + Math.floor(rnd() * 2)
    let troubles = 0
    let lastRows: Row[] = []

    const search = async (): Promise<Row[] | null> => {
      const rows = await call<Row[]>('search', base, '/reservation/tripSearch', key, headers)
      if (!rows || refused(rows)) return null
      lastRows = rows
      return rows
    }

    /** Chooses seats with the admission: a trip with seats left, its map, 1–2 seats (a tout 6), book, pay. */
    const buy = async (): Promise<Outcome> => {
      const rows = await search()
      if (!rows) return 'trouble'
      const open = rows.filter((t) => t.availableSeats > 0)
      if (!open.length) return 'none'
      const trip = byId.get(open[Math.floor(rnd() * open.length)]!.tripId)
      if (!trip) return 'trouble'
      const details = await call<{ seatLayout: { seats: { name: string; status: number; lockedByOther: boolean }[] } }>(
        'details',
        base,
        '/reservation/tripDetails',
        tripDetailsBody(trip),
        headers,
      )
      if (!details || refused(details)) return 'trouble'
      const free = details.seatLayout.seats.filter((s) => s.status === 0 && !s.lockedByOther && s.name !== 'OPEN').map((s) => s.name)
      if (!free.length) return 'none'
      // choosing takes a moment
      await sleep(300 + rnd() * 1_200)
      const mine: string[] = []
      const lockHeaders = { ...headers, [QUEUE_TOKEN_HEADER.toLowerCase()]: queueToken ?? '' }
      let lostInRow = 0
      for (const seat of free.sort(() => rnd() - 0.5)) {
        if (mine.length >= want) break
        const won = await call<{ seatNames: string[] } | false>(
          'lock',
          base,
          '/reservation/seatLock',
          JSON.parse(seatLockBody(trip, [seat])),
          lockHeaders,
        )
        // an error or an unexpected refusal: book what is held so far (none held: try again later)
        if (won === null) {
          if (!mine.length) return 'trouble'
          troubles++
          break
        }
        if (refused(won)) {
          if (won.refused === 'QUEUE_ADMISSION_REFUSED' && !mine.length) return 'expired'
          if (won.refused === 'MAX_SEAT_WARNING') break
          if (!EXPECTED.has(won.refused)) {
            if (!mine.length) return 'trouble'
            troubles++
            break
          }
        } else if (won) {
          mine.push(seat)
          lostInRow = 0
        } else lostInRow++
        // three seats lost in a row: book what is held, or (none) look at the map again
        if (lostInRow >= 3) break
      }
      if (!mine.length) return 'none'
      const book = (seatNames: string[]) =>
        call<{ id: number }>(
          'booking',
          base,
          '/reservation/booking',
          {
            tripId: trip.tripId,
            seatNames,
            boardingStationId: trip.boardingId,
            droppingStationId: trip.droppingId,
            passengerName: `Eid Passenger ${i}`,
            passengerMobile: `019${String(firstMobile + i + 1).padStart(8, '0')}`,
          },
          headers,
        )
      let booking = await book(mine)
      // the cap: a tout keeps CAP seats and lets the others go at once
      if (refused(booking) && booking.refused === 'SEAT_LIMIT_EXCEEDED') {
        await call('lock', base, '/reservation/seatLock', JSON.parse(seatLockBody(trip, mine.slice(CAP), false)), headers)
        booking = await book(mine.slice(0, CAP))
      }
      if (!booking || refused(booking)) {
        // as the page does on leaving: the seats go back at once rather than when the hold runs out
        await call('lock', base, '/reservation/seatLock', JSON.parse(seatLockBody(trip, mine, false)), headers)
        return 'trouble'
      }
      const paid = await call<unknown>('pay', base, '/reservation/payFromBalance', { reservationId: booking.id }, headers)
      if (!paid || refused(paid)) return 'trouble'
      return 'ticket'
    }

    /** Told "sold out": one in WAITLIST_EVERY joins the waitlist of a trip of their route. */
    const soldOut = async (): Promise<void> => {
      if (rnd() * WAITLIST_EVERY < 1 && lastRows.length) {
        const trip = lastRows[Math.floor(rnd() * lastRows.length)]!
        const joined = await call<unknown>('waitlist', base, '/waitlist', { tripId: trip.tripId, seats: Math.min(want, 4) }, headers)
        if (joined && !refused(joined)) {
          r.waitlisted++
          return
        }
      }
      r.soldOut++
    }

    if (!(await search())) troubles++
    let queueToken: string | null = null
    let status: Status | { refused: string } | null = await call<Status>('join', base, '/queue', { ...key, token: null, join: true }, headers)
    while (troubles < GIVE_UP_AFTER && performance.now() - t0 < PASSENGER_DEADLINE_MS) {
      if (!status || refused(status)) {
        troubles++
        await sleep(1000)
        status = await call<Status>('join', base, '/queue', { ...key, token: queueToken, join: true }, headers)
        continue
      }
      queueToken = status.token ?? queueToken
      if (status.state === 'soldOut') return soldOut()
      if (status.state === 'admitted' || status.state === 'open') {
        const got = await buy()
        if (got === 'ticket') {
          r.tickets++
          lastSale = performance.now()
          return
        }
        if (got === 'trouble') troubles++
        if (got === 'expired') {
          status = await call<Status>('join', base, '/queue', { ...key, token: queueToken, join: true, again: true }, headers)
          continue
        }
        // no seat free this moment (others hold them): ask the queue whether the date is sold out
        await sleep(1000)
      } else if (status.state === 'expired') {
        status = await call<Status>('join', base, '/queue', { ...key, token: queueToken, join: true, again: true }, headers)
        continue
      } else if (status.state === 'notJoined') {
        status = await call<Status>('join', base, '/queue', { ...key, token: queueToken, join: true }, headers)
        continue
      } else {
        // the waiting room says when to ask again
        await sleep(Math.max(1, status.pollSeconds) * 1000)
      }
      status = await call<Status>('status', base, '/queue', { ...key, token: queueToken }, headers)
    }
    r.gaveUp++
  }
  const ticker = setInterval(() => {
    const done = r.tickets + r.soldOut + r.waitlisted + r.gaveUp
    const top = [...r.refusals]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, n]) => `${k} ${n}`)
    log(
      `eid: ${addresses} addresses, ${((performance.now() - start) / 1000).toFixed(0)} s: ${done} of ${PASSENGERS} answered (${r.tickets} tickets, ${r.waitlisted} waitlisted, ${r.soldOut} sold out, ${r.gaveUp} gave up), ${r.status5xx} 5xx, refusals: ${top.join(', ') || 'none'}; load ${loadNow()}`,
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
  const client = process.cpuUsage(client0)
  r.cpu = { server: cpu1.server - cpu0.server, postgres: cpu1.postgres - cpu0.postgres, client: (client.user + client.system) / 1e6 }
  r.load = loadNow()

  const c = new pg.Client({ connectionString: dbUrl })
  await c.connect()
  try {
    const ids = rush.trips.map((t) => t.tripId)
    const one = async (sql: string, params: unknown[]) => (await c.query<{ n: number }>(sql, params)).rows[0]!.n
    r.soldTwice = await one(
      `SELECT count(*)::int AS n FROM (SELECT rs.trip_id, rs.seat_name FROM reservation_seats rs JOIN reservations v ON v.id = rs.reservation_id
        WHERE rs.trip_id = ANY($1) AND v.status = 1 AND rs.active GROUP BY 1, 2 HAVING count(*) > 1) x`,
      [ids],
    )
    r.seatsSold = await one(
      'SELECT count(*)::int AS n FROM reservation_seats rs JOIN reservations v ON v.id = rs.reservation_id WHERE rs.trip_id = ANY($1) AND v.status = 1 AND rs.active',
      [ids],
    )
    // the cap counts an account and its mobile number: both are checked
    r.overCap = await one(
      `SELECT count(*)::int AS n FROM (SELECT who FROM (
          SELECT 'p' || v.passenger_id AS who FROM reservation_seats rs JOIN reservations v ON v.id = rs.reservation_id
           WHERE rs.trip_id = ANY($1) AND v.status = 1 AND rs.active
          UNION ALL
          SELECT 'm' || v.passenger_mobile FROM reservation_seats rs JOIN reservations v ON v.id = rs.reservation_id
           WHERE rs.trip_id = ANY($1) AND v.status = 1 AND rs.active) s GROUP BY who HAVING count(*) > $2) x`,
      [ids, CAP],
    )
    r.soldUnadmitted = await one(
      `SELECT count(*)::int AS n FROM reservations v
        WHERE v.status = 1 AND EXISTS (SELECT 1 FROM reservation_seats rs WHERE rs.reservation_id = v.id AND rs.trip_id = ANY($1))
          AND NOT EXISTS (SELECT 1 FROM queue_places p JOIN rush_dates d ON d.id = p.rush_id
                           WHERE d.trip_date = $2 AND p.passenger_id = v.passenger_id AND p.admitted_at IS NOT NULL)`,
      [ids, rush.date],
    )
    r.order = await queueOrder(c, rush.date)
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

const rho = (xs: number[]) => xs.map((x) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a')).join(', ')
const worst = (xs: number[]) => (xs.length && xs.every(Number.isFinite) ? Math.max(...xs.map(Math.abs)) : Number.NaN)

function saleFigures(x: SaleResult): Figure[] {
  const label = x.addresses === PASSENGERS ? 'one address each' : `${x.addresses} shared addresses`
  const kinds = KINDS.flatMap((k) => {
    const xs = x.requests[k]
    return xs.length
      ? [fig(`sale (${label}): ${k} p50 / p95`, percentile(xs, 95), () => `${ms(percentile(xs, 50))} / ${ms(percentile(xs, 95))}`)]
      : []
  })
  const o = x.order
  return [
    fig(`sale (${label}): seats sold twice (database)`, x.soldTwice, int, { exact: 0 }),
    fig(`sale (${label}): server errors (5xx)`, x.status5xx, int, { exact: 0 }),
    fig(`sale (${label}): passengers without a final answer`, x.gaveUp, int, { exact: 0 }),
    fig(`sale (${label}): passengers over the cap of ${CAP} paid seats (account or mobile)`, x.overCap, int, { exact: 0 }),
    fig(`sale (${label}): tickets sold without an admission`, x.soldUnadmitted, int, { exact: 0 }),
    fig(`sale (${label}): refusals by a per-address limit`, x.addressRefusals, int, { exact: 0 }),
    fig(`sale (${label}): tickets / waitlisted / sold out`, x.tickets, () => `${x.tickets} / ${x.waitlisted} / ${x.soldOut}`),
    fig(`sale (${label}): seats sold of ${x.seats}`, x.seatsSold, int),
    fig(`sale (${label}): pre-queue (${o.preQueue} places): |Spearman ρ| arrival vs queue order, worst route`, worst(o.rhoQueue), num(3), {
      max: 0.05,
      budget: '< 0.05',
    }),
    fig(`sale (${label}): pre-queue: |Spearman ρ| arrival vs admission (${o.admittedPre} admitted), worst route`, worst(o.rhoAdmitted), num(3)),
    fig(`sale (${label}): after the hour (${o.afterHour} places): queued out of arrival order`, o.afterHourOutOfOrder, int, { exact: 0 }),
    fig(`sale (${label}): pre-queue admitted out of its drawn order (${o.admittedPre} admitted)`, o.admittedOutOfTurn, int, { exact: 0 }),
    fig(`sale (${label}): admitted before one who joined over 1 s earlier (${o.admitted} admitted)`, o.admittedOutOfTurnAfter, int, { exact: 0 }),
    fig(`sale (${label}): admitted before one ahead in the queue, joins in flight included`, o.admittedOutOfTurnStrict, int),
    fig(`sale (${label}): queue status p95`, percentile(x.requests.status, 95), ms, { max: 50 }),
    fig(`sale (${label}): last seat sold after`, x.lastSeatSoldAfterMs, sec),
    ...kinds,
  ]
}

function saleRow(x: SaleResult): string {
  const label = x.addresses === PASSENGERS ? 'one each' : String(x.addresses)
  const refusals = [...x.refusals].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`)
  return `| ${label} | ${sec(x.wallMs)} | ${x.tickets} | ${x.seatsSold} of ${x.seats} | ${x.waitlisted} | ${x.soldOut} | ${x.gaveUp} | ${sec(x.lastSeatSoldAfterMs)} | ${x.status5xx} | ${x.soldTwice} | ${x.overCap} | ${x.soldUnadmitted} | ${rho(x.order.rhoQueue)} (n=${x.order.preQueue}) | ${rho(x.order.rhoAdmitted)} (n=${x.order.admittedPre}) | ${x.order.afterHourOutOfOrder} of ${x.order.afterHour} | ${x.order.admittedOutOfTurn} / ${x.order.admittedOutOfTurnAfter} / ${x.order.admittedOutOfTurnStrict} of ${x.order.admitted} | ${x.cpu.server.toFixed(0)} s / ${x.cpu.postgres.toFixed(0)} s / ${x.cpu.client.toFixed(0)} s | ${x.load} | ${refusals.join(', ').replace(/\|/g, '/') || '—'} |`
}

function latencyRow(x: SaleResult): string {
  const label = x.addresses === PASSENGERS ? 'one each' : String(x.addresses)
  const p = (k: Kind) =>
    x.requests[k].length ? `${ms(percentile(x.requests[k], 50))} / ${ms(percentile(x.requests[k], 95))} (${x.requests[k].length})` : '—'
  return `| ${label} | ${KINDS.map(p).join(' | ')} |`
}

/** Seconds of each row of the sale's timeline (EID_TIMELINE_S=1 shows the hour second by second). */
const TIMELINE_S = Number(process.env.EID_TIMELINE_S ?? 10)

/** The sale by TIMELINE_S windows from the first arrival: requests sent in each, and the answer times of polls and joins. */
function timelineRows(x: SaleResult): string[] {
  const end = Math.max(...KINDS.flatMap((k) => x.sentAt[k].slice(-1)), x.startedAt)
  const rows: string[] = []
  for (let from = 0; x.startedAt + from * 1000 <= end; from += TIMELINE_S) {
    const inWindow = (k: Kind) =>
      x.requests[k].filter((_, i) => {
        const t = (x.sentAt[k][i]! - x.startedAt) / 1000
        return t >= from && t < from + TIMELINE_S
      })
    const all = KINDS.reduce((n, k) => n + inWindow(k).length, 0)
    const status = inWindow('status')
    const join = inWindow('join')
    const pq = (xs: number[]) => (xs.length ? `${ms(percentile(xs, 50))} / ${ms(percentile(xs, 95))}` : '—')
    const hour = from - OPENS_AFTER_MS / 1000
    rows.push(
      `| ${x.addresses} | ${hour >= 0 ? '+' : ''}${hour} s | ${int(all / TIMELINE_S)} | ${status.length} | ${pq(status)} | ${join.length} | ${pq(join)} |`,
    )
  }
  return rows
}

/** A rush date whose queue opens in an hour with `n` browsers in its pre-queue: their tokens, for the queue-status hot path. */
async function queueTokens(urls: string[], dbUrl: string, date: string, n: number): Promise<string[]> {
  await markRush(dbUrl, date, new Date(Date.now() + 3_600_000), ADMIT_PER_MINUTE)
  const [originCode, destinationCode] = ROUTES[0]!
  const out: string[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      for (let k = next++; k < n; k = next++) {
        const res = await fetch(`${urls[k % urls.length]}/api/queue`, {
          method: 'POST',
          headers: { ...json, 'x-forwarded-for': `10.201.${k >> 8}.${k & 255}` },
          body: JSON.stringify({ tripDate: date, originCode, destinationCode, token: null, join: true }),
        })
        const d = (await res.json()) as { data?: { token: string | null } }
        if (d.data?.token) out.push(d.data.token)
      }
    }),
  )
  return out
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
    // the bench is the proxy in front: it says each passenger's address in X-Forwarded-For; a fresh date per measurement.
    // Every per-address limit at its default (the bench's other parts lift them): the shared-address sale must pass them.
    const env = {
      DATABASE_URL: url,
      TRUST_PROXY: '1',
      TRIP_DAYS_AHEAD: '60',
      SEATS_PER_PASSENGER_PER_DATE: String(CAP),
      RATE_LIMIT_MAX: '60000',
      AUTH_RATE_LIMIT_MAX: '30',
      HOLD_LIMIT_PER_ADDRESS: '10',
      HOLD_LIMIT_PER_ADDRESS_TOTAL: '30',
      SEAT_STREAMS_PER_ADDRESS: '20',
      UNPAID_SEATS_PER_PASSENGER: '10',
      SMS_LIMIT_PER_ADDRESS: '20',
      ...(process.env.EID_SERVER_ENV ? (JSON.parse(process.env.EID_SERVER_ENV) as Record<string, string>) : {}),
    }
    servers.push(await startServer(env))
    servers.push(await startServer(env))
    const urls = servers.map((s) => s.url)
    log(`eid: two servers on PostgreSQL ready in ${sec(servers[0]!.readyMs)} and ${sec(servers[1]!.readyMs)}; load ${loadNow()}`)

    const bare = await bareFastify()
    const bench = pgbenchSelect(url, postmaster)
    log(
      `eid: bare Fastify ${int(bare.rps)} requests/s (${int(bare.perCore)} per core); pgbench -S ${int(bench.tps)} tps (${int(bench.perCore)} per PostgreSQL core)`,
    )

    // EID_SALES=one|shared runs one of the two sales (development); both by default
    const sales = [PASSENGERS, SHARED_ADDRESSES].filter((_, k) => !process.env.EID_SALES || process.env.EID_SALES === ['one', 'shared'][k])
    for (const [n, addresses] of sales.entries()) {
      const rush = await rushTrips(urls[0]!, 20 + n * 10)
      const seats = rush.trips.reduce((k, t) => k + t.seats, 0)
      log(
        `eid: sale ${n + 1}: ${rush.date}, ${rush.trips.length} trips, ${seats} seats, ${PASSENGERS} passengers over ${addresses} addresses within ${ARRIVALS_MS / 1000} s`,
      )
      const x = await sale(urls, url, servers, postmaster, rush, addresses, 10_000_000 + n * 1_000_000, log)
      runs.push(x)
      figures.push(...saleFigures(x))
      log(
        `eid: sale ${n + 1} done in ${sec(x.wallMs)}: ${x.tickets} tickets, ${x.waitlisted} waitlisted, ${x.soldOut} sold out, ${x.gaveUp} gave up, ${x.status5xx} 5xx, ${x.soldTwice} sold twice, ${x.overCap} over the cap, queue status p95 ${ms(percentile(x.requests.status, 95))}, pre-queue ρ ${rho(x.order.rhoQueue)}, load ${x.load}`,
      )
    }

    if (HOT_PATHS.length) {
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
      // each request from its own address, as a crowd's are: the per-address limits stay at their defaults
      const from = () => `10.${100 + Math.floor(Math.random() * 100)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`
      const queued = HOT_PATHS.includes('queue') ? await queueTokens(urls, url, dhakaDate(45), QUEUE_PLACES) : []
      const [qOrigin, qDestination] = ROUTES[0]!
      const paths: [string, string, Request][] = [
        [
          'search',
          'trip search',
          {
            method: 'POST',
            path: '/api/reservation/tripSearch',
            setupRequest: (req) => {
              const [o, d] = pick(ROUTES)
              return {
                ...req,
                headers: { ...json, 'x-forwarded-for': from() },
                body: JSON.stringify({ originCode: o, destinationCode: d, tripDate: hot.date }),
              }
            },
          },
        ],
        [
          'details',
          'trip details',
          {
            method: 'POST',
            path: '/api/reservation/tripDetails',
            setupRequest: (req) => ({
              ...req,
              headers: { ...json, 'x-forwarded-for': from() },
              body: JSON.stringify(tripDetailsBody(pick(hot.trips))),
            }),
          },
        ],
        [
          'queue',
          `queue status (${queued.length} in a pre-queue)`,
          {
            method: 'POST',
            path: '/api/queue',
            setupRequest: (req) => ({
              ...req,
              headers: { ...json, 'x-forwarded-for': from() },
              body: JSON.stringify({ tripDate: dhakaDate(45), originCode: qOrigin, destinationCode: qDestination, token: pick(queued) }),
            }),
          },
        ],
        [
          'lock',
          'seat lock (random seat, random device)',
          {
            method: 'POST',
            path: '/api/reservation/seatLock',
            setupRequest: (req) => {
              const t = pick(hot.trips)
              return {
                ...req,
                headers: { ...json, 'x-device-id': device(), 'x-forwarded-for': from() },
                body: seatLockBody(t, [pick(seatsOf.get(t.tripId)!)]),
              }
            },
          },
        ],
      ]
      for (const [, name, request] of paths.filter(([k]) => HOT_PATHS.includes(k))) {
        const h = await hotPath(urls, servers, postmaster, request)
        figures.push(fig(`${name}: requests/s per server core`, h.perServerCore, int))
        rows.push(`| ${name} | ${int(h.rps)} | ${int(h.perServerCore)} | ${int(h.perPgCore)} | ${h.non2xx} |`)
        log(`eid: ${name} ${int(h.rps)} requests/s, ${int(h.perServerCore)} per server core, ${int(h.perPgCore)} per PostgreSQL core`)
      }
      if (HOT_PATHS.includes('booking')) {
        const book = await bookingPath(urls, url, servers, postmaster, (await rushTrips(urls[0]!, 50)).trips)
        figures.push(fig('booking: requests/s per server core', book.perServerCore, int))
        rows.push(`| booking (a held seat) | ${int(book.rps)} | ${int(book.perServerCore)} | ${int(book.perPgCore)} | ${book.non2xx} |`)
      }
      rows.push(`| bare Fastify route (one process) | ${int(bare.rps)} | ${int(bare.perCore)} | — | 0 |`)
      rows.push(`| pgbench -S (8 clients) | ${int(bench.tps)} | — | ${int(bench.perCore)} | 0 |`)
      figures.push(
        fig('bare Fastify route: requests/s per core', bare.perCore, int),
        fig('pgbench -S: transactions/s per PostgreSQL core', bench.perCore, int),
      )
    }
    figures.push(fig('eid: passengers', PASSENGERS, int), fig('eid: arrival window', ARRIVALS_MS / 1000, num(0)))
  } catch (err) {
    errors.push((err as Error).message)
  } finally {
    for (const s of servers) await s.stop()
  }
  details.push(
    `The sale: ${PASSENGERS} passengers with a session and a balance (made in the database) arrive at random within ${ARRIVALS_MS / 1000} s, half on each server process, for one rush date: its trips on ${ROUTES.map((r) => r.join('→')).join(' and ')} (two queues, marked with \`npm run trip -- rush mark … --opens … --rate ${ADMIT_PER_MINUTE}\` to open ${OPENS_AFTER_MS / 1000} s after the first may arrive). Each searches their route and joins the waiting room (those before the hour: the pre-queue, drawn at random at the hour), then asks again when the answer says (pollSeconds). Admitted, they search, take a trip with seats left, read its seat map, wait 0.3–1.5 s, lock 1–2 seats that look free with their admission (one passenger in ${TOUT_EVERY} is a tout who tries for 6: the cap of ${CAP} a date must hold), book and pay from the balance. Told "sold out" by the waiting room, one in ${WAITLIST_EVERY} joins a trip's waitlist. ${GIVE_UP_AFTER} errors or time-outs (or ${PASSENGER_DEADLINE_MS / 60_000} min) and they give up: no final answer. Every per-address limit is at its default. The order checks read the database: Spearman's ρ of the pre-queue's arrival (joined_at) against its place in the queue (the draw), and against its admission; after the hour, places whose queue order is not their arrival order; admissions out of the queue's order. CPU: user + system seconds of both server processes and of every PostgreSQL process during the sale. Refusals: every answer other than 2xx, by request and error code.`,
    '',
    '| addresses | took | tickets | seats sold | waitlisted | sold out | no final answer | last seat sold after | 5xx | sold twice | over cap | sold without admission | pre-queue ρ arrival vs queue (per route) | pre-queue ρ arrival vs admission | after the hour: out of arrival order | admitted out of turn: pre-queue / by over 1 s / strictly | CPU servers / PostgreSQL / client (this bench) | load after | refusals |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map(saleRow),
    '',
    `Answer times, p50 / p95 (requests): ${KINDS.join(', ')} (status: a waiting-room poll; join: joining it).`,
    '',
    `| addresses | ${KINDS.join(' | ')} |`,
    `|---|${KINDS.map(() => '---').join('|')}|`,
    ...runs.map(latencyRow),
    '',
    `The sale by ${TIMELINE_S} s from the first arrival (the hour at 0 s; arrivals end ${ARRIVALS_MS / 1000 - OPENS_AFTER_MS / 1000} s after it): requests a second sent, and the polls' and joins' answer times (p50 / p95) by when they were sent.`,
    '',
    '| addresses | from (the hour = 0) | requests/s | polls | poll p50 / p95 | joins | join p50 / p95 |',
    '|---|---|---|---|---|---|---|',
    ...runs.flatMap(timelineRows),
    '',
    'What one core does: autocannon, 50 connections for 5 s over both processes (booking: 50 at a time, each a passenger with a seat locked beforehand); per core = requests ÷ CPU seconds the server processes (or PostgreSQL) spent meanwhile. The bare Fastify route and pgbench run on the same machine in the same run.',
    '',
    '| path | requests/s (2 processes) | per server core | per PostgreSQL core | non-2xx |',
    '|---|---|---|---|---|',
    ...rows,
  )
  return { part: 'eid', title: 'Eid advance sale (two processes on PostgreSQL)', date, figures, details, errors }
}
