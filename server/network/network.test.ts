/** The network file: validation with paths, import, re-import, changes that spare sold trips, weekdays, the trip window. */
import fs from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openDb, type Db } from '../db/db.ts'
import { migrate } from '../db/migrate.ts'
import { importNetwork, reportChanged, type ImportReport } from '../network/import.ts'
import { validateNetwork, validateNetworkText, type Network } from '../network/schema.ts'
import { startTripTopUp, topUpTrips } from '../network/trips.ts'
import { createDeps } from '../deps.ts'
import { seed } from '../seed/index.ts'
import { DEMO_NETWORK_FILE, DEMO_SOURCE } from '../seed/demo-network.ts'
import { addDays, dhakaDate, toDhakaIso } from '../lib/time.ts'
import { startTestApp, tempDir } from '../test/helpers.ts'

const demoText = fs.readFileSync(DEMO_NETWORK_FILE, 'utf8')

/** A fresh copy of the demo network, to change. */
function demo(): Network {
  const v = validateNetworkText(demoText)
  if (!v.ok) throw new Error(v.errors.join('\n'))
  return v.network
}

async function emptyDb(): Promise<Db> {
  const db = await openDb({ dataDir: tempDir(), databaseUrl: '' })
  await migrate(db)
  return db
}

const load = (db: Db, net: Network, now: Date, daysAhead = 30): Promise<ImportReport> =>
  db.transaction((tx) => importNetwork(tx, net, { now, daysAhead }))

/** Every row of every table (the import log aside, which records each import by design). */
async function snapshot(db: Db): Promise<Record<string, unknown>> {
  const tables = await db.query<{ t: string }>(
    "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'network_imports' ORDER BY 1",
  )
  const out: Record<string, unknown> = {}
  for (const { t } of tables) {
    const [r] = await db.query<{ rows: unknown }>(
      `SELECT coalesce(jsonb_agg(to_jsonb(x) ORDER BY to_jsonb(x)::text), '[]'::jsonb) AS rows FROM ${t} x`,
    )
    out[t] = r!.rows
  }
  return out
}

const noChange = (r: ImportReport) =>
  Object.entries(r)
    .filter(([k]) => k !== 'warnings')
    .every(
      ([, c]) =>
        (c as { added: number; changed: number; removed: number }).added + (c as { changed: number }).changed + (c as { removed: number }).removed ===
        0,
    )

/** Asserts that `errors` holds each of `expected`. */
function hasErrors(errors: string[], expected: string[]): void {
  for (const e of expected) assert.ok(errors.includes(e), `missing "${e}" in:\n${errors.join('\n')}`)
}

test('a bad file answers every error by path at once', () => {
  const j = JSON.parse(demoText)
  delete j.timetable[3].fares.Standard
  j.timetable[1].fares = { Business: 1200, Sleeper: 900 }
  j.timetable[2].layout = 'DOUBLE_DECK'
  j.timetable[5].weekday = ['FRI']
  j.timetable[6].departs = '25:00'
  j.timetable[7].validFrom = '2026-02-30'
  j.timetable[8].coachCode = j.timetable[9].coachCode
  j.routes.push({ from: 'DHK', to: 'XYZ', distanceKm: 10, durationMinutes: 20 })
  j.layouts[0].seats[1].name = 'A1'
  j.layouts[0].seats[2].col = 2
  j.cities[0].counters[0].offsetMinutes = -1
  j.offers[0].validFrom = '2031-01-01'
  j.announcements[1].key = j.announcements[0].key
  const v = validateNetwork(j)
  assert.is(v.ok, false)
  const errors = v.ok ? [] : v.errors
  hasErrors(errors, [
    'timetable[3].fares: missing fare for seat type Standard',
    'timetable[1].fares: missing fare for seat type Extra',
    'timetable[1].fares.Sleeper: layout AC_BUSINESS has no Sleeper seats',
    'timetable[2].layout: unknown layout DOUBLE_DECK (not in layouts)',
    'timetable[5]: Unrecognized key: "weekday"',
    'timetable[6].departs: must be a time HH:MM (00:00-23:59)',
    'timetable[7].validFrom: is not a calendar date',
    `timetable[9].coachCode: coach code ${j.timetable[9].coachCode} is also timetable[8]`,
    'routes[34].to: unknown city XYZ (not in cities)',
    'layouts[0].seats[1].name: seat name A1 is also seats[0]',
    'layouts[0].seats[2].col: column 2 is an aisle',
    'cities[0].counters[0].offsetMinutes: Too small: expected number to be >=0',
    'offers[0].validUntil: 2030-11-30 is before validFrom 2031-01-01',
    'announcements[1].key: key eid-tickets is also announcements[0]',
  ])
  assert.is(errors.length, 14, errors.join('\n'))
  assert.equal(validateNetworkText('{"version": 1,').ok, false)
  assert.match((validateNetworkText('{"version": 1,') as { errors: string[] }).errors[0]!, /^\(file\): not valid JSON/)
})

