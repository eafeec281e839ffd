/**
 * Round trips (issue 31 item 4) on PGlite: a return booking made against the outbound booking,
 * one payment (balance or card) selling two linked tickets with their own PNRs, each cancelled
 * alone; a return leg lost before payment is never paid for (RETURN_SEATS_LOST, or the outbound
 * alone with the passenger's consent); the caps and sale hours on each leg; bad links refused.
 * The two-process races are in round-trips-on-postgres.test.ts.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bookingBody, freeSeats, lastCode, lockBody, openFixture, pickTrip, returnTripOf, type Fixture } from '../test/booking-fixture.ts'
import { reservationStatus } from '../../contract/schemas.ts'

const t = suite('round trips')
let f: Fixture
let skip = 0
type Trip = Awaited<ReturnType<typeof pickTrip>>
type Who = { id: number; token: string; mobile: string }
const code = (r: { body: any }) => r.body?.error?.code

t.before(async () => {
  f = await openFixture({ config: { seatsPerPassengerPerDate: 4 }, daysAhead: 8 })
})
t.after(async () => {
  await f.close()
})

/** Trips a test here has had already: a seat of one this address booked and let go may not be held again for a while. */
const used = new Set<number>()

/**
 * An outbound trip with a return trip (on the same date when `sameDate`), neither used by a test before: once a
 * test has moved the clock, an offset can name another test's trip (or its return), and a seat of it this
 * address booked and let go cannot be held again for a while (SEAT_HOLD_ENDED).
 */
async function roundTrip(sameDate = false): Promise<[Trip, Trip]> {
  for (;;) {
    const out = await pickTrip(f, { skip: skip++ * 3 })
    const back = await returnTripOf(f, out, sameDate).catch(() => null)
    if (!back || used.has(out.id) || used.has(back.id)) continue
    used.add(out.id).add(back.id)
    return [out, back]
  }
}

/** Locks `n` free seats of `trip` for `who` and books them (`extra`: more booking fields). */
async function book(who: Who, trip: Trip, n: number, extra: Record<string, unknown> = {}) {
  const seats = await freeSeats(f, trip.id, n)
  const l = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: who.token })
  assert.ok(l.body.data, `the seats are locked: ${JSON.stringify(l.body)}`)
  return f.api('POST', '/api/reservation/booking', bookingBody(trip, seats, { passengerMobile: who.mobile, ...extra }), { token: who.token })
}

/** Books an outbound and its return leg; answers both bookings. */
async function bookRoundTrip(who: Who, seats: [number, number] = [2, 1], sameDate = false) {
  const [out, back] = await roundTrip(sameDate)
  const o = await book(who, out, seats[0])
  assert.is(o.status, 200, JSON.stringify(o.body))
  const r = await book(who, back, seats[1], { outboundReservationId: o.body.data.id })
  assert.is(r.status, 200, JSON.stringify(r.body))
  return { out: o.body.data, back: r.body.data, trips: [out, back] as const }
}

const balanceOf = async (id: number) =>
  Number((await f.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [id]))[0]!.balance)

const view = async (who: Who, id: number) => (await f.api('GET', `/api/reservation/details/${id}`, undefined, { token: who.token })).body.data

t('paid once from the balance: two tickets, each with its own PNR, each naming the other; the return cancelled alone', async () => {
  const p = await f.passenger({ balance: 20_000 })
  const { out, back } = await bookRoundTrip(p)
  assert.is(back.roundTrip.leg, 'return')
  assert.is(back.roundTrip.other.id, out.id)
  const booked = await view(p, out.id)
  assert.is(booked.roundTrip.leg, 'outbound')
  assert.is(booked.roundTrip.other.id, back.id)
  assert.is(booked.roundTrip.other.total, back.fare.total)
  const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: out.id }, { token: p.token })
  assert.is(paid.status, 200, JSON.stringify(paid.body))
  assert.is(await balanceOf(p.id), 20_000 - out.fare.total - back.fare.total, 'one payment of both totals')
  const ledger = await f.db.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger WHERE passenger_id = $1 AND kind = 'TICKET_PAYMENT'", [p.id])
  assert.is(ledger[0]!.n, 1, 'one debit')
  const a = await view(p, out.id)
  const b = await view(p, back.id)
  assert.is(a.status, reservationStatus.sold)
  assert.is(b.status, reservationStatus.sold)
  assert.ok(a.pnr && b.pnr && a.pnr !== b.pnr, 'each ticket its own PNR')
  assert.is(a.roundTrip.other.pnr, b.pnr)
  assert.is(b.roundTrip.other.pnr, a.pnr)
  // each ticket's SMS went out
  const sms = await f.db.query<{ body: string }>("SELECT body FROM outbox_messages WHERE channel = 'SMS' AND (body LIKE $1 OR body LIKE $2)", [
    `%${a.pnr}%`,
    `%${b.pnr}%`,
  ])
  assert.is(sms.length, 2)
  // the return ticket is cancelled alone, with the existing code check; the outbound stays sold
  const init = await f.api('GET', `/api/reservation/cancelInitialize/${b.pnr}/${b.pin}`)
  assert.is(init.status, 200, JSON.stringify(init.body))
  const otp = await lastCode(f, p.mobile)
  const c = await f.api('GET', `/api/reservation/cancel/${b.pnr}/${b.pin}/${otp}`)
  assert.is(c.status, 200, JSON.stringify(c.body))
  assert.is(c.body.data.status, reservationStatus.canceled)
  assert.is((await view(p, out.id)).status, reservationStatus.sold)
  assert.is(await balanceOf(p.id), 20_000 - out.fare.total - back.fare.total + init.body.data.refundAmount)
})

