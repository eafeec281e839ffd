/**
 * Mobile wallets through SSLCommerz (issue 31, item 1), on PGlite against the stand-in: the
 * passenger's choice goes to SSLCommerz as its documented multi_card_name (bkash,
 * dbblmobilebanking for Rocket, mobilebank for Nagad, none for a card); the stand-in refuses
 * undocumented values; where the money came from is stored from SSLCommerz's validation answer
 * (card_brand / card_type / card_issuer), never from the choice; the ticket, the cancel quote, the
 * cancellation SMS and e-mail (en, bn), the operator's trip cancel and the refund list name the wallet.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { PaymentRow } from '../bookings/payment-row.ts'
import { describeAllRefunds } from '../commands/refund-command.ts'
import { allRefunds } from '../bookings/refunds.ts'
import { cancelTrip } from '../bookings/trip-changes.ts'
import { lastCode, lockAndBook, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { freePort } from '../../harness/spawn-server.ts'
import { startStandIn, type StandIn, type StandInMethod } from '../test/sslcommerz-standin.ts'

const t = suite('mobile wallets through SSLCommerz (PGlite)')
let f: Fixture
let ssl: StandIn
let trips = 0

t.before(async () => {
  ssl = await startStandIn()
  const port = await freePort()
  f = await openFixture({
    config: {
      payment: { provider: 'sslcommerz', storeId: ssl.storeId, storePassword: ssl.storePassword, apiUrl: ssl.url, timeoutMs: 2000 },
      publicUrl: `http://127.0.0.1:${port}`,
      appUrl: 'http://app.test',
    },
  })
  await f.app.listen({ port, host: '127.0.0.1' })
})
t.after(async () => {
  await f.close()
  await ssl.close()
})

const payment = async (id: string) => (await f.db.query<PaymentRow>('SELECT * FROM payments WHERE id = $1', [id]))[0]!
const messagesAbout = (pnr: string, channel: 'SMS' | 'EMAIL') =>
  f.db.query<{ body: string }>('SELECT body FROM outbox_messages WHERE channel = $2 AND body LIKE $1 ORDER BY id', [`%${pnr}%`, channel])

/** A booking opened for payment with `payWith`, 80+ hours before departure; answers the payment id. */
async function open(payWith: string | undefined, opts: { language?: 'en' | 'bn' } = {}) {
  const p = await f.passenger()
  const trip = await pickTrip(f, { minHours: 80, skip: trips++ * 3 + 1 })
  const booked = await lockAndBook(f, p, trip, 1)
  if (opts.language) await f.db.query('UPDATE reservations SET language = $2 WHERE id = $1', [booked.id, opts.language])
  const body = payWith === undefined ? { reservationId: booked.id } : { reservationId: booked.id, payWith }
  const res = await f.api('POST', '/api/reservation/payment', body, { token: p.token })
  return { p, id: booked.id as number, res, paymentId: res.body?.data?.paymentId as string }
}

/** A ticket bought with `payWith` on our page, paid at the stand-in with `method`. */
async function ticket(payWith: string, method?: StandInMethod, opts: { language?: 'en' | 'bn' } = {}) {
  const o = await open(payWith, opts)
  assert.is(o.res.status, 200, JSON.stringify(o.res.body))
  ssl.pay(o.paymentId, method ? { method } : {})
  assert.is(await ssl.sendIpn(o.paymentId), 200)
  const view = await f.api('GET', `/api/reservation/details/${o.id}`, undefined, { token: o.p.token })
  assert.is(view.body.data.status, 1, JSON.stringify(view.body))
  return { ...o, view: view.body.data, pnr: view.body.data.pnr as string, pin: view.body.data.pin as string }
}

t('each choice reaches SSLCommerz as its documented multi_card_name; a card sends none', async () => {
  const expected: [string | undefined, string | undefined][] = [
    ['bkash', 'bkash'],
    ['rocket', 'dbblmobilebanking'],
    ['nagad', 'mobilebank'],
    ['card', undefined],
    [undefined, undefined],
  ]
  for (const [payWith, name] of expected) {
    const o = await open(payWith)
    assert.is(o.res.status, 200, JSON.stringify(o.res.body))
    assert.is(ssl.sessions.get(o.paymentId)!.fields.multi_card_name, name, `payWith ${payWith}`)
    assert.is((await payment(o.paymentId)).asked_with, payWith ?? 'card')
  }
})

t('an unknown choice is refused by the contract, before anything is opened', async () => {
  const before = ssl.calls.session
  const o = await open('paypal')
  assert.is(o.res.status, 400, JSON.stringify(o.res.body))
  assert.is(o.res.body.error.code, 'VALIDATION_FAILED')
  assert.is(ssl.calls.session, before)
})