// What the seed code that data/demo-network.json replaced produced, by its own rules.
const roads: [string, string, number, number][] = [
  ['DHK', 'CTG', 250, 330],
  ['DHK', 'SYL', 240, 300],
  ['DHK', 'CXB', 400, 600],
  ['DHK', 'KHL', 230, 270],
  ['DHK', 'RAJ', 250, 330],
  ['DHK', 'BSL', 180, 240],
  ['DHK', 'RNG', 300, 420],
  ['DHK', 'MYM', 120, 180],
  ['DHK', 'CML', 100, 150],
  ['DHK', 'BOG', 200, 270],
  ['DHK', 'JSR', 200, 240],
  ['DHK', 'DNJ', 330, 480],
  ['DHK', 'KUS', 190, 300],
  ['CTG', 'CXB', 150, 240],
  ['CTG', 'SYL', 330, 420],
  ['KHL', 'JSR', 60, 90],
  ['RAJ', 'BOG', 110, 150],
]
const perKm: Record<string, Record<string, number>> = {
  AC_STANDARD: { Standard: 3.2 },
  NON_AC: { Standard: 2.2 },
  AC_BUSINESS: { Business: 4.8, Extra: 5.6 },
  SLEEPER: { Sleeper: 8, 'Sleeper Horizontal': 8.8 },
}
const dhakaDepartures = [
  ['06:30', 'AC_STANDARD'],
  ['09:00', 'AC_BUSINESS'],
  ['13:30', 'NON_AC'],
  ['17:00', 'AC_STANDARD'],
  ['22:30', 'SLEEPER'],
]
const otherDepartures = [
  ['08:00', 'AC_STANDARD'],
  ['15:30', 'NON_AC'],
]

test('the demo file imported into an empty database is the network the old seed made', async () => {
  const db = await emptyDb()
  const now = new Date('2026-06-01T03:00:00Z')
  try {
    const report = await load(db, demo(), now)
    assert.equal(
      [
        report.cities.added,
        report.counters.added,
        report.layouts.added,
        report.routes.added,
        report.timetable.added,
        report.offers.added,
        report.announcements.added,
        report.timePeriods.added,
      ],
      [14, 37, 4, 34, 146, 3, 3, 3],
    )
    assert.is(report.trips.added, 146 * 31)
    const counters = await db.query<{ city_code: string; n: number; offsets: number[] }>(
      'SELECT city_code, count(*)::int AS n, array_agg(offset_minutes ORDER BY id) AS offsets FROM bus_stations GROUP BY city_code ORDER BY min(id)',
    )
    assert.equal(
      counters.map((c) => `${c.city_code}:${c.n}`),
      ['DHK:4', 'CTG:3', 'SYL:3', 'CXB:2', 'KHL:3', 'RAJ:3', 'BSL:2', 'RNG:3', 'MYM:2', 'CML:3', 'BOG:3', 'JSR:2', 'DNJ:2', 'KUS:2'],
    )
    assert.equal(counters[0]!.offsets.map(Number), [0, 15, 30, 45])
    const seats = await db.query<{ code: string; n: number; types: string }>(
      "SELECT l.code, count(*)::int AS n, string_agg(DISTINCT s.seat_type, ',' ORDER BY s.seat_type) AS types FROM layouts l JOIN layout_seats s ON s.layout_id = l.id GROUP BY l.code ORDER BY l.code",
    )
    assert.equal(seats, [
      { code: 'AC_BUSINESS', n: 30, types: 'Business,Extra' },
      { code: 'AC_STANDARD', n: 40, types: 'Standard' },
      { code: 'NON_AC', n: 40, types: 'Standard' },
      { code: 'SLEEPER', n: 60, types: 'Sleeper,Sleeper Horizontal' },
    ])
    const trips = await db.query<{
      a: string
      b: string
      trip_date: string
      departure_at: Date
      arrival_at: Date
      code: string
      fares: Record<string, number>
    }>(
      `SELECT r.origin_code AS a, r.destination_code AS b, t.trip_date::text AS trip_date, t.departure_at, t.arrival_at, l.code, t.fares
         FROM trips t JOIN routes r ON r.id = t.route_id JOIN layouts l ON l.id = t.layout_id ORDER BY t.departure_at, t.coach_code`,
    )
    const today = dhakaDate(now)
    for (const [x, y, km, min] of roads) {
      for (const [a, b] of [
        [x, y],
        [y, x],
      ]) {
        const departures = a === 'DHK' || b === 'DHK' ? dhakaDepartures : otherDepartures
        for (let i = 0; i <= 30; i++) {
          const day = addDays(today, i)
          const got = trips.filter((t) => t.a === a && t.b === b && t.trip_date === day)
          const want = departures.map(([time, key]) => {
            const code = key === 'SLEEPER' && km < 150 ? 'NON_AC' : key!
            const fares = Object.fromEntries(Object.entries(perKm[code]!).map(([type, p]) => [type, Math.max(200, Math.round((km * p) / 10) * 10)]))
            return { departs: `${day}T${time}:00+06:00`, minutes: min, code, fares }
          })
          assert.equal(
            got.map((t) => ({
              departs: toDhakaIso(t.departure_at),
              minutes: (t.arrival_at.getTime() - t.departure_at.getTime()) / 60_000,
              code: t.code,
              fares: t.fares,
            })),
            want,
            `${a}-${b} on ${day}`,
          )
        }
      }
    }
    assert.is(trips.length, 146 * 31)
  } finally {
    await db.close()
  }
})