t('paid once by card: one payment of both totals sells both; each ticket refunds to the card through it', async () => {
  const p = await f.passenger()
  const { out, back } = await bookRoundTrip(p, [1, 2])
  const open = await f.api('POST', '/api/reservation/payment', { reservationId: out.id }, { token: p.token })
  assert.is(open.status, 200, JSON.stringify(open.body))
  const [pay] = await f.db.query<{ amount: number; return_reservation_id: number }>(
    'SELECT amount, return_reservation_id FROM payments WHERE id = $1',
    [open.body.data.paymentId],
  )
  assert.is(pay!.amount, out.fare.total + back.fare.total)
  assert.is(pay!.return_reservation_id, back.id)
  const post = await f.app.inject({
    method: 'POST',
    url: open.body.data.redirectUrl,
    payload: 'decision=approve',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  assert.is(post.statusCode, 303)
  const a = await view(p, out.id)
  const b = await view(p, back.id)
  assert.is(a.status, reservationStatus.sold)
  assert.is(b.status, reservationStatus.sold)
  assert.is(b.paymentMethod, 'CARD')
  assert.is(b.paidWith, 'card')
  // both tickets cancelled: two refunds to the card, summing to no more than the payment
  for (const x of [b, a]) {
    assert.is((await f.api('GET', `/api/reservation/cancelInitialize/${x.pnr}/${x.pin}`)).status, 200)
    const c = await f.api('GET', `/api/reservation/cancel/${x.pnr}/${x.pin}/${await lastCode(f, p.mobile)}`)
    assert.is(c.status, 200, JSON.stringify(c.body))
    assert.is(c.body.data.refund.to, 'CARD')
  }
  const refunds = await f.db.query<{ amount: number }>('SELECT amount FROM refunds WHERE payment_id = $1', [open.body.data.paymentId])
  assert.is(refunds.length, 2)
  assert.ok(refunds.reduce((s, x) => s + x.amount, 0) <= pay!.amount)
})

t('the return hold ended before payment: RETURN_SEATS_LOST and nothing charged; the outbound alone only when asked', async () => {
  const p = await f.passenger({ balance: 20_000 })
  const { out, back } = await bookRoundTrip(p)
  // the outbound is kept longer than the return (Keep my seats); the return's time runs out
  await f.db.query("UPDATE reservations SET expiration_time = expiration_time - interval '20 minutes' WHERE id = $1", [back.id])
  const before = await f.snapshot()
  const bal = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: out.id }, { token: p.token })
  assert.is(bal.status, 409)
  assert.is(code(bal), 'RETURN_SEATS_LOST')
  const card = await f.api('POST', '/api/reservation/payment', { reservationId: out.id }, { token: p.token })
  assert.is(code(card), 'RETURN_SEATS_LOST')
  assert.is(await f.snapshot(), before, 'nothing charged, nothing sold')
  assert.ok(Date.parse((await view(p, out.id)).roundTrip.other.expirationTime) <= f.now().getTime(), 'the booking shows the return as ended')
  const alone = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: out.id, outboundOnly: true }, { token: p.token })
  assert.is(alone.status, 200, JSON.stringify(alone.body))
  assert.is(await balanceOf(p.id), 20_000 - out.fare.total, 'the outbound only')
  assert.is.not((await view(p, back.id)).status, reservationStatus.sold)
})

