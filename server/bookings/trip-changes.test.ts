/**
 * The operator cancels or moves a trip (server/bookings/trip-changes.ts, npm run trip): who is
 * cancelled, refunded and told, exactly once however often the command runs or however it
 * stops half-way; where moved passengers sit; a moved passenger refusing the move.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { reservationStatus } from '../../contract/schemas.ts'
import { chooseSeats, cancelTrip, moveTrip } from '../bookings/trip-changes.ts'
import { parseTripCommand } from '../commands/trip-command.ts'
import { buyTicketWith, freeSeats, lastCode, lockAndBook, lockBody, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { tempDir } from '../test/helpers.ts'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const bn = { 'accept-language': 'bn-BD,bn;q=0.9' }

type Trip = Awaited<ReturnType<typeof pickTrip>>

/**
 * A trip at least 60 hours ahead with another coach on the same route and day, and four seat
 * names free on both in the order the layouts list them (for tickets that keep their names).
 */
async function tripWithSibling(f: Fixture): Promise<{ trip: Trip; sibling: Trip; common: string[] }> {
  for (let i = 0; i < 40; i++) {
    const trip = await pickTrip(f, { skip: i })
    const siblings = await f.db.query<{ id: number; coach_code: string }>(
      `SELECT s.id, s.coach_code FROM trips s JOIN trips t ON t.id = $1
        WHERE s.route_id = t.route_id AND s.trip_date = t.trip_date AND s.id <> t.id AND s.status = 'OPEN' ORDER BY s.departure_at`,
      [trip.id],
    )
    for (const s of siblings) {
      const here = await freeNames(f, trip.id)
      const there = new Set(await freeNames(f, s.id))
      const common = here.filter((n) => there.has(n)).slice(0, 4)
      if (common.length === 4) return { trip, sibling: { ...trip, id: s.id, coachCode: s.coach_code }, common }
    }
  }
  throw new Error('no trip with a sibling coach sharing four free seat names')
}

/** Names of the trip's free seats in layout order. */
async function freeNames(f: Fixture, tripId: number): Promise<string[]> {
  const rows = await f.db.query<{ name: string }>(
    `SELECT s.name FROM trips t JOIN layout_seats s ON s.layout_id = t.layout_id
      WHERE t.id = $1 AND s.name <> 'OPEN'
        AND NOT EXISTS (SELECT 1 FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
                         WHERE rs.trip_id = t.id AND rs.seat_name = s.name AND seat_taken(rs.active, x.status, x.expiration_time, $2))
        AND NOT EXISTS (SELECT 1 FROM seat_locks k WHERE k.trip_id = t.id AND k.seat_name = s.name AND k.expires_at > $2)
      ORDER BY s.deck, s.row, s.col`,
    [tripId, f.now()],
  )
  return rows.map((r) => r.name)
}

/** Locks, books and pays the named seats from the balance; answers the sold reservation. */
async function buyNamed(
  f: Fixture,
  who: { token: string; mobile: string },
  trip: Trip,
  names: string[],
  headers: Record<string, string> = {},
): Promise<any> {
  const lock = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, names), { token: who.token })
  if (lock.status !== 200) throw new Error(`lock failed: ${JSON.stringify(lock.body)}`)
  const res = await f.api('POST', '/api/reservation/booking', bookingFor(trip, names, who.mobile), { token: who.token, headers })
  if (res.status !== 200) throw new Error(`booking failed: ${JSON.stringify(res.body)}`)
  const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: res.body.data.id }, { token: who.token })
  if (paid.status !== 200) throw new Error(`payment failed: ${JSON.stringify(paid.body)}`)
  return paid.body.data
}

async function counts(f: Fixture): Promise<{ ledger: number; outbox: number }> {
  const [l] = await f.db.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger WHERE reason = 'TRIP_CANCELED'")
  const [o] = await f.db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_messages')
  return { ledger: l!.n, outbox: o!.n }
}