test('sale hours: bad fields are refused by path; a file with sale hours imported twice changes nothing the second time', async () => {
  const j = JSON.parse(demoText)
  j.routes[0].saleOpens = { daysBefore: -1, at: '8:00' }
  // DHK-SYL: its 06:30 coach (timetable[10]) would open after it departs; the 09:00 one is fine
  j.routes[2].saleOpens = { daysBefore: 0, at: '07:00' }
  j.timetable[2].saleOpens = { daysBefore: 0, at: '13:30' }
  j.timetable[3].saleOpens = { daysBefore: 400, at: '08:00', hour: 8 }
  j.timetable[4].saleOpens = '08:00'
  j.timetable[5].saleOpens = null
  j.timetable[6].saleOpens = { daysBefore: 0, at: '05:00' }
  const v = validateNetwork(j)
  const errors = v.ok ? [] : v.errors
  hasErrors(errors, [
    'routes[0].saleOpens.daysBefore: Too small: expected number to be >=0',
    'routes[0].saleOpens.at: must be a time HH:MM (00:00-23:59)',
    "timetable[10]: its route's saleOpens must open before this coach departs at 06:30 on the travel day (daysBefore 0), not at 07:00",
    'timetable[2].saleOpens.at: must open before the coach departs at 13:30 on the travel day (daysBefore 0), not at 13:30',
    'timetable[3].saleOpens.daysBefore: Too big: expected number to be <=366',
    'timetable[3].saleOpens: Unrecognized key: "hour"',
    'timetable[4].saleOpens: Invalid input: expected object, received string',
  ])
  assert.is(errors.length, 7, errors.join('\n'))

  const net = demo()
  net.routes[2]!.saleOpens = { daysBefore: 10, at: '08:00' }
  net.timetable[11]!.saleOpens = null
  net.timetable[12]!.saleOpens = { daysBefore: 0, at: '06:00' }
  const db = await emptyDb()
  try {
    const now = new Date()
    await load(db, net, now, 12)
    const rows = await db.query<{ coach_code: string; sale_days_before: number | null; sale_opens: string | null }>(
      "SELECT coach_code, sale_days_before, to_char(sale_opens, 'HH24:MI') AS sale_opens FROM schedules WHERE coach_code LIKE '11_-DHK-SYL' ORDER BY coach_code",
    )
    assert.equal(
      rows.map((r) => [r.coach_code, r.sale_days_before, r.sale_opens]),
      [
        ['111-DHK-SYL', 10, '08:00'],
        ['112-DHK-SYL', null, null],
        ['113-DHK-SYL', 0, '06:00'],
        ['114-DHK-SYL', 10, '08:00'],
        ['115-DHK-SYL', 10, '08:00'],
      ],
    )
    const before = await snapshot(db)
    const again = await load(db, net, now, 12)
    assert.ok(noChange(again), JSON.stringify(again))
    assert.equal(await snapshot(db), before)
    // back to always on sale: the schedules and the future trips follow
    const back = await load(db, demo(), now, 12)
    assert.is(back.timetable.changed, 4)
    // (a trip of today that has already left keeps its sale hour: only future trips follow the file)
    const [left] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM trips WHERE sale_opens_at IS NOT NULL AND departure_at > $1', [now])
    assert.is(left!.n, 0)
  } finally {
    await db.close()
  }
})

test('importing the same file again changes no row and says so', async () => {
  const t = await startTestApp({ daysAhead: 10 })
  try {
    const before = await snapshot(t.db)
    assert.ok((before.reservations as unknown[]).length > 0, 'the development start adds demo sales')
    const report = await t.db.transaction((tx) => importNetwork(tx, demo(), { now: t.clock.now(), daysAhead: 10 }))
    assert.ok(noChange(report) && !reportChanged(report), JSON.stringify(report))
    assert.equal(report.warnings, [])
    assert.is(report.timetable.unchanged, 146)
    assert.ok(report.trips.unchanged > 146 * 9)
    assert.equal(await snapshot(t.db), before)
  } finally {
    await t.close()
  }
})

