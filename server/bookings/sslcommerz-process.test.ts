/**
 * SSLCommerz confirmation across real server processes (server/main.ts spawned):
 * on PGlite the server is SIGKILLed between the session and the IPN and the
 * payment is confirmed after the restart; on PostgreSQL with two processes the
 * IPN reaches one process while the browser return reaches the other at the same
 * moment, with replays to both: sold once, one PNR, one ticket notification,
 * credited once; IPNs spread over both processes ask SSLCommerz at most once per
 * ASK_INTERVAL_MS, and forged ones never (security issue 21).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openDb, type Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import type { PassengerRow } from '../account/passengers.ts'
import { DEMO_PASSENGER } from '../seed/passengers.ts'
import { createSession } from '../account/sessions.ts'
import { pgSuite, startPostgres, type TestPostgres } from '../test/pg.ts'
import { spawnServer, type ServerProcess } from '../test/proc.ts'
import { bookSeat, call, freePort } from '../../harness/spawn-server.ts'
import { startStandIn, type StandIn } from '../test/sslcommerz-standin.ts'

const APP = 'http://app.test'

function gatewayEnv(ssl: StandIn, port: number): Record<string, string> {
  return {
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    APP_URL: APP,
    PAYMENT_PROVIDER: 'sslcommerz',
    SSLCOMMERZ_STORE_ID: ssl.storeId,
    SSLCOMMERZ_STORE_PASSWORD: ssl.storePassword,
    SSLCOMMERZ_API_URL: ssl.url,
    SSLCOMMERZ_TIMEOUT_MS: '5000',
  }
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const s = await spawnServer(env)
  await s.ready
  return s
}

/** The browser coming back from SSLCommerz to `base`'s success URL; answers the redirect. */
async function browserSuccess(base: string, fields: Record<string, string>): Promise<string | null> {
  const res = await fetch(`${base}/gateway/sslcommerz/success`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })
  await res.text()
  return res.headers.get('location')
}

const restart = suite('SSLCommerz: server killed between the session and the IPN (PGlite)')

