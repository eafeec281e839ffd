/**
 * The operator's trip command (npm run trip) on a real PostgreSQL beside a running server:
 * two cancel commands at once refund and tell each passenger once, and a command killed
 * half-way (SIGKILL, wherever it is) and run again finishes the rest, still once each.
 */
import { spawn, spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as assert from 'uvu/assert'
import type { PassengerRow } from '../account/passengers.ts'
import { createSession } from '../account/sessions.ts'
import type { Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import { bookingBody, freeSeats, lockBody, pickTrip } from './booking-fixture.ts'
import { pgSuite, type ServersOnPostgres, startServersOnPostgres } from './pg.ts'
import { call, type ServerProcess } from '../../harness/spawn-server.ts'

const test = pgSuite('trip command on PostgreSQL')
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
let stack: ServersOnPostgres | undefined
let db: Db
let url: string
let server: ServerProcess

test.before(async () => {
  // one server beside the trip command's own processes
  stack = await startServersOnPostgres('trip_changes', {}, 1)
  ;({ db, url } = stack)
  server = stack.servers[0]!
})

test.after(() => stack?.stop())

const ctx = {
  get db() {
    return db
  },
  now: () => new Date(),
}
type Trip = Awaited<ReturnType<typeof pickTrip>>

let seq = 0
/** A passenger with a balance, a session, and `n` tickets of one seat each on `trip`, paid from the balance. */
async function ticketsOn(trip: Trip, n: number): Promise<{ passengerId: number; mobile: string; ids: number[] }[]> {
  const out: { passengerId: number; mobile: string; ids: number[] }[] = []
  const seats = await freeSeats(ctx, trip.id, n)
  for (const seat of seats) {
    const mobile = `019${String(process.pid % 1000).padStart(3, '0')}${String(++seq).padStart(5, '0')}`
    const [row] = await db.query<PassengerRow>(
      `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at) VALUES ($1, 'Rahim Uddin', '', 'Dhaka', 'ACTIVE', 50000, now()) RETURNING *`,
      [mobile],
    )
    const { token } = await createSession(db, createDeps(db), row!, true)
    assert.is((await call(server.url, 'POST', '/api/reservation/seatLock', lockBody(trip, [seat]), { token })).status, 200)
    const b = await call(
      server.url,
      'POST',
      '/api/reservation/booking',
      bookingBody(trip, [seat], { passengerMobile: mobile, passengerEmail: null }),
      {
        token,
      },
    )
    assert.is(b.status, 200, JSON.stringify(b.body))
    const paid = await call(server.url, 'POST', '/api/reservation/payFromBalance', { reservationId: b.body.data.id }, { token })
    assert.is(paid.status, 200, JSON.stringify(paid.body))
    out.push({ passengerId: row!.id, mobile, ids: [b.body.data.id] })
  }
  return out
}

function command(args: string[]) {
  return spawn(process.execPath, ['--import', 'tsx', 'server/bookings/trip-command.ts', ...args], {
    cwd: repo,
    env: { ...process.env, DATABASE_URL: url, NODE_ENV: 'development' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

function exited(child: ReturnType<typeof command>): Promise<{ code: number | null; signal: string | null; out: string }> {
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, out })))
}

/** For each of `mine`: its status, refunds to the balance for the trip, and SMS to its mobile since `since`. */
async function outcome(mine: { passengerId: number; mobile: string; ids: number[] }[], since: number) {
  return Promise.all(
    mine.map(async (m) => {
      const [r] = await db.query<{ status: number }>('SELECT status FROM reservations WHERE id = $1', [m.ids[0]])
      const [l] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger WHERE reservation_id = $1 AND reason = 'TRIP_CANCELED'", [
        m.ids[0],
      ])
      const [o] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_messages WHERE "to" = $1 AND channel = \'SMS\' AND id > $2', [
        m.mobile,
        since,
      ])
      return { status: r!.status, refunds: l!.n, sms: o!.n }
    }),
  )
}

async function lastOutboxId(): Promise<number> {
  const [r] = await db.query<{ id: number | null }>('SELECT max(id) AS id FROM outbox_messages')
  return r!.id ?? 0
}

test('two cancel commands at once: each ticket cancelled, refunded and told exactly once', async () => {
  const trip = await pickTrip(ctx, { minHours: 48 })
  const mine = await ticketsOn(trip, 6)
  const since = await lastOutboxId()
  const [a, b] = await Promise.all([
    exited(command(['cancel', String(trip.id), '--reason', 'Flood'])),
    exited(command(['cancel', String(trip.id), '--reason', 'Flood'])),
  ])
  assert.is(a.code, 0, a.out)
  assert.is(b.code, 0, b.out)
  assert.equal(
    await outcome(mine, since),
    mine.map(() => ({ status: 5, refunds: 1, sms: 1 })),
  )
  const [left] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reservations WHERE trip_id = $1 AND status IN (1, 2, 10)', [trip.id])
  assert.is(left!.n, 0, 'nothing live is left on the trip')
})

test('a cancel command killed half-way and run again: the rest are done, nobody twice', async () => {
  const trip = await pickTrip(ctx, { minHours: 48, skip: 5 })
  const mine = await ticketsOn(trip, 20)
  const since = await lastOutboxId()
  const ids = mine.map((m) => m.ids[0]!)
  const child = command(['cancel', String(trip.id), '--reason', 'Hartal'])
  let running = true
  const done = exited(child).then((r) => {
    running = false
    return r
  })
  // killed as soon as the first of these tickets is cancelled, wherever the command is then
  let cancelledAtKill = 0
  while (running) {
    const [r] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reservations WHERE id = ANY($1::int[]) AND status = 5', [ids])
    if (r!.n > 0) {
      child.kill('SIGKILL')
      cancelledAtKill = r!.n
      break
    }
  }
  const first = await done
  assert.ok(cancelledAtKill > 0, first.out)
  const [after] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reservations WHERE id = ANY($1::int[]) AND status = 5', [ids])
  assert.is(first.signal, 'SIGKILL', first.out)
  assert.ok(after!.n < ids.length, `killed half-way: ${after!.n} of ${ids.length} cancelled`)
  const again = spawnSync(process.execPath, ['--import', 'tsx', 'server/bookings/trip-command.ts', 'cancel', String(trip.id), '--reason', 'Hartal'], {
    cwd: repo,
    env: { ...process.env, DATABASE_URL: url, NODE_ENV: 'development' },
    encoding: 'utf8',
  })
  assert.is(again.status, 0, again.stderr + again.stdout)
  assert.equal(
    await outcome(mine, since),
    mine.map(() => ({ status: 5, refunds: 1, sms: 1 })),
  )
})

test.run()
