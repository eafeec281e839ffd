/**
 * Viewing tickets, the passenger's list, cancelling a sold ticket with an SMS code
 * (refund to balance) and resending the ticket e-mail.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { buyTicket, lastCode, lockAndBook, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'

const t = suite('tickets')
let f: Fixture
let trips = 0
const nextTrip = (o: { minHours?: number; maxHours?: number } = {}) => pickTrip(f, { skip: trips++ * 5 + 1, ...o })
const code = (r: { body: any }) => r.body?.error?.code
/** A valid PIN that is not `pin`. */
const otherPin = (pin: string) => String((Number(pin) + 1) % 10000).padStart(4, '0')
const balance = async (id: number) => (await f.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [id]))[0]!.balance

t.before(async () => {
  f = await openFixture()
})
t.after(async () => {
  await f.close()
})

t('reservation by id (owner only) and by PNR and PIN', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const q = await f.passenger()
  const sold = await buyTicket(f, p, await nextTrip())
  let r = await f.api('GET', `/api/reservation/details/${sold.id}`, undefined, { token: p.token })
  assert.is(r.status, 200)
  assert.equal(r.body.data, sold)
  r = await f.api('GET', `/api/reservation/details/${sold.id}`, undefined, { token: q.token })
  assert.is(code(r), 'RESERVATION_NOT_ACCESSIBLE')
  r = await f.api('GET', `/api/reservation/details/999999`, undefined, { token: p.token })
  assert.is(code(r), 'RESERVATION_NOT_FOUND')
  r = await f.api('GET', `/api/reservation/details/abc`, undefined, { token: p.token })
  assert.is(code(r), 'VALIDATION_FAILED')
  r = await f.api('GET', `/api/reservation/details/${sold.id}`)
  assert.is(r.status, 401)
  r = await f.api('GET', `/api/reservation/details/${sold.pnr.toLowerCase()}/${sold.pin}`)
  assert.is(r.status, 200)
  assert.equal(r.body.data, sold)
  for (const path of [
    `${sold.pnr}/${otherPin(sold.pin)}`,
    `NOSUCHPNR1/${sold.pin}`,
    `${sold.pnr}/12345`,
    `${sold.pnr}/ab`,
    `${'A'.repeat(30)}/${sold.pin}`,
  ]) {
    r = await f.api('GET', `/api/reservation/details/${path}`)
    assert.is(code(r), 'WRONG_PNR_PIN', path)
  }
})

t('myReservations lists the passenger’s reservations, upcoming first', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const late = await buyTicket(f, p, await nextTrip({ minHours: 24 * 5 }), 1)
  const soon = await lockAndBook(f, p, await nextTrip({ minHours: 30, maxHours: 60 }), 1)
  const r = await f.api('GET', '/api/reservations', undefined, { token: p.token })
  assert.is(r.status, 200)
  assert.equal(
    r.body.data.map((x: any) => x.id),
    [soon.id, late.id],
  )
  const none = await f.api('GET', '/api/reservations', undefined, { token: (await f.passenger()).token })
  assert.equal(none.body.data, [])
  assert.is((await f.api('GET', '/api/reservations')).status, 401)
})

