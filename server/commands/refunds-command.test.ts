/**
 * The refund sub-commands of `npm run trip`, run as processes on an embedded database: `refunds`
 * lists every refund by status with its age; `refund-retry` and `refund-done` finish a FAILED one
 * (stored with who did it); `reconcile` compares a Dhaka day with the SSLCommerz stand-in; the
 * usage lists every sub-command; a trip cancel's summary says card refunds are queued, not done.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readConfig } from '../config.ts'
import { openDb } from '../db/db.ts'
import { migrate } from '../db/migrate.ts'
import { describeChange, parseTripCommand } from '../commands/trip-command.ts'
import type { ChangeReport } from '../bookings/trip-changes.ts'
import { addDays, dhakaDate } from '../lib/time.ts'
import { startStandIn } from '../test/sslcommerz-standin.ts'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** Runs `npm run trip -- <args>` on `dataDir` without blocking this process (the stand-in answers from here). */
function trip(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/commands/trip-command.ts', ...args], {
    cwd: repo,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'test', PAYMENT_PROVIDER: 'sandbox', ...env },
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr.on('data', (c: Buffer) => (err += c.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })))
}

async function withDb<T>(dir: string, fn: (db: Awaited<ReturnType<typeof openDb>>) => Promise<T>): Promise<T> {
  const db = await openDb({ dataDir: dir, databaseUrl: '' })
  try {
    return await fn(db)
  } finally {
    await db.close()
  }
}

