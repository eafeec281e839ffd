/**
 * Refunds to the card (providers issue 22, section 2), on PGlite against the SSLCommerz
 * stand-in: bank_tran_id kept at validation; a cancelled card-paid ticket refunded to the
 * card through the refund API (refund_trans_id, polled until refunded), once whatever the
 * retries; REFUND_TO=balance keeps the balance; a refused refund retried, then FAILED and
 * listed for the operator; the operator's trip cancel refunds to the card the same way; the
 * sandbox gateway records its refunds; the passenger reads where the money goes.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { refunderFor } from '../bookings/gateways/index.ts'
import { allRefunds, recordManualRefund, refundPass, retryRefund, type RefundRow } from '../bookings/refunds.ts'
import { describeAllRefunds, describeReconciliation } from '../commands/refund-command.ts'
import { parseTripCommand } from '../commands/trip-command.ts'
import { cancelTrip } from '../bookings/trip-changes.ts'
import { renderCancelSms, renderTripChangeSms } from '../delivery/ticket-messages.ts'
import { sslcommerzApi } from '../bookings/gateways/sslcommerz-api.ts'
import { reconcileDay } from '../bookings/reconcile-day.ts'
import { createMetrics } from '../http/metrics.ts'
import { addDays, dhakaDate } from '../lib/time.ts'
import type { PaymentRow } from '../bookings/payment-row.ts'
import { declineReviewedPayment } from '../bookings/payments.ts'
import { lastCode, lockAndBook, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { freePort } from '../../harness/spawn-server.ts'
import { startStandIn, type StandIn } from '../test/sslcommerz-standin.ts'

const t = suite('refunds to the card through SSLCommerz (PGlite)')
let f: Fixture
let ssl: StandIn
let trips = 0
const logs: string[] = []
const log = (l: string) => void logs.push(l)

t.before(async () => {
  ssl = await startStandIn()
  const port = await freePort()
  f = await openFixture({
    // noon in Dhaka: the minutes the tests move the clock never cross a Dhaka midnight, which reconcile's day would see
    now: new Date(`${dhakaDate(new Date())}T12:00:00+06:00`),
    config: {
      payment: { provider: 'sslcommerz', storeId: ssl.storeId, storePassword: ssl.storePassword, apiUrl: ssl.url, timeoutMs: 2000 },
      publicUrl: `http://127.0.0.1:${port}`,
      appUrl: 'http://app.test',
      refundRetrySeconds: 60,
      refundMaxAttempts: 3,
    },
  })
  await f.app.listen({ port, host: '127.0.0.1' })
})
t.after(async () => {
  await f.close()
  await ssl.close()
})
t.before.each(() => {
  ssl.refuseRefunds = null
  ssl.cancelRefunds = false
  ssl.refundQueriesProcessing = 1
  f.deps.config.refundTo = 'card'
})

const pass = () => refundPass(f.deps, refunderFor(f.deps), log)
const refundsOf = (reservationId: number) => f.db.query<RefundRow>('SELECT * FROM refunds WHERE reservation_id = $1', [reservationId])
const payment = async (id: string) => (await f.db.query<PaymentRow>('SELECT * FROM payments WHERE id = $1', [id]))[0]!
const balanceOf = async (id: number) => (await f.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [id]))[0]!.balance
const refundLedger = (id: number) => f.db.query("SELECT amount FROM ledger WHERE passenger_id = $1 AND kind = 'REFUND'", [id])

/** A ticket of `seats` seats paid by card at the stand-in, 72+ hours before departure (10% charge). */
async function cardTicket(seats = 1) {
  const p = await f.passenger()
  const trip = await pickTrip(f, { minHours: 80, skip: trips++ * 3 + 1 })
  const booked = await lockAndBook(f, p, trip, seats)
  const open = await f.api('POST', '/api/reservation/payment', { reservationId: booked.id }, { token: p.token })
  assert.is(open.status, 200, JSON.stringify(open.body))
  const paymentId: string = open.body.data.paymentId
  ssl.pay(paymentId)
  assert.is(await ssl.sendIpn(paymentId), 200)
  const view = await f.api('GET', `/api/reservation/details/${booked.id}`, undefined, { token: p.token })
  assert.equal([view.body.data.status, view.body.data.paymentMethod], [1, 'CARD'])
  return {
    p,
    id: booked.id as number,
    pnr: view.body.data.pnr as string,
    pin: view.body.data.pin as string,
    total: view.body.data.fare.total as number,
    seats: view.body.data.seats as { name: string; fare: number }[],
    paymentId,
  }
}