t('cancel a sold ticket: quote, SMS code, cancel refunds once to the balance and frees the seats', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const sold = await buyTicket(f, p, await nextTrip({ minHours: 72 }))
  const paid = await balance(p.id)
  const init = await f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`)
  assert.is(init.status, 200)
  const charge = Math.round((sold.fare.total * 10) / 100)
  assert.equal(
    { ...init.body.data, policy: typeof init.body.data.policy },
    {
      reservationId: sold.id,
      refundAmount: sold.fare.total - charge,
      cancellationCharge: charge,
      chargePercent: 10,
      policy: 'string',
      otpSentTo: `${p.mobile.slice(0, 3)}******${p.mobile.slice(-2)}`,
      resendAfterSeconds: 180,
      refundTo: 'BALANCE',
      paidWith: null,
      // where the refund goes, place by place: all of it to the balance
      refundParts: [{ to: 'BALANCE', amount: sold.fare.total - charge, paidWith: null }],
    },
  )
  const again = await f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`)
  assert.is(code(again), 'OTP_ALREADY_SENT')
  const otp = await lastCode(f, p.mobile)
  const wrong = otp === '000000' ? '111111' : '000000'
  const before = await f.snapshot()
  let r = await f.api('GET', `/api/reservation/cancel/${sold.pnr}/${sold.pin}/${wrong}`)
  assert.is(code(r), 'INVALID_OTP_PROVIDED')
  assert.is(await f.snapshot(), before)
  r = await f.api('GET', `/api/reservation/cancel/${sold.pnr}/${sold.pin}/${otp}`)
  assert.is(r.status, 200)
  assert.is(r.body.data.status, 5)
  assert.is(r.body.data.refundAmount, sold.fare.total - charge)
  assert.is(await balance(p.id), paid + sold.fare.total - charge)
  assert.is((await f.db.query('SELECT 1 FROM reservation_seats WHERE reservation_id = $1 AND active', [sold.id])).length, 0)
  // A replay refunds nothing more.
  r = await f.api('GET', `/api/reservation/cancel/${sold.pnr}/${sold.pin}/${otp}`)
  assert.is(code(r), 'RESERVATION_NOT_CANCELLABLE')
  assert.is(await balance(p.id), paid + sold.fare.total - charge)
  r = await f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`)
  assert.is(code(r), 'RESERVATION_NOT_CANCELLABLE')
})

t('verifyCancelTicketOTP checks the code; the cancel call then accepts the same code', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const sold = await buyTicket(f, p, await nextTrip({ minHours: 72 }), 1)
  await f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`)
  const otp = await lastCode(f, p.mobile)
  let r = await f.api('POST', '/api/verifyCancelTicketOTP', { pnr: sold.pnr, pin: sold.pin, otp: otp === '123456' ? '654321' : '123456' })
  assert.is(code(r), 'INVALID_OTP_PROVIDED')
  r = await f.api('POST', '/api/verifyCancelTicketOTP', { pnr: sold.pnr, pin: sold.pin, otp })
  assert.is(r.status, 200)
  assert.is(r.body.data, true)
  r = await f.api('POST', '/api/verifyCancelTicketOTP', { pnr: sold.pnr, pin: otherPin(sold.pin), otp })
  assert.is(code(r), 'WRONG_PNR_PIN')
  for (const bad of [
    {},
    { pnr: sold.pnr, pin: sold.pin },
    { pnr: sold.pnr, pin: sold.pin, otp: '12' },
    { pnr: sold.pnr, pin: sold.pin, otp, x: 1 },
  ]) {
    r = await f.api('POST', '/api/verifyCancelTicketOTP', bad)
    assert.is(code(r), 'VALIDATION_FAILED')
  }
  r = await f.api('GET', `/api/reservation/cancel/${sold.pnr}/${sold.pin}/${otp}`)
  assert.is(r.status, 200)
  assert.is(r.body.data.status, 5)
})