test('refunds lists every refund by status with its age; refund-retry and refund-done finish a FAILED one, stored with who did it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refunds-cmd-'))
  try {
    await withDb(dir, (db) => migrate(db))
    const none = await trip(dir, ['refunds'])
    assert.equal([none.code, none.out.trim()], [0, 'No refunds.'], none.err)

    await withDb(dir, async (db) => {
      const [p] = await db.query<{ id: number }>(
        `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at) VALUES ('01711000555', 'Card Payer', 'card@example.com', 'Dhaka', 'ACTIVE', 0, now()) RETURNING id`,
      )
      const rows: [string, string, number, string | null, string | null, string][] = [
        ['rf_failed', 'FAILED', 5, 'refund refused by SSLCommerz: failed (Insufficient balance)', null, '3 days'],
        ['rf_failed2', 'FAILED', 5, 'refund refused by SSLCommerz: failed (Bank offline)', null, '2 days'],
        ['rf_retry', 'PENDING', 2, 'no answer within 15000 ms', null, '5 hours'],
        ['rf_stuck', 'SENT', 1, null, 'ref-stuck-1', '9 days'],
        ['rf_done', 'DONE', 1, null, 'ref-done-1', '1 day'],
      ]
      for (const [i, [id, status, attempts, error, refId, ago]] of rows.entries()) {
        const pay = `pay_refundCmd${String(i).padStart(11, '0')}`
        await db.query(
          `INSERT INTO payments (id, purpose, passenger_id, amount, status, created_at, provider) VALUES ($1, 'TOP_UP', $2, 900, 'APPROVED', now(), 'sslcommerz')`,
          [pay, p!.id],
        )
        await db.query(
          `INSERT INTO refunds (id, payment_id, provider, amount, reason, status, attempts, last_error, refund_ref_id, next_attempt_at, created_at, sent_at, done_at)
           VALUES ($1, $2, 'sslcommerz', 720, 'REVIEW_DECLINED', $3, $4, $5, $6, $8::timestamptz + interval '1 hour', $8::timestamptz - $7::interval,
                   CASE WHEN $6::text IS NULL THEN NULL ELSE $8::timestamptz - $7::interval END, CASE WHEN $3 = 'DONE' THEN $8::timestamptz ELSE NULL END)`,
          [id, pay, status, attempts, error, refId, ago, new Date()],
        )
      }
    })

    const r = await trip(dir, ['refunds'])
    assert.is(r.code, 0, r.err)
    const lines = r.out.trim().split('\n')
    assert.is(lines[0], '5 refund(s): 2 FAILED, 1 PENDING, 1 SENT, 1 DONE.')
    const at = (id: string) => lines.findIndex((l) => l.includes(`${id} `))
    assert.ok(at('rf_failed') < at('rf_retry') && at('rf_retry') < at('rf_stuck') && at('rf_stuck') < at('rf_done'), 'by status, FAILED first')
    assert.match(
      lines[at('rf_failed')]!,
      /age 3d 0h .*Tk 720\s+sslcommerz\s+to the card you paid with\s+REVIEW_DECLINED\s+payment pay_refundCmd\d+\s+5 tries, last error: .*Insufficient balance/,
    )
    assert.match(lines[at('rf_retry')]!, /age 5h 0m .*2 tries, last error: no answer within 15000 ms/)
    assert.match(lines[at('rf_stuck')]!, /age 9d 0h .*processing for 9d 0h, gateway ref ref-stuck-1/, 'a refund stuck in processing is visible')
    assert.match(lines[at('rf_done')]!, 'refunded ')
    const failedOnly = await trip(dir, ['refunds', '--status', 'failed'])
    assert.equal([failedOnly.code, failedOnly.out.split('\n')[0]], [0, '2 refund(s): 2 FAILED, 0 PENDING, 0 SENT, 0 DONE.'])

    const done = await trip(dir, ['refund-done', 'rf_failed', '--ref', 'bKash reversal 8HX2K', '--by', 'Nasrin Akter'])
    assert.is(done.code, 0, done.err)
    assert.match(done.out, 'Refund rf_failed (Tk 720) recorded as refunded by hand: ref bKash reversal 8HX2K, by Nasrin Akter.')
    const retried = await trip(dir, ['refund-retry', 'rf_failed2', '--by', 'Rahim'])
    assert.is(retried.code, 0, retried.err)
    assert.match(retried.out, 'Refund rf_failed2 (Tk 720) is queued again')
    const stored = await withDb(dir, (db) =>
      db.query<{ id: string; status: string; manual_ref: string | null; manual_by: string | null; retried_by: string | null; attempts: number }>(
        "SELECT id, status, manual_ref, manual_by, retried_by, attempts FROM refunds WHERE id IN ('rf_failed', 'rf_failed2') ORDER BY id",
      ),
    )
    assert.equal(stored, [
      { id: 'rf_failed', status: 'DONE', manual_ref: 'bKash reversal 8HX2K', manual_by: 'Nasrin Akter', retried_by: null, attempts: 5 },
      { id: 'rf_failed2', status: 'PENDING', manual_ref: null, manual_by: null, retried_by: 'Rahim', attempts: 0 },
    ])
    const twice = await trip(dir, ['refund-done', 'rf_failed', '--ref', 'again', '--by', 'Nasrin'])
    assert.equal(
      [twice.code, twice.err.trim()],
      [1, 'Refund rf_failed is not FAILED: only a failed refund is retried or recorded by hand (see npm run trip -- refunds).'],
    )
    const unknown = await trip(dir, ['refund-retry', 'rf_nosuch', '--by', 'Rahim'])
    assert.equal([unknown.code, unknown.err.trim()], [1, 'No refund rf_nosuch (see npm run trip -- refunds).'])
    const noName = await trip(dir, ['refund-done', 'rf_failed2', '--ref', 'x'])
    assert.is(noName.code, 2)
    assert.match(noName.err, 'needs --by')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('the usage lists every sub-command; bad arguments are refused with it (exit 2)', async () => {
  const r = await trip(os.tmpdir(), ['refunds', 'now'])
  assert.is(r.code, 2)
  for (const sub of [
    'cancel <tripId>',
    'move <tripId>',
    'refunds [--status',
    'refund-retry <refundId> --by',
    'refund-done <refundId> --ref',
    'reconcile [--date',
  ])
    assert.match(r.err, `npm run trip -- ${sub}`)
  assert.type(parseTripCommand(['reconcile', '--date', '2026-02-30']), 'string', 'not a calendar date')
  assert.type(parseTripCommand(['refund-retry', 'pay_x', '--by', 'Rahim']), 'string', 'a refund id starts rf_')
  assert.equal(parseTripCommand(['reconcile', '--date', '2026-02-28']), { kind: 'reconcile', date: '2026-02-28' })
  assert.equal(parseTripCommand(['refund-done', 'rf_a1', '--ref', ' TX 1 ', '--by', 'Nasrin']), {
    kind: 'refund-done',
    refundId: 'rf_a1',
    reference: 'TX 1',
    by: 'Nasrin',
  })
})

test("reconcile compares the Dhaka day's SSLCommerz payments and refunds with the stand-in and lists each difference (exit 1)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reconcile-cmd-'))
  const ssl = await startStandIn()
  try {
    const today = await withDb(dir, async (db) => {
      await migrate(db)
      const [p] = await db.query<{ id: number }>(
        `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at) VALUES ('01711000556', 'Card Payer', 'c2@example.com', 'Dhaka', 'ACTIVE', 0, now()) RETURNING id`,
      )
      const [pay] = await db.query<{ created_at: Date }>(
        `INSERT INTO payments (id, purpose, passenger_id, amount, status, created_at, decided_at, provider) VALUES ('pay_reconcileGhost0000001', 'TOP_UP', $1, 500, 'APPROVED', now(), now(), 'sslcommerz') RETURNING created_at`,
        [p!.id],
      )
      return dhakaDate(pay!.created_at)
    })
    const env = {
      PAYMENT_PROVIDER: 'sslcommerz',
      SSLCOMMERZ_STORE_ID: ssl.storeId,
      SSLCOMMERZ_STORE_PASSWORD: ssl.storePassword,
      SSLCOMMERZ_API_URL: ssl.url,
    }
    // the Dhaka date the row was written on: the day may turn while the test runs
    const r = await trip(dir, ['reconcile', '--date', today], env)
    assert.is(r.code, 1, r.err)
    assert.match(r.out, `Reconciliation of ${today} (Asia/Dhaka) with SSLCommerz: 1 card payment(s) and 0 refund(s) checked; 1 difference(s).`)
    assert.match(
      r.out,
      /payment pay_reconcileGhost0000001\s+Tk 500\s+here: APPROVED\s+SSLCommerz: not paid\s+approved here, but SSLCommerz has no paid transaction/,
    )
    assert.ok(ssl.calls.query >= 1, 'asked SSLCommerz by tran_id')
    const other = await trip(dir, ['reconcile', '--date', addDays(today, -3)], env)
    assert.is(other.code, 0, other.err)
    assert.match(other.out, '0 card payment(s) and 0 refund(s) checked; 0 difference(s).')
    const noGateway = await trip(dir, ['reconcile'])
    assert.is(noGateway.code, 1)
    assert.match(noGateway.err, 'reconcile asks SSLCommerz: set PAYMENT_PROVIDER=sslcommerz')
  } finally {
    await ssl.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test("a trip cancel's summary says card refunds are queued and balance refunds done", () => {
  const trip0 = {
    id: 7,
    route: 'Dhaka - Chattogram',
    tripDate: '2026-12-01',
    coachCode: '101-DHK-CTG',
    departureAt: new Date('2026-12-01T02:00:00Z'),
  }
  const person = { status: 1, passengerName: 'A', passengerMobile: '01711000000', seats: ['A1'], newSeats: null }
  const report = {
    trip: trip0,
    target: null,
    left: [],
    totalRefund: 1300,
    affected: [
      { ...person, id: 1, pnr: 'PNR0000001', paidBy: 'CARD', refund: 800 },
      { ...person, id: 2, pnr: 'PNR0000002', paidBy: 'BALANCE', refund: 500 },
    ],
  } as unknown as ChangeReport
  const cmd = { kind: 'cancel' as const, tripId: 7, reason: { en: 'Flood', bn: null }, dryRun: false }
  const text = describeChange(cmd, report)
  assert.match(text, '2 reservation(s) were cancelled; Tk 500 were refunded to balances, Tk 800 were queued for refund to cards')
  assert.not.match(text, 'Tk 1300 were refunded')
  assert.match(describeChange(cmd, report, false), 'Tk 1300 were refunded to balances, Tk 0 were queued', 'REFUND_TO=balance: all to balances')
})

test('REFUND_TO is card (default) or balance; anything else is refused at start', () => {
  assert.is(readConfig({}).config.refundTo, 'card')
  assert.is(readConfig({ REFUND_TO: 'balance' }).config.refundTo, 'balance')
  assert.ok(readConfig({ REFUND_TO: 'bank' }).problems.includes('REFUND_TO must be card or balance, not "bank"'))
  assert.ok(readConfig({ REFUND_MAX_ATTEMPTS: '0' }).problems.some((p) => p.startsWith('REFUND_MAX_ATTEMPTS')))
})

test.run()
