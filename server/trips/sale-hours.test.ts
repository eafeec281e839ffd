/**
 * Sale hours (issue 30 item 1): a route's or a coach's trips go on sale at an hour the network
 * file sets, by the server's clock. Before it the search and the seat map say when, and every
 * seat lock, extension and booking is refused with SALE_NOT_OPEN; from the hour on they work.
 * An import that moves the hour moves it on trips with held seats too.
 */
import fs from 'node:fs'
import { Temporal } from 'temporal-polyfill'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { importNetwork } from '../network/import.ts'
import { validateNetworkText, type Network } from '../network/schema.ts'
import { DEMO_NETWORK_FILE } from '../seed/demo-network.ts'
import { addDays, dhakaDate, toDhakaIso } from '../lib/time.ts'
import { bookingBody, freeSeats, lockBody, openFixture, type Fixture } from '../test/booking-fixture.ts'

const t = suite('sale hours')
let f: Fixture
/** The travel date the tests use: three days after the fixture's today, whatever the hour. */
let date: string

/** The demo network with a sale hour on DHK→SYL, one coach always on sale and one with its own hour. */
function network(routeRule: { daysBefore: number; at: string }): Network {
  const v = validateNetworkText(fs.readFileSync(DEMO_NETWORK_FILE, 'utf8'))
  if (!v.ok) throw new Error(v.errors.join('\n'))
  const net = v.network
  net.routes.find((r) => r.from === 'DHK' && r.to === 'SYL')!.saleOpens = routeRule
  net.timetable.find((d) => d.coachCode === '112-DHK-SYL')!.saleOpens = null
  net.timetable.find((d) => d.coachCode === '113-DHK-SYL')!.saleOpens = { daysBefore: 1, at: '20:00' }
  return net
}

const load = (net: Network) => f.db.transaction((tx) => importNetwork(tx, net, { now: f.now(), daysAhead: 6 }))

/** The instant a Dhaka wall-clock time is, by the time-zone database (Temporal), not by the code under test. */
const dhaka = (day: string, time: string) =>
  new Date(Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime('Asia/Dhaka').toInstant().epochMilliseconds)

async function trip(coachCode: string) {
  const [row] = await f.db.query<{ id: number }>('SELECT id FROM trips WHERE trip_date = $1 AND coach_code = $2', [date, coachCode])
  const stations = await f.db.query<{ id: number; city_code: string }>(
    "SELECT id, city_code FROM bus_stations WHERE city_code IN ('DHK', 'SYL') ORDER BY id",
  )
  return {
    id: row!.id,
    tripDate: date,
    coachCode,
    originCode: 'DHK',
    destinationCode: 'SYL',
    departureAt: new Date(0),
    boardingId: stations.find((s) => s.city_code === 'DHK')!.id,
    droppingId: stations.find((s) => s.city_code === 'SYL')!.id,
  }
}

const search = async () => {
  const r = await f.api('POST', '/api/reservation/tripSearch', { originCode: 'DHK', destinationCode: 'SYL', tripDate: date })
  assert.is(r.status, 200, JSON.stringify(r.body))
  return new Map<string, string | null>(r.body.data.map((x: { coachCode: string; saleOpensAt: string | null }) => [x.coachCode, x.saleOpensAt]))
}

t.before(async () => {
  f = await openFixture()
  date = addDays(dhakaDate(f.now()), 3)
  await load(network({ daysBefore: 2, at: '08:00' }))
})
t.after(async () => {
  await f.close()
})