t('cancel scheme by time to departure; expired code; closed for cancellation; booked is not cancellable', async () => {
  const p = await f.passenger({ balance: 100_000 })
  const trip = await nextTrip({ minHours: 60 })
  const sold = await buyTicket(f, p, trip, 1)
  const start = f.now()
  const at = (hoursBefore: number) => f.setNow(new Date(trip.departureAt.getTime() - hoursBefore * 3_600_000))
  const quote = async () => f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`)
  at(30)
  let r = await quote()
  assert.is(r.body.data.chargePercent, 25)
  at(10)
  f.advance(4)
  r = await quote()
  assert.is(r.body.data.chargePercent, 50)
  // The code is good for 5 minutes.
  const otp = await lastCode(f, p.mobile)
  f.advance(6)
  r = await f.api('GET', `/api/reservation/cancel/${sold.pnr}/${sold.pin}/${otp}`)
  assert.is(code(r), 'OTP_VALIDITY_EXPIRED')
  at(5)
  r = await quote()
  assert.is(code(r), 'RESERVATION_CANCEL_TIME_EXPIRED')
  f.setNow(start)
  await f.db.query("UPDATE trips SET status = 'CLOSED_FOR_CANCELLATION' WHERE id = $1", [trip.id])
  r = await quote()
  assert.is(code(r), 'TRIP_CLOSED_FOR_CANCELLATION')
  await f.db.query("UPDATE trips SET status = 'OPEN' WHERE id = $1", [trip.id])
  r = await f.api('GET', `/api/reservation/cancelInitialize/NOSUCHPNR1/1234`)
  assert.is(code(r), 'WRONG_PNR_PIN')
})

t('only a sold ticket is cancelled with a refund: a booking has no PNR to reach it, and a sold ticket cannot be dropped as a booking', async () => {
  const p = await f.passenger({ balance: 100_000 })
  const booked = await lockAndBook(f, p, await nextTrip(), 1)
  assert.equal([booked.pnr, booked.pin], [null, null])
  const sold = await buyTicket(f, p, await nextTrip({ minHours: 72 }), 1)
  const paid = await balance(p.id)
  const before = await f.snapshot()
  // cancelling as a booking would skip the charge and the code
  const r = await f.api('POST', '/api/reservation/cancelBooking', { reservationId: sold.id }, { token: p.token })
  assert.is(code(r), 'PAYMENT_ALREADY_COMPLETED')
  assert.is(await f.snapshot(), before)
  assert.is(await balance(p.id), paid)
  // the booking is cancelled as a booking: nothing to refund, its seats free again
  const c = await f.api('POST', '/api/reservation/cancelBooking', { reservationId: booked.id }, { token: p.token })
  assert.is(c.status, 200)
  assert.equal([c.body.data.status, c.body.data.refundAmount], [5, null])
  assert.is(await balance(p.id), paid)
  assert.is((await f.db.query('SELECT 1 FROM reservation_seats WHERE reservation_id = $1 AND active', [booked.id])).length, 0)
})

t('resendReservationEmail sends the ticket to the reservation e-mail; only for sold tickets', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const sold = await buyTicket(f, p, await nextTrip({ minHours: 72 }), 1)
  const r = await f.api('GET', `/api/reservation/resendReservationEmail/${sold.pnr}/${sold.pin}`)
  assert.is(r.status, 200)
  assert.is(r.body.data, true)
  const [m] = await f.db.query<{ to: string; body: string; channel: string }>(
    'SELECT channel, "to", body FROM outbox_messages ORDER BY id DESC LIMIT 1',
  )
  assert.is(m!.channel, 'EMAIL')
  assert.is(m!.to, sold.passengerEmail)
  assert.ok(m!.body.includes(sold.pnr))
  let x = await f.api('GET', `/api/reservation/resendReservationEmail/${sold.pnr}/${otherPin(sold.pin)}`)
  assert.is(code(x), 'WRONG_PNR_PIN')
  await f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`)
  await f.api('GET', `/api/reservation/cancel/${sold.pnr}/${sold.pin}/${await lastCode(f, p.mobile)}`)
  x = await f.api('GET', `/api/reservation/resendReservationEmail/${sold.pnr}/${sold.pin}`)
  assert.is(code(x), 'RESERVATION_NOT_ACCESSIBLE')
})

t('PIN guessing: 10 wrong PINs in 15 minutes close the PNR on every PNR route, even for the right PIN', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const sold = await buyTicket(f, p, await nextTrip({ minHours: 72 }), 1)
  const other = await buyTicket(f, p, await nextTrip({ minHours: 72 }), 1)
  const wrong = (n: number) => String((Number(sold.pin) + 1 + n) % 10000).padStart(4, '0')
  // The wrong tries are spread over the three routes a PNR and PIN open: they share one count.
  const routes = ['details', 'resendReservationEmail', 'cancelInitialize']
  for (let i = 0; i < 10; i++) {
    const r = await f.api('GET', `/api/reservation/${routes[i % 3]}/${sold.pnr}/${wrong(i)}`)
    assert.is(code(r), 'WRONG_PNR_PIN', `try ${i + 1}`)
  }
  for (const route of [...routes, 'cancel']) {
    const path = route === 'cancel' ? `cancel/${sold.pnr}/${sold.pin}/123456` : `${route}/${sold.pnr}/${sold.pin}`
    const r = await f.api('GET', `/api/reservation/${path}`)
    assert.is(r.status, 429, route)
    assert.is(code(r), 'TOO_MANY_ATTEMPTS')
    assert.match(r.body.error.reason, /Try again in 15 minutes/)
    assert.equal(r.body.error.values, { minutes: 15 })
    assert.is(r.headers['retry-after'], '900')
  }
  const v = await f.api('POST', '/api/verifyCancelTicketOTP', { pnr: sold.pnr, pin: sold.pin, otp: '123456' })
  assert.is(code(v), 'TOO_MANY_ATTEMPTS')
  // Other PNRs are not affected; the lock lifts when the oldest wrong try is 15 minutes old.
  assert.is((await f.api('GET', `/api/reservation/details/${other.pnr}/${other.pin}`)).status, 200)
  f.advance(14)
  assert.is(code(await f.api('GET', `/api/reservation/details/${sold.pnr}/${sold.pin}`)), 'TOO_MANY_ATTEMPTS')
  f.advance(1.1)
  const ok = await f.api('GET', `/api/reservation/details/${sold.pnr}/${sold.pin}`)
  assert.is(ok.status, 200)
  assert.is(ok.body.data.pnr, sold.pnr)
  // Right PINs never count: many views of one's own ticket keep working.
  for (let i = 0; i < 12; i++) assert.is((await f.api('GET', `/api/reservation/details/${other.pnr}/${other.pin}`)).status, 200)
})

