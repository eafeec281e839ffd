/**
 * Shared pieces of the benchmark: statistics, figures with budgets, child
 * processes that are always cleaned up, the API server on a free loopback port,
 * and the demo-data look-ups every part needs.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { reservationStatus } from '../contract/values.ts'
import { newToken, sha256 } from '../server/lib/tokens.ts'
import { DEMO_PASSENGER } from '../server/seed/passengers.ts'
import { startPostgres } from '../harness/postgres.ts'
import { bookSeat, call, gatewayDecide, startServer as startChild } from '../harness/spawn-server.ts'
import { storageKeys } from '../src/lib/storage.ts'

export { freePort } from '../harness/spawn-server.ts'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

// ---------- statistics ----------

/** Median of the samples (NaN for none). */
export function median(xs: number[]): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b)
  if (!s.length) return NaN
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** The p-th percentile (0–100, nearest rank). */
export function percentile(xs: number[], p: number): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b)
  if (!s.length) return NaN
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!
}

/** Min and max of the samples. */
export function range(xs: number[]): { min: number; max: number } {
  const s = xs.filter(Number.isFinite)
  return s.length ? { min: Math.min(...s), max: Math.max(...s) } : { min: NaN, max: NaN }
}

// ---------- figures ----------

/** One measured figure, as the table and BENCHMARKS.md show it. */
export interface Figure {
  /** Row name, e.g. `/ first render JS (brotli)`. */
  name: string
  /** Median (or the single value) as displayed, e.g. `96.9 KB`. */
  value: string
  /** Spread of the repeated samples, e.g. `min 10.1 – max 14.2 ms (n=20)`, or ''. */
  spread: string
  /** The budget in words, or '' when the figure has none. */
  budget: string
  /** true pass, false fail, null no budget (or not measured). */
  pass: boolean | null
}

/** What one part answers. */
export interface PartResult {
  part: PartName
  title: string
  /** ISO time the part ran. */
  date: string
  figures: Figure[]
  /** Extra Markdown (detail tables, failing audits, notes), printed after the figures. */
  details: string[]
  /** Problems that stopped some measurement; shown as FAIL rows' reasons. */
  errors: string[]
}

export const PARTS = ['bundle', 'lighthouse', 'seat', 'api', 'live', 'eid'] as const
/** Parts `npm run bench` runs when none is named (the Eid sale takes minutes of both cores: by name only). */
export const DEFAULT_PARTS: readonly PartName[] = ['bundle', 'lighthouse', 'seat', 'api', 'live']
export type PartName = (typeof PARTS)[number]

/**
 * A figure with a numeric budget: pass when `value <= max` (or `>= min`); with `every`, when each
 * of the samples is (the budget holds in every run, not only in the median one).
 */
export function fig(
  name: string,
  value: number,
  fmt: (n: number) => string,
  opts: { samples?: number[]; max?: number; min?: number; budget?: string; exact?: number; every?: boolean } = {},
): Figure {
  let pass: boolean | null = null
  const { min, max } = range(opts.samples ?? [])
  const judged = opts.every && opts.samples?.length ? { low: min, high: max } : { low: value, high: value }
  if (!Number.isFinite(value)) pass = opts.max !== undefined || opts.min !== undefined || opts.exact !== undefined ? false : null
  else if (opts.exact !== undefined) pass = value === opts.exact
  else if (opts.max !== undefined) pass = judged.high <= opts.max
  else if (opts.min !== undefined) pass = judged.low >= opts.min
  const each = opts.every ? ' every run' : ''
  const budget =
    opts.budget ??
    (opts.exact !== undefined
      ? `= ${fmt(opts.exact)}`
      : opts.max !== undefined
        ? `≤ ${fmt(opts.max)}${each}`
        : opts.min !== undefined
          ? `≥ ${fmt(opts.min)}${each}`
          : '')
  return { name, value: Number.isFinite(value) ? fmt(value) : 'n/a', spread: spreadOf(opts.samples, fmt), budget, pass }
}

/** `min a – max b (n=N)` of repeated samples, '' for fewer than two. */
export function spreadOf(samples: number[] | undefined, fmt: (n: number) => string): string {
  if (!samples || samples.length < 2) return ''
  const { min, max } = range(samples)
  return `${fmt(min)} – ${fmt(max)} (n=${samples.filter(Number.isFinite).length})`
}