/** Cancels a ticket (or its seats `seats`, comma-separated) with its SMS code, as the passenger does; answers the cancel response. */
async function cancel(tk: { p: { mobile: string }; pnr: string; pin: string }, seats?: string) {
  const query = seats ? `?seats=${seats}` : ''
  const init = await f.api('GET', `/api/reservation/cancelInitialize/${tk.pnr}/${tk.pin}${query}`)
  assert.is(init.status, 200, JSON.stringify(init.body))
  const otp = await lastCode(f, tk.p.mobile)
  const r = await f.api('GET', `/api/reservation/cancel/${tk.pnr}/${tk.pin}/${otp}${query}`)
  return { init: init.body.data, r }
}

t("the validation answer's bank_tran_id and amounts are stored with the payment", async () => {
  const tk = await cardTicket()
  const p = await payment(tk.paymentId)
  const bank = ssl.sessions.get(tk.paymentId)!.transactions[0]!.bankTranId
  assert.equal([p.bank_tran_id, p.gateway_amount], [bank, `${tk.total}.00`])
  assert.ok(p.store_amount)
})

t('cancelling a card-paid ticket refunds the refund amount to the card: refund API, then polled until refunded; nothing to the balance', async () => {
  const tk = await cardTicket()
  const { init, r } = await cancel(tk)
  assert.is(r.status, 200, JSON.stringify(r.body))
  const refund: number = init.refundAmount
  assert.ok(refund > 0 && refund < tk.total)
  assert.equal([init.refundTo, init.policy.includes('goes back to the card or mobile wallet you paid with')], ['CARD', true])
  assert.equal(r.body.data.refund, { to: 'CARD', amount: refund, status: 'PROCESSING', refundedAt: null })
  const [row] = await refundsOf(tk.id)
  assert.equal([row!.status, row!.amount, row!.reason, row!.payment_id], ['PENDING', refund, 'TICKET_CANCELED', tk.paymentId])

  assert.is(await pass(), 1)
  const sent = ssl.refunds.get(row!.id)!
  assert.ok(sent, 'refund_trans_id is our refund id')
  const bank = ssl.sessions.get(tk.paymentId)!.transactions[0]!.bankTranId
  assert.equal([sent.bankTranId, sent.amount, sent.refeId], [bank, `${refund}.00`, tk.paymentId])
  assert.match(sent.remarks, 'Ticket cancelled')
  let [after] = await refundsOf(tk.id)
  assert.equal([after!.status, after!.refund_ref_id], ['SENT', sent.refundRefId])

  // polled: processing first, then refunded
  assert.is(await pass(), 0, 'not due before its poll time')
  f.advance(2)
  await pass()
  ;[after] = await refundsOf(tk.id)
  assert.is(after!.status, 'SENT')
  f.advance(2)
  await pass()
  ;[after] = await refundsOf(tk.id)
  assert.is(after!.status, 'DONE')
  assert.ok(after!.done_at)
  assert.is(ssl.refunds.size >= 1 && [...ssl.refunds.values()].filter((x) => x.tranId === tk.paymentId).length, 1)

  assert.is(await balanceOf(tk.p.id), 0, 'nothing credited to the balance')
  assert.equal(await refundLedger(tk.p.id), [])
  const view = await f.api('GET', `/api/reservation/details/${tk.id}`, undefined, { token: tk.p.token })
  assert.equal([view.body.data.refund.to, view.body.data.refund.status, view.body.data.refund.amount], ['CARD', 'REFUNDED', refund])
  assert.match(view.body.data.refund.refundedAt, /^\d{4}-\d{2}-\d{2}T/)
  const sms = await f.db.query<{ body: string }>(`SELECT body FROM outbox_messages WHERE channel = 'SMS' AND body LIKE $1`, [`%${tk.pnr}%cancelled%`])
  assert.is(sms.length, 1)
  assert.match(sms[0]!.body, 'refunded to the card you paid with')
  // the same notice in Bengali, and a balance refund still says balance
  assert.match(renderCancelSms(view.body.data, 'bn', refund, 'CARD'), 'কার্ডে')
  assert.match(renderCancelSms(view.body.data, 'en', refund, 'BALANCE'), 'refunded to your balance')
  // the SMS writes amounts as the pages do (contract/money.ts): "1,234 Tk", Bengali digits grouped by threes
  assert.match(renderCancelSms(view.body.data, 'en', 1234, 'CARD'), '1,234 Tk')
  assert.match(renderCancelSms(view.body.data, 'bn', 123456, 'CARD'), '১২৩,৪৫৬ টাকা')
})

