/**
 * Cancelling some seats of one ticket twice at once on PostgreSQL with two server processes: the
 * same seats, and overlapping seats (one of them the last), sent to both processes with the one
 * verified code. Never a seat cancelled twice, never more refunded than paid.
 */
import * as assert from 'uvu/assert'
import type { PassengerRow } from '../account/passengers.ts'
import { createSession } from '../account/sessions.ts'
import type { Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import { bookingBody, freeSeats, lockBody, pickTrip } from '../test/booking-fixture.ts'
import { pgSuite, type ServersOnPostgres, startServersOnPostgres } from '../test/pg.ts'
import { call, type ServerProcess } from '../../harness/spawn-server.ts'

const test = pgSuite('cancel some seats of a ticket on PostgreSQL, two processes')
let stack: ServersOnPostgres | undefined
let db: Db
let a: ServerProcess
let b: ServerProcess

test.before(async () => {
  stack = await startServersOnPostgres('partial_cancel', {})
  db = stack.db
  ;[a, b] = stack.servers as [ServerProcess, ServerProcess]
})
test.after(() => stack?.stop())

const ctx = {
  get db() {
    return db
  },
  now: () => new Date(),
}

let seq = 0
/** A ticket of three seats paid from a fresh passenger's balance, 80+ hours before departure. */
async function ticket() {
  const trip = await pickTrip(ctx, { minHours: 80, skip: seq * 3 })
  const seats = await freeSeats(ctx, trip.id, 3)
  const mobile = `018${String(process.pid % 1000).padStart(3, '0')}${String(++seq).padStart(5, '0')}`
  const [row] = await db.query<PassengerRow>(
    `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at) VALUES ($1, 'Karim Ali', '', 'Dhaka', 'ACTIVE', 50000, now()) RETURNING *`,
    [mobile],
  )
  const { token } = await createSession(db, createDeps(db), row!, true)
  assert.is((await call(a.url, 'POST', '/api/reservation/seatLock', lockBody(trip, seats), { token })).status, 200)
  const booked = await call(a.url, 'POST', '/api/reservation/booking', bookingBody(trip, seats, { passengerMobile: mobile, passengerEmail: null }), {
    token,
  })
  assert.is(booked.status, 200, JSON.stringify(booked.body))
  const paid = await call(a.url, 'POST', '/api/reservation/payFromBalance', { reservationId: booked.body.data.id }, { token })
  assert.is(paid.status, 200, JSON.stringify(paid.body))
  return { passengerId: row!.id, mobile, sold: paid.body.data }
}

/** Quotes `seats`, verifies the SMS code once, then sends the cancel of `first` to one process and of `second` to the other at once. */
async function race(tk: Awaited<ReturnType<typeof ticket>>, first: string[], second: string[]) {
  const { pnr, pin } = tk.sold
  const init = await call(a.url, 'GET', `/api/reservation/cancelInitialize/${pnr}/${pin}?seats=${first.join(',')}`)
  assert.is(init.status, 200, JSON.stringify(init.body))
  const [otp] = await db.query<{ code: string }>('SELECT code FROM outbox_messages WHERE "to" = $1 AND code IS NOT NULL ORDER BY id DESC LIMIT 1', [
    tk.mobile,
  ])
  assert.is((await call(b.url, 'POST', '/api/verifyCancelTicketOTP', { pnr, pin, otp: otp!.code })).status, 200)
  return Promise.all([
    call(a.url, 'GET', `/api/reservation/cancel/${pnr}/${pin}/${otp!.code}?seats=${first.join(',')}`),
    call(b.url, 'GET', `/api/reservation/cancel/${pnr}/${pin}/${otp!.code}?seats=${second.join(',')}`),
  ])
}

/** What came back to the balance for ticket `id`, and how often each of its seats was cancelled on its own. */
async function outcome(passengerId: number, id: number) {
  const [back] = await db.query<{ n: number }>(
    "SELECT coalesce(sum(amount), 0)::int AS n FROM ledger WHERE passenger_id = $1 AND kind = 'REFUND' AND reservation_id = $2",
    [passengerId, id],
  )
  const seats = await db.query<{ seat_name: string; active: boolean; canceled_at: Date | null }>(
    'SELECT seat_name, active, canceled_at FROM reservation_seats WHERE reservation_id = $1 ORDER BY id',
    [id],
  )
  return { back: back!.n, seats }
}

test('the same seat cancelled on both processes at once: cancelled and refunded once', async () => {
  const tk = await ticket()
  const [s1] = tk.sold.seats.map((s: { name: string }) => s.name) as string[]
  const both = await race(tk, [s1!], [s1!])
  const ok = both.filter((x) => x.status === 200)
  assert.is(ok.length, 1, JSON.stringify(both.map((x) => x.body)))
  assert.is(both.find((x) => x.status !== 200)!.body.error.code, 'VALIDATION_FAILED')
  const fare = tk.sold.seats[0].fare as number
  const { back, seats } = await outcome(tk.passengerId, tk.sold.id)
  assert.is(back, fare - Math.round(fare / 10), 'one refund of the one seat')
  assert.equal(
    seats.map((s) => s.active),
    [false, true, true],
  )
})

test('overlapping seats, one list the last seats: one wins, the ticket never refunds more than it cost', async () => {
  for (let i = 0; i < 3; i++) {
    const tk = await ticket()
    const [s1, s2, s3] = tk.sold.seats.map((s: { name: string }) => s.name) as string[]
    const first = await race(tk, [s1!], [s1!])
    assert.is(first.filter((x) => x.status === 200).length, 1)
    const both = await race(tk, [s2!], [s2!, s3!])
    const ok = both.filter((x) => x.status === 200)
    assert.is(ok.length, 1, JSON.stringify(both.map((x) => x.body)))
    const refused = both.find((x) => x.status !== 200)!.body.error.code
    assert.ok(['VALIDATION_FAILED', 'RESERVATION_NOT_CANCELLABLE'].includes(refused), refused)
    const { back, seats } = await outcome(tk.passengerId, tk.sold.id)
    assert.ok(back > 0 && back <= tk.sold.fare.total, `${back} of ${tk.sold.fare.total}`)
    const [x] = await db.query<{ status: number; total: number; cancellation_charge: number | null; refund_amount: number | null }>(
      'SELECT status, total, cancellation_charge, refund_amount FROM reservations WHERE id = $1',
      [tk.sold.id],
    )
    if (ok[0]!.body.data.status === 5) {
      assert.equal(
        seats.map((s) => s.active),
        [false, false, false],
      )
    } else {
      assert.equal(
        seats.map((s) => s.active),
        [false, false, true],
      )
      assert.is(x!.status, 1)
    }
    // what was refunded plus what is still live plus the charges taken is what was paid
    const live = x!.status === 1 ? x!.total : 0
    assert.is(back + live + (x!.cancellation_charge ?? 0), tk.sold.fare.total)
  }
})

test.run()
