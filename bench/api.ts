/**
 * Part 4, API and server:
 * - start time with the embedded database (fresh folder: migrate + seed; warm
 *   folder: the `npm start` case), median of 3 each, and the process's memory;
 * - autocannon, 50 connections, on PGlite (one process) and on PostgreSQL (two
 *   processes sharing one DATABASE_URL, connections spread over both): trip
 *   search, trip details, seat lock on random seats with a random X-Device-Id
 *   per request;
 * - the contested lock: 500 simultaneous requests for one seat from 500
 *   device ids, exactly one may win (on both databases).
 */
import { randomBytes } from 'node:crypto'
import autocannon, { type Request, type Result } from 'autocannon'
import {
  apiPost,
  DEMO_ROUTES,
  dhakaDate,
  fig,
  int,
  mb,
  median,
  ms,
  onCleanup,
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

const CONNECTIONS = 50
const DURATION_S = 5
/** Load runs per endpoint; the figures are their medians. */
const LOAD_RUNS = 3
const WARMUP_S = 1
const START_RUNS = 3
const CONTENDERS = 500

/** A demo trip and its seats that were available when the pool was built. */
export interface Trip extends TripKey {
  seats: string[]
}

/** Searches and trips to draw random requests from. */
export interface Pool {
  searches: { originCode: string; destinationCode: string; tripDate: string }[]
  trips: Trip[]
}

const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)]!
const device = () => randomBytes(12).toString('base64url')

/** Trips and their available seats over the next days, for random requests. */
export async function buildPool(base: string, days: number[]): Promise<Pool> {
  const searches = DEMO_ROUTES.flatMap(([o, d]) => days.map((n) => ({ originCode: o, destinationCode: d, tripDate: dhakaDate(n) })))
  const trips: Trip[] = []
  for (const s of searches.filter((_, i) => i % 2 === 0)) {
    let rows: { tripId: number; tripDate: string; coachCode: string }[] = []
    try {
      rows = await apiPost(base, '/reservation/tripSearch', s)
    } catch {
      continue
    }
    for (const r of rows.slice(0, 4)) {
      const details = await apiPost<{ seatLayout: { seats: { name: string; status: number; lockedByOther: boolean }[] } }>(
        base,
        '/reservation/tripDetails',
        tripDetailsBody({ tripId: r.tripId, originCode: s.originCode, destinationCode: s.destinationCode }),
      )
      const seats = details.seatLayout.seats.filter((x) => x.status === 0 && !x.lockedByOther && x.name !== 'OPEN').map((x) => x.name)
      if (seats.length)
        trips.push({
          tripId: r.tripId,
          tripDate: r.tripDate,
          coachCode: r.coachCode,
          originCode: s.originCode,
          destinationCode: s.destinationCode,
          seats,
        })
    }
  }
  if (!trips.length) throw new Error('no trips with available seats in the demo data')
  return { searches, trips }
}

const json = { 'content-type': 'application/json', accept: 'application/json' }

function endpoints(pool: Pool): { name: string; request: Request; budgetP99?: number }[] {
  return [
    {
      name: 'trip search',
      budgetP99: 50,
      request: {
        method: 'POST',
        path: '/api/reservation/tripSearch',
        headers: json,
        setupRequest: (req) => ({ ...req, body: JSON.stringify(pick(pool.searches)) }),
      },
    },
    {
      name: 'trip details',
      request: {
        method: 'POST',
        path: '/api/reservation/tripDetails',
        headers: json,
        setupRequest: (req) => {
          const t = pick(pool.trips)
          return {
            ...req,
            body: JSON.stringify(tripDetailsBody(t)),
          }
        },
      },
    },
    {
      name: 'seat lock (random seat, random device)',
      budgetP99: 50,
      request: {
        method: 'POST',
        path: '/api/reservation/seatLock',
        setupRequest: (req) => {
          const t = pick(pool.trips)
          return {
            ...req,
            headers: { ...json, 'x-device-id': device() },
            body: seatLockBody(t, [pick(t.seats)]),
          }
        },
      },
    },
  ]
}

async function cannon(urls: string[], request: Request, seconds: number, connections = CONNECTIONS): Promise<Result> {
  const inst = autocannon({ url: urls.length === 1 ? urls[0]! : urls, connections, duration: seconds, timeout: 10, requests: [request] })
  const stop = onCleanup(() => inst.stop())
  try {
    return await inst
  } finally {
    stop()
  }
}

