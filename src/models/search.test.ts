import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { TripSummary } from '../../contract/schemas.ts'
import { fakeApi, type FakeCall } from '../api/index.ts'
import { fakeClock } from '../lib/clock.ts'
import { addDays } from '../lib/dates.ts'
import { parsePeriod, type Search, SearchModel } from './search.ts'
import { until } from './seat-page-fixture.ts'
import { type Ui, UiModel } from './ui.ts'

function trip(id: number, departure: string, fareFrom: number, coachType: TripSummary['coachType'] = 'AC_STANDARD'): TripSummary {
  return {
    tripId: id,
    tripDate: '2026-11-22',
    coachCode: `NX-${id}`,
    coachType,
    originCode: 'DHK',
    destinationCode: 'CTG',
    departureTime: `2026-11-22T${departure}:00+06:00`,
    arrivalTime: `2026-11-22T${departure}:00+06:00`,
    durationMinutes: 360,
    boardingStations: ['Gabtoli'],
    droppingStations: ['Dampara'],
    fareFrom,
    availableSeats: 30,
    totalSeats: 40,
    seatTypes: ['Standard'],
  }
}

interface Ctx {
  /** This test's trip search. */
  s: Search
  /** Its notices. */
  ui: Ui
  /** The searches the stand-in server was asked. */
  asked: FakeCall[]
  /** What it answers (a test may replace it). */
  server: { answer: () => Promise<TripSummary[]> }
}
const test = suite<Ctx>('search')
/** The toasts `ui` shows, as their messages. */
const toasts = (ui: Ui) => ui.toasts.value.map((t) => t.message)

test.before.each((ctx) => {
  fakeClock(Date.parse('2026-11-22T10:00:00+06:00'))
  const server = { answer: async () => [trip(1, '22:00', 900), trip(2, '07:30', 1200, 'AC_BUSINESS'), trip(3, '13:15', 700, 'NON_AC')] }
  ctx.server = server
  ctx.asked = fakeApi({ tripSearch: () => server.answer() })
  ctx.ui = new UiModel()
  ctx.s = new SearchModel(ctx.ui)
})

test('the journey date defaults to today in Dhaka', ({ s }) => {
  assert.is(s.tripDate.value, '2026-11-22')
  assert.is(s.originCode.value, '')
})

test('same origin and destination is refused beside the To field', ({ s }) => {
  s.setOrigin('DHK')
  s.setDestination('DHK')
  assert.is(s.formErrors.value.destinationCode, 'validation.sameOriginDestination')
  assert.not.ok(s.canSearch.value)
})

test('a date before today cannot be searched', ({ s }) => {
  s.setOrigin('DHK')
  s.setDestination('CTG')
  s.setTripDate('2026-11-21')
  assert.not.ok(s.submitForm())
  assert.is(s.formErrors.value.tripDate, 'searchForm.dateInPast')
})

test('swap exchanges the cities', ({ s }) => {
  s.setOrigin('DHK')
  s.setDestination('CTG')
  s.swapCities()
  assert.is(s.originCode.value, 'CTG')
  assert.is(s.destinationCode.value, 'DHK')
})

test('URL round trip keeps the search and the filters', ({ s }) => {
  s.applySearchQuery('from=DHK&to=CTG&date=2026-11-25&coach=NON_AC&sort=fare&period=12:00PM-05:59PM')
  assert.is(s.searchQuery(), 'from=DHK&to=CTG&date=2026-11-25')
  assert.is(s.searchQuery({ filters: true }), 'from=DHK&to=CTG&date=2026-11-25&period=12%3A00PM-05%3A59PM&coach=NON_AC&sort=fare')
  s.applySearchQuery('from=dhaka&to=CTG&date=nope&coach=JET')
  assert.is(s.originCode.value, '', 'unknown values are ignored')
  assert.is(s.tripDate.value, '2026-11-22')
  assert.is(s.coachType.value, '')
  s.applySearchQuery('from=DHK&to=CTG&date=2026-02-30')
  assert.is(s.tripDate.value, '2026-11-22', 'a date that is not on the calendar is ignored')
})

