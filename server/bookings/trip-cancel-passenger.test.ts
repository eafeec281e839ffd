/**
 * A passenger's own cancel once the operator is cancelling the trip (npm run trip -- cancel),
 * or after: the operator's terms (full refund, TRIP_CANCELED, the operator's reason and notice),
 * never the cancellation fee, also when the passenger's quote was read before the trip cancel
 * began. And the operator's reason in the language the passenger booked in.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { reservationStatus } from '../../contract/schemas.ts'
import type { ReservationRow } from '../bookings/bookings.ts'
import { cancelQuote, cancelTicket } from '../bookings/tickets.ts'
import { cancelTrip, moveTrip, TripChangeError } from '../bookings/trip-changes.ts'
import { parseTripCommand } from '../commands/trip-command.ts'
import { buyTicketWith, lastCode, lockAndBook, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { tempDir } from '../test/helpers.ts'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const bn = { 'accept-language': 'bn-BD,bn;q=0.9' }
const why = { en: 'Flood on the highway', bn: 'মহাসড়কে বন্যা' }

const t = suite('a passenger cancels while the operator cancels the trip')
let f: Fixture

t.before.each(async () => {
  f = await openFixture()
})
t.after.each(async () => {
  await f.close()
})

type Passenger = Awaited<ReturnType<Fixture['passenger']>>

async function buy(who: Passenger, trip: Awaited<ReturnType<typeof pickTrip>>, headers: Record<string, string> = {}) {
  return buyTicketWith(f, who, trip, { headers, body: { passengerMobile: who.mobile, passengerEmail: null } })
}

/** A trip 60 hours or more ahead with two tickets paid from the balance: the second one's passenger cancels it. */
async function twoTickets() {
  const trip = await pickTrip(f, { minHours: 60 })
  await buy(await f.passenger({ balance: 50_000 }), trip)
  const late = await f.passenger({ balance: 50_000 })
  return { trip, late, sold: await buy(late, trip) }
}

