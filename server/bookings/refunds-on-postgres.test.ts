/**
 * Refunds to the card on PostgreSQL with two server processes (server/main.ts spawned),
 * against the SSLCommerz stand-in: card-paid tickets cancelled on one process or the
 * other (the same cancel sent to both at once), the two refund workers racing over the
 * refunds: each ticket refunded once at SSLCommerz (one refund request per refund), polled
 * until refunded, nothing credited to a balance. Then the operator's refund-retry and refund-done
 * on the same FAILED refunds from two command processes at once: one wins each, and the workers
 * send only the retried ones.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as assert from 'uvu/assert'
import type { PassengerRow } from '../account/passengers.ts'
import { createSession } from '../account/sessions.ts'
import { openDb, type Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import { pgSuite, startPostgres, type TestPostgres } from '../test/pg.ts'
import { spawnServer, type ServerProcess } from '../test/proc.ts'
import { until } from '../test/receivers.ts'
import { bookSeat, call, freePort } from '../../harness/spawn-server.ts'
import { startStandIn, type StandIn } from '../test/sslcommerz-standin.ts'

const t = pgSuite('refunds to the card on PostgreSQL with two server processes')
let pg: TestPostgres
let ssl: StandIn
let db: Db
let url: string
const servers: ServerProcess[] = []

t.before(async () => {
  pg = await startPostgres()
  ssl = await startStandIn()
  url = await pg.createDatabase('refunds')
  for (let i = 0; i < 2; i++) {
    const port = await freePort()
    const s = await spawnServer({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      APP_URL: 'http://app.test',
      DATABASE_URL: url,
      PAYMENT_PROVIDER: 'sslcommerz',
      SSLCOMMERZ_STORE_ID: ssl.storeId,
      SSLCOMMERZ_STORE_PASSWORD: ssl.storePassword,
      SSLCOMMERZ_API_URL: ssl.url,
      SSLCOMMERZ_TIMEOUT_MS: '5000',
      REFUND_RETRY_SECONDS: '1',
    })
    await s.ready
    servers.push(s)
  }
  db = await openDb({ databaseUrl: url, max: 10 })
})
t.after(async () => {
  await db?.close()
  for (const s of servers) {
    s.kill('SIGTERM')
    await s.exited
  }
  await ssl?.close()
  await pg?.stop()
})

t('card-paid tickets cancelled on both processes, the two refund workers racing: each refunded once to the card, none to a balance', async () => {
  const [a, b] = servers as [ServerProcess, ServerProcess]
  const [row] = await db.query<PassengerRow>(
    `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at) VALUES ('01811999220', 'Refund Test', 'refund@example.com', 'Dhaka', 'ACTIVE', 0, now()) RETURNING *`,
  )
  const { token } = await createSession(db, createDeps(db), row!, true)
  const tickets: { id: number; pnr: string; pin: string; paymentId: string }[] = []
  for (let i = 0; i < 4; i++) {
    const s = i % 2 ? b : a
    const booking = await bookSeat(s.url, token, {
      trip: i,
      daysAhead: 3,
      passenger: { name: 'Refund Test', mobile: '01811999220', email: 'refund@example.com' },
    })
    const pay = await call(s.url, 'POST', '/api/reservation/payment', { reservationId: booking.id }, { token })
    assert.is(pay.status, 200, JSON.stringify(pay.body))
    const paymentId: string = pay.body.data.paymentId
    ssl.pay(paymentId)
    assert.is(await ssl.sendIpn(paymentId), 200)
    const [r] = await db.query<{ pnr: string; pin: string; status: number }>('SELECT pnr, pin, status FROM reservations WHERE id = $1', [booking.id])
    assert.is(r!.status, 1)
    tickets.push({ id: booking.id, pnr: r!.pnr, pin: r!.pin, paymentId })
  }

  const refunds: number[] = []
  for (const [i, tk] of tickets.entries()) {
    const init = await call(a.url, 'GET', `/api/reservation/cancelInitialize/${tk.pnr}/${tk.pin}`)
    assert.is(init.status, 200, JSON.stringify(init.body))
    refunds.push(init.body.data.refundAmount)
    const [code] = await db.query<{ code: string }>(
      `SELECT code FROM outbox_messages WHERE "to" = '01811999220' AND code IS NOT NULL ORDER BY id DESC LIMIT 1`,
    )
    const path = `/api/reservation/cancel/${tk.pnr}/${tk.pin}/${code!.code}`
    // the same cancel to both processes at once (a double tap, a retry through another instance)
    const both = await Promise.all([call(a.url, 'GET', path), call(b.url, 'GET', path)])
    const ok = both.filter((x) => x.status === 200)
    assert.is(ok.length, 1, `ticket ${i}: ${JSON.stringify(both.map((x) => x.body))}`)
    assert.equal(ok[0]!.body.data.refund.to, 'CARD')
  }

  // the refund workers run every second
  await until(
    async () => {
      const rows = await db.query<{ status: string }>('SELECT status FROM refunds WHERE reservation_id = ANY($1::int[])', [tickets.map((x) => x.id)])
      return rows.length === tickets.length && rows.every((x) => x.status === 'DONE')
    },
    'every refund refunded',
    60_000,
  )
  for (const [i, tk] of tickets.entries()) {
    const atGateway = [...ssl.refunds.values()].filter((x) => x.tranId === tk.paymentId)
    assert.is(atGateway.length, 1, `ticket ${i} refunded once at SSLCommerz`)
    assert.is(atGateway[0]!.amount, `${refunds[i]}.00`)
  }
  assert.is(ssl.calls.refund, tickets.length, 'one refund request per refund, whichever process sent it')
  assert.equal(await db.query("SELECT id FROM ledger WHERE passenger_id = $1 AND kind = 'REFUND'", [row!.id]), [], 'nothing to the balance')
  const [bal] = await db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [row!.id])
  assert.is(bal!.balance, 0)
  const shown = await call(b.url, 'GET', `/api/reservation/details/${tickets[0]!.id}`, undefined, { token })
  assert.equal([shown.body.data.refund.to, shown.body.data.refund.status], ['CARD', 'REFUNDED'])
})

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** `npm run trip -- <args>` on the test database, as an operator runs it; answers its exit status and output. */
function trip(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/commands/trip-command.ts', ...args], {
    cwd: repo,
    env: { ...process.env, DATABASE_URL: url, NODE_ENV: 'test', PAYMENT_PROVIDER: 'sandbox' },
  })
  let out = ''
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr.on('data', (c: Buffer) => (out += c.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })))
}

