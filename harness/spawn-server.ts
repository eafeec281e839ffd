/**
 * Starts `node --import tsx server/main.ts` as a child process on a free port and
 * waits for its "Ready on" line. For multi-process and crash tests, and for the
 * benchmark (bench/lib.ts), which times the start.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { addDays, dhakaDate } from '../server/lib/time.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export interface ServerProcess {
  url: string
  pid: number
  child: ChildProcess
  /** Spawn → "Ready on" line, ms. */
  readyMs: number
  /** `performance.now()` just before the spawn. */
  spawnedAt: number
  /** Everything it printed. */
  output(): string
  /** Sends a signal (unless it has exited) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>
}

/** Where and how long `startServer` waits. */
export interface StartOptions {
  /** Folder holding server/ (the repository unless given). */
  cwd?: string
  /** Gives up (and SIGKILLs the child) after this long without "Ready on". */
  timeoutMs?: number
  /** Called with the child right after the spawn, e.g. to kill it when the caller exits. */
  onSpawn?: (child: ChildProcess) => void
  /** The port to listen on (a free one unless given), e.g. when PUBLIC_URL must name it. */
  port?: number
}

let nextInRange = 0

/** How long a port handed out of FREE_PORTS stays claimed for its taker: time to bind it. */
const CLAIM_MS = 30_000
const claims = path.join(os.tmpdir(), 'bus-ticketing-port-claims')

/**
 * Claims `port` for this process unless another claim on it is younger than CLAIM_MS (`force`: whatever its age):
 * two test workers picking from one FREE_PORTS range each see the range's first port free until one of them binds
 * it, and would both take it. Answers whether it was claimed, else the other claim's age in ms.
 */
function claim(port: number, force = false): true | number {
  fs.mkdirSync(claims, { recursive: true })
  const file = path.join(claims, String(port))
  let age = 0
  try {
    age = Date.now() - fs.statSync(file).mtimeMs
  } catch {
    // no claim yet
  }
  if (age > 0 && age < CLAIM_MS && !force) return age
  try {
    // written whole under a name of its own, then put in place: a first claim by a hard link, which fails (EEXIST)
    // for all but one of two claimants at once; a stale claim's takeover by a rename, which does not (two takers of
    // one stale claim in the same instant would both have it; then the second server to bind fails at its start)
    const mine = `${file}.${process.pid}`
    fs.writeFileSync(mine, String(process.pid))
    if (age > 0) fs.renameSync(mine, file)
    else fs.linkSync(mine, file)
    fs.rmSync(mine, { force: true })
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    return 0 // claimed this instant by another process
  }
}

/**
 * A free 127.0.0.1 port: any, or with FREE_PORTS (e.g. `8740-8749`, a shared machine's share) the next free one of
 * that range in turn, claimed (a file in the temp folder) so that no other process is handed it while it binds;
 * when every free one is claimed, the one claimed longest ago.
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.FREE_PORTS ?? '')
  if (!range) return bindable(0)
  const [lo, hi] = [Number(range[1]), Number(range[2])]
  const start = nextInRange++
  let oldest: { port: number; age: number } | null = null
  for (let k = 0; k <= hi - lo; k++) {
    const port = lo + ((start + k) % (hi - lo + 1))
    try {
      await bindable(port)
    } catch {
      continue // taken: the next one
    }
    const claimed = claim(port)
    if (claimed === true) return port
    if (!oldest || claimed > oldest.age) oldest = { port, age: claimed }
  }
  if (oldest && claim(oldest.port, true) === true) return oldest.port
  throw new Error(`no free port in FREE_PORTS=${process.env.FREE_PORTS}`)
}

/** Binds `port` (0: any) on 127.0.0.1 and lets it go again; answers the port. */
function bindable(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(port, '127.0.0.1', () => {
      const bound = (srv.address() as net.AddressInfo).port
      srv.close(() => resolve(bound))
    })
  })
}

