/**
 * Production never has the sandbox card page: whatever PAYMENT_PROVIDER says,
 * GET and POST /sandbox/gateway/<id> answer 404 and approve nothing (before,
 * anyone could post `decision=approve` there and top up a balance with no card).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { PassengerRow } from '../account/passengers.ts'
import { redactPaymentId } from '../http/redact.ts'
import { startTestApp, type TestApp } from '../test/helpers.ts'
import { startStandIn } from '../test/sslcommerz-standin.ts'

async function pendingTopUp(app: TestApp, provider: 'sandbox' | 'sslcommerz'): Promise<{ paymentId: string; passengerId: number }> {
  const [p] = await app.db.query<PassengerRow>(
    `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at)
     VALUES ('01911000222', 'Prod Tester', 'prod@example.com', 'Dhaka', 'ACTIVE', 0, now()) RETURNING *`,
  )
  const paymentId = 'pay_productionSandboxProbe1'
  await app.db.query("INSERT INTO payments (id, purpose, passenger_id, amount, created_at, provider) VALUES ($1, 'TOP_UP', $2, 100000, now(), $3)", [
    paymentId,
    p!.id,
    provider,
  ])
  return { paymentId, passengerId: p!.id }
}

async function probeSandbox(app: TestApp, paymentId: string) {
  const get = await app.call('GET', `/sandbox/gateway/${paymentId}`)
  const post = await app.call('POST', `/sandbox/gateway/${paymentId}`, {
    raw: 'decision=approve',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  return [get.status, post.status, post.headers.location]
}

test('production with PAYMENT_PROVIDER=sandbox (refused by config, forced here): no sandbox page, no card payments, nothing approved', async () => {
  const app = await startTestApp({ production: true, config: { payment: { provider: 'sandbox' } } })
  try {
    const { paymentId, passengerId } = await pendingTopUp(app, 'sandbox')
    assert.equal(await probeSandbox(app, paymentId), [404, 404, undefined])
    const [row] = await app.db.query<{ status: string; confirmed_at: Date | null }>('SELECT status, confirmed_at FROM payments WHERE id = $1', [
      paymentId,
    ])
    assert.equal(row, { status: 'PENDING', confirmed_at: null })
    const [bal] = await app.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [passengerId])
    assert.is(bal!.balance, 0)
    // No gateway at all rather than the sandbox: opening a card payment says so.
    const s = await app.signUp('01911000333')
    const top = await app.call('POST', '/api/account/topUp', { body: { amount: 500 }, token: s.token })
    assert.equal([top.status, top.body.error.code], [503, 'PAYMENT_GATEWAY_UNAVAILABLE'])
  } finally {
    await app.close()
  }
})

test('production with SSLCommerz: the sandbox page does not exist, the SSLCommerz IPN route does', async () => {
  const ssl = await startStandIn()
  const warn = console.warn
  const logs: string[] = []
  console.warn = (line: string) => void logs.push(line)
  const app = await startTestApp({
    production: true,
    config: { payment: { provider: 'sslcommerz', storeId: ssl.storeId, storePassword: ssl.storePassword, apiUrl: ssl.url, timeoutMs: 2000 } },
  })
  try {
    const { paymentId } = await pendingTopUp(app, 'sandbox')
    assert.equal(await probeSandbox(app, paymentId), [404, 404, undefined])
    const [row] = await app.db.query<{ status: string }>('SELECT status FROM payments WHERE id = $1', [paymentId])
    assert.is(row!.status, 'PENDING')
    const ipn = await app.call('POST', '/gateway/sslcommerz/ipn', {
      raw: new URLSearchParams(ssl.sign({ tran_id: 'pay_unknown', status: 'VALID' })).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    assert.is(ipn.status, 200)
    assert.equal(logs, [`[sslcommerz] IPN for an unknown payment ${redactPaymentId('pay_unknown')} ignored`])
  } finally {
    console.warn = warn
    await app.close()
    await ssl.close()
  }
})

test('development keeps the sandbox page', async () => {
  const app = await startTestApp()
  try {
    const { paymentId } = await pendingTopUp(app, 'sandbox')
    const [get, post, location] = await probeSandbox(app, paymentId)
    assert.equal([get, post, location], [200, 303, `/profile?topUp=${paymentId}&result=success`])
  } finally {
    await app.close()
  }
})

test.run()
