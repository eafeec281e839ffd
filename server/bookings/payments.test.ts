/**
 * Card payments through the sandbox gateway, the success/failure calls, paying
 * from balance and balance top-ups.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { lockAndBook, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'

const t = suite('payments')
let f: Fixture
let trips = 0
const nextTrip = () => pickTrip(f, { skip: trips++ * 7 + 3 })
const code = (r: { body: any }) => r.body?.error?.code

t.before(async () => {
  f = await openFixture()
})
t.after(async () => {
  await f.close()
})

async function gateway(url: string, decision?: string) {
  const res = await f.app.inject({
    method: decision === undefined ? 'GET' : 'POST',
    url,
    ...(decision === undefined ? {} : { payload: `decision=${decision}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
  })
  return {
    status: res.statusCode,
    body: res.body,
    location: res.headers.location as string | undefined,
    csp: String(res.headers['content-security-policy'] ?? ''),
  }
}

const count = async (sql: string, params: unknown[] = []) => (await f.db.query<{ n: number }>(sql, params))[0]!.n as number

t('card payment: one pending payment per booking, gateway approve sells once with PNR/PIN and messages', async () => {
  const p = await f.passenger()
  const res = await lockAndBook(f, p, await nextTrip(), 2)
  const a = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  assert.is(a.status, 200)
  assert.is(a.body.data.redirectUrl, `/sandbox/gateway/${a.body.data.paymentId}`)
  const b = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  assert.is(b.body.data.paymentId, a.body.data.paymentId, 'double click: the same payment')
  const pid = a.body.data.paymentId

  const page = await gateway(a.body.data.redirectUrl)
  assert.is(page.status, 200)
  assert.match(page.body, '<button type="submit" name="decision" value="approve">Approve payment</button>')
  assert.match(page.body, 'Decline payment')
  assert.match(page.body, `Tk ${res.fare.total.toLocaleString('en-US')}`)
  assert.not.match(page.body, '<script')
  assert.match(page.body, '<html lang="en">')
  assert.match(page.csp, "form-action 'self';")

  const outboxBefore = await count('SELECT count(*)::int AS n FROM outbox_messages')
  const post = await gateway(a.body.data.redirectUrl, 'approve')
  assert.is(post.status, 303)
  assert.is(post.location, `/reservation/success?paymentId=${pid}`)

  // The tab that opened the payment, signed out meanwhile: its result token shows the ticket.
  const s1 = await f.api('POST', '/api/reservation/success', { paymentId: pid, resultToken: a.body.data.resultToken })
  assert.is(s1.status, 200)
  assert.is(s1.body.data.status, 'APPROVED')
  assert.is(s1.body.data.purpose, 'RESERVATION')
  const sold = s1.body.data.reservation
  assert.is(sold.status, 1)
  assert.match(sold.pnr, /^[A-Z0-9]{10}$/)
  assert.match(sold.pin, /^\d{4}$/)
  assert.is(sold.paymentMethod, 'CARD')
  assert.ok(sold.paidAt)
  const msgs = await f.db.query<{ channel: string; body: string }>('SELECT channel, body FROM outbox_messages ORDER BY id DESC LIMIT 2')
  assert.equal(msgs.map((m) => m.channel).sort(), ['EMAIL', 'SMS'])
  for (const m of msgs) assert.ok(m.body.includes(sold.pnr) && m.body.includes(sold.pin))

  // Replays: the success call, the gateway post, a new payment: nothing happens twice.
  const snap = await f.snapshot()
  const s2 = await f.api('POST', '/api/reservation/success', { paymentId: pid, resultToken: b.body.data.resultToken })
  assert.equal(s2.body.data, s1.body.data, "the second tab's token works too")
  const again = await gateway(a.body.data.redirectUrl, 'decline')
  assert.is(again.location, `/reservation/success?paymentId=${pid}`)
  const page2 = await gateway(a.body.data.redirectUrl)
  assert.match(page2.body, 'already approved')
  const c = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  assert.is(code(c), 'PAYMENT_ALREADY_COMPLETED')
  assert.is(await f.snapshot(), snap)
  assert.is(await count('SELECT count(*)::int AS n FROM outbox_messages'), outboxBefore + 2)
})

t('card payment declined: failure page, booking stays booked until it expires, a new payment can be made', async () => {
  const p = await f.passenger()
  const res = await lockAndBook(f, p, await nextTrip(), 1)
  const a = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  const pid = a.body.data.paymentId
  const post = await gateway(a.body.data.redirectUrl, 'decline')
  assert.is(post.status, 303)
  assert.is(post.location, `/reservation/failure?paymentId=${pid}`)
  const r = await f.api('POST', '/api/reservation/failure', { paymentId: pid }, { token: p.token })
  assert.is(r.body.data.status, 'DECLINED')
  assert.is(r.body.data.reservation.status, 2)
  const s = await f.api('POST', '/api/reservation/success', { paymentId: pid }, { token: p.token })
  assert.is(s.body.data.status, 'DECLINED')
  assert.is(s.body.data.reservation.status, 2)
  const b = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  assert.ok(b.body.data.paymentId !== pid)
  // The failure page only reads: even the payer's own call leaves a pending payment to the gateway.
  const shown = await f.api('POST', '/api/reservation/failure', { paymentId: b.body.data.paymentId }, { token: p.token })
  assert.is(shown.body.data.status, 'PENDING')
  const late = await gateway(b.body.data.redirectUrl, 'approve')
  assert.is(late.location, `/reservation/success?paymentId=${b.body.data.paymentId}`)
  const after = await f.api('GET', `/api/reservation/details/${res.id}`, undefined, { token: p.token })
  assert.is(after.body.data.status, 1)
})

t('a coupon applied after opening a card payment voids it; the new payment has the new amount', async () => {
  const p = await f.passenger()
  const res = await lockAndBook(f, p, await nextTrip(), 2)
  const a = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  const [offer] = await f.db.query<{ coupon_code: string }>(
    "SELECT coupon_code FROM offers WHERE valid_until >= ($1::timestamptz AT TIME ZONE 'Asia/Dhaka')::date ORDER BY id LIMIT 1",
    [f.now()],
  )
  const c = await f.api('GET', `/api/reservation/booking/applyDiscountCoupon/${res.id}/${offer!.coupon_code}`, undefined, { token: p.token })
  const b = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  assert.ok(b.body.data.paymentId !== a.body.data.paymentId)
  const [row] = await f.db.query<{ amount: number }>('SELECT amount FROM payments WHERE id = $1', [b.body.data.paymentId])
  assert.is(row!.amount, c.body.data.fare.total)
  const old = await gateway(a.body.data.redirectUrl, 'approve')
  assert.match(old.location!, /failure/)
})

t('coupon rules and card payments: a used-up coupon is refused before paying; spent meanwhile, the card money goes back to the card', async () => {
  await f.db.query(
    `INSERT INTO offers (title, title_bn, description, coupon_code, discount_percent, max_discount, valid_until, max_uses_per_passenger)
     VALUES ('Card once', 'Card once', 'Card once', 'CARDONCE', 10, 500, '2099-12-31', 1)`,
  )
  const p = await f.passenger({ balance: 100_000 })
  const a = await lockAndBook(f, p, await nextTrip(), 1)
  const b = await lockAndBook(f, p, await nextTrip(), 1)
  for (const r of [a, b])
    assert.is((await f.api('GET', `/api/reservation/booking/applyDiscountCoupon/${r.id}/CARDONCE`, undefined, { token: p.token })).status, 200)
  // B's card payment opens while the coupon is unused
  const open = await f.api('POST', '/api/reservation/payment', { reservationId: b.id }, { token: p.token })
  assert.is(open.status, 200)
  // A uses the coupon
  assert.is((await f.api('POST', '/api/reservation/payFromBalance', { reservationId: a.id }, { token: p.token })).status, 200)
  const balanceBefore = (await f.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [p.id]))[0]!.balance
  // B's card is then approved: no ticket with a coupon spent twice, and the money is not lost
  const post = await gateway(open.body.data.redirectUrl, 'approve')
  assert.is(post.status, 303)
  const result = await f.api('POST', '/api/reservation/success', { paymentId: open.body.data.paymentId }, { token: p.token })
  assert.is(result.body.data.status, 'APPROVED')
  assert.is(result.body.data.reservation.status, 2, 'not sold')
  assert.equal(result.body.data.reservation.fare.couponCode, null)
  assert.is(result.body.data.reservation.fare.total, b.fare.subtotal, 'payable again at the full fare')
  assert.is(result.body.data.amount, b.fare.subtotal - Math.floor(b.fare.subtotal / 10), 'charged with the discount')
  // issue 22.2: the card amount goes back to the card (REFUND_TO=card), not to the balance
  assert.is(result.body.data.balance, balanceBefore, 'nothing on the balance')
  const [refund] = await f.db.query<{ amount: number; reason: string }>('SELECT amount, reason FROM refunds WHERE payment_id = $1', [
    open.body.data.paymentId,
  ])
  assert.equal(refund, { amount: result.body.data.amount, reason: 'COUPON_REFUSED' })
  // a new card payment for a booking whose coupon is used up is refused before the passenger pays
  const c = await lockAndBook(f, p, await nextTrip(), 1)
  await f.db.query("UPDATE reservations SET coupon_code = 'CARDONCE', discount = 10, total = subtotal - 10 WHERE id = $1", [c.id])
  const refused = await f.api('POST', '/api/reservation/payment', { reservationId: c.id }, { token: p.token })
  assert.is(code(refused), 'COUPON_ALREADY_USED')
})

t('an approval that arrives after the booking expired is declined (the card is not charged)', async () => {
  const p = await f.passenger()
  const res = await lockAndBook(f, p, await nextTrip(), 1)
  const a = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  f.advance(16)
  const post = await gateway(a.body.data.redirectUrl, 'approve')
  assert.match(post.location!, /failure/)
  const r = await f.api('POST', '/api/reservation/success', { paymentId: a.body.data.paymentId }, { token: p.token })
  assert.is(r.body.data.status, 'DECLINED')
  assert.is(r.body.data.reservation.status, 5)
})

t('payment errors: no session, unknown, other passenger, expired booking, unknown payment id, malformed', async () => {
  const p = await f.passenger()
  const q = await f.passenger()
  const res = await lockAndBook(f, p, await nextTrip(), 1)
  let r = await f.api('POST', '/api/reservation/payment', { reservationId: res.id })
  assert.is(r.status, 401)
  r = await f.api('POST', '/api/reservation/payment', { reservationId: 999_999 }, { token: p.token })
  assert.is(code(r), 'RESERVATION_NOT_FOUND')
  r = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: q.token })
  assert.is(code(r), 'RESERVATION_NOT_ACCESSIBLE')
  r = await f.api('POST', '/api/reservation/success', { paymentId: 'pay_nope' })
  assert.is(code(r), 'PAYMENT_NOT_FOUND')
  r = await f.api('POST', '/api/reservation/failure', { paymentId: 'pay_nope' })
  assert.is(code(r), 'PAYMENT_NOT_FOUND')
  const before = await f.snapshot()
  for (const [url, body] of [
    ['/api/reservation/payment', {}],
    ['/api/reservation/payment', { reservationId: '1' }],
    ['/api/reservation/success', {}],
    ['/api/reservation/success', { paymentId: 'x'.repeat(101) }],
    ['/api/reservation/failure', { paymentId: 5 }],
    ['/api/reservation/payFromBalance', { reservationId: res.id, amount: 1 }],
    ['/api/account/topUp', { amount: 5 }],
    ['/api/account/topUp', { amount: 'lots' }],
    ['/api/account/topUp', { amount: 100.5 }],
    ['/api/account/topUp', { amount: 1_000_000 }],
  ] as const) {
    r = await f.api('POST', url, body, { token: p.token })
    assert.is(r.status, 400, `${url} ${JSON.stringify(body)}`)
    assert.is(code(r), 'VALIDATION_FAILED')
  }
  assert.is(await f.snapshot(), before)
  f.advance(16)
  r = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  assert.is(code(r), 'BOOKING_NOT_FOUND')
  const g = await gateway('/sandbox/gateway/pay_unknown')
  assert.is(g.status, 404)
  const bad = await gateway('/sandbox/gateway/pay_unknown', 'maybe')
  assert.is(bad.status, 400)
})

t('payFromBalance debits once and sells; insufficient balance changes nothing', async () => {
  const p = await f.passenger({ balance: 100_000 })
  const res = await lockAndBook(f, p, await nextTrip(), 2)
  const open = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  const r = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: res.id }, { token: p.token })
  assert.is(r.status, 200)
  assert.is(r.body.data.status, 1)
  assert.is(r.body.data.paymentMethod, 'BALANCE')
  assert.match(r.body.data.pnr, /^[A-Z0-9]{10}$/)
  const [bal] = await f.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [p.id])
  assert.is(bal!.balance, 100_000 - res.fare.total)
  const ledger = await f.db.query<{ amount: number; kind: string }>('SELECT amount, kind FROM ledger WHERE passenger_id = $1', [p.id])
  assert.equal(ledger, [{ amount: -res.fare.total, kind: 'TICKET_PAYMENT' }])
  const snap = await f.snapshot()
  const again = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: res.id }, { token: p.token })
  assert.is(code(again), 'PAYMENT_ALREADY_COMPLETED')
  // The card payment left open in another tab cannot charge for the same ticket.
  const late = await gateway(open.body.data.redirectUrl, 'approve')
  assert.match(late.location!, /failure/)
  assert.is(await f.snapshot(), snap)

  const poor = await f.passenger({ balance: 10 })
  const res2 = await lockAndBook(f, poor, await nextTrip(), 1)
  const before = await f.snapshot()
  const r2 = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: res2.id }, { token: poor.token })
  assert.is(r2.status, 409)
  assert.is(code(r2), 'INSUFFICIENT_BALANCE')
  assert.is(await f.snapshot(), before)
  const r3 = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: res2.id }, { token: p.token })
  assert.is(code(r3), 'RESERVATION_NOT_ACCESSIBLE')
  const r4 = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: res2.id })
  assert.is(r4.status, 401)
})

t('topUp: gateway approval credits the balance once; the result page reads the new balance', async () => {
  const p = await f.passenger({ balance: 50 })
  const a = await f.api('POST', '/api/account/topUp', { amount: 1500 }, { token: p.token })
  assert.is(a.status, 200)
  const pid = a.body.data.paymentId
  assert.is(a.body.data.redirectUrl, `/sandbox/gateway/${pid}`)
  const page = await gateway(a.body.data.redirectUrl)
  assert.match(page.body, 'Balance top-up')
  const post = await gateway(a.body.data.redirectUrl, 'approve')
  assert.is(post.location, `/profile?topUp=${pid}&result=success`)
  const s = await f.api('POST', '/api/reservation/success', { paymentId: pid, resultToken: a.body.data.resultToken })
  assert.equal(
    { ...s.body.data },
    { paymentId: pid, full: true, status: 'APPROVED', purpose: 'TOP_UP', amount: 1500, reservation: null, balance: 1550 },
  )
  await f.api('POST', '/api/reservation/success', { paymentId: pid })
  await gateway(a.body.data.redirectUrl, 'approve')
  const [bal] = await f.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [p.id])
  assert.is(bal!.balance, 1550)
  const d = await f.api('POST', '/api/account/topUp', { amount: 100 }, { token: p.token })
  const dec = await gateway(d.body.data.redirectUrl, 'decline')
  assert.is(dec.location, `/profile?topUp=${d.body.data.paymentId}&result=failure`)
  const none = await f.api('POST', '/api/account/topUp', { amount: 100 })
  assert.is(none.status, 401)
})

t("issue 21.4: a payment id alone shows the status without PNR, PIN, mobile or balance; the payer's tab and session see it all", async () => {
  const p = await f.passenger({ balance: 70 })
  const res = await lockAndBook(f, p, await nextTrip(), 1)
  const a = await f.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  const pid: string = a.body.data.paymentId
  assert.match(a.body.data.resultToken, /^[A-Za-z0-9_-]{32}$/)
  await gateway(a.body.data.redirectUrl, 'approve')
  const [stored] = await f.db.query<{ result_token_hashes: string[] }>('SELECT result_token_hashes FROM payments WHERE id = $1', [pid])
  assert.not.ok(JSON.stringify(stored).includes(a.body.data.resultToken), 'only its hash is stored')

  const statusOnly = {
    paymentId: pid,
    full: false,
    status: 'APPROVED',
    purpose: 'RESERVATION',
    amount: res.fare.total,
    reservation: null,
    balance: null,
  }
  const stranger = await f.passenger({ mobile: '01812000333' })
  for (const [who, call] of [
    ['no session, no token', () => f.api('POST', '/api/reservation/success', { paymentId: pid })],
    ['a wrong token', () => f.api('POST', '/api/reservation/success', { paymentId: pid, resultToken: 'x'.repeat(32) })],
    ["another passenger's session", () => f.api('POST', '/api/reservation/success', { paymentId: pid }, { token: stranger.token })],
    ['the failure page, no token', () => f.api('POST', '/api/reservation/failure', { paymentId: pid })],
  ] as const) {
    const r = await call()
    assert.is(r.status, 200, who)
    assert.equal(r.body.data, statusOnly, who)
    const text = JSON.stringify(r.body)
    const [sold] = await f.db.query<{ pnr: string; pin: string; passenger_mobile: string }>(
      'SELECT pnr, pin, passenger_mobile FROM reservations WHERE id = $1',
      [res.id],
    )
    for (const secret of [sold!.pnr, sold!.passenger_mobile]) assert.not.ok(text.includes(secret), `${who}: ${secret} leaked`)
  }
  // The tab that paid (signed out since) and the payer's own session see the ticket.
  const tab = await f.api('POST', '/api/reservation/success', { paymentId: pid, resultToken: a.body.data.resultToken })
  const own = await f.api('POST', '/api/reservation/success', { paymentId: pid }, { token: p.token })
  for (const r of [tab, own]) {
    assert.equal([r.body.data.full, r.body.data.reservation.status, r.body.data.balance], [true, 1, 70])
    assert.match(r.body.data.reservation.pnr, /^[A-Z0-9]{10}$/)
  }
})

t('issue 21.4: the failure call declines nothing, whoever sends it; only the gateway decides (a top-up still credited)', async () => {
  const victim = await f.passenger({ balance: 0 })
  const top = await f.api('POST', '/api/account/topUp', { amount: 500 }, { token: victim.token })
  const pid: string = top.body.data.paymentId
  const attacker = await f.passenger()
  for (const opts of [{}, { token: attacker.token }, { token: victim.token }]) {
    const r = await f.api('POST', '/api/reservation/failure', { paymentId: pid }, opts)
    assert.is(r.body.data.status, 'PENDING')
  }
  const [row] = await f.db.query<{ status: string }>('SELECT status FROM payments WHERE id = $1', [pid])
  assert.is(row!.status, 'PENDING')
  const post = await gateway(top.body.data.redirectUrl, 'approve')
  assert.is(post.location, `/profile?topUp=${pid}&result=success`)
  const [bal] = await f.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [victim.id])
  assert.is(bal!.balance, 500)
})

t.run()

const elsewhere = suite('sandbox gateway with the app on another origin (APP_URL)')
let g: Fixture

elsewhere.before(async () => {
  g = await openFixture({ config: { publicUrl: 'https://api.example.com', appUrl: 'https://tickets.example.com' } })
})
elsewhere.after(async () => {
  await g.close()
})

elsewhere('the decision sends the passenger back to the app origin, not to the API server', async () => {
  const p = await g.passenger()
  const res = await lockAndBook(g, p, await pickTrip(g, { skip: 3 }), 1)
  const a = await g.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  const pid = a.body.data.paymentId
  const form = { payload: 'decision=approve', headers: { 'content-type': 'application/x-www-form-urlencoded' } }
  const post = await g.app.inject({ method: 'POST', url: a.body.data.redirectUrl, ...form })
  assert.is(post.statusCode, 303)
  assert.is(post.headers.location, `https://tickets.example.com/reservation/success?paymentId=${pid}`)
  const page = await g.app.inject({ method: 'GET', url: a.body.data.redirectUrl })
  assert.match(page.body, `href="https://tickets.example.com/reservation/success?paymentId=${pid}"`)
})

elsewhere('the gateway page lets its form lead to the app origin (a browser holds the 303 to form-action)', async () => {
  const p = await g.passenger()
  const res = await lockAndBook(g, p, await pickTrip(g, { skip: 4 }), 1)
  const a = await g.api('POST', '/api/reservation/payment', { reservationId: res.id }, { token: p.token })
  const page = await g.app.inject({ method: 'GET', url: a.body.data.redirectUrl })
  assert.is(page.statusCode, 200)
  const csp = String(page.headers['content-security-policy'])
  assert.match(csp, "form-action 'self' https://tickets.example.com;")
  assert.match(csp, "default-src 'self'")
})

elsewhere.run()
