/**
 * `npm run trip -- refunds` run as a process on an embedded database: it lists the refunds to
 * the card that failed (the operator refunds them by hand) and those being retried, with the
 * amount, the gateway and its reason, and nothing else.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readConfig } from '../config.ts'
import { openDb } from '../db/db.ts'
import { migrate } from '../db/migrate.ts'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

function trip(dataDir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/bookings/trip-command.ts', ...args], {
    cwd: repo,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'test' },
    encoding: 'utf8',
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

test('npm run trip -- refunds lists failed and retried refunds to the card, with amount, gateway and reason', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refunds-cmd-'))
  try {
    let db = await openDb({ dataDir: dir, databaseUrl: '' })
    await migrate(db)
    await db.close()
    const none = trip(dir, 'refunds')
    assert.equal([none.code, none.out.trim()], [0, 'No refund needs the operator.'], none.err)

    db = await openDb({ dataDir: dir, databaseUrl: '' })
    const [p] = await db.query<{ id: number }>(
      `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at) VALUES ('01711000555', 'Card Payer', 'card@example.com', 'Dhaka', 'ACTIVE', 0, now()) RETURNING id`,
    )
    for (const id of ['pay_refundFailed00000001', 'pay_refundRetry000000002', 'pay_refundDone0000000003']) {
      await db.query(
        `INSERT INTO payments (id, purpose, passenger_id, amount, status, created_at, provider) VALUES ($1, 'TOP_UP', $2, 900, 'APPROVED', now(), 'sslcommerz')`,
        [id, p!.id],
      )
    }
    const refund = (id: string, payment: string, status: string, attempts: number, error: string | null) =>
      db.query(
        `INSERT INTO refunds (id, payment_id, provider, amount, reason, status, attempts, last_error, next_attempt_at, created_at)
         VALUES ($1, $2, 'sslcommerz', 720, 'REVIEW_DECLINED', $3, $4, $5, now(), now())`,
        [id, payment, status, attempts, error],
      )
    await refund('rf_failed', 'pay_refundFailed00000001', 'FAILED', 5, 'refund refused by SSLCommerz: failed (Insufficient balance)')
    await refund('rf_retry', 'pay_refundRetry000000002', 'PENDING', 2, 'no answer within 15000 ms')
    await refund('rf_done', 'pay_refundDone0000000003', 'DONE', 1, null)
    await db.close()

    const r = trip(dir, 'refunds')
    assert.is(r.code, 0, r.err)
    const lines = r.out.trim().split('\n')
    assert.match(lines[0]!, '2 refund(s) to the card need a look: 1 failed')
    assert.is(lines.length, 3)
    assert.match(
      lines[1]!,
      /Tk 720\s+sslcommerz\s+FAILED\s+REVIEW_DECLINED\s+payment pay_refundFailed00000001\s+refund rf_failed\s+reason: .*Insufficient balance/,
    )
    assert.match(lines[2]!, /retrying \(2 tries\).*refund rf_retry.*no answer within 15000 ms/)
    assert.not.match(r.out, 'rf_done')
    const bad = trip(dir, 'refunds', 'now')
    assert.is(bad.code, 2)
    assert.match(bad.err, 'npm run trip -- refunds')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('REFUND_TO is card (default) or balance; anything else is refused at start', () => {
  assert.is(readConfig({}).config.refundTo, 'card')
  assert.is(readConfig({ REFUND_TO: 'balance' }).config.refundTo, 'balance')
  assert.ok(readConfig({ REFUND_TO: 'bank' }).problems.includes('REFUND_TO must be card or balance, not "bank"'))
  assert.ok(readConfig({ REFUND_MAX_ATTEMPTS: '0' }).problems.some((p) => p.startsWith('REFUND_MAX_ATTEMPTS')))
})

test.run()
