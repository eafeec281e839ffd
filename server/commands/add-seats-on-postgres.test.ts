/**
 * The operator's bigger coach (npm run trip -- add-seats, issue 30 item 4) on a real PostgreSQL
 * with two server processes whose waitlist sweeps run every second: the new seats of a sold-out
 * trip are offered to its waitlist when the command returns, each seat to one passenger with one
 * SMS, although the command and both processes offer at once. Refusals name what is wrong.
 */
import * as assert from 'uvu/assert'
import { createDeps } from '../deps.ts'
import { signedInPassenger } from '../test/pg-passengers.ts'
import { pgServersSuite } from '../test/pg-servers.ts'
import { until } from '../test/receivers.ts'
import { offerFreedSeats } from '../waitlist/waitlist.ts'
import { call } from '../../harness/spawn-server.ts'
import { AddSeatsError, addSeats, parseAddSeatsCommand } from './add-seats-command.ts'
import { parseTripCommand } from './trip-command.ts'

const { test, pg } = pgServersSuite('add-seats on PostgreSQL', 'add_seats', { WAITLIST_SWEEP_SECONDS: '1' })

const account = () => signedInPassenger(pg.db, '018')

/** A layout `code`: AC_STANDARD's seats and `extra` more in a row behind them (or, `drop`, without its seat A1). */
async function biggerLayout(code: string, extra: number, drop = false): Promise<string[]> {
  const [l] = await pg.db.query<{ id: number }>(
    `INSERT INTO layouts (name, coach_type, rows, columns, aisle_columns, decks, code)
     SELECT $1, coach_type, rows + 1, columns, aisle_columns, decks, $1 FROM layouts WHERE code = 'AC_STANDARD' AND NOT retired RETURNING id`,
    [code],
  )
  await pg.db.query(
    `INSERT INTO layout_seats (layout_id, name, row, col, deck, seat_type)
     SELECT $1, s.name, s.row, s.col, s.deck, s.seat_type FROM layout_seats s JOIN layouts l ON l.id = s.layout_id
      WHERE l.code = 'AC_STANDARD' AND NOT l.retired AND NOT ($2 AND s.name = 'A1')`,
    [l!.id, drop],
  )
  const names = Array.from({ length: extra }, (_, i) => `X${i + 1}`)
  await pg.db.query(
    `INSERT INTO layout_seats (layout_id, name, row, col, deck, seat_type)
     SELECT $1, x, (SELECT max(row) + 1 FROM layout_seats WHERE layout_id = $1), n::int - 1, 'LOWER', 'Standard' FROM unnest($2::text[]) WITH ORDINALITY AS u(x, n)`,
    [l!.id, names],
  )
  return names
}

test('the new seats of a sold-out trip go to its waitlist at once, each seat once with one SMS, under two processes', async () => {
  const [trip] = await pg.db.query<{ id: number }>(
    `SELECT t.id FROM trips t JOIN layouts l ON l.id = t.layout_id
      WHERE l.code = 'AC_STANDARD' AND t.status = 'OPEN' AND t.departure_at > $1 AND t.sale_opens_at IS NULL
      ORDER BY t.id LIMIT 1`,
    [new Date(Date.now() + 48 * 3_600_000)],
  )
  const tripId = trip!.id
  const added = await biggerLayout('AC_STANDARD_44', 4)
  await pg.db.query(
    `INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at) SELECT $1, x, 'd:filler-device-0001', $3 FROM unnest(free_seats($1, $2)) AS x`,
    [tripId, new Date(), new Date(Date.now() + 3_600_000)],
  )
  // three wait, for 1, 2 and 2 seats: the four new seats fit the first two
  const waiters = [await account(), await account(), await account()]
  for (const [i, w] of waiters.entries()) {
    const r = await call(pg.url(i % 2), 'POST', '/api/waitlist', { tripId, seats: i === 0 ? 1 : 2 }, { token: w.token })
    assert.is(r.status, 200, JSON.stringify(r.body))
  }

  const deps = createDeps(pg.db)
  const dry = await addSeats(deps, { tripId, layout: 'AC_STANDARD_44', fares: {}, dryRun: true })
  assert.equal([dry.seatsBefore, dry.seatsAfter, dry.waiting, dry.offers.length], [40, 44, 3, 0])
  // the command and two more offerers at once, beside both processes' sweeps
  const [report] = await Promise.all([
    addSeats(deps, { tripId, layout: 'AC_STANDARD_44', fares: {}, dryRun: false }),
    offerFreedSeats(deps, tripId),
    offerFreedSeats(deps, tripId),
  ])
  assert.equal([report.seatsBefore, report.seatsAfter], [40, 44])
  const offered = () =>
    pg.db.query<{ passenger_id: number; offered_seats: string[] }>(
      "SELECT passenger_id, offered_seats FROM waitlist WHERE trip_id = $1 AND status = 'OFFERED' ORDER BY id",
      [tripId],
    )
  assert.is((await offered()).length, 2, 'offered when the command returned, not at a later sweep')

  // a probe seat lapsing on another trip: once it is offered, both processes have swept since the change
  const [probe] = await pg.db.query<{ id: number }>(
    "SELECT id FROM trips WHERE status = 'OPEN' AND departure_at > $2 AND id <> $1 ORDER BY id DESC LIMIT 1",
    [tripId, new Date(Date.now() + 48 * 3_600_000)],
  )
  await pg.db.query(
    `INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at) SELECT $1, x, 'd:filler-device-0001', $3 FROM unnest(free_seats($1, $2)) AS x`,
    [probe!.id, new Date(), new Date(Date.now() + 3_600_000)],
  )
  const late = await account()
  assert.is((await call(pg.url(1), 'POST', '/api/waitlist', { tripId: probe!.id, seats: 1 }, { token: late.token })).status, 200)
  await pg.db.query(
    'UPDATE seat_locks SET expires_at = $2 WHERE trip_id = $1 AND seat_name = (SELECT min(seat_name) FROM seat_locks WHERE trip_id = $1)',
    [probe!.id, new Date(Date.now() + 2500)],
  )
  await until(
    async () => (await pg.db.query("SELECT 1 FROM waitlist WHERE trip_id = $1 AND status = 'OFFERED'", [probe!.id])).length === 1,
    'the probe offered',
    30_000,
  )

  const offers = await offered()
  assert.equal(
    offers.map((o) => o.passenger_id),
    [waiters[0]!.id, waiters[1]!.id],
  )
  assert.equal(offers.flatMap((o) => o.offered_seats).sort(), added.slice(0, 3).sort(), 'three of the four new seats, each once')
  const holders = await pg.db.query<{ seat_name: string; holder: string }>(
    'SELECT seat_name, holder FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2::text[]) ORDER BY seat_name',
    [tripId, added],
  )
  assert.equal(
    holders.map((h) => h.holder).sort(),
    [`p:${waiters[0]!.id}`, `p:${waiters[1]!.id}`, `p:${waiters[1]!.id}`].sort(),
    'held for them (taken to everyone else); the fourth is free',
  )
  for (const [i, w] of waiters.entries()) {
    const sms = await pg.db.query("SELECT 1 FROM outbox_messages WHERE channel = 'SMS' AND body LIKE 'Waitlist:%' AND \"to\" = $1", [w.mobile])
    assert.is(sms.length, i < 2 ? 1 : 0, `passenger ${i + 1}: ${sms.length} SMS`)
  }
  const third = await call(pg.url(0), 'GET', `/api/waitlist/${tripId}`, undefined, { token: waiters[2]!.token })
  assert.equal([third.body.data.status, third.body.data.place], ['WAITING', 1])
})