export const ms = (n: number) => `${n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n)} ms`
export const sec = (n: number) => `${(n / 1000).toFixed(2)} s`
export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
export const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`
export const int = (n: number) => String(Math.round(n))
export const num = (d: number) => (n: number) => n.toFixed(d)

// ---------- processes ----------

const children = new Set<ChildProcess>()
const cleanups = new Set<() => Promise<void> | void>()

/** Remembers a child so `cleanup()` (and process exit) kills it. */
export function track(child: ChildProcess): ChildProcess {
  children.add(child)
  child.once('exit', () => children.delete(child))
  return child
}

/** Registers an async clean-up (stop PostgreSQL, close a browser, remove a folder). */
export function onCleanup(fn: () => Promise<void> | void): () => void {
  cleanups.add(fn)
  return () => cleanups.delete(fn)
}

/** Kills every tracked child and runs every clean-up; safe to call twice. */
export async function cleanup(): Promise<void> {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
  const fns = [...cleanups].reverse()
  cleanups.clear()
  for (const fn of fns) {
    try {
      await withTimeout(Promise.resolve(fn()), 20_000, 'clean-up')
    } catch (err) {
      console.error('clean-up:', (err as Error).message)
    }
  }
}

process.once('exit', () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
})

/** Rejects after `ms` with a message naming `what`. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer in ${Math.round(ms / 1000)} s`)), ms)
    }),
  ])
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** A new temp folder, removed by `cleanup()`. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${prefix}-`))
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Resident memory of a process in bytes (Linux /proc; `ps` elsewhere), NaN when gone. */
export function rssOf(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(status)
    if (m) return Number(m[1]) * 1024
  } catch {
    // not Linux, or the process is gone
  }
  return NaN
}

// ---------- the API server ----------

const staged = new Map<string, string>()

/**
 * A private copy of what the server needs (server/, contract/, data/, node_modules
 * and package.json linked) with `dist` (a private build) as its dist/: other
 * engineers rebuild the shared dist/ and edit the tree while the benchmark
 * runs, and the server only looks for dist/index.html when it starts.
 */
export function stagedRoot(dist: string | null): string {
  const key = dist ?? ''
  const have = staged.get(key)
  if (have) return have
  const dir = tempDir('root')
  // data/: the demo network a development server imports at start
  for (const d of ['server', 'contract', 'data']) {
    fs.cpSync(path.join(root, d), path.join(dir, d), { recursive: true, filter: (src) => !src.includes(`${path.sep}.data`) })
  }
  for (const f of ['node_modules', 'package.json', 'tsconfig.json']) {
    if (fs.existsSync(path.join(root, f))) fs.symlinkSync(path.join(root, f), path.join(dir, f))
  }
  if (dist) fs.cpSync(dist, path.join(dir, 'dist'), { recursive: true })
  staged.set(key, dir)
  return dir
}

/** A running `server/main.ts`. */
export interface BenchServer {
  url: string
  pid: number
  /** Spawn → "Ready on" line, ms. */
  readyMs: number
  /** Spawn → first successful GET /api/originCities, ms. */
  firstResponseMs: number
  /** What the server says it took ("in N ms"), or NaN. */
  selfReportedMs: number
  output(): string
  /** SIGTERM, then SIGKILL after 10 s; resolves on exit. */
  stop(): Promise<void>
}

/**
 * Starts the real server (`node --import tsx server/main.ts`, as `npm start`
 * does after its build) from a staged copy of the tree (see `stagedRoot`), on
 * a free 127.0.0.1 port with rate limits lifted. `env` sets DATA_DIR or
 * DATABASE_URL; `dist` is the built app it serves (none for API-only runs).
 */
export async function startServer(env: Record<string, string>, opts: { dist?: string | null; timeoutMs?: number } = {}): Promise<BenchServer> {
  const s = await startChild(
    { RATE_LIMIT_MAX: '100000000', AUTH_RATE_LIMIT_MAX: '100000000', DATABASE_URL: '', ...env },
    { cwd: stagedRoot(opts.dist ?? null), timeoutMs: opts.timeoutMs ?? 180_000, onSpawn: track },
  )
  let firstResponseMs = NaN
  for (let i = 0; i < 200 && Number.isNaN(firstResponseMs); i++) {
    try {
      const res = await fetch(`${s.url}/api/originCities`, { headers: { accept: 'application/json' } })
      await res.arrayBuffer()
      if (res.ok) firstResponseMs = performance.now() - s.spawnedAt
    } catch {
      // not listening yet
    }
    if (Number.isNaN(firstResponseMs)) await sleep(25)
  }
  const self = /Ready on .* in (\d+) ms/.exec(s.output())
  return {
    url: s.url,
    pid: s.pid,
    readyMs: s.readyMs,
    firstResponseMs,
    selfReportedMs: self ? Number(self[1]) : NaN,
    output: s.output,
    async stop() {
      const t = setTimeout(() => s.child.kill('SIGKILL'), 10_000)
      await s.kill('SIGTERM')
      clearTimeout(t)
    },
  }
}

/**
 * A throwaway PostgreSQL server (stopped by `cleanup()`) with database `name` and two server
 * processes sharing it: A migrates and seeds it, B starts warm.
 */
export async function startTwoOnPostgres(name: string): Promise<{ url: string; a: BenchServer; b: BenchServer }> {
  const pg = await startPostgres()
  onCleanup(() => pg.stop())
  const url = await pg.createDatabase(name)
  const a = await startServer({ DATABASE_URL: url })
  try {
    return { url, a, b: await startServer({ DATABASE_URL: url }) }
  } catch (err) {
    await a.stop()
    throw err
  }
}

// ---------- demo data ----------

/** Routes of the demo data (README, "Trying it by hand"), both directions where it has them. */
export const DEMO_ROUTES: [string, string][] = [
  ['DHK', 'CTG'],
  ['CTG', 'DHK'],
  ['DHK', 'SYL'],
  ['SYL', 'DHK'],
  ['DHK', 'KHL'],
  ['DHK', 'RAJ'],
  ['DHK', 'CXB'],
  ['CTG', 'CXB'],
]

/**
 * `n` passengers with a session and a balance, straight into the database (signing thousands of people up is not
 * what is measured); mobiles 019 + the 8 digits of `first` + 1, + 2, …; answers their session tokens.
 */
export async function makePassengers(url: string, n: number, first: number, name: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    const tokens = Array.from({ length: n }, () => newToken())
    for (let k = 0; k < n; k += 5_000) {
      const m = Math.min(5_000, n - k)
      await c.query(
        `WITH p AS (
           INSERT INTO passengers (mobile, full_name, email, city, password_hash, status, balance, created_at)
           SELECT '019' || lpad(($3::int + i)::text, 8, '0'), $4 || ' ' || ($3::int + i), 'bench' || ($3::int + i) || '@example.com', 'Dhaka', NULL, 'ACTIVE', 100000, $5::timestamptz
             FROM generate_series(1, $1::int) i
           RETURNING id, mobile)
         INSERT INTO sessions (passenger_id, token_hash, expires_at, created_at)
         SELECT p.id, h.hash, $5::timestamptz + interval '1 day', $5::timestamptz
           FROM (SELECT id, row_number() OVER (ORDER BY mobile) AS k FROM p) p
           JOIN unnest($2::text[]) WITH ORDINALITY AS h(hash, k) ON h.k = p.k`,
        [m, tokens.slice(k, k + m).map(sha256), first + k, name, new Date()],
      )
    }
    return tokens
  } finally {
    await c.end()
  }
}

/** A yyyy-MM-dd date in Asia/Dhaka, `days` after today. */
export function dhakaDate(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000)
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Dhaka', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d)
}

/** JSON POST to the API; answers the `data` field, throws on HTTP errors. */
export async function apiPost<T>(base: string, p: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${base}/api${p}`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`POST ${p}: HTTP ${res.status} ${text.slice(0, 300)}`)
  return (JSON.parse(text) as { data: T }).data
}

