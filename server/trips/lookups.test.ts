import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { api } from '../../contract/api.ts'
import { addDays, dhakaDate } from '../lib/time.ts'
import { startTestApp, type TestApp } from '../test/helpers.ts'

let t: TestApp
test.before(async () => {
  t = await startTestApp()
})
test.after(async () => {
  await t.close()
})

const ok = (r: { status: number; text: string }) => assert.is(r.status, 200, r.text)

test('origin and destination cities: real cities with Bangla names, contract shape', async () => {
  for (const path of ['/api/originCities', '/api/destinationCities']) {
    const r = await t.call('GET', path)
    ok(r)
    assert.ok(r.body.data.length >= 12)
    assert.ok(api.originCities.response.safeParse(r.body.data).success)
    const dhaka = r.body.data.find((c: { code: string }) => c.code === 'DHK')
    assert.equal(dhaka, { code: 'DHK', name: 'Dhaka', nameBn: 'ঢাকা' })
  }
})

test('time periods, routes, announcements, company', async () => {
  const tp = await t.call('GET', '/api/timePeriods')
  ok(tp)
  assert.equal(
    tp.body.data.map((p: { value: string }) => p.value),
    ['04:00AM-11:59AM', '12:00PM-05:59PM', '06:00PM-11:59PM'],
  )
  const routes = await t.call('GET', '/api/routes')
  ok(routes)
  assert.ok(api.routes.response.safeParse(routes.body.data).success)
  const pairs = new Set(routes.body.data.map((r: { originCode: string; destinationCode: string }) => `${r.originCode}-${r.destinationCode}`))
  for (const p of ['DHK-CTG', 'CTG-DHK', 'CTG-CXB', 'SYL-CTG', 'KHL-JSR', 'BOG-RAJ']) assert.ok(pairs.has(p), p)
  const ann = await t.call('GET', '/api/announcements')
  ok(ann)
  assert.ok(ann.body.data.length >= 2 && api.announcements.response.safeParse(ann.body.data).success)
  const company = await t.call('GET', '/api/company')
  ok(company)
  assert.ok(company.body.data.name && company.body.data.phone && company.body.data.email.includes('@'))
})

test('offers: valid coupons only, expired ones hidden', async () => {
  const r = await t.call('GET', '/api/offers')
  ok(r)
  assert.ok(api.offers.response.safeParse(r.body.data).success)
  assert.equal(r.body.data.map((o: { couponCode: string }) => o.couponCode).sort(), ['EID15', 'FIRST50', 'WINTER10'])
  await t.db.query(`UPDATE offers SET valid_until = $1::date WHERE coupon_code = 'EID15'`, [addDays(dhakaDate(t.clock.now()), -1)])
  const after = await t.call('GET', '/api/offers')
  assert.not.ok(after.body.data.some((o: { couponCode: string }) => o.couponCode === 'EID15'))
  await t.db.query(`UPDATE offers SET valid_until = $1::date WHERE coupon_code = 'EID15'`, [addDays(dhakaDate(t.clock.now()), 60)])
})

test('bus stations: boarding in origin, dropping in destination, times from the trip', async () => {
  const date = addDays(dhakaDate(t.clock.now()), 1)
  const r = await t.call('POST', '/api/busStationsByOriginDestinationAndTripDate', {
    body: { originCode: 'DHK', destinationCode: 'CTG', tripDate: date },
  })
  ok(r)
  assert.ok(api.busStations.response.safeParse(r.body.data).success)
  assert.ok(
    r.body.data.boarding.length >= 2 && r.body.data.boarding.every((s: { cityCode: string; time: null }) => s.cityCode === 'DHK' && s.time === null),
  )
  assert.ok(r.body.data.dropping.length >= 2 && r.body.data.dropping.every((s: { cityCode: string }) => s.cityCode === 'CTG'))

  const [trip] = await t.db.query<{ id: number; departure_at: Date; arrival_at: Date }>(
    `SELECT t.id, t.departure_at, t.arrival_at FROM trips t JOIN routes r ON r.id = t.route_id
      WHERE r.origin_code = 'DHK' AND r.destination_code = 'CTG' AND t.trip_date = $1 ORDER BY t.departure_at LIMIT 1`,
    [date],
  )
  const withTrip = await t.call('POST', '/api/busStationsByOriginDestinationAndTripDate', {
    body: { originCode: 'DHK', destinationCode: 'CTG', tripDate: date, tripId: trip!.id },
  })
  ok(withTrip)
  const first = withTrip.body.data.boarding[0]
  assert.is(Date.parse(first.time), trip!.departure_at.getTime())
  assert.match(first.time, /\+06:00$/)
  assert.is(Date.parse(withTrip.body.data.dropping[0].time), trip!.arrival_at.getTime())
  assert.ok(Date.parse(withTrip.body.data.boarding[1].time) > Date.parse(first.time))
})