t('the stand-in accepts only documented multi_card_name values, as its session API answers', async () => {
  const post = async (name: string) => {
    const o = await open('bkash')
    const fields = { ...ssl.sessions.get(o.paymentId)!.fields, tran_id: `${o.paymentId.slice(0, 20)}x`, multi_card_name: name }
    const res = await fetch(`${ssl.url}/gwprocess/v4/api.php`, { method: 'POST', body: new URLSearchParams(fields) })
    return (await res.json()) as { status: string; failedreason: string }
  }
  for (const bad of ['nagad', 'rocket', 'BKASH', 'bkash,wallet']) {
    const a = await post(bad)
    assert.equal([a.status, a.failedreason.startsWith('Invalid multi_card_name')], ['FAILED', true], bad)
  }
  for (const good of ['bkash', 'dbblmobilebanking', 'mobilebank', 'visacard,mastercard,amexcard'])
    assert.is((await post(good)).status, 'SUCCESS', good)
})

t("where the money came from is SSLCommerz's validation answer, not the passenger's choice", async () => {
  const cases: [string, StandInMethod | undefined, string, string][] = [
    ['bkash', undefined, 'bkash', 'BKash Mobile Banking'],
    ['rocket', undefined, 'rocket', 'DBBL Mobile Banking'],
    ['nagad', 'nagad', 'nagad', 'Nagad'],
    // Nagad chosen, bKash paid on SSLCommerz's mobile-banking list: bKash is stored.
    ['nagad', 'bkash', 'bkash', 'BKash Mobile Banking'],
    // A card chosen, the full page, paid by Rocket.
    ['card', 'rocket', 'rocket', 'DBBL Mobile Banking'],
    ['card', undefined, 'card', 'STANDARD CHARTERED BANK'],
  ]
  for (const [payWith, method, paidWith, issuer] of cases) {
    const tk = await ticket(payWith, method)
    const p = await payment(tk.paymentId)
    assert.equal([p.paid_with, p.paid_issuer], [paidWith, issuer], `${payWith} paid by ${method}`)
    assert.equal([tk.view.paymentMethod, tk.view.paidWith], ['CARD', paidWith])
  }
})

t('a bKash ticket: the cancel quote, the ticket and the cancellation SMS and e-mail say the money goes back to the bKash wallet (en)', async () => {
  const tk = await ticket('bkash')
  const init = await f.api('GET', `/api/reservation/cancelInitialize/${tk.pnr}/${tk.pin}`)
  assert.is(init.status, 200, JSON.stringify(init.body))
  assert.equal([init.body.data.refundTo, init.body.data.paidWith], ['CARD', 'bkash'])
  const otp = await lastCode(f, tk.p.mobile)
  const r = await f.api('GET', `/api/reservation/cancel/${tk.pnr}/${tk.pin}/${otp}`)
  assert.is(r.status, 200, JSON.stringify(r.body))
  assert.equal([r.body.data.refund?.to, r.body.data.paidWith], ['CARD', 'bkash'])
  const sms = (await messagesAbout(tk.pnr, 'SMS')).map((m) => m.body).find((b) => b.includes('is cancelled'))
  assert.ok(sms, 'a cancellation SMS')
  assert.match(sms!, /refunded to your bKash wallet/)
  assert.not.match(sms!, /card/)
  const mail = (await messagesAbout(tk.pnr, 'EMAIL')).map((m) => m.body).find((b) => b.includes('is cancelled'))
  assert.ok(mail, 'a cancellation e-mail')
  assert.match(mail!, /refunded to your bKash wallet/)
})

t('a Rocket ticket cancelled in Bengali: the SMS names the Rocket wallet', async () => {
  const tk = await ticket('rocket', undefined, { language: 'bn' })
  await f.api('GET', `/api/reservation/cancelInitialize/${tk.pnr}/${tk.pin}`)
  const otp = await lastCode(f, tk.p.mobile)
  assert.is((await f.api('GET', `/api/reservation/cancel/${tk.pnr}/${tk.pin}/${otp}`)).status, 200)
  const sms = (await messagesAbout(tk.pnr, 'SMS')).map((m) => m.body).find((b) => b.includes('বাতিল হয়েছে'))
  assert.ok(sms, 'a cancellation SMS')
  assert.match(sms!, /আপনার রকেট ওয়ালেটে/)
  assert.not.match(sms!, /কার্ডে/)
})

t("the operator's trip cancel tells a Nagad payer the refund goes to the Nagad wallet; the refund list names it", async () => {
  const tk = await ticket('nagad', 'nagad')
  const [trip] = await f.db.query<{ trip_id: number }>('SELECT trip_id FROM reservations WHERE id = $1', [tk.id])
  await cancelTrip(f.deps, trip!.trip_id, 'Road closed')
  const sms = (await messagesAbout(tk.pnr, 'SMS')).map((m) => m.body).find((b) => b.includes('Road closed'))
  assert.ok(sms, 'a trip-cancel SMS')
  assert.match(sms!, /refunded to your Nagad wallet/)
  const listed = describeAllRefunds(await allRefunds(f.db), f.now())
  const line = listed.split('\n').find((l) => l.includes(tk.paymentId))
  assert.ok(line, listed)
  assert.match(line!, /to your Nagad wallet \(Nagad\)/)
})

t.run()