t('before the hour: the search and the seat map say when; seat locks are refused with SALE_NOT_OPEN, in the database too', async () => {
  const opens = dhaka(addDays(date, -2), '08:00')
  const found = await search()
  assert.is(found.get('111-DHK-SYL'), toDhakaIso(opens))
  assert.is(found.get('114-DHK-SYL'), toDhakaIso(opens))
  assert.is(found.get('112-DHK-SYL'), null, 'a coach set to null is always on sale')
  assert.is(found.get('113-DHK-SYL'), toDhakaIso(dhaka(addDays(date, -1), '20:00')), "a coach's own hour wins over its route's")
  const other = await f.api('POST', '/api/reservation/tripSearch', { originCode: 'DHK', destinationCode: 'CTG', tripDate: date })
  assert.ok(
    other.body.data.every((x: { saleOpensAt: unknown }) => x.saleOpensAt === null),
    'a route without a sale hour is on sale',
  )

  const closed = await trip('111-DHK-SYL')
  const details = await f.api('POST', '/api/reservation/tripDetails', {
    tripId: closed.id,
    originCode: 'DHK',
    destinationCode: 'SYL',
    originBusStationId: null,
    destinationBusStationId: null,
  })
  assert.is(details.status, 200)
  assert.is(details.body.data.saleOpensAt, toDhakaIso(opens))
  assert.ok(details.body.data.seatLayout.seats.length > 0, 'the seats are shown')

  const seat = (await freeSeats(f, closed.id, 1))[0]!
  const p = await f.passenger()
  const lock = await f.api('POST', '/api/reservation/seatLock', lockBody(closed, [seat]), { token: p.token })
  assert.is(lock.status, 409)
  assert.is(lock.body.error.code, 'SALE_NOT_OPEN')
  const weekday = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Dhaka', weekday: 'short', day: 'numeric', month: 'short' })
    .format(opens)
    .replace(',', '')
  assert.is(lock.body.error.reason, `Tickets for this trip go on sale at 08:00 AM, ${weekday} (Asia/Dhaka).`)
  assert.equal(lock.body.error.values, { opensAt: toDhakaIso(opens) })

  // the database function refuses it itself: no request path around the TypeScript skips the rule
  const [direct] = await f.db.query<{ r: unknown }>(
    "SELECT lock_seats($1, NULL, NULL, 'DHK', 'SYL', ARRAY[$2], ARRAY['d:direct'], NULL, $3, $4, 5, 'OPEN', '', 100, 100) AS r",
    [closed.id, seat, f.now(), new Date(f.now().getTime() + 600_000)],
  )
  const answer = typeof direct!.r === 'string' ? JSON.parse(direct!.r) : direct!.r
  assert.is(answer.error, 'SALE_NOT_OPEN')
  assert.is(new Date(answer.opens).getTime(), opens.getTime())
  const [held] = await f.db.query<{ n: number }>('SELECT count(*)::int AS n FROM seat_locks WHERE trip_id = $1', [closed.id])
  assert.is(held!.n, 0, 'nothing was held')

  const always = await trip('112-DHK-SYL')
  const ok = await f.api('POST', '/api/reservation/seatLock', lockBody(always, await freeSeats(f, always.id, 1)), { token: p.token })
  assert.is(ok.status, 200, JSON.stringify(ok.body))
})

t('one millisecond before the hour is refused; at the hour the same lock and a booking go through', async () => {
  const opens = dhaka(addDays(date, -2), '08:00')
  const closed = await trip('114-DHK-SYL')
  const seat = (await freeSeats(f, closed.id, 1))[0]!
  const p = await f.passenger()
  f.setNow(new Date(opens.getTime() - 1))
  const early = await f.api('POST', '/api/reservation/seatLock', lockBody(closed, [seat]), { token: p.token })
  assert.is(early.body.error?.code, 'SALE_NOT_OPEN')

  f.setNow(opens)
  const found = await search()
  assert.is(found.get('114-DHK-SYL'), null, 'on sale from the hour')
  assert.is(found.get('113-DHK-SYL'), toDhakaIso(dhaka(addDays(date, -1), '20:00')), 'a later hour still waits')
  const lock = await f.api('POST', '/api/reservation/seatLock', lockBody(closed, [seat]), { token: p.token })
  assert.is(lock.status, 200, JSON.stringify(lock.body))
  assert.equal(lock.body.data.seatNames, [seat])
  const booking = await f.api('POST', '/api/reservation/booking', bookingBody(closed, [seat]), { token: p.token })
  assert.is(booking.status, 200, JSON.stringify(booking.body))
})

t('an import that moves the hour later reaches trips with held seats: their booking and extension wait for it', async () => {
  const held = await trip('115-DHK-SYL')
  const seat = (await freeSeats(f, held.id, 1))[0]!
  const p = await f.passenger()
  const lock = await f.api('POST', '/api/reservation/seatLock', lockBody(held, [seat]), { token: p.token })
  assert.is(lock.status, 200, JSON.stringify(lock.body))
  const bookings = 'SELECT count(*)::int AS n FROM reservations WHERE trip_id = $1'
  const [before] = await f.db.query<{ n: number }>(bookings, [held.id])

  const report = await load(network({ daysBefore: 1, at: '08:00' }))
  assert.ok(report.trips.changed > 0)
  assert.not.ok(
    report.warnings.some((w) => w.includes('115-DHK-SYL')),
    'a new sale hour is no change to what was sold or held',
  )
  const opens = dhaka(addDays(date, -1), '08:00')
  const [row] = await f.db.query<{ sale_opens_at: Date }>('SELECT sale_opens_at FROM trips WHERE id = $1', [held.id])
  assert.is(row!.sale_opens_at.getTime(), opens.getTime())

  const booking = await f.api('POST', '/api/reservation/booking', bookingBody(held, [seat]), { token: p.token })
  assert.is(booking.status, 409)
  assert.is(booking.body.error.code, 'SALE_NOT_OPEN')
  const extend = await f.api(
    'POST',
    '/api/reservation/extendSeatLock',
    {
      tripDate: date,
      coachCode: held.coachCode,
      originCode: 'DHK',
      destinationCode: 'SYL',
      seatNames: [seat],
      expirationTime: toDhakaIso(new Date(f.now().getTime() + 20 * 60_000)),
    },
    { token: p.token },
  )
  assert.is(extend.body.error?.code, 'SALE_NOT_OPEN', JSON.stringify(extend.body))
  const [after] = await f.db.query<{ n: number }>(bookings, [held.id])
  assert.is(after!.n, before!.n, 'no booking was made')
})

t.run()