/** Starts the server with extra env (DATABASE_URL or DATA_DIR) and waits until it listens. */
export async function startServer(env: Record<string, string>, opts: StartOptions = {}): Promise<ServerProcess> {
  const timeoutMs = opts.timeoutMs ?? 90_000
  const port = opts.port ?? (await freePort())
  const spawnedAt = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: opts.cwd ?? root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      RATE_LIMIT_MAX: '10000000',
      AUTH_RATE_LIMIT_MAX: '10000000',
      // load from one test address; the per-address hold and SMS limits and the SMS budget are tested with their own settings
      HOLD_LIMIT_PER_ADDRESS: '10000000',
      HOLD_LIMIT_PER_ADDRESS_TOTAL: '10000000',
      SEAT_STREAMS_PER_ADDRESS: '10000000',
      UNPAID_SEATS_PER_PASSENGER: '10000000',
      SEATS_PER_PASSENGER_PER_DATE: '10000000',
      SMS_LIMIT_PER_ADDRESS: '10000000',
      SMS_HOURLY_BUDGET: '10000000',
      NODE_ENV: 'development',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  opts.onSpawn?.(child)
  let out = ''
  let readyMs = NaN
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer)
      reject(new Error(`${why}:\n${out.slice(-2000)}`))
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      fail(`server did not start in ${timeoutMs} ms`)
    }, timeoutMs)
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      if (Number.isNaN(readyMs) && /^Ready on /m.test(out)) {
        readyMs = performance.now() - spawnedAt
        clearTimeout(timer)
        resolve()
      }
    })
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
    void exited.then(() => fail(`server exited (${child.exitCode ?? child.signalCode}) before it was ready`))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    child,
    readyMs,
    spawnedAt,
    output: () => out,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited
    },
  }
}

/** JSON over HTTP: answers status and parsed body. */
export async function call(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  opts: { token?: string; device?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (opts.token) headers.authorization = `Bearer ${opts.token}`
  if (opts.device) headers['x-device-id'] = opts.device
  const res = await fetch(base + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, headers: res.headers }
}

/** Posts the sandbox gateway form; answers the redirect location. */
export async function gatewayDecide(base: string, redirectUrl: string, decision: 'approve' | 'decline'): Promise<string | null> {
  const res = await fetch(base + redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=${decision}`,
    redirect: 'manual',
  })
  await res.text()
  return res.headers.get('location')
}

/** Where and for whom `bookSeat` books. */
export interface BookSeatOptions {
  from?: string
  to?: string
  /** Days after today (Asia/Dhaka) of the trip (default 2). */
  daysAhead?: number
  /** Which of the day's trips: an index into the search answer (default the first), or the cheapest. */
  trip?: number | 'cheapest'
  passenger?: { name: string; mobile: string; email?: string | null }
  /** Extra request headers, e.g. Accept-Language for the booking's language. */
  headers?: Record<string, string>
}

/**
 * Holds and books the first free seat of a trip on a running server for the passenger
 * signed in with `token`, as the app does (search, counters, seat map, lock, booking);
 * answers the booking. Throws when a step is refused.
 */
export async function bookSeat(base: string, token: string, opts: BookSeatOptions = {}): Promise<any> {
  const from = opts.from ?? 'DHK'
  const to = opts.to ?? 'CTG'
  const tripDate = addDays(dhakaDate(new Date()), opts.daysAhead ?? 2)
  const found = await call(base, 'POST', '/api/reservation/tripSearch', { originCode: from, destinationCode: to, tripDate })
  const list: any[] = found.body.data ?? []
  const trip = opts.trip === 'cheapest' ? [...list].sort((a, b) => a.fareFrom - b.fareFrom)[0] : list[(opts.trip ?? 0) % Math.max(1, list.length)]
  if (!trip) throw new Error(`no trip ${from}-${to} on ${tripDate}: ${JSON.stringify(found.body)}`)
  const st = await call(base, 'POST', '/api/busStationsByOriginDestinationAndTripDate', { originCode: from, destinationCode: to, tripDate })
  const trips = { originCode: from, destinationCode: to }
  const d = await call(
    base,
    'POST',
    '/api/reservation/tripDetails',
    { tripId: trip.tripId, ...trips, originBusStationId: null, destinationBusStationId: null },
    { token },
  )
  const seat = d.body.data.seatLayout.seats.find((s: any) => s.status === 0 && !s.lockedByOther && !s.lockedByMe && s.name !== 'OPEN')
  if (!seat) throw new Error(`no free seat on trip ${trip.tripId}`)
  const lockBody = { tripId: trip.tripId, tripDate, coachCode: trip.coachCode, ...trips, seatNames: [seat.name], locked: true }
  const lock = await call(base, 'POST', '/api/reservation/seatLock', lockBody, { token })
  if (!lock.body.data) throw new Error(`seat lock refused: ${JSON.stringify(lock.body)}`)
  const passenger = opts.passenger ?? { name: 'Process Test', mobile: '01712000999', email: 'process@example.com' }
  const booking = {
    tripId: trip.tripId,
    seatNames: [seat.name],
    boardingStationId: st.body.data.boarding[0].id,
    droppingStationId: st.body.data.dropping[0].id,
    passengerName: passenger.name,
    passengerMobile: passenger.mobile,
    ...(passenger.email !== undefined ? { passengerEmail: passenger.email } : {}),
  }
  const b = await call(base, 'POST', '/api/reservation/booking', booking, { token, headers: opts.headers })
  if (b.status !== 200) throw new Error(`booking refused: ${b.status} ${JSON.stringify(b.body)}`)
  return b.body.data
}
