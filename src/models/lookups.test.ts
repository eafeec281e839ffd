import * as assert from 'uvu/assert'
import { fakeApi, type FakeRoutes } from '../api/index.ts'
import * as n from '../stores/notices.ts'
import { ALL_TIME_PERIOD, cityName, LookupsModel, withAllPeriod } from './lookups.ts'
import { modelSuite } from './model-suite.ts'

const dhaka = { code: 'DHK', name: 'Dhaka', nameBn: 'ঢাকা' }
const ctg = { code: 'CTG', name: 'Chattogram', nameBn: 'চট্টগ্রাম' }
const morning = { label: 'Morning', labelBn: 'সকাল', value: '04:00AM-11:59AM', integerValue: 1 }
const eid = { id: 1, title: 'Eid schedule', titleBn: 'ঈদের সময়সূচি' }
const fog = { id: 2, title: 'Fog delays', titleBn: 'কুয়াশায় বিলম্ব' }

/** The lookup routes of a working server, with `overrides`. */
function lookupServer(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    originCities: () => [dhaka],
    destinationCities: () => [ctg],
    timePeriods: () => [morning],
    announcements: () => [eid],
    offers: () => [],
    ...overrides,
  }
}

const test = modelSuite('lookups', () => new LookupsModel())
test.before.each(() => n.resetNotices())

test('loads every list; time periods start with All', async ({ m: l }) => {
  fakeApi(lookupServer())
  await l.loadLookups()
  assert.equal(l.originCities.value, [dhaka])
  assert.equal(l.destinationCities.value, [ctg])
  assert.equal(l.timePeriods.value, [{ label: 'All', labelBn: null, value: '04:00AM-11:59PM', integerValue: 0 }, morning])
  assert.equal(l.announcements.value, [eid])
  assert.ok(l.lookupsLoaded.value)
})

test('asked again while a load is under way (start-up and the seat page): each list is fetched once', async ({ m: l }) => {
  const calls = fakeApi(lookupServer())
  await Promise.all([l.loadLookups(), l.loadLookups()])
  assert.equal(calls.map((c) => c.name).sort(), ['announcements', 'destinationCities', 'offers', 'originCities', 'timePeriods'])
  assert.equal(l.originCities.value, [dhaka])
  // a later load asks again (a page opened afterwards gets fresh lists)
  await l.loadLookups()
  assert.is(calls.length, 10)
})

test('the lists asked for and failed (offline): marked loaded, so the search form shows', async ({ m: l }) => {
  const offline = () => Promise.reject(new Error('offline'))
  fakeApi({ originCities: offline, destinationCities: offline, timePeriods: offline, announcements: offline, offers: offline })
  assert.not.ok(l.lookupsLoaded.value)
  await l.loadLookups()
  assert.ok(l.lookupsLoaded.value)
  assert.equal(l.originCities.value, [])
})

test('a city is named in the UI language once the lists have loaded, by its code before', async ({ m: l }) => {
  fakeApi(lookupServer())
  assert.is(cityName(l, 'CTG', true), 'CTG')
  await l.loadLookups()
  assert.is(cityName(l, 'DHK', false), 'Dhaka')
  assert.is(cityName(l, 'CTG', true), 'চট্টগ্রাম')
})

test('All is not duplicated when the server already sends it', () => {
  assert.is(withAllPeriod([ALL_TIME_PERIOD, morning]).length, 2)
})

test('failed announcements keep the existing list', async ({ m: l }) => {
  fakeApi(lookupServer())
  await l.loadLookups()
  fakeApi(lookupServer({ announcements: () => Promise.reject(new Error('503')) }))
  await l.loadLookups()
  assert.equal(l.announcements.value, [eid])
})

test('skipped when the URL contains search', async ({ m: l }) => {
  const calls = fakeApi(lookupServer())
  await l.startLookups('/search?originCode=DHK')
  assert.is(calls.filter((c) => c.name === 'originCities').length, 0)
  await l.startLookups('/')
  assert.is(calls.filter((c) => c.name === 'originCities').length, 1)
})

test('announcements already shown (by id) are skipped; the list is stored under `announcement`', async ({ ss, m: l }) => {
  fakeApi(lookupServer())
  await l.loadLookups()
  assert.equal(n.takeUnseenAnnouncements(l.announcements.value), [eid])
  assert.equal(n.takeUnseenAnnouncements(l.announcements.value), [])
  fakeApi(lookupServer({ announcements: async () => [eid, fog] }))
  await l.loadLookups()
  assert.equal(n.takeUnseenAnnouncements(l.announcements.value), [fog])
  assert.equal(
    JSON.parse(ss.getItem('announcement')!).map((a: { id: number }) => a.id),
    [1, 2],
  )
})

test('the home page notices: unseen announcements once, kept until dismissed, not shown again in this tab', async ({ m: l }) => {
  fakeApi(lookupServer({ announcements: async () => [eid, fog] }))
  await l.loadLookups()
  n.showUnseenAnnouncements(l.announcements.value)
  assert.equal(n.notices.value, [eid, fog])
  // back on the home page: nothing is added twice, nothing closed comes back
  n.dismissNotice(eid.id)
  n.showUnseenAnnouncements(l.announcements.value)
  assert.equal(n.notices.value, [fog])
  n.dismissNotice(fog.id)
  assert.equal(n.notices.value, [])
  // a later visit in this tab (the app starts again from session storage): already shown
  const again = new LookupsModel()
  n.resetNotices()
  await again.loadLookups()
  n.showUnseenAnnouncements(again.announcements.value)
  assert.equal(n.notices.value, [])
})

test.run()