t('idempotent: a second cancel refunds nothing; a retry after a lost answer is the same refund at SSLCommerz; passes racing send once', async () => {
  const tk = await cardTicket()
  const { r } = await cancel(tk)
  assert.is(r.status, 200)
  const again = await f.api('GET', `/api/reservation/cancel/${tk.pnr}/${tk.pin}/000000`)
  assert.is(again.body.error.code, 'RESERVATION_NOT_CANCELLABLE')
  const before = ssl.calls.refund
  await Promise.all([pass(), pass(), pass()])
  assert.is(ssl.calls.refund - before, 1, 'three passes at once: one refund request')
  const [row] = await refundsOf(tk.id)
  // The answer was lost (the process died before recording it): the row is sent again, under the same refund_trans_id.
  await f.db.query("UPDATE refunds SET status = 'PENDING', refund_ref_id = NULL, next_attempt_at = $2 WHERE id = $1", [row!.id, f.now()])
  await pass()
  const [resent] = await refundsOf(tk.id)
  assert.equal([resent!.status, resent!.refund_ref_id], ['SENT', ssl.refunds.get(row!.id)!.refundRefId])
  assert.is([...ssl.refunds.values()].filter((x) => x.tranId === tk.paymentId).length, 1, 'SSLCommerz refunded once')
  // the unique key: no second refund row for the payment, whatever writes it
  const dup = await f.db
    .query(
      "INSERT INTO refunds (id, payment_id, provider, amount, reason, next_attempt_at, created_at) VALUES ('rf_dup', $1, 'sslcommerz', 10, 'TICKET_CANCELED', now(), now())",
      [tk.paymentId],
    )
    .then(
      () => 'inserted',
      () => 'refused',
    )
  assert.is(dup, 'refused')
})

t(
  'cancelling some seats of a card-paid ticket refunds their part to the card, then the last seat the rest: two refunds of one payment, never more than it took',
  async () => {
    const tk = await cardTicket(2)
    const [gone, kept] = tk.seats
    const some = await cancel(tk, gone!.name)
    assert.is(some.r.status, 200, JSON.stringify(some.r.body))
    assert.equal([some.r.body.data.status, some.r.body.data.seats.map((s: { name: string }) => s.name)], [1, [kept!.name]])
    assert.is(some.init.refundAmount, gone!.fare - Math.round(gone!.fare / 10))
    let rows = await refundsOf(tk.id)
    assert.equal(
      rows.map((x) => [x.amount, x.payment_id, x.status]),
      [[some.init.refundAmount, tk.paymentId, 'PENDING']],
    )
    f.advance(4)
    const rest = await cancel(tk, kept!.name)
    assert.is(rest.r.status, 200, JSON.stringify(rest.r.body))
    assert.is(rest.r.body.data.status, 5)
    rows = await refundsOf(tk.id)
    assert.equal(rows.map((x) => x.amount).sort(), [some.init.refundAmount, rest.init.refundAmount].sort())
    assert.ok(some.init.refundAmount + rest.init.refundAmount <= tk.total)
    // both go to SSLCommerz against the one transaction, each with its own refund_trans_id
    assert.ok((await pass()) >= 2, 'both parts sent (with any other refund due)')
    const atGateway = [...ssl.refunds.values()].filter((x) => x.tranId === tk.paymentId)
    assert.equal(atGateway.map((x) => x.amount).sort(), [`${some.init.refundAmount}.00`, `${rest.init.refundAmount}.00`].sort())
    assert.is(await balanceOf(tk.p.id), 0, 'nothing credited to the balance')
  },
)