/** GET from the API; answers the `data` field, throws on HTTP errors. */
export async function apiGet<T>(base: string, p: string): Promise<T> {
  const res = await fetch(`${base}/api${p}`, { headers: { accept: 'application/json' } })
  const text = await res.text()
  if (!res.ok) throw new Error(`GET ${p}: HTTP ${res.status} ${text.slice(0, 300)}`)
  return (JSON.parse(text) as { data: T }).data
}

/** The fields of a trip search row the benchmark uses. */
export interface TripRow {
  tripId: number
  tripDate: string
  coachType: string
  coachCode: string
  originCode: string
  destinationCode: string
  availableSeats: number
}

/** What the seat-lock and trip-details bodies need of a trip (a search answer's fields). */
export interface TripKey {
  tripId: number
  tripDate: string
  coachCode: string
  originCode: string
  destinationCode: string
}

/** The POST /reservation/seatLock body for `seatNames` of `t`. */
export function seatLockBody(t: TripKey, seatNames: string[], locked = true): string {
  const { tripId, tripDate, coachCode, originCode, destinationCode } = t
  return JSON.stringify({ tripId, tripDate, coachCode, originCode, destinationCode, seatNames, locked })
}

/** The POST /reservation/tripDetails body for `t`, with no counters chosen. */
export function tripDetailsBody(t: Pick<TripKey, 'tripId' | 'originCode' | 'destinationCode'>): { [k: string]: unknown } {
  return { tripId: t.tripId, originCode: t.originCode, destinationCode: t.destinationCode, originBusStationId: null, destinationBusStationId: null }
}

/** Trips between two cities on a date (demo data). */
export function searchTrips(base: string, originCode: string, destinationCode: string, tripDate: string): Promise<TripRow[]> {
  return apiPost<TripRow[]>(base, '/reservation/tripSearch', { originCode, destinationCode, tripDate })
}