test('searchTrips posts the search data and lists trips by departure time', async ({ s, asked }) => {
  s.applySearchQuery('from=DHK&to=CTG&date=2026-11-22')
  assert.is(await s.searchTrips(), 'done')
  assert.equal(
    asked.map((c) => c.opts.body),
    [{ originCode: 'DHK', destinationCode: 'CTG', tripDate: '2026-11-22' }],
  )
  assert.equal(
    s.visibleTrips.value.map((t) => t.tripId),
    [2, 3, 1],
  )
  s.setSort('fare')
  assert.equal(
    s.visibleTrips.value.map((t) => t.tripId),
    [3, 1, 2],
  )
})

test('filters by coach type and by time period (Dhaka wall clock)', async ({ s }) => {
  s.applySearchQuery('from=DHK&to=CTG&date=2026-11-22')
  await s.searchTrips()
  s.setCoachType('AC_BUSINESS')
  assert.equal(
    s.visibleTrips.value.map((t) => t.tripId),
    [2],
  )
  s.setCoachType('')
  s.setTimePeriod('12:00PM-11:59PM')
  assert.equal(
    s.visibleTrips.value.map((t) => t.tripId),
    [3, 1],
  )
  s.setTimePeriod('')
  assert.is(s.visibleTrips.value.length, 3)
  assert.equal(s.coachTypesInResults.value, ['AC_BUSINESS', 'AC_STANDARD', 'NON_AC'])
})

test('an empty result shows the No available trip toast and keeps the form', async ({ s, server, ui }) => {
  server.answer = async () => []
  s.applySearchQuery('from=DHK&to=SYL&date=2026-11-22')
  assert.is(await s.searchTrips(), 'empty')
  assert.equal(toasts(ui), [{ id: 'error.TRIP_IS_NOT_AVAILABLE' }])
  assert.is(s.destinationCode.value, 'SYL')
})

test('a failed search shows the server reason and keeps the form', async ({ s, server, ui }) => {
  server.answer = async () => {
    throw Object.assign(new Error('System is in under maintenance'), { code: 'SALES_RESTRICTED', reason: 'System is in under maintenance' })
  }
  s.applySearchQuery('from=DHK&to=CTG&date=2026-11-22')
  assert.is(await s.searchTrips(), 'error')
  assert.equal(toasts(ui), [{ id: 'error.SALES_RESTRICTED' }])
  assert.is(s.originCode.value, 'DHK')
})

test('previous and next day, never before today', ({ s }) => {
  s.applySearchQuery('from=DHK&to=CTG&date=2026-11-22')
  assert.not.ok(s.shiftDay(-1))
  assert.ok(s.shiftDay(1))
  assert.is(s.tripDate.value, '2026-11-23')
  assert.ok(s.shiftDay(-1))
  assert.is(s.tripDate.value, '2026-11-22')
  assert.is(addDays('2026-12-31', 1), '2027-01-01')
})

test('parsePeriod reads the time-period values', () => {
  assert.equal(parsePeriod('04:00AM-11:59PM'), { from: 240, to: 1439 })
  assert.equal(parsePeriod('12:00AM-05:59AM'), { from: 0, to: 359 })
  assert.is(parsePeriod(''), null)
})

test('the same search started twice (at app load and by the page) sends one request', async ({ s, asked }) => {
  s.applySearchQuery('from=DHK&to=CTG&date=2026-11-23')
  const [a, b] = await Promise.all([s.searchTrips(), s.searchTrips()])
  assert.is(asked.length, 1)
  assert.is(a, 'done')
  assert.is(b, 'done')
  assert.is(s.trips.value.length, 3)
  await s.searchTrips()
  assert.is(asked.length, 2, 'a later search asks again')
})

test('a results link searched at app load: the first search of the page takes over the answer, even when it has arrived', async ({ s, asked }) => {
  s.searchFromLink('from=DHK&to=CTG&date=2026-11-24')
  await Promise.resolve()
  assert.is(asked.length, 1)
  await until(() => s.status.value === 'done', "the link's answer")
  assert.is(s.status.value, 'done')
  assert.is(await s.searchTrips(), 'done', 'the page opening later')
  assert.is(asked.length, 1, 'no second request')
  await s.searchTrips()
  assert.is(asked.length, 2, 'searching again (new visit, day switch) asks again')
  s.searchFromLink('from=DHK&to=CTG&date=2026-11-25')
  s.applySearchQuery('from=DHK&to=CTG&date=2026-11-26')
  await s.searchTrips()
  assert.is(asked.length, 4, 'another search than the one of the link is not taken over')
})

test.run()