restart('SIGKILL after the customer paid, IPN lost; after the restart the IPN and the browser return confirm once', async () => {
  const ssl = await startStandIn()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sslcz-restart-'))
  const port = await freePort()
  const env = { ...gatewayEnv(ssl, port), DATA_DIR: dir }
  let server: ServerProcess | null = await start(env)
  try {
    const base = server.url
    const login = await call(base, 'POST', '/api/checkPassenger', { mobile: DEMO_PASSENGER.mobile, password: DEMO_PASSENGER.password })
    assert.is(login.status, 200, JSON.stringify(login.body))
    const token: string = login.body.data.token
    const balanceBefore: number = login.body.data.passenger.balance
    const top = await call(base, 'POST', '/api/account/topUp', { amount: 1500 }, { token })
    assert.match(top.body.data.redirectUrl, ssl.url)
    const booking = await bookSeat(base, token, { trip: 3 })
    const pay = await call(base, 'POST', '/api/reservation/payment', { reservationId: booking.id }, { token })
    assert.match(pay.body.data.redirectUrl, ssl.url)
    const topPaid = ssl.pay(top.body.data.paymentId)
    const ticketPaid = ssl.pay(pay.body.data.paymentId)

    server.kill('SIGKILL')
    await server.exited
    server = null
    assert.equal(await Promise.all([ssl.sendIpn(top.body.data.paymentId), ssl.sendIpn(pay.body.data.paymentId)]), [0, 0], 'nobody answered the IPN')

    server = await start(env)
    assert.equal(await Promise.all([ssl.sendIpn(top.body.data.paymentId), ssl.sendIpn(pay.body.data.paymentId)]), [200, 200])
    assert.is(await browserSuccess(server.url, ticketPaid.fields), `${APP}/reservation/success?paymentId=${pay.body.data.paymentId}`)
    assert.is(await browserSuccess(server.url, topPaid.fields), `${APP}/profile?topUp=${top.body.data.paymentId}&result=success`)
    await Promise.all(Array.from({ length: 5 }, () => ssl.sendIpn(pay.body.data.paymentId)))

    const ticket = await call(server.url, 'POST', '/api/reservation/success', { paymentId: pay.body.data.paymentId }, { token })
    assert.is(ticket.body.data.status, 'APPROVED')
    assert.is(ticket.body.data.reservation.status, 1)
    const pnr: string = ticket.body.data.reservation.pnr
    assert.match(pnr, /^[A-Z0-9]{10}$/)
    const credited = await call(server.url, 'POST', '/api/reservation/success', { paymentId: top.body.data.paymentId }, { token })
    assert.equal([credited.body.data.status, credited.body.data.balance], ['APPROVED', balanceBefore + 1500])
    const outbox = await call(server.url, 'GET', '/dev/outbox')
    assert.is((outbox.body.data as { body: string }[]).filter((m) => m.body.includes(pnr)).length, 2, 'one SMS and one e-mail')
    const details = await call(server.url, 'GET', `/api/reservation/details/${booking.id}`, undefined, { token })
    assert.equal([details.body.data.pnr, details.body.data.paymentMethod], [pnr, 'CARD'])
  } finally {
    server?.kill('SIGKILL')
    if (server) await server.exited
    await ssl.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

const twoProcesses = pgSuite('SSLCommerz on PostgreSQL with two server processes')
let pg: TestPostgres
let ssl: StandIn
const servers: ServerProcess[] = []
let db: Db

twoProcesses.before(async () => {
  pg = await startPostgres()
  ssl = await startStandIn()
  const url = await pg.createDatabase('sslcommerz')
  // The first process migrates and seeds; the second finds it done.
  for (let i = 0; i < 2; i++) servers.push(await start({ ...gatewayEnv(ssl, await freePort()), DATABASE_URL: url }))
  db = await openDb({ databaseUrl: url, max: 10 })
})
twoProcesses.after(async () => {
  await db.close()
  for (const s of servers) {
    s.kill('SIGTERM')
    await s.exited
  }
  await ssl.close()
  await pg.stop()
})

twoProcesses(
  'the IPN to one process and the browser return to the other at the same moment, with replays to both: sold once, one PNR, one ticket notification',
  async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess]
    const [row] = await db.query<PassengerRow>(
      `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at) VALUES ('01811999000', 'Two Process', 'two@example.com', 'Dhaka', 'ACTIVE', 0, now()) RETURNING *`,
    )
    const { token } = await createSession(db, createDeps(db), row!, true)
    const booking = await bookSeat(a.url, token, { trip: 5 })
    const opened = await Promise.all([
      call(a.url, 'POST', '/api/reservation/payment', { reservationId: booking.id }, { token }),
      call(b.url, 'POST', '/api/reservation/payment', { reservationId: booking.id }, { token }),
    ])
    assert.ok(
      opened.every((o) => o.status === 200),
      JSON.stringify(opened.map((o) => o.body)),
    )
    assert.is(opened[0].body.data.paymentId, opened[1].body.data.paymentId, 'a double click on two processes: one payment')
    assert.is(opened[0].body.data.redirectUrl, opened[1].body.data.redirectUrl)
    const paymentId: string = opened[0].body.data.paymentId
    assert.is(ssl.sessionCalls.get(paymentId), 1, 'one session at SSLCommerz')
    const paid = ssl.pay(paymentId)

    const results = await Promise.all([
      ssl.sendIpn(paymentId, `${a.url}/gateway/sslcommerz/ipn`),
      browserSuccess(b.url, paid.fields),
      ...Array.from({ length: 5 }, () => ssl.sendIpn(paymentId, `${b.url}/gateway/sslcommerz/ipn`)),
      ...Array.from({ length: 5 }, () => ssl.sendIpn(paymentId, `${a.url}/gateway/sslcommerz/ipn`)),
      ...Array.from({ length: 3 }, () => browserSuccess(a.url, paid.fields)),
      ...Array.from({ length: 3 }, () => browserSuccess(b.url, paid.fields)),
    ])
    for (const r of results) assert.ok(r === 200 || r === `${APP}/reservation/success?paymentId=${paymentId}`, String(r))

    const [r] = await db.query<{ status: number; pnr: string; payment_method: string }>(
      'SELECT status, pnr, payment_method FROM reservations WHERE id = $1',
      [booking.id],
    )
    assert.equal([r!.status, r!.payment_method], [1, 'CARD'])
    const msgs = await db.query<{ channel: string }>('SELECT channel FROM outbox_messages WHERE body LIKE $1 ORDER BY channel', [`%${r!.pnr}%`])
    assert.equal(
      msgs.map((m) => m.channel),
      ['EMAIL', 'SMS'],
      'one ticket notification',
    )
    const pays = await db.query<{ status: string; confirmed: boolean }>(
      'SELECT status, confirmed_at IS NOT NULL AS confirmed FROM payments WHERE reservation_id = $1',
      [booking.id],
    )
    assert.equal(pays, [{ status: 'APPROVED', confirmed: true }])
    assert.equal(await db.query('SELECT id FROM ledger WHERE passenger_id = $1', [row!.id]), [], 'no refund, no balance movement')
    const resultToken: string = opened[0].body.data.resultToken
    const shown = await Promise.all([a, b].map((s) => call(s.url, 'POST', '/api/reservation/success', { paymentId, resultToken })))
    assert.ok(shown.every((s) => s.body.data.reservation.pnr === r!.pnr))

    // A top-up the same way: credited once.
    const top = await call(b.url, 'POST', '/api/account/topUp', { amount: 2500 }, { token })
    const topPaid = ssl.pay(top.body.data.paymentId)
    await Promise.all([
      ...[a, b].flatMap((s) => Array.from({ length: 4 }, () => ssl.sendIpn(top.body.data.paymentId, `${s.url}/gateway/sslcommerz/ipn`))),
      ...[a, b].flatMap((s) => Array.from({ length: 2 }, () => browserSuccess(s.url, topPaid.fields))),
    ])
    const [bal] = await db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [row!.id])
    assert.is(bal!.balance, 2500)
    assert.equal(await db.query('SELECT amount, kind FROM ledger WHERE passenger_id = $1', [row!.id]), [{ amount: 2500, kind: 'TOP_UP' }])
  },
)

