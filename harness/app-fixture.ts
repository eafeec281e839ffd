/**
 * The app in-process for tests and the benchmark (server/test/booking-fixture.ts re-exports it): a migrated, seeded database (PGlite in
 * a temp folder, or a PostgreSQL URL), a movable clock, the full app for
 * `inject`, passengers with sessions, and helpers to find free seats.
 *
 *   const f = await openFixture();            // PGlite
 *   const res = await f.api('POST', '/api/reservation/seatLock', body, { token });
 *   f.advance(16);                             // minutes
 *   await f.close();
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { ServerConfig } from '../server/config.ts'
import { openDb, type Db } from '../server/db/db.ts'
import { createDeps } from '../server/deps.ts'
import type { Deps } from '../server/core.ts'
import { migrate } from '../server/db/migrate.ts'
import { seed } from '../server/seed/index.ts'
import { createSession } from '../server/account/sessions.ts'
import type { PassengerRow } from '../server/account/passengers.ts'

export interface Fixture {
  db: Db
  deps: Deps
  app: FastifyInstance
  /** The clock the app reads. */
  now(): Date
  /** Moves the clock forward by minutes. */
  advance(minutes: number): void
  /** Sets the clock. */
  setNow(d: Date): void
  api(
    method: string,
    url: string,
    body?: unknown,
    opts?: { token?: string; device?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>
  /** A new ACTIVE passenger with a session token. */
  passenger(opts?: { balance?: number; mobile?: string }): Promise<{ id: number; token: string; mobile: string }>
  /** Snapshot of the tables the reservation routes write, to assert "nothing changed". */
  snapshot(): Promise<string>
  close(): Promise<void>
}

/**
 * Every test request comes from 127.0.0.1: the per-address hold and SMS limits and the
 * site's SMS budget are lifted (they are tested on their own, with their own settings), and so
 * is the per-date seat cap (test bookings share one traveller's mobile; server/bookings/date-cap.test.ts).
 */
export const ONE_ADDRESS_LIMITS: Partial<ServerConfig> = {
  holdLimitPerAddress: 1_000_000,
  holdLimitPerAddressTotal: 1_000_000,
  seatsPerPassengerPerDate: 1_000_000,
  smsLimitPerAddress: 1_000_000,
  smsHourlyBudget: 1_000_000,
}

const tempDirs: string[] = []

/** A new temp folder (removed by the caller or at exit). */
export function tempDir(prefix = 'bus-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  // one exit listener for all of them: a test file may make more than Node's 10 without a warning
  if (tempDirs.push(dir) === 1) {
    process.once('exit', () => {
      for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true })
    })
  }
  return dir
}

let template: Promise<string> | null = null

/**
 * A migrated, unseeded PGlite folder made once per test process: creating a
 * PGlite cluster costs seconds, copying one costs milliseconds.
 */
export function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = tempDir('bus-template-')
    const db = await openDb({ dataDir: dir, databaseUrl: '' })
    await migrate(db)
    await db.close()
    return path.join(dir, 'pgdata')
  })()
  return template
}

let mobileSeq = 0

async function makeApp(deps: Deps): Promise<FastifyInstance> {
  const { buildApp } = await import('../server/app.ts')
  // X-Forwarded-For names the client address (as behind a proxy): a test may call from several networks.
  return buildApp(deps, {
    logLevel: false,
    rateLimitMax: 1_000_000,
    authRateLimitMax: 1_000_000,
    trustProxy: { hops: 1 },
    distDir: path.join(os.tmpdir(), 'no-dist'),
  })
}

/**
 * Opens a fixture on a fresh PGlite folder (default; `dataDir` names it and close keeps it, e.g. for a
 * command run on it afterwards) or on `databaseUrl`; `config` overrides settings (e.g. the card gateway).
 */