async function row(f: Fixture, id: number) {
  const [r] = await f.db.query<{
    status: number
    trip_id: number
    moved_from_trip_id: number | null
    cancel_reason: string | null
    operator_reason: string | null
    refund_amount: number | null
  }>('SELECT status, trip_id, moved_from_trip_id, cancel_reason, operator_reason, refund_amount FROM reservations WHERE id = $1', [id])
  return r!
}

async function balance(f: Fixture, passengerId: number): Promise<number> {
  const [p] = await f.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [passengerId])
  return p!.balance
}

async function messagesTo(f: Fixture, to: string, since: number): Promise<{ channel: string; body: string }[]> {
  return f.db.query('SELECT channel, body FROM outbox_messages WHERE "to" = $1 AND id > $2 ORDER BY id', [to, since])
}

async function lastOutboxId(f: Fixture): Promise<number> {
  const [r] = await f.db.query<{ id: number | null }>('SELECT max(id) AS id FROM outbox_messages')
  return r!.id ?? 0
}

const t = suite('trip changes')
let f: Fixture

t.before.each(async () => {
  f = await openFixture()
})
t.after.each(async () => {
  await f.close()
})

t(
  'cancel: dry run changes nothing; stopped half-way and run again, every sold ticket is refunded in full and every passenger told once',
  async () => {
    const trip = await pickTrip(f)
    const a = await f.passenger({ balance: 50_000 })
    const b = await f.passenger({ balance: 50_000 })
    const c = await f.passenger()
    const holder = await f.passenger()
    const soldA = await buyTicketWith(f, a, trip, { seats: 2, body: { passengerMobile: a.mobile, passengerEmail: 'a@example.com' } })
    const soldB = await buyTicketWith(f, b, trip, { headers: bn, body: { passengerMobile: b.mobile, passengerEmail: null } })
    const booked = await lockAndBook(f, c, trip, 1)
    const held = await freeSeats(f, trip.id, 1)
    assert.is((await f.api('POST', '/api/reservation/seatLock', lockBody(trip, held), { token: holder.token })).status, 200)
    const since = await lastOutboxId(f)
    const reason = 'Hartal on the highway'
    // B booked in Bengali: the command wants the reason in Bengali too
    const why = { en: reason, bn: 'মহাসড়কে হরতাল' }

    const before = await f.snapshot()
    const plan = await cancelTrip(f.deps, trip.id, why, { dryRun: true })
    assert.is(await f.snapshot(), before, 'a dry run writes nothing')
    const mine = (ids: number[]) => plan.affected.filter((x) => ids.includes(x.id))
    assert.equal(
      mine([soldA.id, soldB.id, booked.id]).map((x) => [x.id, x.refund]),
      [
        [soldA.id, soldA.fare.total],
        [soldB.id, soldB.fare.total],
        [booked.id, 0],
      ],
    )
    assert.is(
      plan.totalRefund,
      plan.affected.reduce((s, x) => s + x.refund, 0),
    )

    // killed after the first reservation's transaction: the rest waits for the next run
    let handled = 0
    await cancelTrip(f.deps, trip.id, why, {
      hooks: {
        afterEach: () => {
          handled++
          if (handled === 1) throw new Error('killed')
        },
      },
    }).then(
      () => assert.unreachable('the hook stops it'),
      (e: Error) => assert.is(e.message, 'killed'),
    )
    const afterFirst = await counts(f)
    await cancelTrip(f.deps, trip.id, why)
    const done = await counts(f)
    await cancelTrip(f.deps, trip.id, why)
    assert.equal(await counts(f), done, 'a third run refunds and tells nobody again')
    assert.ok(done.outbox > afterFirst.outbox)

    for (const [r, refund] of [
      [soldA, soldA.fare.total],
      [soldB, soldB.fare.total],
      [booked, null],
    ] as const) {
      const x = await row(f, r.id)
      assert.equal(
        [x.status, x.cancel_reason, x.operator_reason, x.refund_amount],
        [reservationStatus.canceled, 'TRIP_CANCELED', reason, refund],
        `reservation ${r.id}`,
      )
    }
    // the ticket as the passenger's app reads it: why, in the operator's words, and the refund
    const shownA = await f.api('GET', `/api/reservation/details/${soldA.pnr}/${soldA.pin}`)
    assert.equal(
      [
        shownA.body.data.status,
        shownA.body.data.cancelReason,
        shownA.body.data.operatorReason,
        shownA.body.data.refundAmount,
        shownA.body.data.movedFrom,
      ],
      [reservationStatus.canceled, 'TRIP_CANCELED', reason, soldA.fare.total, null],
    )
    assert.is(await balance(f, a.id), 50_000, 'A paid from the balance and has it all back')
    assert.is(await balance(f, b.id), 50_000)
    const refunds = await f.db.query<{ reservation_id: number; amount: number }>(
      "SELECT reservation_id, amount FROM ledger WHERE reason = 'TRIP_CANCELED' AND reservation_id = ANY($1::int[]) ORDER BY reservation_id",
      [[soldA.id, soldB.id, booked.id]],
    )
    assert.equal(
      refunds.map((x) => [x.reservation_id, x.amount]),
      [
        [soldA.id, soldA.fare.total],
        [soldB.id, soldB.fare.total],
      ],
    )

    const toA = await messagesTo(f, a.mobile, since)
    assert.equal(
      toA.map((m) => m.channel),
      ['SMS'],
    )
    assert.match(toA[0]!.body, `The operator has cancelled the trip`)
    assert.match(toA[0]!.body, reason)
    assert.match(toA[0]!.body, soldA.pnr)
    const mailA = await messagesTo(f, 'a@example.com', since)
    assert.is(mailA.length, 1, 'one e-mail')
    assert.match(mailA[0]!.body, reason)
    const toB = await messagesTo(f, b.mobile, since)
    assert.is(toB.length, 1)
    assert.match(toB[0]!.body, 'অপারেটর')
    assert.match(toB[0]!.body, why.bn)
    assert.not.match(toB[0]!.body, reason, 'no English inside the Bengali notice')
    const toC = await messagesTo(f, '01712000111', since)
    assert.ok(
      toC.some((m) => m.body.includes('unpaid booking is cancelled')),
      'the unpaid booking is told too',
    )

    const [tr] = await f.db.query<{ status: string }>('SELECT status FROM trips WHERE id = $1', [trip.id])
    assert.is(tr!.status, 'OMITTED')
    assert.is((await f.db.query('SELECT 1 FROM seat_locks WHERE trip_id = $1', [trip.id])).length, 0, 'holds dropped')
    const relock = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, held), { token: holder.token })
    assert.is(relock.body.error?.code ?? relock.body.data?.[0]?.error, 'TRIP_OMITTED')
  },
)