test('a changed timetable: future unsold trips follow it, trips with reservations or holds are kept and reported', async () => {
  const NOW = new Date('2026-03-15T04:00:00Z')
  const t = await startTestApp({ now: NOW, daysAhead: 12 })
  try {
    const tripsOf = (code: string) =>
      t.db.query<{
        id: number
        trip_date: string
        departure_at: Date
        arrival_at: Date
        fares: Record<string, number>
        layout_id: number
        reserved: boolean
      }>(
        `SELECT t.id, t.trip_date::text AS trip_date, t.departure_at, t.arrival_at, t.fares, t.layout_id,
                EXISTS (SELECT 1 FROM reservations x WHERE x.trip_id = t.id) AS reserved
           FROM trips t WHERE t.coach_code = $1 AND t.departure_at > $2 ORDER BY t.trip_date`,
        [code, NOW],
      )
    const before101 = await tripsOf('101-DHK-CTG')
    const before102 = await tripsOf('102-DHK-CTG')
    const before103 = await tripsOf('103-DHK-CTG')
    const sold = before101.find((x) => x.reserved)!
    assert.ok(sold, 'a 101-DHK-CTG trip with demo sales')
    assert.ok(before102.some((x) => x.reserved) && before102.some((x) => !x.reserved))
    const soldRows = async (tripId: number) =>
      JSON.stringify([
        await t.db.query('SELECT * FROM trips WHERE id = $1', [tripId]),
        await t.db.query('SELECT * FROM reservations WHERE trip_id = $1 ORDER BY id', [tripId]),
        await t.db.query('SELECT * FROM reservation_seats WHERE trip_id = $1 ORDER BY id', [tripId]),
      ])
    const soldBefore = await soldRows(sold.id)

    // a visitor holds a seat on an unsold 103-DHK-CTG trip while the operator imports
    const [held] = await t.db.query<{ id: number; trip_date: string }>(
      "SELECT id, trip_date::text AS trip_date FROM trips WHERE coach_code = '103-DHK-CTG' AND trip_date = $1",
      [addDays(dhakaDate(NOW), 10)],
    )
    const lock = await t.call('POST', '/api/reservation/seatLock', {
      body: { tripDate: held!.trip_date, coachCode: '103-DHK-CTG', originCode: 'DHK', destinationCode: 'CTG', seatNames: ['A1'], locked: true },
      headers: { 'x-device-id': 'network-test-device' },
    })
    assert.is(lock.status, 200, lock.text)
    const heldBefore = await soldRows(held!.id)

    const net = demo()
    const e101 = net.timetable.find((d) => d.coachCode === '101-DHK-CTG')!
    e101.fares = { Standard: 900 }
    e101.departs = '07:15'
    net.timetable.find((d) => d.coachCode === '103-DHK-CTG')!.fares = { Standard: 600 }
    net.timetable = net.timetable.filter((d) => d.coachCode !== '102-DHK-CTG')
    const report = await t.db.transaction((tx) => importNetwork(tx, net, { now: NOW, daysAhead: 12 }))

    assert.equal(report.timetable, { added: 0, changed: 2, removed: 1, unchanged: 143 })
    const unsold101 = before101.filter((x) => !x.reserved)
    const unsold102 = before102.filter((x) => !x.reserved)
    const unsold103 = (await tripsOf('103-DHK-CTG')).filter((x) => !x.reserved)
    assert.is(report.trips.changed, unsold101.length + unsold103.length - 1)
    assert.is(report.trips.removed, unsold102.length)
    const reserved = [...before101, ...before102, ...before103].filter((x) => x.reserved).length
    assert.is(report.trips.kept, reserved + 1)
    assert.is(report.trips.added, 0)

    const after101 = await tripsOf('101-DHK-CTG')
    for (const x of after101.filter((y) => !y.reserved)) {
      assert.equal(x.fares, { Standard: 900 })
      assert.is(toDhakaIso(x.departure_at), `${x.trip_date}T07:15:00+06:00`)
      assert.is(x.arrival_at.getTime() - x.departure_at.getTime(), 330 * 60_000)
    }
    assert.is(await soldRows(sold.id), soldBefore)
    assert.is(await soldRows(held!.id), heldBefore)
    assert.equal(
      (await tripsOf('102-DHK-CTG')).map((x) => x.id),
      before102.filter((x) => x.reserved).map((x) => x.id),
    )
    assert.ok(
      report.warnings.includes(`trip ${sold.trip_date} 101-DHK-CTG has reservations: it keeps its old times, fares`),
      report.warnings.join('\n'),
    )
    assert.ok(report.warnings.includes(`trip ${held!.trip_date} 103-DHK-CTG has seats on hold: it keeps its old fares`), report.warnings.join('\n'))
    const kept102 = before102.find((x) => x.reserved)!
    assert.ok(
      report.warnings.includes(`trip ${kept102.trip_date} 102-DHK-CTG has reservations: it stays, although the timetable no longer runs it that day`),
    )

    // what a passenger searching that day sees
    const day = unsold101.at(-1)!.trip_date
    const found = await t.call('POST', '/api/reservation/tripSearch', { body: { originCode: 'DHK', destinationCode: 'CTG', tripDate: day } })
    assert.is(found.status, 200)
    const coaches = found.body.data.map((x: { coachCode: string; departureTime: string; fareFrom: number }) => [
      x.coachCode,
      x.departureTime.slice(11, 16),
      x.fareFrom,
    ])
    assert.equal(coaches.slice(0, 2), [
      ['101-DHK-CTG', '07:15', 900],
      ['103-DHK-CTG', '13:30', 600],
    ])
    assert.not.ok(coaches.some((c: string[]) => c[0] === '102-DHK-CTG'))

    // the same changed file again: nothing changes, the kept trips are still reported
    const before = await snapshot(t.db)
    const again = await t.db.transaction((tx) => importNetwork(tx, net, { now: NOW, daysAhead: 12 }))
    assert.ok(noChange(again), JSON.stringify(again))
    assert.equal(
      again.warnings,
      report.warnings.filter((w) => w.startsWith('trip ')),
    )
    assert.equal(await snapshot(t.db), before)
  } finally {
    await t.close()
  }
})

