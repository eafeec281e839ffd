/**
 * Card payments through SSLCommerz, against the local stand-in of its endpoints
 * (sslcommerz-standin.ts), on PGlite with the app listening on 127.0.0.1 so the
 * stand-in delivers real IPNs: a booking sold and a top-up credited exactly once
 * whatever the order and number of IPNs and browser returns; tampered answers,
 * risky payments held for review, validation timeouts, fail / cancel, forged
 * returns, and the reconciliation pass for payments whose callback never came.
 * Security issue 21: forms without SSLCommerz's signature cost no call to it, one
 * payment is asked about at most once per ASK_INTERVAL_MS, a val_id of another
 * tran_id never declines, and no log line carries a payment id (after.each).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { PaymentRow } from '../bookings/payment-row.ts'
import { approveReviewedPayment, declineReviewedPayment, paymentsUnderReview } from '../bookings/payments.ts'
import { createGateway } from '../bookings/gateways/index.ts'
import { redactPaymentId } from '../http/redact.ts'
import type { SslcommerzGateway } from '../bookings/gateways/sslcommerz.ts'
import { freeSeats, lockAndBook, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { startStandIn, type StandIn } from '../test/sslcommerz-standin.ts'
import { freePort } from '../../harness/spawn-server.ts'

const APP = 'http://app.test'
const t = suite('SSLCommerz card payments')
let f: Fixture
let ssl: StandIn
let publicUrl: string
let logs: string[] = []
const warn = console.warn
let trips = 0
const nextTrip = () => pickTrip(f, { skip: trips++ * 5 + 2 })
const code = (r: { body: any }) => r.body?.error?.code

t.before(async () => {
  ssl = await startStandIn()
  const port = await freePort()
  publicUrl = `http://127.0.0.1:${port}`
  f = await openFixture({
    config: {
      payment: { provider: 'sslcommerz', storeId: ssl.storeId, storePassword: ssl.storePassword, apiUrl: ssl.url, timeoutMs: 400 },
      publicUrl,
      appUrl: APP,
    },
  })
  await f.app.listen({ port, host: '127.0.0.1' })
})
t.after(async () => {
  await f.close()
  await ssl.close()
})
t.before.each(() => {
  ssl.tamper = null
  ssl.delayMs = 0
  ssl.failWith = null
  ssl.refuseSessions = null
  logs = []
  console.warn = (...a: unknown[]) => void logs.push(a.map(String).join(' '))
})
t.after.each(() => {
  console.warn = warn
  for (const line of logs) {
    assert.not.ok(line.includes(ssl.storePassword), `a log line carries the store password: ${line}`)
    // issue 21.4: payment ids are redacted like other secrets
    assert.not.match(line, /pay_[A-Za-z0-9_-]{6,}/, `a log line carries a payment id: ${line}`)
  }
})

const gateway = () => createGateway(f.deps) as SslcommerzGateway
const row = async (id: string) => (await f.db.query<PaymentRow>('SELECT * FROM payments WHERE id = $1', [id]))[0]!
const reservation = async (id: number) =>
  (
    await f.db.query<{ status: number; pnr: string | null; expiration_time: Date | null }>(
      'SELECT status, pnr, expiration_time FROM reservations WHERE id = $1',
      [id],
    )
  )[0]!
const balanceOf = async (passengerId: number) =>
  (await f.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [passengerId]))[0]!.balance
const ledgerOf = async (passengerId: number) =>
  f.db.query<{ amount: number; kind: string }>('SELECT amount, kind FROM ledger WHERE passenger_id = $1 ORDER BY id', [passengerId])
const refundOf = async (paymentId: string) =>
  (await f.db.query<{ amount: number; reason: string }>('SELECT amount, reason FROM refunds WHERE payment_id = $1', [paymentId]))[0]
const messagesWith = async (text: string) => (await f.db.query('SELECT id FROM outbox_messages WHERE body LIKE $1', [`%${text}%`])).length

/** A browser (or a forger) posting a form to one of our SSLCommerz return URLs. */
async function browser(kind: 'success' | 'fail' | 'cancel', fields: Record<string, string>) {
  const res = await fetch(`${publicUrl}/gateway/sslcommerz/${kind}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })
  await res.text()
  return { status: res.status, location: res.headers.get('location') }
}

/** A booking of `seats` and its card payment opened at SSLCommerz. */
async function cardPayment(seats = 1) {
  const p = await f.passenger()
  const res = await lockAndBook(f, p, await nextTrip(), seats)
  const open = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  assert.is(open.status, 200, JSON.stringify(open.body))
  return {
    p,
    res,
    paymentId: open.body.data.paymentId as string,
    redirectUrl: open.body.data.redirectUrl as string,
    resultToken: open.body.data.resultToken as string,
  }
}

async function topUp(amount: number, balance = 0) {
  const p = await f.passenger({ balance })
  const open = await f.api('POST', '/api/account/topUp', { amount }, { token: p.token })
  assert.is(open.status, 200, JSON.stringify(open.body))
  return { p, paymentId: open.body.data.paymentId as string }
}

t('a booking paid at SSLCommerz: the IPN sells it once with a PNR, the browser return shows the ticket, replays change nothing', async () => {
  const { p, res, paymentId, redirectUrl, resultToken: open1Token } = await cardPayment(2)
  assert.match(paymentId, /^pay_[A-Za-z0-9_-]{20}$/)
  const session = ssl.sessions.get(paymentId)!
  assert.ok(session, 'tran_id is our payment id')
  assert.is(redirectUrl, `${ssl.url}/gwprocess/v4/gw.php?Q=pay&SESSIONKEY=${session.sessionKey}`)
  assert.equal(
    {
      total_amount: session.fields.total_amount,
      currency: session.fields.currency,
      ipn_url: session.fields.ipn_url,
      success_url: session.fields.success_url,
      fail_url: session.fields.fail_url,
      cancel_url: session.fields.cancel_url,
      cus_phone: session.fields.cus_phone,
      cus_email: session.fields.cus_email,
      num_of_item: session.fields.num_of_item,
    },
    {
      total_amount: `${res.fare.total}.00`,
      currency: 'BDT',
      ipn_url: `${publicUrl}/gateway/sslcommerz/ipn`,
      success_url: `${publicUrl}/gateway/sslcommerz/success`,
      fail_url: `${publicUrl}/gateway/sslcommerz/fail`,
      cancel_url: `${publicUrl}/gateway/sslcommerz/cancel`,
      cus_phone: '01712000111',
      cus_email: 'ayesha@example.com',
      num_of_item: '2',
    },
  )
  assert.is((await fetch(redirectUrl)).status, 200, 'the gateway page exists')
  // Double click, second tab: the same payment and the same gateway page, one session.
  const again = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  assert.equal({ ...again.body.data, resultToken: undefined }, { paymentId, redirectUrl, resultToken: undefined })
  assert.ok(again.body.data.resultToken !== open1Token, 'the second tab gets its own result token')
  assert.is(ssl.sessionCalls.get(paymentId), 1)

  const paid = ssl.pay(paymentId)
  assert.is(await ssl.sendIpn(paymentId), 200)
  const sold = await reservation(res.id)
  assert.is(sold.status, 1)
  assert.match(sold.pnr!, /^[A-Z0-9]{10}$/)
  const pay = await row(paymentId)
  assert.equal([pay.status, pay.gateway_val_id, pay.gateway_status, pay.risk_level, !!pay.confirmed_at], ['APPROVED', paid.valId, 'VALID', 0, true])

  const back = await browser('success', paid.fields)
  assert.equal(back, { status: 303, location: `${APP}/reservation/success?paymentId=${paymentId}` })
  const shown = await f.api('POST', '/api/reservation/success', { paymentId }, { token: p.token })
  assert.is(shown.body.data.status, 'APPROVED')
  assert.is(shown.body.data.reservation.pnr, sold.pnr)
  assert.is(await messagesWith(sold.pnr!), 2, 'one SMS and one e-mail')

  const snap = await f.snapshot()
  const validations = ssl.calls.validation
  const replays = await Promise.all([
    ...Array.from({ length: 10 }, () => ssl.sendIpn(paymentId)),
    ...Array.from({ length: 3 }, () => browser('success', paid.fields)),
  ])
  assert.ok(replays.slice(0, 10).every((s) => s === 200))
  assert.is(await f.snapshot(), snap)
  assert.is(await messagesWith(sold.pnr!), 2)
  assert.is(ssl.calls.validation, validations, 'a settled payment is not validated again')
  const c = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  assert.is(code(c), 'PAYMENT_ALREADY_COMPLETED')
})

t('ten IPNs at once, before any browser return: sold once, one PNR, one ticket message of each kind', async () => {
  const { res, paymentId } = await cardPayment(1)
  const paid = ssl.pay(paymentId)
  const statuses = await Promise.all(Array.from({ length: 10 }, () => ssl.sendIpn(paymentId)))
  assert.ok(statuses.every((s) => s === 200))
  const sold = await reservation(res.id)
  assert.is(sold.status, 1)
  assert.is(await messagesWith(sold.pnr!), 2)
  const [n] = await f.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE reservation_id = $1 AND confirmed_at IS NOT NULL', [
    res.id,
  ])
  assert.is(n!.n, 1)
  assert.is((await browser('success', paid.fields)).location, `${APP}/reservation/success?paymentId=${paymentId}`)
})

t('a top-up with only the browser return (no IPN): credited once, back on the profile page; later IPNs change nothing', async () => {
  const { p, paymentId } = await topUp(1500, 40)
  const paid = ssl.pay(paymentId)
  const back = await browser('success', paid.fields)
  assert.equal(back, { status: 303, location: `${APP}/profile?topUp=${paymentId}&result=success` })
  assert.is(await balanceOf(p.id), 1540)
  await Promise.all([ssl.sendIpn(paymentId), ssl.sendIpn(paymentId), browser('success', paid.fields)])
  const s = await f.api('POST', '/api/reservation/success', { paymentId }, { token: p.token })
  assert.equal({ ...s.body.data }, { paymentId, full: true, status: 'APPROVED', purpose: 'TOP_UP', amount: 1500, reservation: null, balance: 1540 })
  assert.equal(await ledgerOf(p.id), [{ amount: 1500, kind: 'TOP_UP' }])
})

t('a validation that disagrees (amount, currency, tran_id) declines the payment, stores and logs why; nothing is sold or credited', async () => {
  const { p, res, paymentId } = await cardPayment(1)
  ssl.tamper = { amount: '10.00' }
  const paid = ssl.pay(paymentId)
  assert.is(await ssl.sendIpn(paymentId), 200)
  const declined = await row(paymentId)
  assert.is(declined.status, 'DECLINED')
  assert.match(declined.decline_reason!, `amount "10.00", expected ${res.fare.total}.00`)
  assert.ok(
    logs.some((l) => l.includes(redactPaymentId(paymentId)) && l.includes('declined') && l.includes('"10.00"')),
    logs.join('\n'),
  )
  assert.is((await reservation(res.id)).status, 2)
  assert.equal(await browser('success', paid.fields), { status: 303, location: `${APP}/reservation/failure?paymentId=${paymentId}` })
  // A replay of the same tampered transaction keeps it declined, and the booking can be paid again.
  await ssl.sendIpn(paymentId)
  assert.is((await row(paymentId)).status, 'DECLINED')
  ssl.tamper = null
  const retry = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  assert.ok(retry.body.data.paymentId !== paymentId)

  for (const tamper of [{ currency: 'USD' }, { tranId: 'pay_someone_else' }]) {
    const top = await topUp(2000)
    ssl.tamper = tamper
    ssl.pay(top.paymentId)
    await ssl.sendIpn(top.paymentId)
    const r = await row(top.paymentId)
    if (tamper.currency) {
      assert.is(r.status, 'DECLINED')
      assert.match(r.decline_reason!, 'currency "USD", expected BDT')
    } else {
      // A validated answer about another transaction says nothing about this one: never declines it.
      assert.is(r.status, 'PENDING')
      assert.ok(logs.some((l) => l.includes(redactPaymentId(top.paymentId)) && l.includes('another transaction')))
    }
    assert.is(await balanceOf(top.p.id), 0)
    assert.equal(await ledgerOf(top.p.id), [])
  }
})

t('risk_level 1 holds the payment for review: nothing sold, seats kept, paying again refused; the operator approves or declines', async () => {
  const { p, res, paymentId } = await cardPayment(1)
  const paid = ssl.pay(paymentId, { risk: 1 })
  await ssl.sendIpn(paymentId)
  const held = await row(paymentId)
  assert.equal([held.status, held.risk_level, held.confirmed_at], ['REVIEW', 1, null])
  assert.ok(logs.some((l) => l.includes(redactPaymentId(paymentId)) && l.includes('held for review')))
  assert.equal(await browser('success', paid.fields), { status: 303, location: `${APP}/reservation/success?paymentId=${paymentId}` })
  const trip = (
    await f.db.query<{ departure_at: Date }>('SELECT t.departure_at FROM trips t JOIN reservations r ON r.trip_id = t.id WHERE r.id = $1', [res.id])
  )[0]!
  assert.equal((await reservation(res.id)).expiration_time, trip.departure_at, 'the seats are held until departure at the latest')
  f.advance(30)
  const shown = await f.api('POST', '/api/reservation/success', { paymentId }, { token: p.token })
  assert.is(shown.body.data.status, 'REVIEW')
  assert.is(shown.body.data.reservation.status, 2)
  assert.is(shown.body.data.reservation.pnr, null)
  const seats = await f.db.query<{ seat_name: string }>('SELECT seat_name FROM reservation_seats WHERE reservation_id = $1 AND active', [res.id])
  assert.is(seats.length, 1, "the seat is still the booking's")
  assert.not.ok((await freeSeats(f, shown.body.data.reservation.tripId, 1)).includes(seats[0]!.seat_name))
  assert.is(code(await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })), 'PAYMENT_UNDER_REVIEW')
  assert.is(code(await f.api('POST', '/api/reservation/payFromBalance', { reservationId: res.id }, { token: p.token })), 'PAYMENT_UNDER_REVIEW')
  assert.ok((await paymentsUnderReview(f.db)).some((x) => x.id === paymentId))

  const approved = await approveReviewedPayment(f.deps, paymentId)
  assert.is(approved.status, 'APPROVED')
  assert.ok(approved.reviewed_at)
  const sold = await reservation(res.id)
  assert.is(sold.status, 1)
  assert.is(await messagesWith(sold.pnr!), 2)
  await approveReviewedPayment(f.deps, paymentId)
  await ssl.sendIpn(paymentId)
  assert.is(await messagesWith(sold.pnr!), 2, 'approved once')

  // Declined by the operator: the seats are released, nothing is credited, replays keep it declined.
  const other = await cardPayment(1)
  ssl.pay(other.paymentId, { risk: 1 })
  await ssl.sendIpn(other.paymentId)
  const refused = await declineReviewedPayment(f.deps, other.paymentId, 'the card holder did not answer')
  assert.equal([refused.status, refused.decline_reason], ['DECLINED', 'review: the card holder did not answer'])
  assert.is((await reservation(other.res.id)).status, 5)
  await ssl.sendIpn(other.paymentId)
  assert.is((await row(other.paymentId)).status, 'DECLINED')
  assert.equal(await ledgerOf(other.p.id), [])

  // A top-up held for review is credited only when approved, once.
  const top = await topUp(3000)
  ssl.pay(top.paymentId, { risk: 1 })
  await ssl.sendIpn(top.paymentId)
  assert.is(await balanceOf(top.p.id), 0)
  const s = await f.api('POST', '/api/reservation/success', { paymentId: top.paymentId })
  assert.is(s.body.data.status, 'REVIEW')
  await Promise.all([approveReviewedPayment(f.deps, top.paymentId), approveReviewedPayment(f.deps, top.paymentId)])
  assert.is(await balanceOf(top.p.id), 3000)
})

t("reading a payment's result by its id alone does not hold back the gateway's own return: it sells the ticket at once", async () => {
  const { res, paymentId, resultToken } = await cardPayment(1)
  // Anyone who knows the payment id reads its result page, before and while the passenger pays.
  const before = await f.api('POST', '/api/reservation/success', { paymentId })
  assert.equal([before.status, before.body.data.status, before.body.data.full], [200, 'PENDING', false])
  const paid = ssl.pay(paymentId)
  const meanwhile = await f.api('POST', '/api/reservation/failure', { paymentId })
  assert.is(meanwhile.body.data.status, 'PENDING')
  // The gateway's signed return, within ASK_INTERVAL_MS of those reads (the fixture's clock stands still).
  const back = await browser('success', paid.fields)
  assert.equal(back, { status: 303, location: `${APP}/reservation/success?paymentId=${paymentId}` })
  assert.is((await row(paymentId)).status, 'APPROVED')
  const shown = await f.api('POST', '/api/reservation/success', { paymentId, resultToken })
  assert.equal([shown.body.data.status, shown.body.data.reservation.status], ['APPROVED', 1])
  assert.is((await reservation(res.id)).status, 1)
})

t('a validation timeout leaves the payment pending (never declined); the next IPN confirms it', async () => {
  const { p, res, paymentId } = await cardPayment(1)
  ssl.delayMs = 1500
  const paid = ssl.pay(paymentId)
  const back = await browser('success', paid.fields)
  assert.equal(back, { status: 303, location: `${APP}/reservation/success?paymentId=${paymentId}` })
  assert.is((await row(paymentId)).status, 'PENDING')
  assert.ok(
    logs.some((l) => l.includes(redactPaymentId(paymentId)) && l.includes('stays pending') && l.includes('no answer within 400 ms')),
    logs.join('\n'),
  )
  const shown = await f.api('POST', '/api/reservation/success', { paymentId }, { token: p.token })
  assert.equal([shown.body.data.status, shown.body.data.reservation.status], ['PENDING', 2])
  // The failure page does not decline what the gateway could not be asked about.
  const failure = await f.api('POST', '/api/reservation/failure', { paymentId })
  assert.is(failure.body.data.status, 'PENDING')
  ssl.delayMs = 0
  // The store was asked a moment ago: the gateway is asked again only after ASK_INTERVAL_MS.
  f.advance(1)
  await ssl.sendIpn(paymentId)
  assert.is((await reservation(res.id)).status, 1)
})

t('the gateway failing (HTTP 500, dropped connection) keeps payments pending; the reconciliation pass settles them a minute later', async () => {
  const a = await cardPayment(1)
  const b = await topUp(700)
  const paidA = ssl.pay(a.paymentId)
  ssl.pay(b.paymentId)
  ssl.failWith = 500
  await browser('success', paidA.fields)
  ssl.failWith = 'drop'
  await ssl.sendIpn(b.paymentId)
  assert.equal([(await row(a.paymentId)).status, (await row(b.paymentId)).status], ['PENDING', 'PENDING'])
  assert.ok(logs.some((l) => l.includes('HTTP 500')))
  ssl.failWith = null
  // Too recent: the callbacks may still come.
  await gateway().reconcile()
  assert.equal([(await row(a.paymentId)).checked_at, (await row(b.paymentId)).checked_at], [null, null])
  f.advance(2)
  assert.ok((await gateway().reconcile()) >= 2)
  assert.is((await reservation(a.res.id)).status, 1)
  assert.is(await balanceOf(b.p.id), 700)
  const queries = ssl.calls.query
  await gateway().reconcile()
  assert.is(ssl.calls.query, queries, 'nothing is asked about twice within a minute')
})

t(
  'no callback ever: paid payments are confirmed by reconciliation, unpaid ones declined after an hour; money taken after that is not lost',
  async () => {
    const paid = await cardPayment(1)
    const abandoned = await cardPayment(1)
    ssl.pay(paid.paymentId)
    f.advance(2)
    await gateway().reconcile()
    assert.is((await reservation(paid.res.id)).status, 1)
    assert.is((await row(abandoned.paymentId)).status, 'PENDING', 'not paid yet, not old enough to give up')
    f.advance(30)
    await gateway().reconcile()
    assert.is((await row(abandoned.paymentId)).status, 'PENDING')
    f.advance(31)
    await gateway().reconcile()
    const gone = await row(abandoned.paymentId)
    assert.is(gone.status, 'DECLINED')
    assert.match(gone.decline_reason!, 'no payment at the gateway 60 minutes after it was opened')
    // The passenger pays in a tab left open: the booking has ended, so the amount goes back to the card (issue 22.2).
    f.advance(1)
    ssl.pay(abandoned.paymentId)
    await ssl.sendIpn(abandoned.paymentId)
    const late = await row(abandoned.paymentId)
    assert.equal([late.status, late.refunded, !!late.confirmed_at], ['APPROVED', true, true])
    const page = await f.api('POST', '/api/reservation/success', { paymentId: abandoned.paymentId }, { token: abandoned.p.token })
    assert.equal([page.body.data.status, page.body.data.reservation.status, page.body.data.balance], ['APPROVED', 5, 0])
    assert.equal(await refundOf(abandoned.paymentId), { amount: abandoned.res.fare.total, reason: 'BOOKING_ENDED' })
    await ssl.sendIpn(abandoned.paymentId)
    assert.is(await balanceOf(abandoned.p.id), 0)
    assert.equal(await refundOf(abandoned.paymentId), { amount: abandoned.res.fare.total, reason: 'BOOKING_ENDED' }, 'refunded once')
  },
)

t("fail and cancel decline the payment on the gateway's answer (the booking stays payable); the failure page never declines", async () => {
  const failed = await cardPayment(1)
  const fields = ssl.giveUp(failed.paymentId, 'FAILED')
  assert.equal(await browser('fail', fields), { status: 303, location: `${APP}/reservation/failure?paymentId=${failed.paymentId}` })
  const r1 = await row(failed.paymentId)
  assert.equal([r1.status, r1.decline_reason], ['DECLINED', 'failed at the gateway (transactions at the gateway: FAILED)'])
  const shown = await f.api('POST', '/api/reservation/failure', { paymentId: failed.paymentId }, { token: failed.p.token })
  assert.equal([shown.body.data.status, shown.body.data.reservation.status], ['DECLINED', 2])
  const retry = await f.api('POST', '/api/reservation/payment', { reservationId: failed.res.id }, { token: failed.p.token })
  assert.ok(retry.body.data.paymentId !== failed.paymentId)

  const cancelled = await topUp(900)
  assert.equal(await browser('cancel', ssl.giveUp(cancelled.paymentId, 'CANCELLED')), {
    status: 303,
    location: `${APP}/profile?topUp=${cancelled.paymentId}&result=failure`,
  })
  assert.is((await row(cancelled.paymentId)).status, 'DECLINED')

  // Paid, but the passenger pressed back and reached the failure page: the gateway says paid, so it is sold.
  const paidAnyway = await cardPayment(1)
  ssl.pay(paidAnyway.paymentId)
  const page = await f.api('POST', '/api/reservation/failure', { paymentId: paidAnyway.paymentId }, { token: paidAnyway.p.token })
  assert.equal([page.body.data.status, page.body.data.reservation.status], ['APPROVED', 1])

  // A cancel return whose transaction the gateway does not list as failed declines nothing.
  const open = await cardPayment(1)
  await browser('cancel', ssl.sign({ tran_id: open.paymentId, status: 'CANCELLED' }))
  assert.is((await row(open.paymentId)).status, 'PENDING', 'no failed transaction at the gateway')
})

t(
  'forged returns: unsigned forms are dropped unasked; a signed answer about another tran_id never declines; the real payment goes through once',
  async () => {
    const victim = await cardPayment(1)
    const calls = { ...ssl.calls }
    const forged = await browser('success', {
      tran_id: victim.paymentId,
      val_id: 'FAKE0123456789',
      status: 'VALID',
      amount: `${victim.res.fare.total}.00`,
      currency: 'BDT',
      risk_level: '0',
    })
    assert.equal(forged, { status: 303, location: `${APP}/reservation/success?paymentId=${victim.paymentId}` })
    assert.equal([(await row(victim.paymentId)).status, (await reservation(victim.res.id)).status], ['PENDING', 2])
    const ipn = await fetch(`${publicUrl}/gateway/sslcommerz/ipn`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tran_id: victim.paymentId, val_id: 'FAKE0123456789', status: 'VALID' }).toString(),
    })
    assert.is(ipn.status, 403)
    assert.is((await reservation(victim.res.id)).status, 2)

    // The forger pays 10 Tk for their own top-up and posts that real, signed form with the victim's tran_id.
    const own = await topUp(10)
    const cheap = ssl.pay(own.paymentId)
    await browser('success', { ...cheap.fields, tran_id: victim.paymentId })
    // ...or leaves tran_id out of verify_key, so the signature would still match the rest.
    const unsignedTran = { ...cheap.fields, tran_id: victim.paymentId, verify_key: cheap.fields.verify_key!.replace(/(^|,)tran_id(?=,|$)/, '') }
    await browser('success', unsignedTran)
    await fetch(`${publicUrl}/gateway/sslcommerz/ipn`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(unsignedTran).toString(),
    })
    assert.equal([ssl.calls.validation, ssl.calls.query], [calls.validation, calls.query], 'SSLCommerz was not asked')
    assert.is((await row(victim.paymentId)).status, 'PENDING')
    assert.ok(logs.some((l) => l.includes(redactPaymentId(victim.paymentId)) && l.includes('without a valid SSLCommerz signature')))

    // Even a correctly signed form naming the victim's tran_id with the forger's val_id: the validated
    // answer is about another transaction, so it is ignored, never used to decline this payment.
    await browser('success', ssl.sign({ tran_id: victim.paymentId, val_id: cheap.valId, status: 'VALID' }))
    const r = await row(victim.paymentId)
    assert.equal([r.status, r.decline_reason], ['PENDING', null])
    assert.is((await reservation(victim.res.id)).status, 2)
    // The victim pays for real (a moment later): applied once.
    f.advance(1)
    ssl.pay(victim.paymentId)
    await ssl.sendIpn(victim.paymentId)
    const sold = await reservation(victim.res.id)
    assert.is(sold.status, 1)
    assert.is(await messagesWith(sold.pnr!), 2)

    // Unknown or malformed returns go to the failure page; an IPN about nothing signed is refused.
    assert.equal(await browser('success', { tran_id: 'pay_nobody', val_id: 'X1' }), { status: 303, location: `${APP}/reservation/failure` })
    assert.equal(await browser('cancel', { tran_id: '<script>' }), { status: 303, location: `${APP}/reservation/failure` })
    const none = await fetch(`${publicUrl}/gateway/sslcommerz/ipn`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'status=VALID',
    })
    assert.is(none.status, 403)
    const signedNobody = await fetch(`${publicUrl}/gateway/sslcommerz/ipn`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(ssl.sign({ tran_id: 'pay_nobody', status: 'VALID' })).toString(),
    })
    assert.is(signedNobody.status, 200)
  },
)

t('issue 21.5: 100 forged IPNs (random val_id, no or a wrong signature) make no call to SSLCommerz, each dropped with a log line', async () => {
  const { paymentId } = await topUp(50)
  const before = { ...ssl.calls }
  const forge = (i: number) => {
    const fields: Record<string, string> = {
      tran_id: paymentId,
      val_id: `V${i}${Math.random().toString(36).slice(2, 12)}`,
      status: 'VALID',
      amount: '50.00',
    }
    if (i % 2) Object.assign(fields, { verify_key: 'amount,status,tran_id,val_id', verify_sign: 'a'.repeat(32) })
    return fetch(`${publicUrl}/gateway/sslcommerz/ipn`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }).then(async (r) => {
      await r.text()
      return r.status
    })
  }
  const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) => forge(i)))
  assert.ok(
    statuses.every((x) => x === 403),
    String(statuses),
  )
  assert.equal([ssl.calls.validation - before.validation, ssl.calls.query - before.query], [0, 0])
  assert.is(logs.filter((l) => l.includes(redactPaymentId(paymentId)) && l.includes('without a valid SSLCommerz signature')).length, 100)
  assert.is((await row(paymentId)).status, 'PENDING')
})

t('issue 21.5: 100 signed IPNs for one payment within a few seconds make one validation call; a while later it may ask again', async () => {
  const { p, paymentId } = await topUp(300)
  ssl.pay(paymentId)
  const before = { ...ssl.calls }
  const statuses = await Promise.all(Array.from({ length: 100 }, () => ssl.sendIpn(paymentId)))
  assert.ok(statuses.every((x) => x === 200))
  assert.equal([ssl.calls.validation - before.validation, ssl.calls.query - before.query], [1, 0])
  // (Under load that one call may time out: the payment then waits, pending, for a later callback.)
  f.advance(1)
  await ssl.sendIpn(paymentId)
  assert.is(await balanceOf(p.id), 300)

  // The gateway failing: IPNs one after another still ask once per ASK_INTERVAL_MS.
  const other = await topUp(400)
  ssl.pay(other.paymentId)
  ssl.failWith = 500
  const mid = { ...ssl.calls }
  for (let i = 0; i < 20; i++) await ssl.sendIpn(other.paymentId)
  assert.is(ssl.calls.validation - mid.validation, 1)
  assert.is((await row(other.paymentId)).status, 'PENDING')
  ssl.failWith = null
  f.advance(1)
  await ssl.sendIpn(other.paymentId)
  assert.is(ssl.calls.validation - mid.validation, 2)
  assert.is(await balanceOf(other.p.id), 400)
})

t('two tabs paid: the first payment sells the ticket, the other is declined and its money goes back to the card', async () => {
  const first = await cardPayment(1)
  // The passenger cancels in one tab and opens a new payment...
  await browser('cancel', ssl.giveUp(first.paymentId, 'CANCELLED'))
  f.advance(1)
  const second = await f.api('POST', '/api/reservation/payment', { reservationId: first.res.id }, { token: first.p.token })
  const secondId: string = second.body.data.paymentId
  assert.ok(secondId !== first.paymentId)
  // ...but still pays in the first tab, then in the second.
  ssl.pay(first.paymentId)
  await ssl.sendIpn(first.paymentId)
  const sold = await reservation(first.res.id)
  assert.is(sold.status, 1)
  const other = await row(secondId)
  assert.equal([other.status, other.decline_reason], ['DECLINED', 'replaced: the booking changed or was paid another way'])
  ssl.pay(secondId)
  await ssl.sendIpn(secondId)
  const refunded = await row(secondId)
  assert.equal([refunded.status, refunded.refunded], ['APPROVED', true])
  assert.equal(await ledgerOf(first.p.id), [])
  assert.equal(await refundOf(secondId), { amount: first.res.fare.total, reason: 'BOOKING_ENDED' })
  assert.is(await messagesWith(sold.pnr!), 2)
})

t('a payment whose session never got its page (the process died while opening it) is replaced by the next click', async () => {
  const p = await f.passenger()
  const res = await lockAndBook(f, p, await nextTrip(), 1)
  await f.db.query(
    "INSERT INTO payments (id, purpose, reservation_id, passenger_id, amount, created_at, provider) VALUES ('pay_openedThenCrashed0001', 'RESERVATION', $1, $2, $3, $4, 'sslcommerz')",
    [res.id, p.id, res.fare.total, new Date(f.now().getTime() - 60_000)],
  )
  const r = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  assert.is(r.status, 200)
  assert.ok(r.body.data.paymentId !== 'pay_openedThenCrashed0001')
  assert.match(r.body.data.redirectUrl, ssl.url)
  assert.is((await row('pay_openedThenCrashed0001')).status, 'DECLINED')
})

t('the session API refusing: PAYMENT_GATEWAY_UNAVAILABLE, the payment declined with the reason, a later try works', async () => {
  const p = await f.passenger()
  const res = await lockAndBook(f, p, await nextTrip(), 1)
  ssl.refuseSessions = 'Store is De-active'
  const r = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  assert.equal([r.status, code(r)], [503, 'PAYMENT_GATEWAY_UNAVAILABLE'])
  const [declined] = await f.db.query<PaymentRow>('SELECT * FROM payments WHERE reservation_id = $1', [res.id])
  assert.equal([declined!.status, declined!.decline_reason], ['DECLINED', 'the session was not opened: Store is De-active'])
  const t2 = await f.api('POST', '/api/account/topUp', { amount: 100 }, { token: p.token })
  assert.equal([t2.status, code(t2)], [503, 'PAYMENT_GATEWAY_UNAVAILABLE'])
  ssl.refuseSessions = null
  const ok = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  assert.is(ok.status, 200)
  assert.match(ok.body.data.redirectUrl, ssl.url)
})

t('with SSLCommerz configured the sandbox page does not exist', async () => {
  const { paymentId } = await topUp(500)
  for (const method of ['GET', 'POST'] as const) {
    const r = await f.app.inject({
      method,
      url: `/sandbox/gateway/${paymentId}`,
      ...(method === 'POST' ? { payload: 'decision=approve', headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}),
    })
    assert.is(r.statusCode, 404)
  }
  assert.is((await row(paymentId)).status, 'PENDING')
})

t.run()