t('PIN guessing does not lock the owner out: signed in, they view and cancel their ticket while strangers wait', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const stranger = await f.passenger()
  const sold = await buyTicket(f, p, await nextTrip({ minHours: 72 }), 1)
  for (let i = 0; i < 10; i++) assert.is(code(await f.api('GET', `/api/reservation/details/${sold.pnr}/${otherPin(sold.pin)}`)), 'WRONG_PNR_PIN')
  // strangers, signed in or not, wait
  assert.is(code(await f.api('GET', `/api/reservation/details/${sold.pnr}/${sold.pin}`)), 'TOO_MANY_ATTEMPTS')
  assert.is(code(await f.api('GET', `/api/reservation/details/${sold.pnr}/${sold.pin}`, undefined, { token: stranger.token })), 'TOO_MANY_ATTEMPTS')
  // the owner gets through on every PNR route
  const view = await f.api('GET', `/api/reservation/details/${sold.pnr}/${sold.pin}`, undefined, { token: p.token })
  assert.is(view.status, 200, JSON.stringify(view.body))
  assert.is(view.body.data.pnr, sold.pnr)
  const init = await f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`, undefined, { token: p.token })
  assert.is(init.status, 200, JSON.stringify(init.body))
  const otp = await lastCode(f, p.mobile)
  const v = await f.api('POST', '/api/verifyCancelTicketOTP', { pnr: sold.pnr, pin: sold.pin, otp }, { token: p.token })
  assert.is(v.status, 200, JSON.stringify(v.body))
  const c = await f.api('GET', `/api/reservation/cancel/${sold.pnr}/${sold.pin}/${otp}`, undefined, { token: p.token })
  assert.is(c.status, 200, JSON.stringify(c.body))
  assert.is(c.body.data.status, 5)
  // the owner's PIN must still be right, and their wrong one is not counted against the PNR
  assert.is(code(await f.api('GET', `/api/reservation/details/${sold.pnr}/${otherPin(sold.pin)}`, undefined, { token: p.token })), 'WRONG_PNR_PIN')
  f.advance(16)
})

t('PIN guessing: simultaneous wrong PINs still get exactly 10 tries', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const sold = await buyTicket(f, p, await nextTrip({ minHours: 72 }), 1)
  const tries = Array.from({ length: 40 }, (_, i) => String(i).padStart(4, '0')).filter((x) => x !== sold.pin)
  const rs = await Promise.all(tries.map((pin) => f.api('GET', `/api/reservation/details/${sold.pnr}/${pin}`)))
  assert.is(rs.filter((r) => code(r) === 'WRONG_PNR_PIN').length, 10)
  assert.is(rs.filter((r) => code(r) === 'TOO_MANY_ATTEMPTS').length, tries.length - 10)
  f.advance(16)
})

t('resending the ticket e-mail: at most 3 per PNR per hour', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const sold = await buyTicket(f, p, await nextTrip({ minHours: 72 }), 1)
  const emails = async () =>
    (await f.db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_messages WHERE "to" = $1', [sold.passengerEmail]))[0]!.n
  const before = await emails()
  for (let i = 0; i < 3; i++) assert.is((await f.api('GET', `/api/reservation/resendReservationEmail/${sold.pnr}/${sold.pin}`)).status, 200)
  const r = await f.api('GET', `/api/reservation/resendReservationEmail/${sold.pnr}/${sold.pin}`)
  assert.is(r.status, 429)
  assert.is(code(r), 'TOO_MANY_ATTEMPTS')
  assert.is(await emails(), before + 3)
  f.advance(61)
  assert.is((await f.api('GET', `/api/reservation/resendReservationEmail/${sold.pnr}/${sold.pin}`)).status, 200)
})

t.run()
