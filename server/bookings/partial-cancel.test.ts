/**
 * Cancelling some seats of a ticket (issue 31 item 3), on PGlite through the HTTP API: the quote
 * for the seats named, their cancel with the SMS code (refund to the balance, the coupon's
 * discount shared by fare), the seats free on the live map at once, the rest of the ticket valid
 * with the same PNR and PIN, the last seats cancelling the ticket, and bad seat lists refused.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bookingBody, freeSeats, lastCode, lockBody, openFixture, pickTrip, seatOnMap, type Fixture } from '../test/booking-fixture.ts'

const t = suite('cancel some seats of a ticket')
let f: Fixture
let trips = 0
const code = (r: { body: any }) => r.body?.error?.code
const balance = async (id: number) => (await f.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [id]))[0]!.balance

t.before(async () => {
  f = await openFixture()
})
t.after(async () => {
  await f.close()
})

/** A ticket of `n` seats paid from the balance 72+ hours before departure (10% charge), with `coupon` applied first if given. */
async function ticket(n: number, coupon?: string) {
  const p = await f.passenger({ balance: 50_000 })
  const trip = await pickTrip(f, { minHours: 80, skip: trips++ * 5 + 2 })
  const seats = await freeSeats(f, trip.id, n)
  assert.is((await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: p.token })).status, 200)
  const booked = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats), { token: p.token })
  assert.is(booked.status, 200, JSON.stringify(booked.body))
  if (coupon) {
    const c = await f.api('GET', `/api/reservation/booking/applyDiscountCoupon/${booked.body.data.id}/${coupon}`, undefined, { token: p.token })
    assert.is(c.status, 200, JSON.stringify(c.body))
  }
  const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: booked.body.data.id }, { token: p.token })
  assert.is(paid.status, 200, JSON.stringify(paid.body))
  return { p, trip, sold: paid.body.data, paidBalance: await balance(p.id) }
}

const quote = (s: { pnr: string; pin: string }, seats?: string) =>
  f.api('GET', `/api/reservation/cancelInitialize/${s.pnr}/${s.pin}${seats === undefined ? '' : `?seats=${seats}`}`)
const cancel = (s: { pnr: string; pin: string }, otp: string, seats?: string) =>
  f.api('GET', `/api/reservation/cancel/${s.pnr}/${s.pin}/${otp}${seats === undefined ? '' : `?seats=${seats}`}`)

/** The seat's status on the trip's live map (0 available). */
const mapStatus = async (trip: Awaited<ReturnType<typeof pickTrip>>, seat: string) => (await seatOnMap(f, trip, seat)).status

t('the quote for some seats covers only those seats', async () => {
  const { sold } = await ticket(3)
  const [a, b] = sold.seats as { name: string; fare: number }[]
  const whole = await quote(sold)
  assert.is(whole.status, 200)
  assert.is(whole.body.data.refundAmount, sold.fare.total - Math.round(sold.fare.total / 10))
  f.advance(4)
  const some = await quote(sold, `${a!.name},${b!.name}`)
  assert.is(some.status, 200, JSON.stringify(some.body))
  const fare = a!.fare + b!.fare
  assert.equal(
    [some.body.data.cancellationCharge, some.body.data.refundAmount, some.body.data.chargePercent],
    [Math.round(fare / 10), fare - Math.round(fare / 10), 10],
  )
})