test('weekdays and validFrom/validUntil decide the days, in Asia/Dhaka; the top-up adds only new days, once', async () => {
  const db = await emptyDb()
  // Thursday 2026-06-04 20:00 UTC is Friday 02:00 in Dhaka
  let now = new Date('2026-06-04T20:00:00Z')
  try {
    const net = demo()
    net.timetable = [
      { ...net.timetable[0]!, coachCode: 'FRI-DHK-CTG', weekdays: ['FRI'] },
      { ...net.timetable[1]!, coachCode: 'JUNE-DHK-CTG', validFrom: '2026-06-10', validUntil: '2026-06-20' },
      { ...net.timetable[2]!, coachCode: 'WKND-DHK-CTG', weekdays: ['FRI', 'SAT'], validUntil: '2026-06-13' },
    ]
    await load(db, net, now, 20)
    const days = async (code: string) =>
      (await db.query<{ d: string }>('SELECT trip_date::text AS d FROM trips WHERE coach_code = $1 ORDER BY 1', [code])).map((r) => r.d)
    // today (Friday 5 June in Dhaka) .. 25 June
    assert.equal(await days('FRI-DHK-CTG'), ['2026-06-05', '2026-06-12', '2026-06-19'])
    assert.equal(
      await days('JUNE-DHK-CTG'),
      Array.from({ length: 11 }, (_, i) => addDays('2026-06-10', i)),
    )
    assert.equal(await days('WKND-DHK-CTG'), ['2026-06-05', '2026-06-06', '2026-06-12', '2026-06-13'])
    const [fri] = await db.query<{ departure_at: Date }>(
      "SELECT departure_at FROM trips WHERE coach_code = 'FRI-DHK-CTG' AND trip_date = '2026-06-05'",
    )
    assert.is(toDhakaIso(fri!.departure_at), '2026-06-05T06:30:00+06:00')

    // the same day again: nothing to do
    assert.is(await db.transaction((tx) => topUpTrips(tx, now, 20)), 0)
    // a week later the window has moved by 7 days (26 June .. 2 July): one more Friday
    now = new Date(now.getTime() + 7 * 86_400_000)
    assert.is(await db.transaction((tx) => topUpTrips(tx, now, 20)), 1)
    assert.equal((await days('FRI-DHK-CTG')).at(-1), '2026-06-26')
    assert.is(await db.transaction((tx) => topUpTrips(tx, now, 20)), 0)
    // a longer window (TRIP_DAYS_AHEAD raised) fills the new days at the next start
    assert.is(await db.transaction((tx) => topUpTrips(tx, now, 30)), 2)
    assert.equal((await days('FRI-DHK-CTG')).at(-1), '2026-07-10')
  } finally {
    await db.close()
  }
})