/** Tomorrow's DHK→CTG double-deck (SLEEPER) trip, else the trip with the most seats. */
export async function doubleDeckTrip(base: string): Promise<{ trip: TripRow; date: string; doubleDeck: boolean }> {
  const date = dhakaDate(1)
  const trips = await searchTrips(base, 'DHK', 'CTG', date)
  if (!trips.length) throw new Error(`no DHK→CTG trips on ${date} in the demo data`)
  const dd = trips.find((t) => t.coachType === 'SLEEPER')
  return { trip: dd ?? [...trips].sort((a, b) => b.availableSeats - a.availableSeats)[0]!, date, doubleDeck: !!dd }
}

/** The reservation page's URL for a trip (format of src/pages/reservation `tripRefFromQuery`). */
export function reservationPath(t: TripRow): string {
  const q = new URLSearchParams({ tripId: String(t.tripId), from: t.originCode, to: t.destinationCode, date: t.tripDate })
  return `/reservation?${q}`
}

/** The search page's URL (format of src/models/search.ts `searchQuery`). */
export function searchPath(from: string, to: string, date: string): string {
  return `/search?${new URLSearchParams({ from, to, date })}`
}

/** The demo passenger's session as POST /checkPassenger answers it (the fields the app stores). */
export interface DemoSession {
  token: string
  passenger: { id: number; fullName: string; mobile: string; email: string | null; balance: number }
  company: unknown
}

/** Signs the demo passenger (server/seed/passengers.ts) in over HTTP, as "Stay signed in" does. */
export function demoSession(base: string): Promise<DemoSession> {
  const { mobile, password } = DEMO_PASSENGER
  return apiPost<DemoSession>(base, '/checkPassenger', { mobile, password, staySignedIn: true })
}

/**
 * The local-storage items of a "Stay signed in" session, under the app's keys
 * (src/lib/storage.ts): `loadSession` in src/models/session.ts reads them when the
 * tab's session storage is empty, as in a new tab opened from a link.
 */
export function sessionItems(s: DemoSession): { name: string; value: string }[] {
  return [
    { name: storageKeys.token, value: s.token },
    { name: storageKeys.passenger, value: JSON.stringify(s.passenger) },
    { name: storageKeys.company, value: JSON.stringify(s.company) },
  ]
}

/** Adds `amount` Tk to the passenger's balance through the sandbox card gateway (development server). */
export async function topUp(base: string, token: string, amount: number): Promise<void> {
  const res = await call(base, 'POST', '/api/account/topUp', { amount }, { token })
  const redirectUrl = res.body?.data?.redirectUrl as string | undefined
  if (res.status !== 200 || !redirectUrl) throw new Error(`top-up refused: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`)
  if (!(await gatewayDecide(base, redirectUrl, 'approve'))) throw new Error('the sandbox gateway did not approve the top-up')
}

/**
 * A real paid booking of the signed-in passenger: the first free seat of the
 * first DHK→CTG trip in two days, held, booked and paid from the balance over
 * HTTP, as the app does. Answers its id and PNR.
 */
export async function paidBooking(base: string, s: DemoSession): Promise<{ id: number; pnr: string }> {
  const booked = await bookSeat(base, s.token, { daysAhead: 2, passenger: { name: s.passenger.fullName, mobile: s.passenger.mobile } })
  const paid = await call(base, 'POST', '/api/reservation/payFromBalance', { reservationId: booked.id }, { token: s.token })
  const r = paid.body?.data as { id: number; pnr: string | null; status: number } | undefined
  if (paid.status !== 200 || !r || r.status !== reservationStatus.sold || !r.pnr) {
    throw new Error(`payment from the balance refused: ${paid.status} ${JSON.stringify(paid.body).slice(0, 300)}`)
  }
  return { id: r.id, pnr: r.pnr }
}

/** The success page's URL after paying from the balance (src/pages/reservation/booking-panel.tsx). */
export function successPath(reservationId: number): string {
  return `/reservation/success?reservationId=${reservationId}`
}

// ---------- machine ----------

/** One line naming the machine: CPU, cores, memory, OS, Node, load. */
export function machine(): string {
  const cpus = os.cpus()
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'} × ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, ${os.type()} ${os.release()}, Node ${process.version}, load average ${load}`
}

/** The installed Chromium version, or ''. */
export async function chromiumVersion(exe: string): Promise<string> {
  return new Promise((resolve) => {
    const c = spawn(exe, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] })
    let out = ''
    c.stdout.on('data', (d) => (out += d))
    const t = setTimeout(() => c.kill('SIGKILL'), 10_000)
    c.on('close', () => {
      clearTimeout(t)
      resolve(out.trim())
    })
    c.on('error', () => resolve(''))
  })
}
