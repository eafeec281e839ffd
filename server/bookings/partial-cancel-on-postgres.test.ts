/**
 * Cancelling some seats of one ticket twice at once on PostgreSQL with two server processes: the
 * same seats, and overlapping seats (one of them the last), sent to both processes with the one
 * verified code. Never a seat cancelled twice, never more refunded than paid.
 */
import * as assert from 'uvu/assert'
import { freeSeats, pickTrip } from '../test/booking-fixture.ts'
import { signedInPassenger } from '../test/pg-passengers.ts'
import { bookOn, pgServersSuite } from '../test/pg-servers.ts'
import { call } from '../../harness/spawn-server.ts'

const { test, pg } = pgServersSuite('cancel some seats of a ticket on PostgreSQL, two processes', 'partial_cancel')
const { ctx } = pg

let seq = 0
/** A ticket of three seats paid from a fresh passenger's balance, 80+ hours before departure. */
async function ticket() {
  const trip = await pickTrip(ctx, { minHours: 80, skip: seq * 3 })
  const seats = await freeSeats(ctx, trip.id, 3)
  const who = await signedInPassenger(pg.db, '018', 50_000)
  seq++
  return { passengerId: who.id, mobile: who.mobile, sold: await bookOn(pg.url(0), who, trip, seats) }
}

/** Quotes `seats`, verifies the SMS code once, then sends the cancel of `first` to one process and of `second` to the other at once. */
async function race(tk: Awaited<ReturnType<typeof ticket>>, first: string[], second: string[]) {
  const { pnr, pin } = tk.sold
  const init = await call(pg.url(0), 'GET', `/api/reservation/cancelInitialize/${pnr}/${pin}?seats=${first.join(',')}`)
  assert.is(init.status, 200, JSON.stringify(init.body))
  const [otp] = await pg.db.query<{ code: string }>(
    'SELECT code FROM outbox_messages WHERE "to" = $1 AND code IS NOT NULL ORDER BY id DESC LIMIT 1',
    [tk.mobile],
  )
  assert.is((await call(pg.url(1), 'POST', '/api/verifyCancelTicketOTP', { pnr, pin, otp: otp!.code })).status, 200)
  return Promise.all([
    call(pg.url(0), 'GET', `/api/reservation/cancel/${pnr}/${pin}/${otp!.code}?seats=${first.join(',')}`),
    call(pg.url(1), 'GET', `/api/reservation/cancel/${pnr}/${pin}/${otp!.code}?seats=${second.join(',')}`),
  ])
}

/** What came back to the balance for ticket `id`, and how often each of its seats was cancelled on its own. */
async function outcome(passengerId: number, id: number) {
  const [back] = await pg.db.query<{ n: number }>(
    "SELECT coalesce(sum(amount), 0)::int AS n FROM ledger WHERE passenger_id = $1 AND kind = 'REFUND' AND reservation_id = $2",
    [passengerId, id],
  )
  const seats = await pg.db.query<{ seat_name: string; active: boolean; canceled_at: Date | null }>(
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
    const [x] = await pg.db.query<{ status: number; total: number; cancellation_charge: number | null; refund_amount: number | null }>(
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
