/**
 * The operator's review command (server/commands/review-payments.ts) run as a process on
 * an embedded database: it lists payments held for review, approves one (the
 * top-up is credited once) and declines another; a pending payment is left alone.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openDb } from '../db/db.ts'
import { migrate } from '../db/migrate.ts'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

function review(dataDir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/commands/review-payments.ts', ...args], {
    cwd: repo,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'test' },
    encoding: 'utf8',
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

test('list, approve and decline payments held for review', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'review-test-'))
  try {
    let db = await openDb({ dataDir: dir, databaseUrl: '' })
    await migrate(db)
    const [p] = await db.query<{ id: number }>(
      `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at) VALUES ('01711000444', 'Risky Payer', 'risky@example.com', 'Dhaka', 'ACTIVE', 0, now()) RETURNING id`,
    )
    for (const [id, status] of [
      ['pay_reviewApprove00000001', 'REVIEW'],
      ['pay_reviewDecline00000002', 'REVIEW'],
      ['pay_reviewPending00000003', 'PENDING'],
    ]) {
      await db.query(
        "INSERT INTO payments (id, purpose, passenger_id, amount, status, provider, risk_level, gateway_val_id, created_at, decided_at) VALUES ($1, 'TOP_UP', $2, 2500, $3, 'sslcommerz', 1, 'VAL123', now(), now())",
        [id, p!.id, status],
      )
    }
    await db.close()

    const list = review(dir, 'list')
    assert.is(list.code, 0, list.err)
    assert.match(list.out, /pay_reviewApprove00000001 {2}top-up {2}Tk 2500 {2}Risky Payer 01711000444/)
    assert.match(list.out, 'pay_reviewDecline00000002')
    assert.not.match(list.out, 'pay_reviewPending00000003')

    const ok = review(dir, 'approve', 'pay_reviewApprove00000001')
    assert.equal([ok.code, ok.out.trim()], [0, 'Approved: balance credited.'])
    const no = review(dir, 'decline', 'pay_reviewDecline00000002', 'card', 'reported', 'stolen')
    assert.is(no.code, 0, no.err)
    assert.match(no.out, 'Declined')
    assert.is(review(dir, 'approve').code, 1)
    const noReason = review(dir, 'decline', 'pay_reviewDecline00000002')
    assert.equal(
      [noReason.code, noReason.err.trim()],
      [1, 'usage: review-payments.ts list | approve <paymentId> | decline <paymentId> <reason>'],
      'a decline needs a reason',
    )

    db = await openDb({ dataDir: dir, databaseUrl: '' })
    const rows = await db.query<{ id: string; status: string; decline_reason: string | null }>(
      'SELECT id, status, decline_reason FROM payments ORDER BY id',
    )
    assert.equal(rows, [
      { id: 'pay_reviewApprove00000001', status: 'APPROVED', decline_reason: null },
      { id: 'pay_reviewDecline00000002', status: 'DECLINED', decline_reason: 'review: card reported stolen' },
      { id: 'pay_reviewPending00000003', status: 'PENDING', decline_reason: null },
    ])
    const [bal] = await db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [p!.id])
    assert.is(bal!.balance, 2500)
    await db.close()
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test.run()