t(
  'cancel one seat of two: refunded, free on the map at once, the rest valid with the same PNR and PIN; then the last seat cancels the ticket',
  async () => {
    const { p, trip, sold, paidBalance } = await ticket(2)
    const [gone, kept] = sold.seats as { name: string; fare: number }[]
    assert.is(await mapStatus(trip, gone!.name), 1)
    assert.is((await quote(sold, gone!.name)).status, 200)
    const refund = gone!.fare - Math.round(gone!.fare / 10)
    const r = await cancel(sold, await lastCode(f, p.mobile), gone!.name)
    assert.is(r.status, 200, JSON.stringify(r.body))
    assert.equal(
      [
        r.body.data.status,
        r.body.data.pnr,
        r.body.data.pin,
        r.body.data.seats.map((s: any) => s.name),
        r.body.data.canceledSeats.map((s: any) => s.name),
      ],
      [1, sold.pnr, sold.pin, [kept!.name], [gone!.name]],
    )
    assert.equal(r.body.data.fare, { subtotal: kept!.fare, discount: 0, total: kept!.fare, couponCode: null })
    assert.is(await balance(p.id), paidBalance + refund)
    assert.is(await mapStatus(trip, gone!.name), 0, 'the cancelled seat is free on the live map')
    assert.is(await mapStatus(trip, kept!.name), 1, 'the kept seat stays sold')
    const [sms] = await f.db.query<{ body: string }>(
      `SELECT body FROM outbox_messages WHERE "to" = $1 AND channel = 'SMS' ORDER BY id DESC LIMIT 1`,
      [sold.passengerMobile],
    )
    assert.match(sms!.body, `Seats ${gone!.name} of ticket ${sold.pnr}`)
    assert.match(sms!.body, `Seats ${kept!.name} stay booked`)
    assert.match(sms!.body, 'refunded to your balance')
    const view = await f.api('GET', `/api/reservation/details/${sold.pnr}/${sold.pin}`)
    assert.equal([view.body.data.status, view.body.data.seats.length], [1, 1], 'the ticket opens with its PNR and PIN')

    // the code was spent on that cancel: the next needs a new one
    assert.ok(['INVALID_OTP_PROVIDED', 'OTP_VALIDITY_EXPIRED'].includes(code(await cancel(sold, await lastCode(f, p.mobile), kept!.name))))
    f.advance(4)
    const last = await quote(sold, kept!.name)
    assert.is(last.status, 200)
    assert.is(last.body.data.refundAmount, kept!.fare - Math.round(kept!.fare / 10))
    const end = await cancel(sold, await lastCode(f, p.mobile), kept!.name)
    assert.is(end.status, 200, JSON.stringify(end.body))
    assert.equal([end.body.data.status, end.body.data.cancelReason, end.body.data.refundAmount], [5, 'TICKET_CANCELED', last.body.data.refundAmount])
    assert.is(await balance(p.id), paidBalance + refund + last.body.data.refundAmount)
    assert.ok(refund + last.body.data.refundAmount <= sold.fare.total)
    assert.is(await mapStatus(trip, kept!.name), 0)
    const [notice] = await f.db.query<{ body: string }>(
      `SELECT body FROM outbox_messages WHERE "to" = $1 AND channel = 'SMS' ORDER BY id DESC LIMIT 1`,
      [sold.passengerMobile],
    )
    assert.match(notice!.body, `Ticket ${sold.pnr}`)
    assert.match(notice!.body, 'is cancelled')
  },
)

t('a coupon discount is shared by fare: the seats kept keep theirs, and the refunds never pass what was paid', async () => {
  const [offer] = await f.db.query<{ coupon_code: string }>(
    "SELECT coupon_code FROM offers WHERE valid_until >= $1::date AND coupon_code <> 'FIRST50' ORDER BY id LIMIT 1",
    [f.now()],
  )
  const { p, sold, paidBalance } = await ticket(3, offer!.coupon_code)
  assert.ok(sold.fare.discount > 0, JSON.stringify(sold.fare))
  const [a, b, c] = sold.seats as { name: string; fare: number }[]
  const share = Math.round((sold.fare.discount * a!.fare) / sold.fare.subtotal)
  assert.is((await quote(sold, a!.name)).body.data.refundAmount, a!.fare - share - Math.round((a!.fare - share) / 10))
  const one = await cancel(sold, await lastCode(f, p.mobile), a!.name)
  assert.is(one.status, 200, JSON.stringify(one.body))
  assert.equal(one.body.data.fare.discount, sold.fare.discount - share)
  f.advance(4)
  await quote(sold, `${b!.name},${c!.name}`)
  const rest = await cancel(sold, await lastCode(f, p.mobile), `${b!.name},${c!.name}`)
  assert.is(rest.status, 200, JSON.stringify(rest.body))
  assert.is(rest.body.data.status, 5)
  const back = (await balance(p.id)) - paidBalance
  assert.ok(back > 0 && back <= sold.fare.total, `${back} of ${sold.fare.total}`)
})

t('bad seat lists are refused with VALIDATION_FAILED naming seats, and change nothing', async () => {
  const { p, trip, sold } = await ticket(2)
  const [notOnTicket] = await freeSeats(f, trip.id, 1)
  const before = await f.snapshot()
  for (const seats of ['', 'a1', `${sold.seats[0].name},${sold.seats[0].name}`, 'A1,A2,A3,A4,B1,B2', notOnTicket!, 'Z9', `${sold.seats[0].name};`]) {
    const r = await quote(sold, encodeURIComponent(seats))
    assert.equal([code(r), r.body.error?.fields?.[0]?.path], ['VALIDATION_FAILED', 'seats'], `${seats}: ${JSON.stringify(r.body)}`)
  }
  assert.is(code(await f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}?seat=A1`)), 'VALIDATION_FAILED')
  assert.is(await f.snapshot(), before)
  // a seat already cancelled
  await quote(sold, sold.seats[0].name)
  assert.is((await cancel(sold, await lastCode(f, p.mobile), sold.seats[0].name)).status, 200)
  f.advance(4)
  const again = await quote(sold, sold.seats[0].name)
  assert.equal([code(again), again.body.error.fields[0].message], ['VALIDATION_FAILED', `Seat ${sold.seats[0].name} is already cancelled`])
  const cancelAgain = await cancel(sold, '123456', sold.seats[0].name)
  assert.is(code(cancelAgain), 'VALIDATION_FAILED')
})

t.run()
