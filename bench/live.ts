/**
 * Part 5, the live seat map (GET /api/reservation/seatEvents/:tripId, server/trips/seat-events.ts):
 * - delivery latency from a committed lock (its answer at the locking client) to the `seats`
 *   event at a second client: PGlite (one process), PostgreSQL (two processes: the stream on
 *   A, the locks on B);
 * - open streams one process holds (PGlite) with a p95 delivery of at most 1 s while 50
 *   clients lock and release seats: steps up to 5,000, memory per stream;
 * - the Eid rush: 1,000 simulated passengers on one 40-seat trip for 60 s through two
 *   processes on PostgreSQL (look, lock, release, book, cancel, a few pay), once with the
 *   live seat map and once without: no seat held or sold twice, lock-lost answers, and lock
 *   attempts wasted on seats already taken.
 */
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import pg from 'pg'
import { mulberry32 } from '../server/lib/seeded-random.ts'
import { openEvents, sseParser } from '../harness/sse-client.ts'
import { buildPool, type Trip } from './api.ts'
import {
  apiPost,
  dhakaDate,
  fig,
  int,
  kb,
  makePassengers,
  mb,
  ms,
  onCleanup,
  percentile,
  rssOf,
  sec,
  seatLockBody,
  sleep,
  startServer,
  startTwoOnPostgres,
  tempDir,
  tripDetailsBody,
  type BenchServer,
  type Figure,
  type PartResult,
  type TripKey,
} from './lib.ts'

/** Lock and release pairs per latency run (each gives two samples). */
const LATENCY_PAIRS = 60
const STREAM_STEPS = [1_000, 2_500, 5_000]
const STREAM_TRIPS = 100
const LOCKERS = 50
const LOCK_WINDOW_MS = 10_000
const DELIVERY_BUDGET_MS = 1_000
const PASSENGERS = 1_000
const RUSH_MS = 60_000
/** Passengers arrive over the first seconds of the rush (tickets just went on sale). */
const ARRIVALS_MS = 5_000

const json = { 'content-type': 'application/json', accept: 'application/json' }
const deviceId = (prefix: string) => `${prefix}-${randomBytes(9).toString('base64url')}`
const streamPath = (tripId: number) => `/api/reservation/seatEvents/${tripId}`

const between = (rnd: () => number, lo: number, hi: number) => lo + (hi - lo) * rnd()

interface LockAnswer {
  /** true won (or released), false refused (someone else holds it), null an error. */
  ok: boolean | null
  sentAt: number
  answeredAt: number
  error?: string
}

/** POST seatLock for one seat; `auth` is a device id header or a bearer token. */
async function lockSeat(base: string, trip: TripKey, seat: string, locked: boolean, auth: { device?: string; token?: string }): Promise<LockAnswer> {
  const sentAt = performance.now()
  try {
    const res = await fetch(`${base}/api/reservation/seatLock`, {
      method: 'POST',
      headers: {
        ...json,
        ...(auth.device ? { 'x-device-id': auth.device } : {}),
        ...(auth.token ? { authorization: `Bearer ${auth.token}` } : {}),
      },
      body: seatLockBody(trip, [seat], locked),
    })
    const text = await res.text()
    const answeredAt = performance.now()
    if (!res.ok) return { ok: null, sentAt, answeredAt, error: `HTTP ${res.status} ${text.slice(0, 120)}` }
    return { ok: (JSON.parse(text) as { data: unknown }).data !== false, sentAt, answeredAt }
  } catch (err) {
    return { ok: null, sentAt, answeredAt: performance.now(), error: (err as Error).message }
  }
}

type LiveSeats = { name: string; state: string }[]

/**
 * Opens a seat-events stream of `tripId` on `base` through `agent` and resolves with it once the
 * server answered (rejects on anything but 200). `onSeats` gets the seats of every snapshot and
 * `seats` event as it arrives; without it the stream is read and discarded. `bytes` counts what came.
 */