t('REFUND_TO=balance: a card-paid ticket is refunded to the balance as before, nothing sent to SSLCommerz', async () => {
  f.deps.config.refundTo = 'balance'
  const tk = await cardTicket()
  const { init, r } = await cancel(tk)
  assert.is(r.status, 200)
  assert.equal([init.refundTo, init.policy.endsWith('The refund goes to your account balance.')], ['BALANCE', true])
  assert.equal(r.body.data.refund, { to: 'BALANCE', amount: init.refundAmount, status: 'REFUNDED', refundedAt: r.body.data.canceledAt })
  assert.equal(await refundsOf(tk.id), [])
  assert.is(await balanceOf(tk.p.id), init.refundAmount)
})

t('a refund SSLCommerz refuses is retried with backoff, then FAILED: shown to the passenger and listed by npm run trip -- refunds', async () => {
  ssl.refuseRefunds = 'Insufficient merchant balance'
  const tk = await cardTicket()
  const { r } = await cancel(tk)
  assert.is(r.status, 200)
  await pass()
  let [row] = await refundsOf(tk.id)
  assert.equal([row!.status, row!.attempts], ['PENDING', 1])
  assert.match(row!.last_error!, 'Insufficient merchant balance')
  assert.ok(
    (await allRefunds(f.db)).some((x) => x.id === row!.id && x.status === 'PENDING'),
    'listed while retried',
  )
  f.advance(1)
  await pass()
  ;[row] = await refundsOf(tk.id)
  assert.is(row!.attempts, 2, 'retried after REFUND_RETRY_SECONDS')
  f.advance(1)
  await pass()
  ;[row] = await refundsOf(tk.id)
  assert.is(row!.attempts, 2, 'the second retry waits twice as long')
  f.advance(1)
  await pass()
  ;[row] = await refundsOf(tk.id)
  assert.equal([row!.status, row!.attempts], ['FAILED', 3])
  const view = await f.api('GET', `/api/reservation/details/${tk.id}`, undefined, { token: tk.p.token })
  assert.is(view.body.data.refund.status, 'FAILED')
  const text = describeAllRefunds(await allRefunds(f.db), f.now())
  const line = text.split('\n').find((l) => l.includes(row!.id))!
  assert.match(line, `PNR ${tk.pnr}`)
  assert.match(line, `Tk ${row!.amount}`)
  assert.match(line, 'sslcommerz')
  assert.match(line, 'Insufficient merchant balance')
  assert.equal(parseTripCommand(['refunds']), { kind: 'refunds', status: null })
  assert.is(await balanceOf(tk.p.id), 0, 'never credited to the balance meanwhile')
})

t('a refund SSLCommerz accepts and then cancels is FAILED for the operator', async () => {
  ssl.cancelRefunds = true
  const tk = await cardTicket()
  await cancel(tk)
  await pass()
  f.advance(2)
  await pass()
  const [row] = await refundsOf(tk.id)
  assert.equal([row!.status], ['FAILED'])
  assert.match(row!.last_error!, 'cancelled')
})