test('layouts: changed seats are changed in place, or become a new version when trips with reservations use the old one', async () => {
  const NOW = new Date('2026-03-15T04:00:00Z')
  const t = await startTestApp({ now: NOW, daysAhead: 10 })
  try {
    const layoutOf = (tripId: number) =>
      t.db.query<{ id: number; code: string; retired: boolean; seats: string[] }>(
        `SELECT l.id, l.code, l.retired, array_agg(s.name ORDER BY s.name) AS seats
           FROM trips t JOIN layouts l ON l.id = t.layout_id JOIN layout_seats s ON s.layout_id = l.id WHERE t.id = $1 GROUP BY l.id`,
        [tripId],
      )
    const [sold] = await t.db.query<{ id: number }>(
      `SELECT t.id FROM trips t JOIN layouts l ON l.id = t.layout_id
        WHERE l.code = 'SLEEPER' AND t.departure_at > $1 AND EXISTS (SELECT 1 FROM reservations x WHERE x.trip_id = t.id) LIMIT 1`,
      [NOW],
    )
    const [unsold] = await t.db.query<{ id: number }>(
      `SELECT t.id FROM trips t JOIN layouts l ON l.id = t.layout_id
        WHERE l.code = 'SLEEPER' AND t.departure_at > $1 AND NOT EXISTS (SELECT 1 FROM reservations x WHERE x.trip_id = t.id) LIMIT 1`,
      [NOW],
    )
    const [oldLayout] = await layoutOf(sold!.id)
    const net = demo()
    const sleeper = net.layouts.find((l) => l.code === 'SLEEPER')!
    sleeper.seats = sleeper.seats.filter((s) => s.name !== 'UF3')
    const report = await t.db.transaction((tx) => importNetwork(tx, net, { now: NOW, daysAhead: 10 }))
    assert.equal(report.layouts, { added: 0, changed: 1, removed: 0, unchanged: 3 })
    assert.ok(
      report.warnings.some((w) => w.startsWith('layout SLEEPER: its seats changed;')),
      report.warnings.join('\n'),
    )
    const [keptLayout] = await layoutOf(sold!.id)
    const [newLayout] = await layoutOf(unsold!.id)
    assert.equal(keptLayout, { ...oldLayout!, retired: true })
    assert.ok(keptLayout!.seats.includes('UF3'))
    assert.is(newLayout!.code, 'SLEEPER')
    assert.is(newLayout!.retired, false)
    assert.ok(newLayout!.id !== oldLayout!.id && !newLayout!.seats.includes('UF3') && newLayout!.seats.length === 59)
    const seatMap = await t.call('POST', '/api/reservation/tripDetails', { body: await detailsBody(t.db, unsold!.id) })
    assert.is(seatMap.status, 200, seatMap.text)
    assert.not.ok(JSON.stringify(seatMap.body.data).includes('"UF3"'))

    // no trip with reservations uses AC_BUSINESS after moving the clock past them all: changed in place
    const far = new Date(NOW.getTime() + 9 * 86_400_000)
    const business = net.layouts.find((l) => l.code === 'AC_BUSINESS')!
    business.name = 'AC Business 2+1 (new seats)'
    business.seats = business.seats.map((s) => (s.row < 3 ? { ...s, seatType: 'Extra' as const } : s))
    const [b] = await t.db.query<{ id: number }>("SELECT id FROM layouts WHERE code = 'AC_BUSINESS'")
    const [used] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM trips t WHERE t.layout_id = $1 AND EXISTS (SELECT 1 FROM reservations x WHERE x.trip_id = t.id)',
      [b!.id],
    )
    assert.ok(used!.n > 0)
    await t.db.query('DELETE FROM reservation_seats rs USING trips t WHERE rs.trip_id = t.id AND t.layout_id = $1', [b!.id])
    await t.db.query('DELETE FROM reservations x USING trips t WHERE x.trip_id = t.id AND t.layout_id = $1', [b!.id])
    const inPlace = await t.db.transaction((tx) => importNetwork(tx, net, { now: far, daysAhead: 10 }))
    assert.is(inPlace.layouts.changed, 1)
    const [same] = await t.db.query<{ id: number; name: string; extra: number }>(
      "SELECT l.id, l.name, (SELECT count(*)::int FROM layout_seats s WHERE s.layout_id = l.id AND s.seat_type = 'Extra') AS extra FROM layouts l WHERE code = 'AC_BUSINESS' AND NOT retired",
    )
    assert.equal(same, { id: b!.id, name: 'AC Business 2+1 (new seats)', extra: 9 })
  } finally {
    await t.close()
  }
})

async function detailsBody(db: Db, tripId: number) {
  const [r] = await db.query<{ origin_code: string; destination_code: string }>(
    'SELECT r.origin_code, r.destination_code FROM trips t JOIN routes r ON r.id = t.route_id WHERE t.id = $1',
    [tripId],
  )
  return { tripId, originCode: r!.origin_code, destinationCode: r!.destination_code, originBusStationId: null, destinationBusStationId: null }
}