function holdStream(
  base: string,
  tripId: number,
  agent: http.Agent,
  onSeats?: (seats: LiveSeats, event: 'snapshot' | 'seats') => void,
): Promise<{ req: http.ClientRequest; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${streamPath(tripId)}`, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume()
        reject(new Error(`HTTP ${res.statusCode}`))
        return
      }
      const h = { req, bytes: 0 }
      if (onSeats) {
        res.setEncoding('utf8')
        const feed = sseParser((event, data) => {
          if (event === 'snapshot' || event === 'seats') onSeats((JSON.parse(data) as { seats: LiveSeats }).seats, event)
        })
        res.on('data', (chunk: string) => {
          h.bytes += chunk.length
          feed(chunk)
        })
      } else {
        res.on('data', (chunk: Buffer) => {
          h.bytes += chunk.length
        })
      }
      resolve(h)
    })
    req.on('error', reject)
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')))
  })
}

// ---------- delivery latency ----------

interface Latency {
  samples: number[]
  /** Events that arrived before the locking client had its answer (counted as 0 ms). */
  beforeAnswer: number
  missed: number
}

/** Locks and releases seats of `trip` on `lockBase`, one at a time, timing each event on a stream of `streamBase`. */
async function deliveryLatency(streamBase: string, lockBase: string, trip: Trip): Promise<Latency> {
  const s = await openEvents(`${streamBase}${streamPath(trip.tripId)}`)
  onCleanup(() => s.close())
  await s.next((e) => e.event === 'snapshot', 10_000)
  const device = deviceId('bench-latency')
  const out: Latency = { samples: [], beforeAnswer: 0, missed: 0 }
  const rnd = mulberry32(15)
  for (let i = 0; i < LATENCY_PAIRS; i++) {
    const seat = trip.seats[i % trip.seats.length]!
    for (const locked of [true, false]) {
      const want = locked ? 'held' : 'available'
      const seen = s.next(
        (e) => e.event === 'seats' && e.data.seats.some((x: { name: string; state: string }) => x.name === seat && x.state === want),
        3_000,
      )
      const answer = await lockSeat(lockBase, trip, seat, locked, { device })
      try {
        const e = await seen
        if (e.at < answer.answeredAt) out.beforeAnswer++
        out.samples.push(Math.max(0, e.at - answer.answeredAt))
      } catch {
        out.missed++
      }
      await sleep(between(rnd, 100, 160))
    }
  }
  s.close()
  return out
}

function latencyFigures(label: string, l: Latency): Figure[] {
  return [
    fig(`${label}: delivery p50`, percentile(l.samples, 50), ms, { samples: l.samples }),
    fig(`${label}: delivery p95`, percentile(l.samples, 95), ms, { max: DELIVERY_BUDGET_MS }),
    fig(`${label}: delivery p99`, percentile(l.samples, 99), ms),
    fig(`${label}: changes not delivered within 3 s`, l.missed, int, { exact: 0 }),
  ]
}

// ---------- open streams per process ----------

const METRICS_TOKEN = 'bench-live-metrics'

/** The server's V8 heap in use (GET /metrics), the least of three reads 300 ms apart: garbage waiting for collection counts less. */
async function heapUsed(base: string): Promise<number> {
  let least = Number.POSITIVE_INFINITY
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    const m = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(await res.text())
    if (m) least = Math.min(least, Number(m[1]))
    await sleep(300)
  }
  return Number.isFinite(least) ? least : Number.NaN
}

interface Op {
  answeredAt: number
  due: number
}

interface Step {
  streams: number
  failed: number
  openMs: number
  rssBytes: number
  /** Server RSS growth while this step's streams opened (no other traffic), per stream added. */
  perStreamBytes: number
  /** The server's V8 heap growth while the streams opened, summed over the steps so far, per stream open. */
  heapPerStream: number
  samples: number[]
  missed: number
  /** Lock and release pairs a timed stream heard nothing of (both fell between two reads of the trip). */
  coalesced: number
  lockOps: number
  lockMs: number[]
  errors: string[]
}

/**
 * Opens streams on `base`, spread over `trips`, step by step up to 5,000; at each step 50
 * clients lock and release seats of those trips for 10 s while the last stream opened on each
 * trip (the end of the server's fan-out to that trip) times every change. Stops at the first
 * step whose p95 passes 1 s or whose streams could not all be opened.
 */
async function streamCapacity(base: string, pid: number, trips: Trip[], log: (s: string) => void): Promise<{ steps: Step[]; stopped: string }> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY })
  const held: { req: http.ClientRequest }[] = []
  onCleanup(() => {
    for (const h of held) h.req.destroy()
    agent.destroy()
  })
  /** Changes made, oldest first, by `${tripId}|${seat}|${state}`: the answer's time (0 while it runs) and the timed streams yet to hear of it. */
  const ops = new Map<string, Op[]>()
  let samples: number[] = []
  const timed = new Map<number, number>()

  const open = async (tripId: number, timedStream: boolean) => {
    const h = await holdStream(
      base,
      tripId,
      agent,
      timedStream
        ? (seats, event) => {
            if (event !== 'seats') return
            const at = performance.now()
            for (const x of seats) {
              const op = ops.get(`${tripId}|${x.name}|${x.state}`)?.find((o) => o.due > 0)
              if (!op) continue
              op.due--
              samples.push(op.answeredAt === 0 ? 0 : Math.max(0, at - op.answeredAt))
            }
          }
        : undefined,
    )
    held.push(h)
  }

  const steps: Step[] = []
  let heapGrown = 0
  await sleep(1_000)
  let stopped = `every step up to ${STREAM_STEPS[STREAM_STEPS.length - 1]!.toLocaleString('en')} streams met the budget`
  for (const target of STREAM_STEPS) {
    const before = rssOf(pid)
    const heapBefore = await heapUsed(base)
    const from = held.length
    const t0 = performance.now()
    const errors: string[] = []
    let failed = 0
    // the untimed streams first, then one timed stream per trip: each trip's last in the fan-out
    const plan: { tripId: number; timed: boolean }[] = []
    for (let i = held.length; i < target - trips.length; i++) plan.push({ tripId: trips[i % trips.length]!.tripId, timed: false })
    for (const t of trips) plan.push({ tripId: t.tripId, timed: true })
    for (let i = 0; i < plan.length; i += 100) {
      const batch = plan.slice(i, i + 100)
      const answers = await Promise.allSettled(batch.map((p) => open(p.tripId, p.timed)))
      for (const a of answers) {
        if (a.status === 'rejected') {
          failed++
          if (errors.length < 3) errors.push((a.reason as Error).message)
        }
      }
    }
    for (const p of plan) if (p.timed) timed.set(p.tripId, (timed.get(p.tripId) ?? 0) + 1)
    const openMs = performance.now() - t0
    await sleep(2_000)
    const rss = rssOf(pid)
    heapGrown += (await heapUsed(base)) - heapBefore
    log(`live: ${held.length} streams open (${failed} refused) in ${sec(openMs)}, server RSS ${mb(rss)}`)

    // 50 clients lock a free seat, release it, and again, for LOCK_WINDOW_MS
    samples = []
    ops.clear()
    const lockMs: number[] = []
    let lockOps = 0
    /** Each lock with its release (null when the release was not made). */
    const pairs: { held: Op; free: Op | null }[] = []
    const inUse = new Set<string>()
    const end = performance.now() + LOCK_WINDOW_MS
    const rnd = mulberry32(target)
    await Promise.all(
      Array.from({ length: LOCKERS }, async (_, n) => {
        const device = deviceId(`bench-locker-${n}`)
        while (performance.now() < end) {
          const trip = trips[Math.floor(rnd() * trips.length)]!
          const seat = trip.seats[Math.floor(rnd() * trip.seats.length)]!
          const key = `${trip.tripId}|${seat}`
          if (inUse.has(key)) continue
          inUse.add(key)
          let pair: { held: Op; free: Op | null } | null = null
          for (const locked of [true, false]) {
            const opKey = `${key}|${locked ? 'held' : 'available'}`
            const op: Op = { answeredAt: 0, due: timed.get(trip.tripId) ?? 0 }
            const list = ops.get(opKey) ?? []
            list.push(op)
            ops.set(opKey, list)
            const a = await lockSeat(base, trip, seat, locked, { device })
            lockOps++
            lockMs.push(a.answeredAt - a.sentAt)
            if (a.ok !== true) {
              list.splice(list.indexOf(op), 1)
              if (a.ok === null && errors.length < 3) errors.push(a.error!)
              break
            }
            op.answeredAt = a.answeredAt
            if (pair) pair.free = op
            else pairs.push((pair = { held: op, free: null }))
            await sleep(between(rnd, 150, 250))
          }
          inUse.delete(key)
        }
      }),
    )
    // late deliveries still count; what has not come 3 s after the last change is missed
    await sleep(3_000)
    // a lock and its release that fell between two reads of the trip change nothing anyone was told: neither is sent
    let missed = 0
    let coalesced = 0
    for (const p of pairs) {
      const both = p.free ? Math.min(p.held.due, p.free.due) : 0
      coalesced += both
      missed += p.held.due - both + (p.free ? p.free.due - both : 0)
    }
    const step: Step = {
      streams: held.length,
      failed,
      openMs,
      rssBytes: rss,
      perStreamBytes: (rss - before) / Math.max(1, held.length - from),
      heapPerStream: heapGrown / Math.max(1, held.length),
      samples: [...samples],
      missed,
      coalesced,
      lockOps,
      lockMs,
      errors,
    }
    steps.push(step)
    log(
      `live: ${held.length} streams, ${lockOps} lock/release requests: delivery p50 ${ms(percentile(step.samples, 50))}, p95 ${ms(percentile(step.samples, 95))}, p99 ${ms(percentile(step.samples, 99))} (${step.samples.length} timed deliveries, ${missed} missed, ${coalesced} lock and release pairs folded into nothing); lock p95 ${ms(percentile(lockMs, 95))}`,
    )
    if (failed > 0) {
      stopped = `${failed} of the streams asked for at the ${target.toLocaleString('en')} step were refused (${errors.join('; ')})`
      break
    }
    if (!(percentile(step.samples, 95) <= DELIVERY_BUDGET_MS) || missed > 0) {
      stopped = `the ${target.toLocaleString('en')} step missed the budget (p95 ${ms(percentile(step.samples, 95))}, ${missed} missed)`
      break
    }
  }
  for (const h of held.splice(0)) h.req.destroy()
  agent.destroy()
  return { steps, stopped }
}

// ---------- the Eid rush ----------

interface RushTrip extends TripKey {
  seats: string[]
  boardingId: number
  droppingId: number
}

interface RushResult {
  live: boolean
  attempts: number
  won: number
  lost: number
  /** Attempts on a seat whose taking had been committed and streamed (to an observer) before this one was sent. */
  wasted: number
  errors: number
  errorSamples: string[]
  releases: number
  bookings: number
  cancellations: number
  sales: number
  reloads: number
  events: number
  /** Two passengers holding one seat at once, from the answers (a won lock inside another's hold). */
  heldTwice: number
  /** From the database after the run: seats with two active bookings, seats sold twice. */
  dbBookedTwice: number
  dbSoldTwice: number
  lockMs: number[]
}

/** A 40-seat trip nobody has touched, `days` ahead or later, with its counters. */
async function freshTrip(base: string, days: number): Promise<RushTrip> {
  for (let d = days; d < days + 10; d++) {
    const tripDate = dhakaDate(d)
    const rows = await apiPost<{ tripId: number; coachCode: string; coachType: string; availableSeats: number }[]>(base, '/reservation/tripSearch', {
      originCode: 'DHK',
      destinationCode: 'CTG',
      tripDate,
    })
    const row = rows.find((r) => r.coachType === 'AC_STANDARD' && r.availableSeats === 40)
    if (!row) continue
    const details = await apiPost<{ seatLayout: { seats: { name: string }[] } }>(
      base,
      '/reservation/tripDetails',
      tripDetailsBody({ tripId: row.tripId, originCode: 'DHK', destinationCode: 'CTG' }),
    )
    const st = await apiPost<{ boarding: { id: number }[]; dropping: { id: number }[] }>(base, '/busStationsByOriginDestinationAndTripDate', {
      originCode: 'DHK',
      destinationCode: 'CTG',
      tripDate,
      tripId: row.tripId,
    })
    return {
      tripId: row.tripId,
      tripDate,
      coachCode: row.coachCode,
      originCode: 'DHK',
      destinationCode: 'CTG',
      seats: details.seatLayout.seats.map((s) => s.name).filter((n) => n !== 'OPEN'),
      boardingId: st.boarding[0]!.id,
      droppingId: st.dropping[0]!.id,
    }
  }
  throw new Error(`no untouched 40-seat DHK→CTG trip from ${days} days ahead`)
}

/**
 * One Eid rush: each passenger looks at the seat map, picks a seat that looks free, locks it;
 * a refused lock marks that seat taken in its view (as the app does) and it picks again. A won
 * seat is held 2–5 s, then released (30 %) or booked; a booking is paid (5 %, the passenger is
 * done) or cancelled 2–4 s later. A passenger who sees no free seat reloads the map after 2–4 s
 * without the live seat map; with it, the map follows the passenger's stream and it waits for a
 * seat to come free. Think times are seeded: both runs draw the same ones.
 */
async function eidRush(urls: string[], dbUrl: string, trip: RushTrip, live: boolean, log: (s: string) => void): Promise<RushResult> {
  const tokens = await makePassengers(dbUrl, PASSENGERS, live ? 51_000_000 : 52_000_000, 'Rush Passenger')
  const r: RushResult = {
    live,
    attempts: 0,
    won: 0,
    lost: 0,
    wasted: 0,
    errors: 0,
    errorSamples: [],
    releases: 0,
    bookings: 0,
    cancellations: 0,
    sales: 0,
    reloads: 0,
    events: 0,
    heldTwice: 0,
    dbBookedTwice: 0,
    dbSoldTwice: 0,
    lockMs: [],
  }
  const error = (what: string) => {
    r.errors++
    if (r.errorSamples.length < 3) r.errorSamples.push(what)
  }
  /** Ground truth from the answers: who holds each seat since when (won and answered, not yet given up). */
  const holder = new Map<string, number>()
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY })
  const streams: http.ClientRequest[] = []
  onCleanup(() => {
    for (const s of streams) s.destroy()
    agent.destroy()
  })
  /** The seats the server had committed as taken, as a stream on the first process told them: the "already taken" of `wasted`. */
  const committed = new Map<string, boolean>()
  const observer = await holdStream(urls[0]!, trip.tripId, agent, (seats) => {
    for (const x of seats) committed.set(x.name, x.state !== 'available')
  })
  streams.push(observer.req)
  const start = performance.now()
  const end = start + RUSH_MS

  const post = async <T>(base: string, path: string, token: string, body: unknown): Promise<T | undefined> => {
    try {
      const res = await fetch(`${base}/api${path}`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      })
      const text = await res.text()
      if (!res.ok) {
        error(`${path}: HTTP ${res.status} ${text.slice(0, 100)}`)
        return undefined
      }
      return (JSON.parse(text) as { data: T }).data
    } catch (err) {
      error(`${path}: ${(err as Error).message}`)
      return undefined
    }
  }

  const passenger = async (i: number) => {
    const rnd = mulberry32(1_000 + i)
    const base = urls[i % urls.length]!
    const token = tokens[i]!
    /** The seat map as this passenger sees it: seat → free. */
    const view = new Map<string, boolean>(trip.seats.map((s) => [s, true]))
    let freed: (() => void) | null = null
    const look = async () => {
      const d = await post<{ seatLayout: { seats: { name: string; status: number; lockedByOther: boolean }[] } }>(
        base,
        '/reservation/tripDetails',
        token,
        tripDetailsBody(trip),
      )
      if (!d) return
      r.reloads++
      for (const s of d.seatLayout.seats) if (view.has(s.name)) view.set(s.name, s.status === 0 && !s.lockedByOther)
    }
    await sleep(between(rnd, 0, ARRIVALS_MS))
    await look()
    if (live) {
      try {
        const h = await holdStream(base, trip.tripId, agent, (seats) => {
          r.events++
          let any = false
          for (const x of seats) {
            const free = x.state === 'available'
            view.set(x.name, free)
            any ||= free
          }
          if (any) freed?.()
        })
        streams.push(h.req)
      } catch (err) {
        error(`stream: ${(err as Error).message}`)
      }
    }
    while (performance.now() < end) {
      if (![...view.values()].some(Boolean)) {
        const wait = between(rnd, 2_000, 4_000)
        if (live) await Promise.race([sleep(wait), new Promise<void>((resolve) => (freed = resolve))])
        else {
          await sleep(wait)
          await look()
        }
        freed = null
        continue
      }
      // looking at the map and choosing: the seat is the one that looks free when the passenger clicks
      await sleep(between(rnd, 500, 2_000))
      const free = [...view].filter(([, f]) => f).map(([s]) => s)
      if (free.length === 0 || performance.now() >= end) continue
      const seat = free[Math.floor(rnd() * free.length)]!
      r.attempts++
      if (committed.get(seat)) r.wasted++
      const a = await lockSeat(base, trip, seat, true, { token })
      r.lockMs.push(a.answeredAt - a.sentAt)
      if (a.ok === null) {
        error(`seatLock: ${a.error}`)
        continue
      }
      if (!a.ok) {
        r.lost++
        view.set(seat, false)
        continue
      }
      r.won++
      const mine = holder.get(seat)
      if (mine !== undefined && mine !== i) r.heldTwice++
      holder.set(seat, i)
      view.set(seat, false)
      await sleep(between(rnd, 2_000, 5_000))
      if (rnd() < 0.3) {
        holder.delete(seat)
        r.releases++
        await lockSeat(base, trip, seat, false, { token })
        continue
      }
      const booking = await post<{ id: number }>(base, '/reservation/booking', token, {
        tripId: trip.tripId,
        seatNames: [seat],
        boardingStationId: trip.boardingId,
        droppingStationId: trip.droppingId,
        passengerName: `Rush Passenger ${i}`,
        passengerMobile: '01700000000',
      })
      if (!booking) {
        holder.delete(seat)
        await lockSeat(base, trip, seat, false, { token })
        continue
      }
      r.bookings++
      if (rnd() < 0.05) {
        if (await post(base, '/reservation/payFromBalance', token, { reservationId: booking.id })) {
          r.sales++
          // a sold seat stays this passenger's: done
          return
        }
      }
      await sleep(between(rnd, 2_000, 4_000))
      holder.delete(seat)
      if (await post(base, '/reservation/cancelBooking', token, { reservationId: booking.id })) r.cancellations++
      // the booking ended: the app reads the seat map again (booking.ts ended())
      await look()
    }
  }

  const ticker = setInterval(() => {
    log(
      `live: rush (${live ? 'events on' : 'events off'}) ${((performance.now() - start) / 1000).toFixed(0)} s: ${r.attempts} lock attempts, ${r.won} won, ${r.lost} lost (${r.wasted} on seats already taken), ${r.bookings} bookings, ${r.sales} sold, ${r.errors} errors`,
    )
  }, 15_000)
  try {
    await Promise.all(Array.from({ length: PASSENGERS }, (_, i) => passenger(i)))
  } finally {
    clearInterval(ticker)
    for (const s of streams.splice(0)) s.destroy()
    agent.destroy()
  }

  const c = new pg.Client({ connectionString: dbUrl })
  await c.connect()
  try {
    const twice = async (sql: string) => (await c.query<{ n: number }>(sql, [trip.tripId])).rows[0]!.n
    r.dbBookedTwice = await twice(
      `SELECT count(*)::int AS n FROM (SELECT seat_name FROM reservation_seats WHERE trip_id = $1 AND active GROUP BY seat_name HAVING count(*) > 1) x`,
    )
    r.dbSoldTwice = await twice(
      `SELECT count(*)::int AS n FROM (SELECT rs.seat_name FROM reservation_seats rs JOIN reservations v ON v.id = rs.reservation_id
        WHERE rs.trip_id = $1 AND v.status = 1 GROUP BY rs.seat_name HAVING count(*) > 1) x`,
    )
  } finally {
    await c.end()
  }
  return r
}

function rushFigures(x: RushResult): Figure[] {
  const label = `Eid rush, ${x.live ? 'live seat map' : 'no live seat map'}`
  return [
    fig(`${label}: lock attempts`, x.attempts, int),
    fig(`${label}: lock-lost answers`, x.lost, int),
    fig(`${label}: attempts wasted on seats already taken`, x.wasted, int),
    fig(`${label}: seats held twice (from the answers)`, x.heldTwice, int, { exact: 0 }),
    fig(`${label}: seats booked or sold twice (database)`, x.dbBookedTwice + x.dbSoldTwice, int, { exact: 0 }),
    fig(`${label}: errors`, x.errors, int, { exact: 0 }),
  ]
}

function rushRow(x: RushResult): string {
  return `| ${x.live ? 'on' : 'off'} | ${x.attempts} | ${x.won} | ${x.lost} | ${x.wasted} | ${x.lost - x.wasted} | ${x.releases} | ${x.bookings} | ${x.cancellations} | ${x.sales} | ${x.reloads} | ${x.events} | ${ms(percentile(x.lockMs, 50))} / ${ms(percentile(x.lockMs, 95))} | ${x.heldTwice} | ${x.dbBookedTwice} / ${x.dbSoldTwice} | ${x.errors}${x.errorSamples.length ? ` (${x.errorSamples.join('; ').replace(/\|/g, '/')})` : ''} |`
}

export async function runLive(log: (s: string) => void): Promise<PartResult> {
  const date = new Date().toISOString()
  const figures: Figure[] = []
  const details: string[] = []
  const errors: string[] = []

  // ---- one process on PGlite: latency, then how many streams it holds ----
  let server: BenchServer | null = null
  try {
    server = await startServer({ DATA_DIR: tempDir('live-pglite'), METRICS_TOKEN })
    log(`live: PGlite server ready in ${sec(server.readyMs)}`)
    const pool = await buildPool(server.url, [1, 2, 3, 4, 5, 6, 7, 8])
    const lat = await deliveryLatency(server.url, server.url, pool.trips[0]!)
    figures.push(...latencyFigures('PGlite, one process', lat))
    log(
      `live: PGlite delivery p50 ${ms(percentile(lat.samples, 50))}, p95 ${ms(percentile(lat.samples, 95))}, p99 ${ms(percentile(lat.samples, 99))}`,
    )
    details.push(
      `Delivery latency: ${LATENCY_PAIRS} locks and ${LATENCY_PAIRS} releases of one seat at a time, 100–160 ms apart, from one client (X-Device-Id); a second client's stream times the \`seats\` event naming the seat in its new state, from the moment the locking client has its answer (the lock is committed by then). PGlite: ${lat.samples.length} samples, ${lat.beforeAnswer} events arrived before the answer (counted as 0 ms).`,
    )
    const trips = pool.trips.slice(1, 1 + STREAM_TRIPS)
    const cap = await streamCapacity(server.url, server.pid, trips, log)
    const ok = cap.steps.filter((s) => s.failed === 0 && s.missed === 0 && percentile(s.samples, 95) <= DELIVERY_BUDGET_MS)
    const best = ok[ok.length - 1]
    const last = cap.steps[cap.steps.length - 1]
    figures.push(
      fig('open streams one PGlite process holds with p95 delivery ≤ 1 s while 50 clients lock seats', best?.streams ?? 0, int, { min: 5_000 }),
    )
    if (last) {
      figures.push(fig(`server memory per open stream: V8 heap (growth while ${last.streams} streams opened)`, last.heapPerStream, kb))
      figures.push(fig(`delivery p95 at ${last.streams} streams`, percentile(last.samples, 95), ms, { max: DELIVERY_BUDGET_MS }))
    }
    details.push(
      '',
      `Open streams: streams on ${trips.length} demo trips (one process, PGlite), opened 100 at a time; then ${LOCKERS} clients lock a random free seat of those trips, release it 150–250 ms later, and again, for ${LOCK_WINDOW_MS / 1000} s. The last stream opened on each trip (the end of the server's fan-out to it) times every change; the others read and discard. A change not heard of within 3 s is missed, except a lock and its release that both fell between two reads of the trip (the server sends what changed since it last told, so a hold released before the next read is never sent: "pairs folded"). Memory per stream: the server's growth while a step's streams opened (measured in the quiet before and after, the lock traffic excluded), per stream; the figures sum the steps. V8 heap in use is read from /metrics (the least of three reads); RSS also moves with the embedded database's memory and with garbage collection, so it is the noisier of the two. Stopped: ${cap.stopped}.`,
      '',
      '| streams | refused | opened in | server RSS | RSS per stream added | heap per stream so far | lock/release requests | lock p95 | timed deliveries | delivery p50 | p95 | p99 | missed | pairs folded |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...cap.steps.map(
        (s) =>
          `| ${s.streams} | ${s.failed} | ${sec(s.openMs)} | ${mb(s.rssBytes)} | ${kb(s.perStreamBytes)} | ${kb(s.heapPerStream)} | ${s.lockOps} | ${ms(percentile(s.lockMs, 95))} | ${s.samples.length} | ${ms(percentile(s.samples, 50))} | ${ms(percentile(s.samples, 95))} | ${ms(percentile(s.samples, 99))} | ${s.missed} | ${s.coalesced} |`,
      ),
    )
  } catch (err) {
    errors.push(`PGlite: ${(err as Error).message}`)
  } finally {
    await server?.stop()
  }

  // ---- PostgreSQL, two processes: latency across them, then the Eid rush ----
  const servers: BenchServer[] = []
  try {
    const { url, a, b } = await startTwoOnPostgres('live')
    servers.push(a, b)
    log(`live: PostgreSQL servers ready in ${sec(a.readyMs)} and ${sec(b.readyMs)}`)
    const pool = await buildPool(a.url, [1, 2])
    const lat = await deliveryLatency(a.url, b.url, pool.trips[0]!)
    figures.push(...latencyFigures('PostgreSQL, stream on A, locks on B', lat))
    log(
      `live: PostgreSQL delivery p50 ${ms(percentile(lat.samples, 50))}, p95 ${ms(percentile(lat.samples, 95))}, p99 ${ms(percentile(lat.samples, 99))}`,
    )
    details.push('', `PostgreSQL: ${lat.samples.length} samples, ${lat.beforeAnswer} events arrived before the answer (counted as 0 ms).`)

    const urls = [a.url, b.url]
    const runs: RushResult[] = []
    for (const [n, live] of [true, false].entries()) {
      const trip = await freshTrip(a.url, 20 + n * 4)
      log(
        `live: Eid rush ${live ? 'with' : 'without'} the live seat map on trip ${trip.tripId} (${trip.tripDate}), ${PASSENGERS} passengers, ${RUSH_MS / 1000} s`,
      )
      const x = await eidRush(urls, url, trip, live, log)
      runs.push(x)
      figures.push(...rushFigures(x))
      log(`live: rush ${live ? 'on' : 'off'}: ${x.attempts} attempts, ${x.lost} lost, ${x.wasted} wasted on taken seats, ${x.errors} errors`)
    }
    const [on, off] = runs as [RushResult, RushResult]
    if (off.wasted > 0)
      figures.push(
        fig('Eid rush: wasted attempts with the live seat map, of those without', (100 * on.wasted) / off.wasted, (v) => `${v.toFixed(1)} %`),
      )
    details.push(
      '',
      `Eid rush: ${PASSENGERS} passengers, each signed in, on one 40-seat trip through two server processes (half on each) sharing one PostgreSQL, for ${RUSH_MS / 1000} s; they arrive over the first ${ARRIVALS_MS / 1000} s. Each looks at the seat map (trip details), waits 0.5–2 s, locks a seat that looks free; a refused lock marks that seat taken in its view and it chooses again. A won seat is held 2–5 s, then released (30 %) or booked; a booking is paid from the balance (5 %, that passenger is done) or cancelled 2–4 s later, after which the seat map is read again. Seeing no free seat, a passenger without the live seat map reloads the map after 2–4 s; with it, the passenger's own stream keeps the map current and the passenger waits for a seat to come free. Think times are seeded, the same in both runs. ` +
        '"Wasted on seats already taken": attempts on a seat whose hold, booking or sale had been committed and streamed to an observer (one stream on process A, in both runs) before the attempt was sent; the other lost answers are races (the seat was free as far as anyone could know when the passenger clicked, and someone else got it first). "Held twice": a won lock while another passenger held the seat by the answers (won, not yet released or cancelled); the database is checked after the run for seats with two active bookings or two sales.',
      '',
      '| live seat map | lock attempts | won | lost | lost: seat already taken | lost: race | releases | bookings | cancelled | sold | seat map reads | events received | lock p50 / p95 | held twice | booked / sold twice (database) | errors |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...runs.map(rushRow),
    )
  } catch (err) {
    errors.push(`PostgreSQL: ${(err as Error).message}`)
  } finally {
    for (const s of servers) await s.stop()
  }
  return { part: 'live', title: 'Live seat map', date, figures, details, errors }
}