/** Load figures of one database: rps, p50, p99 (median of LOAD_RUNS runs, with their spread), errors and non-2xx per endpoint. */
async function load(db: string, urls: string[], pool: Pool, log: (s: string) => void): Promise<{ figures: Figure[]; rows: string[] }> {
  const figures: Figure[] = []
  const rows: string[] = []
  for (const e of endpoints(pool)) {
    await cannon(urls, e.request, WARMUP_S)
    // one connection: the time one request costs the server, without queueing
    const one = await cannon(urls, e.request, 2, 1)
    const runs: Result[] = []
    for (let i = 0; i < LOAD_RUNS; i++) runs.push(await cannon(urls, e.request, DURATION_S))
    const of = (f: (r: Result) => number) => runs.map(f)
    const bad = runs.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0)
    figures.push(fig(`${db}: ${e.name} requests/s`, median(of((r) => r.requests.average)), int, { samples: of((r) => r.requests.average) }))
    figures.push(fig(`${db}: ${e.name} p50`, median(of((r) => r.latency.p50)), ms, { samples: of((r) => r.latency.p50) }))
    figures.push(fig(`${db}: ${e.name} p50 at 1 connection (service time)`, one.latency.p50, ms))
    const p99 = of((r) => r.latency.p99)
    figures.push(
      fig(`${db}: ${e.name} p99`, median(p99), ms, {
        samples: p99,
        ...(e.budgetP99 ? { max: e.budgetP99 - 0.001, budget: `< ${e.budgetP99} ms` } : {}),
      }),
    )
    figures.push(fig(`${db}: ${e.name} errors + non-2xx`, bad, int, { exact: 0 }))
    for (const [i, r] of runs.entries()) {
      rows.push(
        `| ${db} | ${e.name} (run ${i + 1}) | ${Math.round(r.requests.average)} | ${ms(r.latency.p50)} | ${ms(r.latency.p97_5)} | ${ms(r.latency.p99)} | ${ms(r.latency.max)} | ${r.requests.total} | ${r.errors} | ${r.timeouts} | ${r.non2xx} |`,
      )
    }
    log(
      `${db} ${e.name}: ${Math.round(median(of((r) => r.requests.average)))} rps, p50 ${ms(median(of((r) => r.latency.p50)))}, p99 ${ms(median(p99))} (runs ${p99.map(ms).join(', ')}), errors ${bad}`,
    )
  }
  return { figures, rows }
}

/** 500 simultaneous lock requests for one free seat from 500 device ids; answers winners, refusals, other answers. */
async function contested(urls: string[], pool: Pool): Promise<{ winners: number; refused: number; other: string[]; ms: number }> {
  const t = pool.trips[pool.trips.length - 1]!
  const seat = t.seats[t.seats.length - 1]!
  const body = seatLockBody(t, [seat])
  const t0 = performance.now()
  const answers = await Promise.all(
    Array.from({ length: CONTENDERS }, async (_, i) => {
      try {
        const res = await fetch(`${urls[i % urls.length]}/api/reservation/seatLock`, {
          method: 'POST',
          headers: { ...json, 'x-device-id': `contender-${i}-${device()}` },
          body,
        })
        const text = await res.text()
        if (!res.ok) return `HTTP ${res.status}`
        const data = (JSON.parse(text) as { data: unknown }).data
        return data === false ? 'refused' : 'won'
      } catch (err) {
        return (err as Error).message
      }
    }),
  )
  const took = performance.now() - t0
  return {
    winners: answers.filter((a) => a === 'won').length,
    refused: answers.filter((a) => a === 'refused').length,
    other: answers.filter((a) => a !== 'won' && a !== 'refused'),
    ms: took,
  }
}

function contestedFigures(db: string, c: Awaited<ReturnType<typeof contested>>): Figure[] {
  return [fig(`${db}: contested lock, ${CONTENDERS} simultaneous → winners`, c.winners, int, { exact: 1 })]
}