test('entries removed from the file: withdrawn from the lists when tickets refer to them, else deleted', async () => {
  const NOW = new Date('2026-03-15T04:00:00Z')
  const t = await startTestApp({ now: NOW, daysAhead: 5 })
  try {
    const net = demo()
    // Rajshahi-Bogura both ways, one Dhaka counter with tickets and one without, an offer used once and one never, an announcement
    net.routes = net.routes.filter((r) => !['RAJ-BOG', 'BOG-RAJ'].includes(`${r.from}-${r.to}`))
    net.timetable = net.timetable.filter((d) => !['RAJ-BOG', 'BOG-RAJ'].includes(`${d.from}-${d.to}`))
    const dhaka = net.cities.find((c) => c.code === 'DHK')!
    const [used] = await t.db.query<{ name: string }>(
      "SELECT b.name FROM bus_stations b WHERE b.city_code = 'DHK' AND EXISTS (SELECT 1 FROM reservations x WHERE x.boarding_station_id = b.id) LIMIT 1",
    )
    const unused = dhaka.counters.find((k) => k.name !== used!.name && k.name === 'Mohakhali')!
    dhaka.counters = dhaka.counters.filter((k) => k !== unused && k.name !== used!.name)
    await t.db.query("UPDATE reservations SET coupon_code = 'EID15' WHERE id = (SELECT min(id) FROM reservations)")
    net.offers = net.offers.filter((o) => o.couponCode === 'FIRST50')
    net.announcements = net.announcements.slice(1)

    const report = await t.db.transaction((tx) => importNetwork(tx, net, { now: NOW, daysAhead: 5 }))
    assert.is(report.routes.removed, 2)
    assert.is(report.counters.removed, 2)
    assert.is(report.offers.removed, 2)
    assert.is(report.announcements.removed, 1)

    const routes = (await t.call('GET', '/api/routes')).body.data.map(
      (r: { originCode: string; destinationCode: string }) => `${r.originCode}-${r.destinationCode}`,
    )
    assert.ok(routes.includes('DHK-RAJ') && !routes.includes('RAJ-BOG') && !routes.includes('BOG-RAJ'))
    // past trips keep the route row, withdrawn
    assert.equal(await t.db.query("SELECT active FROM routes WHERE origin_code = 'RAJ' AND destination_code = 'BOG'"), [{ active: false }])
    const stations = await t.call('POST', '/api/busStationsByOriginDestinationAndTripDate', {
      body: { originCode: 'DHK', destinationCode: 'CTG', tripDate: addDays(dhakaDate(NOW), 1) },
    })
    const names = stations.body.data.boarding.map((s: { name: string }) => s.name)
    assert.equal(
      names,
      dhaka.counters.map((k) => k.name),
    )
    assert.equal(
      await t.db.query("SELECT name, active FROM bus_stations WHERE city_code = 'DHK' AND name = ANY($1::text[]) ORDER BY name", [
        [used!.name, unused.name],
      ]),
      [{ name: used!.name, active: false }],
    )
    const offers = (await t.call('GET', '/api/offers')).body.data.map((o: { couponCode: string }) => o.couponCode)
    assert.equal(offers, ['FIRST50'])
    assert.equal(await t.db.query("SELECT coupon_code, valid_until::text AS until FROM offers WHERE coupon_code <> 'FIRST50'"), [
      { coupon_code: 'EID15', until: addDays(dhakaDate(NOW), -1) },
    ])
    assert.is((await t.call('GET', '/api/announcements')).body.data.length, 2)

    const again = await t.db.transaction((tx) => importNetwork(tx, net, { now: NOW, daysAhead: 5 }))
    assert.ok(noChange(again), JSON.stringify(again))

    // back in the file: on the lists again
    const back = demo()
    const r = await t.db.transaction((tx) => importNetwork(tx, back, { now: NOW, daysAhead: 5 }))
    assert.is(r.routes.changed, 2)
    assert.ok(
      (await t.call('GET', '/api/routes')).body.data.some(
        (x: { originCode: string; destinationCode: string }) => x.originCode === 'RAJ' && x.destinationCode === 'BOG',
      ),
    )
  } finally {
    await t.close()
  }
})