test('bus stations: errors', async () => {
  const date = dhakaDate(t.clock.now())
  const post = (body: unknown) => t.call('POST', '/api/busStationsByOriginDestinationAndTripDate', { body })
  let r = await post({ originCode: 'DHK', destinationCode: 'DHK', tripDate: date })
  assert.is(r.status, 400)
  assert.is(r.body.error.code, 'VALIDATION_FAILED')
  r = await post({ originCode: 'XYZ', destinationCode: 'DHK', tripDate: date })
  assert.is(r.body.error.code, 'CITY_NOT_FOUND')
  assert.is(r.status, 404)
  r = await post({ originCode: 'SYL', destinationCode: 'KUS', tripDate: date })
  assert.is(r.body.error.code, 'ROUTE_NOT_FOUND')
  r = await post({ originCode: 'DHK', destinationCode: 'CTG', tripDate: date, tripId: 999999 })
  assert.is(r.body.error.code, 'TRIP_NOT_FOUND')
  r = await post({ originCode: 'DHK', destinationCode: 'CTG', tripDate: '2026-02-30' })
  assert.is(r.status, 400)
  for (const bad of [
    {},
    { originCode: 'DHK', destinationCode: 'CTG' },
    { originCode: 'DHK', destinationCode: 'CTG', tripDate: date, extra: 1 },
    { originCode: 1, destinationCode: 'CTG', tripDate: date },
    { originCode: 'DHK', destinationCode: 'CTG', tripDate: date, tripId: -1 },
    { originCode: 'DHK'.repeat(10000), destinationCode: 'CTG', tripDate: date },
    [],
    'x',
  ]) {
    const res = await post(bad)
    assert.is(res.status, 400, JSON.stringify(bad).slice(0, 80))
    assert.is(res.body.error.code, 'VALIDATION_FAILED')
  }
})

test('seeded trips: every route, every day today..today+30, fares by seat type', async () => {
  const today = dhakaDate(t.clock.now())
  const [r] = await t.db.query<{ days: number; missing: number }>(
    `SELECT (SELECT count(DISTINCT trip_date) FROM trips WHERE trip_date BETWEEN $1::date AND $2::date)::int AS days,
            (SELECT count(*) FROM routes ro WHERE NOT EXISTS (SELECT 1 FROM trips tr WHERE tr.route_id = ro.id AND tr.trip_date = $2::date))::int AS missing`,
    [today, addDays(today, 30)],
  )
  assert.equal(r, { days: 31, missing: 0 })
  const [ctg] = await t.db.query<{ fares: Record<string, number> }>(
    `SELECT t.fares FROM trips t JOIN routes r ON r.id = t.route_id JOIN layouts l ON l.id = t.layout_id
      WHERE r.origin_code = 'DHK' AND r.destination_code = 'CTG' AND l.coach_type = 'AC_STANDARD' LIMIT 1`,
  )
  assert.is(ctg!.fares.Standard, 800)
  const names = await t.db.query<{ name: string }>('SELECT name FROM layout_seats')
  assert.ok(names.every((n) => /^[A-Z0-9]{1,6}$/.test(n.name)))
})

test.run()