t('the return hold ends while the passenger is at the card gateway: the approval sells nothing', async () => {
  const p = await f.passenger()
  const { out, back } = await bookRoundTrip(p)
  const open = await f.api('POST', '/api/reservation/payment', { reservationId: out.id }, { token: p.token })
  assert.is(open.status, 200, JSON.stringify(open.body))
  await f.db.query("UPDATE reservations SET expiration_time = expiration_time - interval '20 minutes' WHERE id = $1", [back.id])
  const post = await f.app.inject({
    method: 'POST',
    url: open.body.data.redirectUrl,
    payload: 'decision=approve',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  assert.match(String(post.headers.location), '/reservation/failure')
  const [pay] = await f.db.query<{ status: string }>('SELECT status FROM payments WHERE id = $1', [open.body.data.paymentId])
  assert.is(pay!.status, 'DECLINED')
  assert.is((await view(p, out.id)).status, reservationStatus.booked, 'the outbound still booked, unpaid')
})

t('the return seats lost before booking (the lock ran out): the return is refused, the outbound stays payable alone', async () => {
  const p = await f.passenger({ balance: 20_000 })
  const [out, back] = await roundTrip()
  const o = await book(p, out, 1)
  const seats = await freeSeats(f, back.id, 1)
  await f.api('POST', '/api/reservation/seatLock', lockBody(back, seats), { token: p.token })
  await f.db.query('UPDATE seat_locks SET expires_at = $2 WHERE trip_id = $1', [back.id, f.now()])
  const r = await f.api('POST', '/api/reservation/booking', bookingBody(back, seats, { outboundReservationId: o.body.data.id }), { token: p.token })
  assert.is(code(r), 'BOOKING_TIME_EXCEED')
  assert.is((await view(p, o.body.data.id)).roundTrip, undefined, 'no return leg')
  const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: o.body.data.id }, { token: p.token })
  assert.is(paid.status, 200)
  assert.is(await balanceOf(p.id), 20_000 - o.body.data.fare.total)
})

t('caps across both legs: a same-day return counts toward SEATS_PER_PASSENGER_PER_DATE; MAX_SEATS and sale hours per leg', async () => {
  const p = await f.passenger()
  const [out, back] = await roundTrip(true)
  const o = await book(p, out, 3)
  assert.is(o.status, 200)
  const r = await book(p, back, 2, { outboundReservationId: o.body.data.id })
  assert.is(code(r), 'SEAT_LIMIT_EXCEEDED')
  assert.equal(r.body.error.values, { scope: 'date', count: 4, left: 1 })
  assert.is((await book(p, back, 1, { outboundReservationId: o.body.data.id })).status, 200, 'one seat is left for the date')
  // a return trip not on sale yet is refused for that leg
  const q = await f.passenger()
  const [out2, back2] = await roundTrip()
  const o2 = await book(q, out2, 1)
  await f.db.query("UPDATE trips SET sale_opens_at = $2::timestamptz + interval '1 day' WHERE id = $1", [back2.id, f.now()])
  const seats = await freeSeats(f, back2.id, 1)
  const r2 = await f.api('POST', '/api/reservation/booking', bookingBody(back2, seats, { outboundReservationId: o2.body.data.id }), {
    token: q.token,
  })
  assert.is(code(r2), 'SALE_NOT_OPEN')
  await f.db.query('UPDATE trips SET sale_opens_at = NULL WHERE id = $1', [back2.id])
})

t('bad links refused with catalogue codes: another passenger’s booking, the same direction, a second return, a paid outbound', async () => {
  const p = await f.passenger({ balance: 20_000 })
  const q = await f.passenger()
  const [out, back] = await roundTrip()
  const o = await book(p, out, 1)
  const id = o.body.data.id
  const other = await book(q, back, 1, { outboundReservationId: id })
  assert.is(code(other), 'RESERVATION_NOT_ACCESSIBLE')
  const same = await book(p, out, 1, { outboundReservationId: id })
  assert.is(code(same), 'VALIDATION_FAILED')
  assert.is(same.body.error.fields[0].path, 'outboundReservationId')
  assert.is((await book(p, back, 1, { outboundReservationId: id })).status, 200)
  const second = await book(p, back, 1, { outboundReservationId: id })
  assert.is(code(second), 'VALIDATION_FAILED')
  const bad = await f.api('POST', '/api/reservation/booking', bookingBody(back, ['A1'], { outboundReservationId: 'x' }), { token: p.token })
  assert.is(code(bad), 'VALIDATION_FAILED')
  const badPay = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: id, outboundOnly: 'yes' }, { token: p.token })
  assert.is(code(badPay), 'VALIDATION_FAILED')
  assert.is((await f.api('POST', '/api/reservation/payFromBalance', { reservationId: id }, { token: p.token })).status, 200)
  const late = await book(p, back, 1, { outboundReservationId: id })
  assert.is(code(late), 'PAYMENT_ALREADY_COMPLETED')
})