/** The passenger's own cancel through the API: the quote, the code by SMS, the cancel. */
async function passengerCancels(sold: { pnr: string; pin: string }, mobile: string) {
  const quote = await f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`)
  assert.is(quote.status, 200, JSON.stringify(quote.body))
  const cancel = await f.api('GET', `/api/reservation/cancel/${sold.pnr}/${sold.pin}/${await lastCode(f, mobile)}`)
  return { quote: quote.body.data, cancel }
}

/** What the passenger got: the row, the balance refunds of the ticket by reason, the balance, the notices since `since`. */
async function outcome(id: number, who: Passenger, since: number) {
  const [x] = await f.db.query<{
    status: number
    cancel_reason: string
    operator_reason: string | null
    refund_amount: number
    cancellation_charge: number
  }>('SELECT status, cancel_reason, operator_reason, refund_amount, cancellation_charge FROM reservations WHERE id = $1', [id])
  const refunds = await f.db.query<{ amount: number }>("SELECT amount FROM ledger WHERE reservation_id = $1 AND kind = 'REFUND'", [id])
  const [p] = await f.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [who.id])
  return { row: x!, refunds: refunds.map((r) => r.amount), balance: p!.balance, notices: await noticesTo(who.mobile, since) }
}

/** The SMS sent to `mobile` since outbox id `since`, one-time codes left out. */
async function noticesTo(mobile: string, since: number): Promise<string[]> {
  const rows = await f.db.query<{ body: string }>(
    `SELECT body FROM outbox_messages WHERE "to" = $1 AND id > $2 AND code IS NULL AND channel = 'SMS' ORDER BY id`,
    [mobile, since],
  )
  return rows.map((n) => n.body)
}

async function lastOutboxId(): Promise<number> {
  const [r] = await f.db.query<{ id: number | null }>('SELECT max(id) AS id FROM outbox_messages')
  return r!.id ?? 0
}

function assertOperatorsTerms(o: Awaited<ReturnType<typeof outcome>>, total: number) {
  assert.equal(
    [o.row.status, o.row.cancel_reason, o.row.operator_reason, o.row.refund_amount, o.row.cancellation_charge],
    [reservationStatus.canceled, 'TRIP_CANCELED', why.en, total, 0],
  )
  assert.equal(o.refunds, [total], 'refunded once, in full')
  assert.is(o.balance, 50_000, 'the whole fare is back on the balance')
  assert.is(o.notices.length, 1, o.notices.join('\n'))
  assert.match(o.notices[0]!, 'The operator has cancelled the trip')
  assert.match(o.notices[0]!, why.en)
}

t('the passenger cancels while the command is half-way: the full fare and the operator reason, not the fee', async () => {
  const { trip, late, sold } = await twoTickets()
  const since = await lastOutboxId()
  let asked: Awaited<ReturnType<typeof passengerCancels>> | undefined
  const report = await cancelTrip(f.deps, trip.id, why, {
    hooks: {
      afterEach: async () => {
        asked ??= await passengerCancels(sold, late.mobile)
      },
    },
  })
  assert.ok(asked)
  assert.equal([asked.quote.cancellationCharge, asked.quote.refundAmount], [0, sold.fare.total], 'the quote is the full fare')
  assert.is(asked.cancel.status, 200, JSON.stringify(asked.cancel.body))
  assert.equal(
    [asked.cancel.body.data.cancelReason, asked.cancel.body.data.operatorReason, asked.cancel.body.data.operatorReasonBn],
    ['TRIP_CANCELED', why.en, why.bn],
  )
  assertOperatorsTerms(await outcome(sold.id, late, since), sold.fare.total)
  assert.not.ok(
    report.affected.some((a) => a.id === sold.id),
    "the command reports only what it did: the passenger's own cancel is not its",
  )
})

t('the quote read before the trip cancel began, the cancel done during it: the operator terms still', async () => {
  const { trip, late, sold } = await twoTickets()
  const [row] = await f.db.query<ReservationRow>('SELECT * FROM reservations WHERE id = $1', [sold.id])
  const stale = await cancelQuote(f.db, row!, f.now())
  assert.ok(stale.charge > 0, 'before the trip cancel, a cancel costs the fee')
  const since = await lastOutboxId()
  let raced = false
  await cancelTrip(f.deps, trip.id, why, {
    hooks: {
      afterEach: async () => {
        if (raced) return
        raced = true
        await cancelTicket(f.deps, row!, f.now())
      },
    },
  })
  assert.ok(raced)
  assertOperatorsTerms(await outcome(sold.id, late, since), sold.fare.total)
})

t('after a command stopped half-way: the passenger cancel takes the operator terms, and the next run leaves it alone', async () => {
  const { trip, late, sold } = await twoTickets()
  const since = await lastOutboxId()
  await cancelTrip(f.deps, trip.id, why, {
    hooks: {
      afterEach: () => {
        throw new Error('killed')
      },
    },
  }).catch((e: Error) => assert.is(e.message, 'killed'))
  const { cancel } = await passengerCancels(sold, late.mobile)
  assert.is(cancel.status, 200, JSON.stringify(cancel.body))
  const again = await cancelTrip(f.deps, trip.id, why)
  assert.not.ok(
    again.affected.some((a) => a.id === sold.id),
    'the next run leaves it alone',
  )
  assertOperatorsTerms(await outcome(sold.id, late, since), sold.fare.total)
})

t('the reason in Bengali: --reason-bn, required when a passenger booked in Bengali, and the move reason in Bengali', async () => {
  assert.equal(parseTripCommand(['cancel', '7', '--reason', why.en, '--reason-bn', why.bn]), {
    kind: 'cancel',
    tripId: 7,
    reason: why,
    dryRun: false,
  })
  assert.type(parseTripCommand(['move', '7', '--to-coach', 'C1', '--reason-bn', why.bn]), 'string', 'a move has no reason to give')

  const trip = await pickTrip(f, { minHours: 60 })
  const english = await f.passenger({ balance: 50_000 })
  const bengali = await f.passenger({ balance: 50_000 })
  await buy(english, trip)
  await buy(bengali, trip, bn)
  const before = await f.snapshot()
  for (const dryRun of [true, false]) {
    const refused = await cancelTrip(f.deps, trip.id, why.en, { dryRun }).catch((e: unknown) => e)
    assert.instance(refused, TripChangeError)
    assert.match((refused as Error).message, '--reason-bn')
  }
  assert.is(await f.snapshot(), before, 'refused before anything changed')
  const since = await lastOutboxId()
  await cancelTrip(f.deps, trip.id, why)
  const toBengali = await noticesTo(bengali.mobile, since)
  assert.is(toBengali.length, 1)
  assert.match(toBengali[0]!, `যাত্রাটি বাতিল করেছে: ${why.bn}।`)
  assert.not.match(toBengali[0]!, why.en)
  const toEnglish = await noticesTo(english.mobile, since)
  assert.match(toEnglish[0]!, `: ${why.en}.`)
  assert.not.match(toEnglish[0]!, why.bn)

  // a move cancels unpaid bookings with its own reason, in Bengali for a Bengali booking
  const from = await pickTrip(f, { minHours: 60, skip: 3 })
  const [sibling] = await f.db.query<{ coach_code: string }>(
    `SELECT s.coach_code FROM trips s JOIN trips t ON t.id = $1
      WHERE s.route_id = t.route_id AND s.trip_date = t.trip_date AND s.id <> t.id AND s.status = 'OPEN' LIMIT 1`,
    [from.id],
  )
  assert.ok(sibling, 'a trip with another coach on the same route and day')
  const holder = await f.passenger()
  const booked = await lockAndBook(f, holder, from, 1)
  await f.db.query("UPDATE reservations SET language = 'bn' WHERE id = $1", [booked.id])
  const sinceMove = await lastOutboxId()
  await moveTrip(f.deps, from.id, sibling.coach_code)
  const told = await noticesTo(booked.passengerMobile, sinceMove)
  assert.is(told.length, 1)
  assert.match(told[0]!, `কোচ ${from.coachCode} চলবে না`)
  assert.not.match(told[0]!, 'does not run')
})

t('npm run trip -- cancel without the Bengali reason, a passenger booked in Bengali: refused, exit 1, nothing done', async () => {
  const dir = tempDir()
  const g = await openFixture({ dataDir: dir })
  const trip = await pickTrip(g, { minHours: 60 })
  const p = await g.passenger({ balance: 50_000 })
  const sold = await buyTicketWith(g, p, trip, { headers: bn, body: { passengerMobile: p.mobile, passengerEmail: null } })
  await g.close()
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'server/commands/trip-command.ts', 'cancel', String(trip.id), ...args], {
      cwd: repo,
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', NODE_ENV: 'test' },
      encoding: 'utf8',
    })
  const refused = run(['--reason', why.en])
  assert.is(refused.status, 1, refused.stderr + refused.stdout)
  assert.match(refused.stderr, '--reason-bn')
  const done = run(['--reason', why.en, '--reason-bn', why.bn])
  assert.is(done.status, 0, done.stderr + done.stdout)
  assert.match(done.stdout, `${sold.pnr} `)
})

t.run()