test('refused: a layout without every old seat, one no bigger, a seat type without fare, a trip not on sale; the arguments', async () => {
  const deps = createDeps(pg.db)
  const [trip] = await pg.db.query<{ id: number }>(
    `SELECT t.id FROM trips t JOIN layouts l ON l.id = t.layout_id
      WHERE l.code = 'AC_STANDARD' AND t.status = 'OPEN' AND t.departure_at > $1 ORDER BY t.id DESC LIMIT 1`,
    [new Date(Date.now() + 48 * 3_600_000)],
  )
  await biggerLayout('AC_STANDARD_NO_A1', 4, true)
  const refused = async (layout: string, message: string, tripId = trip!.id) => {
    const err = await addSeats(deps, { tripId, layout, fares: {}, dryRun: false }).catch((e: unknown) => e)
    assert.instance(err, AddSeatsError)
    assert.match((err as Error).message, message)
  }
  await refused('AC_STANDARD_NO_A1', 'has no seat A1')
  await refused('NON_AC', 'no seat to add')
  await refused('NO_SUCH', 'No layout NO_SUCH')
  await refused('AC_STANDARD_44', 'No trip 999999', 999999)
  await pg.db.query(
    "UPDATE layout_seats SET seat_type = 'Business' WHERE name = 'X1' AND layout_id = (SELECT id FROM layouts WHERE code = 'AC_STANDARD_44')",
  )
  await refused('AC_STANDARD_44', 'no fare for seat type Business: give --fares Business=<Taka>')
  const ok = await addSeats(deps, { tripId: trip!.id, layout: 'AC_STANDARD_44', fares: { Business: 1500 }, dryRun: false })
  assert.is(ok.seatsAfter, 44)
  const [fares] = await pg.db.query<{ fares: Record<string, number> }>('SELECT fares FROM trips WHERE id = $1', [trip!.id])
  assert.is(fares!.fares.Business, 1500)
  await pg.db.query("UPDATE trips SET status = 'OMITTED' WHERE id = $1", [trip!.id])
  await refused('AC_STANDARD_44', 'is not open for sale')

  assert.equal(parseTripCommand(['add-seats', '12', '--layout', 'BIG', '--fares', 'Standard=900,Business=1200', '--dry-run']), {
    kind: 'add-seats',
    tripId: 12,
    layout: 'BIG',
    fares: { Standard: 900, Business: 1200 },
    dryRun: true,
  })
  assert.match(parseAddSeatsCommand(['12'], 'usage') as string, 'add-seats needs --layout')
  assert.match(parseAddSeatsCommand(['12', '--layout', 'B', '--fares', 'Standard=cheap'], 'usage') as string, '--fares takes SeatType=Taka')
  assert.is(parseAddSeatsCommand(['x', '--layout', 'B'], 'usage'), 'usage')
})

test.run()