twoProcesses('issue 21.5: IPNs to both processes ask SSLCommerz at most once per few seconds; forged ones never', async () => {
  const [a, b] = servers as [ServerProcess, ServerProcess]
  const [row] = await db.query<PassengerRow>(
    `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at) VALUES ('01811999001', 'Two Process', 'two1@example.com', 'Dhaka', 'ACTIVE', 0, now()) RETURNING *`,
  )
  const { token } = await createSession(db, createDeps(db), row!, true)
  const top = await call(a.url, 'POST', '/api/account/topUp', { amount: 50 }, { token })
  assert.is(top.status, 200, JSON.stringify(top.body))
  const paymentId: string = top.body.data.paymentId
  const paid = ssl.pay(paymentId)
  const ipn = (base: string, fields: Record<string, string>) =>
    fetch(`${base}/gateway/sslcommerz/ipn`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }).then(async (r) => {
      await r.text()
      return r.status
    })

  // Forged: a random val_id without the signature, to both processes: nothing asked.
  const before = { ...ssl.calls }
  const forged = await Promise.all(
    Array.from({ length: 40 }, (_, i) => ipn(i % 2 ? a.url : b.url, { tran_id: paymentId, val_id: `FORGED${i}X`, status: 'VALID' })),
  )
  assert.ok(forged.every((x) => x === 403))
  assert.equal([ssl.calls.validation - before.validation, ssl.calls.query - before.query], [0, 0])

  // Signed, while SSLCommerz answers 500 (so the payment stays pending): one call per ASK_INTERVAL_MS at most.
  ssl.failWith = 500
  const started = Date.now()
  const signed = await Promise.all(Array.from({ length: 40 }, (_, i) => ipn(i % 2 ? a.url : b.url, paid.fields)))
  const elapsed = Date.now() - started
  ssl.failWith = null
  assert.ok(signed.every((x) => x === 200))
  const asked = ssl.calls.validation - before.validation + ssl.calls.query - before.query
  assert.ok(asked >= 1 && asked <= 1 + Math.floor(elapsed / 3000), `${asked} calls in ${elapsed} ms`)
})

restart.run()
twoProcesses.run()