t(
  'a trip cancelled while its seat map is open: the next trip details (the live map reloads at once) answer TRIP_OMITTED, though its row is in memory',
  async () => {
    f.deps.config.searchCacheMs = 60_000
    const trip = await pickTrip(f)
    const details = () =>
      f.api('POST', '/api/reservation/tripDetails', {
        tripId: trip.id,
        originCode: trip.originCode,
        destinationCode: trip.destinationCode,
        originBusStationId: null,
        destinationBusStationId: null,
      })
    assert.is((await details()).status, 200)
    await cancelTrip(f.deps, trip.id, 'Flood on the road')
    const after = await details()
    assert.is(after.status, 409, JSON.stringify(after.body))
    assert.is(after.body.error.code, 'TRIP_OMITTED')
  },
)

t(
  'move: tickets keep their seat names where free, else sit side by side; status 10 on the new trip; a refused move is refunded in full (14)',
  async () => {
    const { trip, sibling, common } = await tripWithSibling(f)
    const a = await f.passenger({ balance: 50_000 })
    const b = await f.passenger({ balance: 50_000 })
    const other = await f.passenger({ balance: 50_000 })
    const namesA = common.slice(0, 2)
    const namesB = common.slice(2, 4)
    const soldA = await buyNamed(f, a, trip, namesA)
    const soldB = await buyNamed(f, b, trip, namesB, bn)
    // on the new coach one of B's seats is already sold to someone else (A's are free)
    await buyNamed(f, other, sibling, [namesB[0]!])

    const plan = await moveTrip(f.deps, trip.id, sibling.coachCode, { dryRun: true })
    assert.equal(plan.affected.find((x) => x.id === soldA.id)!.newSeats, namesA, 'dry run: A keeps its seat names')
    assert.not.ok(
      plan.left.some((x) => x.id === soldA.id || x.id === soldB.id),
      'dry run: room for A and B',
    )

    const since = await lastOutboxId(f)
    await moveTrip(f.deps, trip.id, sibling.coachCode)
    const once = await counts(f)
    await moveTrip(f.deps, trip.id, sibling.coachCode)
    assert.equal(await counts(f), once, 'a second run tells nobody again')

    for (const r of [soldA, soldB]) {
      const x = await row(f, r.id)
      assert.equal([x.status, x.trip_id, x.moved_from_trip_id], [reservationStatus.tripMigrated, sibling.id, trip.id])
    }
    const seatsOf = async (id: number) =>
      await f.db.query<{ seat_name: string; row: number; col: number }>(
        `SELECT rs.seat_name, s.row, s.col FROM reservation_seats rs JOIN trips t ON t.id = rs.trip_id
         JOIN layout_seats s ON s.layout_id = t.layout_id AND s.name = rs.seat_name
        WHERE rs.reservation_id = $1 AND rs.active ORDER BY s.col`,
        [id],
      )
    assert.equal((await seatsOf(soldA.id)).map((s) => s.seat_name).sort(), [...namesA].sort())
    const bSeats = await seatsOf(soldB.id)
    assert.is(bSeats.length, 2)
    assert.not.ok(
      bSeats.some((s) => s.seat_name === namesB[0]),
      'not the seat sold to someone else',
    )
    assert.is(bSeats[0]!.row, bSeats[1]!.row, 'side by side: one row')
    assert.is(bSeats[1]!.col, bSeats[0]!.col + 1, 'side by side: next columns')
    const map = await f.db.query<{ name: string; status: number }>(
      'SELECT name, status FROM seat_map((SELECT layout_id FROM trips WHERE id = $1), $1, $2)',
      [sibling.id, f.now()],
    )
    for (const s of [...namesA, ...bSeats.map((x) => x.seat_name)]) assert.is(map.find((m) => m.name === s)!.status, 1, `seat ${s} shows sold`)

    // the moved ticket as the passenger's app reads it: the new coach and seats, and where it came from
    const shownA = (await f.api('GET', `/api/reservation/details/${soldA.pnr}/${soldA.pin}`)).body.data
    assert.equal(
      [shownA.status, shownA.tripId, shownA.coach.code, shownA.cancelReason, shownA.operatorReason, shownA.movedFrom],
      [reservationStatus.tripMigrated, sibling.id, sibling.coachCode, null, null, { coachCode: trip.coachCode, departureTime: soldA.departureTime }],
    )
    // its seats on the new coach only (the old trip's stay in the table, inactive)
    assert.equal(shownA.seats.map((s: { name: string }) => s.name).sort(), [...namesA].sort())
    const shownB = (await f.api('GET', `/api/reservation/details/${soldB.pnr}/${soldB.pin}`)).body.data
    assert.equal(shownB.seats.map((s: { name: string }) => s.name).sort(), bSeats.map((s) => s.seat_name).sort())
    const toA = await messagesTo(f, a.mobile, since)
    assert.is(toA.length, 1)
    assert.match(toA[0]!.body, `moved to coach ${sibling.coachCode}`)
    assert.match(toA[0]!.body, namesA.join(', '))
    assert.match((await messagesTo(f, b.mobile, since))[0]!.body, `কোচ ${sibling.coachCode}`)

    // A does not take the new coach: the whole fare back, status 14
    const quote = await f.api('GET', `/api/reservation/cancelInitialize/${soldA.pnr}/${soldA.pin}`)
    assert.is(quote.status, 200, JSON.stringify(quote.body))
    const cancel = await f.api('GET', `/api/reservation/cancel/${soldA.pnr}/${soldA.pin}/${await lastCode(f, a.mobile)}`)
    assert.is(cancel.status, 200, JSON.stringify(cancel.body))
    assert.equal(
      [(await row(f, soldA.id)).status, (await row(f, soldA.id)).refund_amount],
      [reservationStatus.tripMigratedCanceled, soldA.fare.total],
    )
    assert.equal(
      [cancel.body.data.cancelReason, cancel.body.data.refundAmount, cancel.body.data.movedFrom?.coachCode],
      ['TICKET_CANCELED', soldA.fare.total, trip.coachCode],
    )
    assert.is(await balance(f, a.id), 50_000)
  },
)