t("the operator's trip cancel refunds a card-paid ticket in full to the card, not to the balance", async () => {
  const tk = await cardTicket()
  const [trip] = await f.db.query<{ trip_id: number }>('SELECT trip_id FROM reservations WHERE id = $1', [tk.id])
  await cancelTrip(f.deps, trip!.trip_id, 'Flood on the highway')
  const [row] = await refundsOf(tk.id)
  assert.equal([row!.amount, row!.reason, row!.status], [tk.total, 'TRIP_CANCELED', 'PENDING'])
  assert.equal(await refundLedger(tk.p.id), [])
  await pass()
  assert.is([...ssl.refunds.values()].find((x) => x.tranId === tk.paymentId)!.amount, `${tk.total}.00`)
  const sms = await f.db.query<{ body: string }>(`SELECT body FROM outbox_messages WHERE channel = 'SMS' AND body LIKE $1`, [
    `%cancelled the trip%${tk.pnr}%`,
  ])
  assert.match(sms[0]!.body, 'refunded to the card you paid with')
})

t('a payment the operator declines under review is refunded in full to the card', async () => {
  const p = await f.passenger()
  const booked = await lockAndBook(f, p, await pickTrip(f, { minHours: 80, skip: trips++ * 3 + 1 }), 1)
  const open = await f.api('POST', '/api/reservation/payment', { reservationId: booked.id }, { token: p.token })
  const paymentId: string = open.body.data.paymentId
  ssl.pay(paymentId, { risk: 1 })
  assert.is(await ssl.sendIpn(paymentId), 200)
  assert.is((await payment(paymentId)).status, 'REVIEW')
  const declined = await declineReviewedPayment(f.deps, paymentId, 'card reported stolen')
  assert.equal([declined.status, declined.refunded], ['DECLINED', true])
  const [row] = await f.db.query<RefundRow>('SELECT * FROM refunds WHERE payment_id = $1', [paymentId])
  assert.equal([row!.amount, row!.reason], [declined.amount, 'REVIEW_DECLINED'])
  await pass()
  const sent = ssl.refunds.get(row!.id)!
  assert.equal([sent.amount, sent.bankTranId], [`${declined.amount}.00`, ssl.sessions.get(paymentId)!.transactions[0]!.bankTranId])
  assert.is(await balanceOf(p.id), 0)
})

const sandbox = suite('refunds with the sandbox gateway (development)')
let g: Fixture
sandbox.before(async () => {
  g = await openFixture({ config: { payment: { provider: 'sandbox' } } })
})
sandbox.after(async () => {
  await g.close()
})