export async function runApi(log: (s: string) => void): Promise<PartResult> {
  const date = new Date().toISOString()
  const figures: Figure[] = []
  const details: string[] = []
  const errors: string[] = []
  const loadRows: string[] = []
  const days = [1, 2, 3, 4, 5, 6, 7]

  // ---- start times on the embedded database ----
  const fresh: number[] = []
  const freshSelf: number[] = []
  let dir = ''
  for (let i = 0; i < START_RUNS; i++) {
    dir = tempDir('pglite')
    const s = await startServer({ DATA_DIR: dir })
    fresh.push(s.readyMs)
    freshSelf.push(s.selfReportedMs)
    log(`fresh start ${i + 1}: ready in ${sec(s.readyMs)} (server says ${s.selfReportedMs} ms)`)
    await s.stop()
  }
  const warm: number[] = []
  const warmFirst: number[] = []
  let server: BenchServer | null = null
  for (let i = 0; i < START_RUNS; i++) {
    const s = await startServer({ DATA_DIR: dir })
    warm.push(s.readyMs)
    warmFirst.push(s.firstResponseMs)
    log(`warm start ${i + 1}: ready in ${sec(s.readyMs)}, first /api/originCities at ${sec(s.firstResponseMs)}`)
    if (i < START_RUNS - 1) await s.stop()
    else server = s
  }
  figures.push(fig('server ready, fresh data folder (migrate + seed)', median(fresh), sec, { samples: fresh }))
  figures.push(fig('server ready, warm data folder (spawn → "Ready on")', median(warm), sec, { samples: warm, max: 5000 }))
  figures.push(fig('server warm: spawn → first /api/originCities answer', median(warmFirst), sec, { samples: warmFirst }))
  await sleep(500)
  figures.push(fig('server memory (RSS) after warm start, PGlite', rssOf(server!.pid), mb))

  // ---- load on PGlite ----
  try {
    const pool = await buildPool(server!.url, days)
    const pl = await load('PGlite', [server!.url], pool, log)
    figures.push(...pl.figures)
    loadRows.push(...pl.rows)
    figures.push(fig('server memory (RSS) after load, PGlite', rssOf(server!.pid), mb))
    const c = await contested([server!.url], await buildPool(server!.url, [20]))
    figures.push(...contestedFigures('PGlite', c))
    details.push(
      `Contested lock on PGlite: ${c.winners} won, ${c.refused} refused, ${c.other.length} other${c.other.length ? ` (${[...new Set(c.other)].slice(0, 3).join(', ')})` : ''}; all ${CONTENDERS} answered in ${ms(c.ms)}.`,
    )
  } catch (err) {
    errors.push(`PGlite load: ${(err as Error).message}`)
  } finally {
    await server!.stop()
  }

  // ---- PostgreSQL, two server processes ----
  const servers: BenchServer[] = []
  try {
    const { a, b } = await startTwoOnPostgres('bench')
    servers.push(a, b)
    log(`PostgreSQL: server A ready in ${sec(a.readyMs)} (migrate + seed), server B in ${sec(b.readyMs)}`)
    figures.push(fig('PostgreSQL: first server ready (migrate + seed)', a.readyMs, sec))
    figures.push(fig('PostgreSQL: second server ready (warm)', b.readyMs, sec))
    const urls = servers.map((s) => s.url)
    const pool = await buildPool(a.url, days)
    const pl = await load('PostgreSQL ×2', urls, pool, log)
    figures.push(...pl.figures)
    loadRows.push(...pl.rows)
    figures.push(fig('server memory (RSS) after load, PostgreSQL, per process (max)', Math.max(...servers.map((s) => rssOf(s.pid))), mb))
    const c = await contested(urls, await buildPool(a.url, [20]))
    figures.push(...contestedFigures('PostgreSQL ×2', c))
    details.push(
      `Contested lock on PostgreSQL (requests alternating between the two processes): ${c.winners} won, ${c.refused} refused, ${c.other.length} other${c.other.length ? ` (${[...new Set(c.other)].slice(0, 3).join(', ')})` : ''}; all ${CONTENDERS} answered in ${ms(c.ms)}.`,
    )
  } catch (err) {
    errors.push(`PostgreSQL: ${(err as Error).message}`)
  } finally {
    for (const s of servers) await s.stop()
  }

  details.unshift(
    `autocannon ${CONNECTIONS} connections, ${LOAD_RUNS} runs of ${DURATION_S} s per endpoint (figures: their median, with the spread) after a ${WARMUP_S} s warm-up and a 2 s run at 1 connection (service time without queueing), on loopback; autocannon runs in the benchmark's own process on the same machine as the server(s), so they share its CPU cores. ` +
      `Random trip searches over ${DEMO_ROUTES.length} routes × the next ${days.length} days; trip details and seat locks on random demo trips (a random available seat, a new X-Device-Id per request; a seat someone else holds answers \`false\`, which is a 200). ` +
      'PostgreSQL 15 is a throwaway server (harness/postgres.ts: fsync off) with two API processes sharing its DATABASE_URL; autocannon spreads its connections over both. ' +
      'Start times: `node --import tsx server/main.ts` (what `npm start` runs after its build) from spawn to its "Ready on" line, rate limits lifted.',
    '',
    '| database | endpoint | req/s | p50 | p97.5 | p99 | max | requests | errors | timeouts | non-2xx |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...loadRows,
    '',
  )
  return { part: 'api', title: 'API and server', date, figures, details, errors }
}
