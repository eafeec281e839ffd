/**
 * Test fixture for the reservation routes: a migrated, seeded database (PGlite in
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
import type { ServerConfig } from '../config.ts'
import { openDb, type Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import type { Deps } from '../core.ts'
import { migrate } from '../db/migrate.ts'
import { seed } from '../seed/index.ts'
import { createSession } from '../account/sessions.ts'
import type { PassengerRow } from '../account/passengers.ts'
import { ONE_ADDRESS_LIMITS, pgliteTemplate } from './helpers.ts'

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

let mobileSeq = 0

async function makeApp(deps: Deps): Promise<FastifyInstance> {
  const { buildApp } = await import('../app.ts')
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

/** Names of seats on the trip that are free right now (not sold, booked or locked). */
export async function freeSeats(f: Pick<Fixture, 'db' | 'now'>, tripId: number, n: number): Promise<string[]> {
  const rows = await f.db.query<{ name: string }>(
    `SELECT s.name FROM trips t JOIN layout_seats s ON s.layout_id = t.layout_id
      WHERE t.id = $1 AND s.name <> 'OPEN'
        AND NOT EXISTS (SELECT 1 FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
                         WHERE rs.trip_id = t.id AND rs.seat_name = s.name AND seat_taken(rs.active, x.status, x.expiration_time, $2))
        AND NOT EXISTS (SELECT 1 FROM seat_locks k WHERE k.trip_id = t.id AND k.seat_name = s.name AND k.expires_at > $2)
      ORDER BY s.row, s.col, s.name LIMIT $3`,
    [tripId, f.now(), n],
  )
  if (rows.length < n) throw new Error(`only ${rows.length} free seats on trip ${tripId}`)
  return rows.map((r) => r.name)
}

type Trip = Awaited<ReturnType<typeof pickTrip>>

/** The trip back of `out`: the reverse route, leaving after `out` arrives (on its travel date when `sameDate`, else a later one). */
export async function returnTripOf(fx: Pick<Fixture, 'db'>, out: Trip, sameDate = false): Promise<Trip> {
  const [row] = await fx.db.query<{ id: number; trip_date: string; coach_code: string; departure_at: Date }>(
    `SELECT t.id, t.trip_date::text AS trip_date, t.coach_code, t.departure_at FROM trips t JOIN routes r ON r.id = t.route_id
      WHERE t.status = 'OPEN' AND r.origin_code = $1 AND r.destination_code = $2
        AND t.departure_at > (SELECT arrival_at FROM trips WHERE id = $3) AND ($4 OR t.trip_date > $5::date) AND (NOT $4 OR t.trip_date = $5::date)
      ORDER BY t.departure_at, t.id LIMIT 1`,
    [out.destinationCode, out.originCode, out.id, sameDate, out.tripDate],
  )
  if (!row) throw new Error(`no return trip for trip ${out.id}`)
  return {
    id: row.id,
    tripDate: row.trip_date,
    coachCode: row.coach_code,
    originCode: out.destinationCode,
    destinationCode: out.originCode,
    departureAt: row.departure_at,
    boardingId: out.droppingId,
    droppingId: out.boardingId,
  }
}

/** Seat `seat` of the trip as its live seat map shows it now (its status and whether someone else's lock holds it). */
export async function seatOnMap(f: Pick<Fixture, 'api'>, trip: Trip, seat: string): Promise<{ status: number; lockedByOther: boolean }> {
  const d = await f.api('POST', '/api/reservation/tripDetails', {
    tripId: trip.id,
    originCode: trip.originCode,
    destinationCode: trip.destinationCode,
    originBusStationId: null,
    destinationBusStationId: null,
  })
  if (d.status !== 200) throw new Error(`trip details failed: ${JSON.stringify(d.body)}`)
  return d.body.data.seatLayout.seats.find((s: { name: string }) => s.name === seat)
}

/** The seatLock body for a trip. */
export function lockBody(trip: Trip, seatNames: string[], locked = true): Record<string, unknown> {
  return { tripDate: trip.tripDate, coachCode: trip.coachCode, originCode: trip.originCode, destinationCode: trip.destinationCode, seatNames, locked }
}

/** The booking body for a trip. */
export function bookingBody(trip: Trip, seatNames: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tripId: trip.id,
    seatNames,
    boardingStationId: trip.boardingId,
    droppingStationId: trip.droppingId,
    passengerName: 'Ayesha Rahman',
    passengerMobile: '01712000111',
    passengerEmail: 'ayesha@example.com',
    ...extra,
  }
}

/** Locks free seats for the passenger and books them; answers the reservation. */
export async function lockAndBook(f: Fixture, who: { token: string }, trip: Trip, n = 2): Promise<any> {
  const seats = await freeSeats(f, trip.id, n)
  const lock = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: who.token })
  if (lock.status !== 200 || !lock.body.data) throw new Error(`lock failed: ${JSON.stringify(lock.body)}`)
  const res = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats), { token: who.token })
  if (res.status !== 200) throw new Error(`booking failed: ${JSON.stringify(res.body)}`)
  return res.body.data
}

/** Books and pays from balance (the passenger needs the balance); answers the sold reservation. */
export async function buyTicket(f: Fixture, who: { token: string }, trip: Trip, n = 2): Promise<any> {
  const r = await lockAndBook(f, who, trip, n)
  const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: r.id }, { token: who.token })
  if (paid.status !== 200) throw new Error(`payment failed: ${JSON.stringify(paid.body)}`)
  return paid.body.data
}

/** The newest one-time code sent to a mobile. */
export async function lastCode(f: Fixture, mobile: string): Promise<string> {
  const [row] = await f.db.query<{ code: string }>('SELECT code FROM outbox_messages WHERE "to" = $1 AND code IS NOT NULL ORDER BY id DESC LIMIT 1', [
    mobile,
  ])
  if (!row) throw new Error(`no code sent to ${mobile}`)
  return row.code
}

/**
 * Locks, books (with `headers`, e.g. Accept-Language, and booking body fields in
 * `body`) and pays from balance; answers the sold reservation.
 */
export async function buyTicketWith(
  f: Fixture,
  who: { token: string },
  trip: Trip,
  opts: { seats?: number; headers?: Record<string, string>; body?: Record<string, unknown> } = {},
): Promise<any> {
  const seats = await freeSeats(f, trip.id, opts.seats ?? 1)
  const lock = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: who.token })
  if (lock.status !== 200 || !lock.body.data) throw new Error(`lock failed: ${JSON.stringify(lock.body)}`)
  const res = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats, opts.body), { token: who.token, headers: opts.headers })
  if (res.status !== 200) throw new Error(`booking failed: ${JSON.stringify(res.body)}`)
  const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: res.body.data.id }, { token: who.token })
  if (paid.status !== 200) throw new Error(`payment failed: ${JSON.stringify(paid.body)}`)
  return paid.body.data
}