sandbox('a sandbox card payment is refunded through the same path and recorded as refunded', async () => {
  const p = await g.passenger()
  const booked = await lockAndBook(g, p, await pickTrip(g, { minHours: 80, skip: 4 }), 1)
  const open = await g.api('POST', '/api/reservation/payment', { reservationId: booked.id }, { token: p.token })
  const paid = await g.app.inject({
    method: 'POST',
    url: `/sandbox/gateway/${open.body.data.paymentId}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'decision=approve',
  })
  assert.is(paid.statusCode, 303)
  const view = await g.api('GET', `/api/reservation/details/${booked.id}`, undefined, { token: p.token })
  const init = await g.api('GET', `/api/reservation/cancelInitialize/${view.body.data.pnr}/${view.body.data.pin}`)
  const r = await g.api('GET', `/api/reservation/cancel/${view.body.data.pnr}/${view.body.data.pin}/${await lastCode(g, p.mobile)}`)
  assert.is(r.status, 200, JSON.stringify(r.body))
  assert.is(await refundPass(g.deps, refunderFor(g.deps), log), 1)
  const [row] = await g.db.query<RefundRow>('SELECT * FROM refunds WHERE reservation_id = $1', [booked.id])
  assert.equal([row!.status, row!.provider, row!.amount], ['DONE', 'sandbox', init.body.data.refundAmount])
  assert.match(row!.refund_ref_id!, /^sandbox-rf_/)
  const after = await g.api('GET', `/api/reservation/details/${booked.id}`, undefined, { token: p.token })
  assert.equal([after.body.data.refund.to, after.body.data.refund.status], ['CARD', 'REFUNDED'])
})

/** A refund of a card ticket driven to FAILED: refused by SSLCommerz until REFUND_MAX_ATTEMPTS (3 here). */
async function failedRefund(how: 'refused' | 'cancelled') {
  if (how === 'refused') ssl.refuseRefunds = 'Insufficient merchant balance'
  else ssl.cancelRefunds = true
  const tk = await cardTicket()
  await cancel(tk)
  for (let i = 0; i < 6 && (await refundsOf(tk.id))[0]!.status !== 'FAILED'; i++) {
    await pass()
    f.advance(5)
  }
  const [row] = await refundsOf(tk.id)
  assert.is(row!.status, 'FAILED')
  ssl.refuseRefunds = null
  ssl.cancelRefunds = false
  return { tk, row: row! }
}

t(
  'a FAILED refund the operator retries goes back to the worker and is refunded; one SSLCommerz had cancelled goes with a new refund_trans_id',
  async () => {
    const refused = await failedRefund('refused')
    const retried = await retryRefund(f.db, refused.row.id, 'Rahim (ops)', f.now())
    assert.equal(typeof retried === 'object' && [retried.status, retried.attempts, retried.retried_by], ['PENDING', 0, 'Rahim (ops)'])
    await pass()
    assert.equal(ssl.refunds.get(refused.row.id)?.amount, `${refused.row.amount}.00`, 'sent again under its own refund_trans_id')
    f.advance(2)
    await pass()
    f.advance(2)
    await pass()
    assert.is((await refundsOf(refused.tk.id))[0]!.status, 'DONE')
    assert.is(await retryRefund(f.db, refused.row.id, 'Rahim', f.now()), 'NOT_FAILED', 'only a FAILED refund is retried')
    assert.is(await retryRefund(f.db, 'rf_nosuchrefund', 'Rahim', f.now()), 'NOT_FOUND')

    const cancelled = await failedRefund('cancelled')
    assert.ok(cancelled.row.refund_ref_id, 'SSLCommerz had accepted it')
    await retryRefund(f.db, cancelled.row.id, 'Karim', f.now())
    await pass()
    const again = ssl.refunds.get(`${cancelled.row.id}-1`)
    assert.ok(again, 'a new refund_trans_id: the cancelled one is finished at SSLCommerz')
    const [row] = await refundsOf(cancelled.tk.id)
    assert.equal([row!.status, row!.refund_ref_id, row!.retry_round], ['SENT', again!.refundRefId, 1])
  },
)

t(
  'a FAILED refund recorded as done by hand keeps its reference and who did it, is never sent again, and the passenger reads it refunded',
  async () => {
    const { tk, row } = await failedRefund('refused')
    const sent = ssl.calls.refund
    const done = await recordManualRefund(f.db, row.id, { reference: 'DBBL transfer TX-99812', by: 'Nasrin', now: f.now() })
    assert.equal(typeof done === 'object' && [done.status, done.manual_ref, done.manual_by], ['DONE', 'DBBL transfer TX-99812', 'Nasrin'])
    f.advance(10)
    await pass()
    assert.is(ssl.calls.refund, sent, 'nothing sent to SSLCommerz')
    assert.is(await retryRefund(f.db, row.id, 'Nasrin', f.now()), 'NOT_FAILED')
    assert.is(await recordManualRefund(f.db, row.id, { reference: 'again', by: 'Nasrin', now: f.now() }), 'NOT_FAILED')
    const view = await f.api('GET', `/api/reservation/details/${tk.id}`, undefined, { token: tk.p.token })
    assert.equal([view.body.data.refund.to, view.body.data.refund.status], ['CARD', 'REFUNDED'])
    const text = describeAllRefunds(await allRefunds(f.db), f.now())
    assert.match(text.split('\n').find((l) => l.includes(row.id))!, 'by hand, ref DBBL transfer TX-99812, by Nasrin')
  },
)

t('refunds lists every refund by status with its age: FAILED, PENDING, SENT (processing, however long) and DONE', async () => {
  const tk = await cardTicket()
  await cancel(tk)
  await pass()
  const [sent] = await refundsOf(tk.id)
  assert.is(sent!.status, 'SENT')
  const rows = await allRefunds(f.db)
  assert.equal(
    [...new Set(rows.map((x) => x.status))],
    ['FAILED', 'PENDING', 'SENT', 'DONE'].filter((x) => rows.some((y) => y.status === x)),
    'grouped by status, FAILED first',
  )
  const later = new Date(f.now().getTime() + (3 * 24 + 4) * 3_600_000)
  const text = describeAllRefunds(rows, later)
  const counts = ['FAILED', 'PENDING', 'SENT', 'DONE'].map((x) => `${rows.filter((y) => y.status === x).length} ${x}`).join(', ')
  assert.match(text.split('\n')[0]!, `${rows.length} refund(s): ${counts}.`)
  const line = text.split('\n').find((l) => l.includes(sent!.id))!
  assert.match(line, /age 3d 4h .*processing for 3d 4h, gateway ref /)
  for (const x of rows) assert.ok(text.includes(x.id), `${x.status} ${x.id} listed`)
})

t('/metrics reports refunds by status from the database (every status, 0 included) and the oldest unfinished one', async () => {
  const counts = await f.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM refunds GROUP BY 1')
  const text = await createMetrics(f.db, f.now).registry.metrics()
  for (const status of ['PENDING', 'SENT', 'DONE', 'FAILED'])
    assert.match(text, `refunds{status="${status}"} ${counts.find((c) => c.status === status)?.n ?? 0}\n`)
  assert.match(text, /refunds_oldest_unfinished_seconds\{status="FAILED"\} \d/)
})

t('the refund status query sends v=1 and format=json with refund_ref_id and the store credentials, as SSLCommerz documents', async () => {
  const api = sslcommerzApi({ storeId: ssl.storeId, storePassword: ssl.storePassword, apiUrl: ssl.url, timeoutMs: 2000 })
  const answer = await api.refundQuery('no-such-ref')
  assert.equal([answer.status, answer.errorReason], ['failed', 'Invalid refund_ref_id'])
  assert.equal(await api.queryByTranId('no-such-tran'), [])
})

t("reconcile: the Dhaka day's card payments and refunds against SSLCommerz, every difference listed", async () => {
  const api = sslcommerzApi({ storeId: ssl.storeId, storePassword: ssl.storePassword, apiUrl: ssl.url, timeoutMs: 2000 })
  const today = dhakaDate(f.now())
  // agrees: a card ticket, its refund to the card done
  const ok = await cardTicket()
  await cancel(ok)
  await pass()
  f.advance(2)
  await pass()
  f.advance(2)
  await pass()
  const [done] = await refundsOf(ok.id)
  assert.is(done!.status, 'DONE')
  // approved here, unknown at SSLCommerz
  const p = await f.passenger()
  const [ghost] = await f.db.query<{ id: string }>(
    `INSERT INTO payments (id, purpose, passenger_id, amount, status, created_at, decided_at, provider)
     VALUES ('pay_ghost' || floor(random() * 1e9)::text, 'TOP_UP', $1, 500, 'APPROVED', $2, $2, 'sslcommerz') RETURNING id`,
    [p.id, f.now()],
  )
  // paid at SSLCommerz, never heard of here (no IPN, no return)
  const booked = await lockAndBook(f, p, await pickTrip(f, { minHours: 80, skip: trips++ * 3 + 1 }), 1)
  const open = await f.api('POST', '/api/reservation/payment', { reservationId: booked.id }, { token: p.token })
  const unheard: string = open.body.data.paymentId
  ssl.pay(unheard)
  // FAILED here, refunded at SSLCommerz
  const twice = await cardTicket()
  await cancel(twice)
  await pass()
  const [sentRow] = await refundsOf(twice.id)
  await f.db.query("UPDATE refunds SET status = 'FAILED' WHERE id = $1", [sentRow!.id])
  ssl.refundQueriesProcessing = 0

  const r = await reconcileDay(f.db, api, today)
  const about = (id: string) => r.differences.filter((d) => d.id === id)
  assert.equal(about(ok.paymentId), [], 'a paid ticket SSLCommerz has: no difference')
  assert.equal(about(done!.id), [], 'a refund done on both sides: no difference')
  assert.match(about(ghost!.id)[0]!.note, 'approved here, but SSLCommerz has no paid transaction')
  assert.equal([about(unheard)[0]!.ours, about(unheard)[0]!.gateway], ['PENDING', `VALID ${about(unheard)[0]!.amount}.00 BDT`])
  assert.match(about(unheard)[0]!.note, 'paid at SSLCommerz, not approved here')
  assert.match(about(sentRow!.id)[0]!.gateway, /^refunded on \d{4}-\d{2}-\d{2} /)
  assert.match(about(sentRow!.id)[0]!.note, 'refunded at SSLCommerz, but FAILED here')
  assert.ok(r.payments >= 3 && r.refunds >= 2)
  assert.match(describeReconciliation(r), `Reconciliation of ${today} (Asia/Dhaka) with SSLCommerz:`)

  const yesterday = await reconcileDay(f.db, api, addDays(today, -1))
  assert.equal([yesterday.payments, yesterday.differences.length], [0, 0], "another day's records are not in today's")
  ssl.failWith = 500
  try {
    const down = await reconcileDay(f.db, api, today)
    assert.ok(
      down.differences.length >= down.payments && down.differences.every((d) => d.gateway === 'no answer'),
      'an unanswered question is a difference',
    )
  } finally {
    ssl.failWith = null
  }
})

t('a payment that arrives after its trip was cancelled is refunded and the passenger told once by SMS and e-mail', async () => {
  const p = await f.passenger()
  const trip = await pickTrip(f, { minHours: 80, skip: trips++ * 3 + 1 })
  const booked = await lockAndBook(f, p, trip, 1)
  const open = await f.api('POST', '/api/reservation/payment', { reservationId: booked.id }, { token: p.token })
  const paymentId: string = open.body.data.paymentId
  await cancelTrip(f.deps, trip.id, 'Bridge closed')
  const notices = () =>
    f.db.query<{ channel: string; body: string }>(
      "SELECT channel, body FROM outbox_messages WHERE body LIKE '%arrived after%Bridge closed%' ORDER BY id",
    )
  assert.equal(await notices(), [])
  ssl.pay(paymentId)
  assert.is(await ssl.sendIpn(paymentId), 200)
  assert.is(await ssl.sendIpn(paymentId), 200)
  const [row] = await f.db.query<RefundRow>('SELECT * FROM refunds WHERE payment_id = $1', [paymentId])
  assert.equal([row!.reason, row!.amount], ['BOOKING_ENDED', (await payment(paymentId)).amount])
  const sent = await notices()
  assert.equal(sent.map((m) => m.channel).sort(), ['EMAIL', 'SMS'], 'one SMS and one e-mail, whatever the repeated notifications')
  const sms = sent.find((m) => m.channel === 'SMS')!.body
  assert.match(sms, 'Bridge closed')
  assert.match(sms, 'is being refunded to the card you paid with')
  const view = await f.api('GET', `/api/reservation/details/${booked.id}`, undefined, { token: p.token })
  const bn = renderTripChangeSms(
    view.body.data,
    'bn',
    { kind: 'latePayment', reason: { en: 'Bridge closed', bn: 'সেতু বন্ধ' }, refund: row!.amount, refundTo: 'CARD' },
    { appUrl: 'http://app.test' },
  )
  assert.match(bn, 'পৌঁছেছে')
  assert.match(bn, 'সেতু বন্ধ', "the operator's Bengali words in the Bengali notice")
  assert.match(bn, 'কার্ডে')
})

t.run()
sandbox.run()
