/**
 * The operator's trip command (npm run trip) on a real PostgreSQL beside two running servers:
 * two cancel commands at once refund and tell each passenger once and each prints only what it
 * did, a command killed half-way (SIGKILL, wherever it is) and run again finishes the rest, still
 * once each, and a passenger's own cancel racing the command gets the operator's terms.
 */
import { spawn, spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as assert from 'uvu/assert'
import type { PassengerRow } from '../account/passengers.ts'
import { createSession } from '../account/sessions.ts'
import type { Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import { bookingBody, freeSeats, lockBody, pickTrip } from '../test/booking-fixture.ts'
import { pgSuite, type ServersOnPostgres, startServersOnPostgres } from '../test/pg.ts'
import { call, type ServerProcess } from '../../harness/spawn-server.ts'

const test = pgSuite('trip command on PostgreSQL')
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
let stack: ServersOnPostgres | undefined
let db: Db
let url: string
let server: ServerProcess
let other: ServerProcess

test.before(async () => {
  // two servers beside the trip command's own processes
  stack = await startServersOnPostgres('trip_changes', {})
  ;({ db, url } = stack)
  ;[server, other] = stack.servers as [ServerProcess, ServerProcess]
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
  return spawn(process.execPath, ['--import', 'tsx', 'server/commands/trip-command.ts', ...args], {
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
  const again = spawnSync(process.execPath, ['--import', 'tsx', 'server/commands/trip-command.ts', 'cancel', String(trip.id), '--reason', 'Hartal'], {
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

/**
 * Holds a row lock of `sql` (SELECT … FOR UPDATE) in a transaction of its own until the answered
 * release is called: whoever needs the row queues behind it, in the order they came.
 */
async function holdRow(sql: string, params: unknown[]): Promise<{ release: () => Promise<void> }> {
  let release!: () => void
  const released = new Promise<void>((r) => (release = r))
  let held!: () => void
  const holding = new Promise<void>((r) => (held = r))
  const done = db.transaction(async (tx) => {
    await tx.query(sql, params)
    held()
    await released
  })
  await Promise.race([holding, done])
  return {
    release: async () => {
      release()
      await done
    },
  }
}

/** Waits until `n` sessions of the database wait for a lock (a minute at most). */
async function lockWaiters(n: number): Promise<void> {
  const until = Date.now() + 60_000
  for (;;) {
    const [r] = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    )
    if (r!.n >= n) return
    if (Date.now() > until) throw new Error(`${r!.n} of ${n} sessions waiting for a lock after a minute`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

test('two cancel commands that both read the trip before either acts: each prints only the tickets it cancelled', async () => {
  const trip = await pickTrip(ctx, { minHours: 48, skip: 10 })
  const mine = await ticketsOn(trip, 4)
  const [{ n: live }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reservations WHERE trip_id = $1 AND status IN (1, 2, 10)', [
    trip.id,
  ])) as [{ n: number }]
  const pnrs = await db.query<{ pnr: string }>('SELECT pnr FROM reservations WHERE id = ANY($1::int[])', [mine.map((m) => m.ids[0])])
  // the trip's row held: both commands get as far as closing it for sale, then wait
  const trips = await holdRow('SELECT id FROM trips WHERE id = $1 FOR UPDATE', [trip.id])
  const runs = [exited(command(['cancel', String(trip.id), '--reason', 'Flood'])), exited(command(['cancel', String(trip.id), '--reason', 'Flood']))]
  await lockWaiters(2)
  await trips.release()
  const [a, b] = await Promise.all(runs)
  assert.is(a!.code, 0, a!.out)
  assert.is(b!.code, 0, b!.out)
  for (const { pnr } of pnrs) {
    const printed = [a!.out, b!.out].filter((out) => out.includes(`${pnr} `)).length
    assert.is(printed, 1, `${pnr} is printed by one command, not both:\n${a!.out}\n${b!.out}`)
  }
  const counted = [a!.out, b!.out].map((out) => Number(/(\d+) reservation\(s\) were cancelled/.exec(out)?.[1]))
  assert.is(counted[0]! + counted[1]!, live, `the two summaries add up to the ${live} reservations: ${counted.join(' + ')}`)
})

test("a passenger's cancel (server 2) racing the cancel command: the operator's full refund and reason, never the fee", async () => {
  const trip = await pickTrip(ctx, { minHours: 60, skip: 15 })
  const [, racer] = await ticketsOn(trip, 2)
  const [sold] = await db.query<{ pnr: string; pin: string; total: number }>('SELECT pnr, pin, total FROM reservations WHERE id = $1', [
    racer!.ids[0],
  ])
  const quote = await call(other.url, 'GET', `/api/reservation/cancelInitialize/${sold!.pnr}/${sold!.pin}`)
  assert.is(quote.status, 200, JSON.stringify(quote.body))
  assert.ok(quote.body.data.cancellationCharge > 0, 'before the trip cancel, a cancel costs the fee')
  const [otp] = await db.query<{ code: string }>('SELECT code FROM outbox_messages WHERE "to" = $1 AND code IS NOT NULL ORDER BY id DESC LIMIT 1', [
    racer!.mobile,
  ])
  // the ticket's row held: the passenger's cancel (its quote read before) and then the command queue behind it
  const ticket = await holdRow('SELECT id FROM reservations WHERE id = $1 FOR UPDATE', [racer!.ids[0]])
  const cancelled = call(other.url, 'GET', `/api/reservation/cancel/${sold!.pnr}/${sold!.pin}/${otp!.code}`)
  await lockWaiters(1)
  const run = exited(command(['cancel', String(trip.id), '--reason', 'Hartal']))
  await lockWaiters(2)
  await ticket.release()
  const [answer, printed] = await Promise.all([cancelled, run])
  assert.is(printed.code, 0, printed.out)
  assert.is(answer.status, 200, JSON.stringify(answer.body))
  const [x] = await db.query<{ status: number; cancel_reason: string; operator_reason: string; refund_amount: number; cancellation_charge: number }>(
    'SELECT status, cancel_reason, operator_reason, refund_amount, cancellation_charge FROM reservations WHERE id = $1',
    [racer!.ids[0]],
  )
  assert.equal(
    [x!.status, x!.cancel_reason, x!.operator_reason, x!.refund_amount, x!.cancellation_charge],
    [5, 'TRIP_CANCELED', 'Hartal', sold!.total, 0],
  )
  const refunds = await db.query<{ amount: number }>("SELECT amount FROM ledger WHERE reservation_id = $1 AND kind = 'REFUND'", [racer!.ids[0]])
  assert.equal(
    refunds.map((r) => r.amount),
    [sold!.total],
    'refunded once, in full',
  )
})

test.run()