function bookingFor(trip: Trip, seatNames: string[], mobile: string) {
  return {
    tripId: trip.id,
    seatNames,
    boardingStationId: trip.boardingId,
    droppingStationId: trip.droppingId,
    passengerName: 'Karim Uddin',
    passengerMobile: mobile,
  }
}

t('seats on the new coach: own names, a seat map, side by side, or none', () => {
  const seat = (name: string, row: number, col: number) => ({ name, row, col, deck: 'lower', seat_type: 'Standard' })
  const free = [seat('A1', 1, 1), seat('B1', 2, 1), seat('B2', 2, 2), seat('C1', 3, 1), seat('C3', 3, 3), seat('C4', 3, 4)]
  assert.equal(chooseSeats(['B1', 'B2'], free), ['B1', 'B2'])
  assert.equal(chooseSeats(['A1', 'A2'], free, { A1: 'C3', A2: 'C4' }), ['C3', 'C4'])
  assert.equal(chooseSeats(['A1', 'A2'], free), ['B1', 'B2'], 'A2 is taken: two free seats side by side')
  assert.equal(chooseSeats(['X1', 'X2', 'X3'], free), ['A1', 'B1', 'B2'], 'no three side by side: the first free ones')
  assert.is(chooseSeats(['1', '2', '3', '4', '5', '6', '7'], free), null)
})

t('the command: usage, dry run through npm run trip, refusals', async () => {
  assert.type(parseTripCommand(['cancel', '12']), 'string', 'cancel needs a reason')
  assert.type(parseTripCommand(['move', '12']), 'string', 'move needs a coach')
  assert.type(parseTripCommand(['cancel', 'x', '--reason', 'r']), 'string')
  assert.type(parseTripCommand(['move', '1', '--to-coach', 'C', '--seat-map', 'A1']), 'string')
  assert.equal(parseTripCommand(['move', '7', '--to-coach', '104-DHK-CTG', '--seat-map', 'A1=B2, A2=B3', '--dry-run']), {
    kind: 'move',
    tripId: 7,
    toCoach: '104-DHK-CTG',
    seatMap: { A1: 'B2', A2: 'B3' },
    dryRun: true,
  })
  const dir = tempDir()
  const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: '', NODE_ENV: 'test' }
  const usage = spawnSync(process.execPath, ['--import', 'tsx', 'server/commands/trip-command.ts', 'cancel', '1'], {
    cwd: repo,
    env,
    encoding: 'utf8',
  })
  assert.is(usage.status, 2)
  assert.match(usage.stderr, 'usage: npm run trip')
})

t.run()