export async function openFixture(
  opts: { databaseUrl?: string; dataDir?: string; daysAhead?: number; config?: Partial<ServerConfig>; now?: Date } = {},
): Promise<Fixture> {
  const dir = opts.databaseUrl ? null : (opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'resv-test-')))
  // a new folder starts migrated (this process's copy, as startTestApp's): only the seed, made for the clock, runs here
  if (dir && !fs.existsSync(path.join(dir, 'pgdata'))) fs.cpSync(await pgliteTemplate(), path.join(dir, 'pgdata'), { recursive: true })
  const db = await openDb(opts.databaseUrl ? { databaseUrl: opts.databaseUrl, max: 20 } : { dataDir: dir! })
  let clock = opts.now ?? new Date()
  // Every test request comes from 127.0.0.1: the per-address and per-passenger limits are tested on their own.
  const deps = createDeps(db, {
    now: () => clock,
    production: false,
    config: { ...ONE_ADDRESS_LIMITS, unpaidSeatsPerPassenger: 1_000_000, ...opts.config },
  })
  await migrate(db, (tx) => seed(tx, deps, { daysAhead: opts.daysAhead ?? 6 }))
  const app = await makeApp(deps)
  await app.ready()
  const f: Fixture = {
    db,
    deps,
    app,
    now: () => clock,
    advance: (m) => {
      clock = new Date(clock.getTime() + m * 60_000)
    },
    setNow: (d) => {
      clock = d
    },
    async api(method, url, body, o = {}) {
      const headers: Record<string, string> = { accept: 'application/json', ...(o.headers ?? {}) }
      if (o.token) headers.authorization = `Bearer ${o.token}`
      if (o.device) headers['x-device-id'] = o.device
      const res = await app.inject({ method: method as 'GET', url, headers, ...(body !== undefined ? { payload: body as object } : {}) })
      let parsed: unknown = res.body
      try {
        parsed = JSON.parse(res.body)
      } catch {
        // HTML or empty
      }
      return { status: res.statusCode, body: parsed, headers: res.headers as Record<string, unknown> }
    },
    async passenger(p = {}) {
      const mobile = p.mobile ?? `019${String(process.pid % 1000).padStart(3, '0')}${String(++mobileSeq).padStart(5, '0')}`
      const [row] = await db.query<PassengerRow>(
        `INSERT INTO passengers (mobile, full_name, email, city, password_hash, status, balance, created_at)
         VALUES ($1, 'Test Passenger', $2, 'Dhaka', NULL, 'ACTIVE', $3, $4) RETURNING *`,
        [mobile, `t${mobile}@example.com`, p.balance ?? 0, clock],
      )
      const s = await createSession(db, deps, row!, true)
      return { id: row!.id, token: s.token, mobile }
    },
    async snapshot() {
      const parts = await Promise.all(
        [
          'SELECT trip_id, seat_name, holder, expires_at FROM seat_locks ORDER BY 1, 2',
          'SELECT id, status, pnr, total, discount, expiration_time, refund_amount FROM reservations ORDER BY id',
          'SELECT id, reservation_id, seat_name, active FROM reservation_seats ORDER BY id',
          'SELECT id, status, amount, confirmed_at FROM payments ORDER BY id',
          'SELECT id, balance FROM passengers ORDER BY id',
          'SELECT count(*)::int AS n FROM ledger',
        ].map((sql) => db.query(sql)),
      )
      return JSON.stringify(parts)
    },
    async close() {
      await app.close()
      await db.close()
      if (dir && !opts.dataDir) fs.rmSync(dir, { recursive: true, force: true })
    },
  }
  return f
}

/** A trip departing at least `minHours` from the fixture clock, with its route cities. */
export async function pickTrip(
  f: Pick<Fixture, 'db' | 'now'>,
  opts: { minHours?: number; maxHours?: number; skip?: number } = {},
): Promise<{
  id: number
  tripDate: string
  coachCode: string
  originCode: string
  destinationCode: string
  departureAt: Date
  boardingId: number
  droppingId: number
}> {
  const now = f.now()
  const rows = await f.db.query<{
    id: number
    trip_date: string
    coach_code: string
    origin_code: string
    destination_code: string
    departure_at: Date
  }>(
    `SELECT t.id, t.trip_date::text AS trip_date, t.coach_code, r.origin_code, r.destination_code, t.departure_at
       FROM trips t JOIN routes r ON r.id = t.route_id
      WHERE t.status = 'OPEN' AND t.departure_at > $1 AND t.departure_at < $2
      ORDER BY t.departure_at, t.id OFFSET $3 LIMIT 1`,
    [new Date(now.getTime() + (opts.minHours ?? 60) * 3_600_000), new Date(now.getTime() + (opts.maxHours ?? 24 * 30) * 3_600_000), opts.skip ?? 0],
  )
  const t = rows[0]
  if (!t) throw new Error('no trip found for the test')
  const st = await f.db.query<{ id: number; city_code: string }>(
    'SELECT id, city_code FROM bus_stations WHERE city_code = ANY($1::text[]) ORDER BY id',
    [[t.origin_code, t.destination_code]],
  )
  return {
    id: t.id,
    tripDate: t.trip_date,
    coachCode: t.coach_code,
    originCode: t.origin_code,
    destinationCode: t.destination_code,
    departureAt: t.departure_at,
    boardingId: st.find((s) => s.city_code === t.origin_code)!.id,
    droppingId: st.find((s) => s.city_code === t.destination_code)!.id,
  }
}