test('one changed field of each kind of row is written as one change, and only it', async () => {
  const db = await emptyDb()
  const now = new Date('2026-06-04T06:00:00Z')
  try {
    await load(db, demo(), now, 2)
    const net = demo()
    net.cities[2]!.name = 'Renamed city'
    net.cities[0]!.counters[1]!.address = 'A new address'
    net.routes[0]!.distanceKm += 1
    net.timetable[0]!.departs = net.timetable[0]!.departs === '23:55' ? '23:50' : '23:55'
    net.timePeriods[0]!.value = 'a new value'
    net.offers[0]!.title = 'A new title'
    net.announcements[0]!.title = 'A new announcement'
    const r = await load(db, net, now, 2)
    for (const kind of ['cities', 'counters', 'routes', 'timetable', 'timePeriods', 'offers', 'announcements'] as const) {
      assert.equal({ kind, added: r[kind].added, changed: r[kind].changed, removed: r[kind].removed }, { kind, added: 0, changed: 1, removed: 0 })
    }
    assert.is((await db.query<{ name: string }>('SELECT name FROM cities WHERE code = $1', [net.cities[2]!.code]))[0]!.name, 'Renamed city')
    assert.is(
      (
        await db.query<{ address: string }>('SELECT address FROM bus_stations WHERE city_code = $1 AND name = $2', [
          net.cities[0]!.code,
          net.cities[0]!.counters[1]!.name,
        ])
      )[0]!.address,
      'A new address',
    )
    assert.is(
      (
        await db.query<{ departs: string }>("SELECT to_char(depart_time, 'HH24:MI') AS departs FROM schedules WHERE coach_code = $1", [
          net.timetable[0]!.coachCode,
        ])
      )[0]!.departs,
      net.timetable[0]!.departs,
    )
    assert.is(
      (await db.query<{ value: string }>('SELECT value FROM time_periods WHERE label = $1', [net.timePeriods[0]!.label]))[0]!.value,
      'a new value',
    )
    assert.is(
      (await db.query<{ title: string }>('SELECT title FROM offers WHERE coupon_code = $1', [net.offers[0]!.couponCode]))[0]!.title,
      'A new title',
    )
    assert.is(
      (await db.query<{ title: string }>('SELECT title FROM announcements WHERE key = $1', [net.announcements[0]!.key]))[0]!.title,
      'A new announcement',
    )
    assert.ok(noChange(await load(db, net, now, 2)))
  } finally {
    await db.close()
  }
})

test('a running server tops the trips up by itself when the day rolls over', async () => {
  const db = await emptyDb()
  let now = new Date('2026-06-04T12:00:00Z')
  try {
    await load(db, demo(), now, 2)
    const lastDay = async () => (await db.query<{ d: string }>('SELECT max(trip_date)::text AS d FROM trips'))[0]!.d
    assert.is(await lastDay(), '2026-06-06')
    now = new Date('2026-06-04T18:30:00Z') // 00:30 on 5 June in Dhaka
    const errors: string[] = []
    const stop = startTripTopUp(db, () => now, 2, { everyMs: 20, log: (m) => errors.push(m) })
    try {
      for (let i = 0; i < 200 && (await lastDay()) !== '2026-06-07'; i++) await new Promise((r) => setTimeout(r, 25))
    } finally {
      stop()
    }
    assert.is(await lastDay(), '2026-06-07')
    assert.equal(await db.query("SELECT count(*)::int AS n FROM trips WHERE trip_date = '2026-06-07'"), [{ n: 146 }])
    assert.equal(errors, [])
  } finally {
    await db.close()
  }
})

test('development start: the demo network is imported again when its file changed, never over a network imported with npm run import', async () => {
  const db = await emptyDb()
  const now = new Date('2026-06-04T12:00:00Z')
  const deps = createDeps(db, { now: () => now, production: false })
  const start = () => migrate(db, (tx) => seed(tx, deps, { daysAhead: 2 }))
  const imports = async () => (await db.query<{ source: string }>('SELECT source FROM network_imports ORDER BY id')).map((r) => r.source)
  const fare = async () =>
    (await db.query<{ fares: Record<string, number> }>("SELECT fares FROM schedules WHERE coach_code = '101-DHK-CTG'"))[0]!.fares
  try {
    await start()
    await start()
    assert.equal(await imports(), [DEMO_SOURCE])
    // the file in the checkout changed since (a pull): imported again at the next start
    await db.query("UPDATE network_imports SET sha256 = 'an older file'")
    await db.query(`UPDATE schedules SET fares = '{"Standard": 1}' WHERE coach_code = '101-DHK-CTG'`)
    await start()
    assert.equal(await imports(), [DEMO_SOURCE, DEMO_SOURCE])
    assert.equal(await fare(), { Standard: 800 })
    // the operator's own network stays
    const own = demo()
    own.timetable[0]!.fares = { Standard: 950 }
    await db.transaction((tx) => importNetwork(tx, own, { now, daysAhead: 2, source: 'my-network.json', sha256: 'mine' }))
    await start()
    assert.equal(await imports(), [DEMO_SOURCE, DEMO_SOURCE, 'my-network.json'])
    assert.equal(await fare(), { Standard: 950 })
  } finally {
    await db.close()
  }
})

test.run()