// last: it moves the clock past the holds the tests before left
t('Keep my seats on either leg keeps both bookings, within the pair’s one limit; the pair is then paid once', async () => {
  const p = await f.passenger({ balance: 20_000 })
  const [out, back] = await roundTrip()
  const o = (await book(p, out, 1)).body.data
  const start = Date.parse(o.createdAt)
  const at = (m: number) => new Date(start + m * 60_000).toISOString()
  // the return booked 5 minutes later: its hold would end 5 minutes after the outbound's
  f.advance(5)
  const r = (await book(p, back, 1, { outboundReservationId: o.id })).body.data
  const extend = (id: number, m: number) =>
    f.api('POST', '/api/reservation/extendBookingTime', { reservationId: id, expirationTime: at(m) }, { token: p.token })
  const ends = async () => [Date.parse((await view(p, o.id)).expirationTime), Date.parse((await view(p, r.id)).expirationTime)]
  let x = await extend(o.id, 28)
  assert.is(x.status, 200, JSON.stringify(x.body))
  assert.is(Date.parse(x.body.data.roundTrip.other.expirationTime), Date.parse(at(28)), 'the answer shows the return kept as long')
  assert.equal(await ends(), [Date.parse(at(28)), Date.parse(at(28))])
  // from the return's page: the outbound is kept too, never past its own 30 minutes
  x = await extend(r.id, 32)
  assert.is(x.status, 200, JSON.stringify(x.body))
  assert.equal(await ends(), [Date.parse(at(30)), Date.parse(at(32))])
  const before = await f.snapshot()
  assert.is(code(await extend(o.id, 31)), 'INVALID_EXPIRATION_TIME')
  assert.is(await f.snapshot(), before)
  // 29 minutes after the outbound was booked: both legs still held, one payment sells both
  f.advance(24)
  const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: o.id }, { token: p.token })
  assert.is(paid.status, 200, JSON.stringify(paid.body))
  assert.is((await view(p, r.id)).status, reservationStatus.sold)
  assert.is(await balanceOf(p.id), 20_000 - o.fare.total - r.fare.total)
})

t(
  'Keep my seats on the return leg’s seat page keeps the booked outbound too, each within its own 30 minutes; only the caller’s own outbound',
  async () => {
    const p = await f.passenger({ balance: 20_000 })
    const q = await f.passenger()
    const [out, back] = await roundTrip()
    const o = (await book(p, out, 1)).body.data
    const start = Date.parse(o.createdAt)
    const at = (m: number) => new Date(start + m * 60_000).toISOString()
    // the return's seats are chosen 5 minutes after the outbound was booked
    f.advance(5)
    const seats = await freeSeats(f, back.id, 1)
    const l = await f.api('POST', '/api/reservation/seatLock', lockBody(back, seats), { token: p.token })
    assert.ok(l.body.data, JSON.stringify(l.body))
    const { locked: _, ...held } = lockBody(back, seats)
    const keep = (m: number, outboundReservationId: unknown, opts: { token?: string; device?: string } = { token: p.token }) =>
      f.api('POST', '/api/reservation/extendSeatLock', { ...held, expirationTime: at(m), outboundReservationId }, opts)
    const outboundEnd = async () => Date.parse((await view(p, o.id)).expirationTime)
    const before = await f.snapshot()
    assert.is(code(await keep(25, o.id, { token: q.token })), 'RESERVATION_NOT_ACCESSIBLE', 'another passenger’s booking')
    assert.is(code(await keep(25, o.id, { device: 'keep-return-anon-1' })), 'RESERVATION_NOT_ACCESSIBLE', 'no passenger signed in')
    assert.is(code(await keep(25, 2_000_000_000)), 'RESERVATION_NOT_FOUND')
    assert.is(code(await keep(25, 'x')), 'VALIDATION_FAILED')
    assert.is(await f.snapshot(), before, 'a refusal keeps nothing')
    let x = await keep(25, o.id)
    assert.is(x.status, 200, JSON.stringify(x.body))
    assert.is(Date.parse(x.body.data.expirationTime), Date.parse(at(25)))
    assert.is(await outboundEnd(), Date.parse(at(25)), 'the outbound booking is kept as long as the return’s seats')
    // the seats were won 5 minutes later: their hold may reach 35 minutes, the outbound booking never past its own 30
    x = await keep(34, o.id)
    assert.is(x.status, 200, JSON.stringify(x.body))
    assert.is(await outboundEnd(), Date.parse(at(30)))
    // 29 minutes in, both are still held: the return is booked and the pair paid once
    f.advance(24)
    const r = await f.api('POST', '/api/reservation/booking', bookingBody(back, seats, { passengerMobile: p.mobile, outboundReservationId: o.id }), {
      token: p.token,
    })
    assert.is(r.status, 200, JSON.stringify(r.body))
    // a return leg is no outbound to keep
    assert.is(code(await keep(34, r.body.data.id)), 'VALIDATION_FAILED')
    const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: o.id }, { token: p.token })
    assert.is(paid.status, 200, JSON.stringify(paid.body))
    assert.is((await view(p, r.body.data.id)).status, reservationStatus.sold)
  },
)

t.run()