t(
  'refund-retry and refund-done on the same FAILED refund from two processes at once: one wins, and the workers send only a retried one',
  async () => {
    const done = await db.query<{ id: string; payment_id: string }>("SELECT id, payment_id FROM refunds WHERE status = 'DONE' ORDER BY id LIMIT 2")
    assert.is(done.length, 2)
    // as if SSLCommerz's answers had been lost until the tries ran out
    await db.query("UPDATE refunds SET status = 'FAILED', refund_ref_id = NULL, done_at = NULL, attempts = 5 WHERE id = ANY($1::text[])", [
      done.map((x) => x.id),
    ])
    const before = ssl.calls.refund
    for (const f of done) {
      const both = await Promise.all([
        trip(['refund-retry', f.id, '--by', 'Rahim']),
        trip(['refund-done', f.id, '--ref', 'bank transfer 77', '--by', 'Nasrin']),
      ])
      assert.equal(both.map((x) => x.code).sort(), [0, 1], both.map((x) => x.out).join('\n'))
      assert.match(both.find((x) => x.code === 1)!.out, 'is not FAILED')
    }
    const rows = await db.query<{ id: string; manual_ref: string | null; retried_by: string | null }>(
      'SELECT id, manual_ref, retried_by FROM refunds WHERE id = ANY($1::text[])',
      [done.map((x) => x.id)],
    )
    for (const r of rows) assert.ok((r.manual_ref === null) !== (r.retried_by === null), `${r.id}: retried or done by hand, not both`)
    const retried = rows.filter((r) => r.retried_by)
    await until(
      async () => {
        const now = await db.query<{ status: string }>('SELECT status FROM refunds WHERE id = ANY($1::text[])', [done.map((x) => x.id)])
        return now.every((x) => x.status === 'DONE')
      },
      'the retried refunds refunded again by a worker',
      60_000,
    )
    // a retry is the same refund_trans_id: SSLCommerz answers "already initiated", never a second refund
    assert.is(ssl.calls.refund - before, retried.length, 'sent once per retried refund, none for one done by hand')
    for (const f of done) assert.is([...ssl.refunds.values()].filter((x) => x.tranId === f.payment_id).length, 1)
  },
)

t.run()
