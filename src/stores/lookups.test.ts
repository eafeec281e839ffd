import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryStorage, useStorages, type KeyValue } from '../lib/storage.ts'
import * as l from './lookups.ts'

const dhaka = { code: 'DHK', name: 'Dhaka', nameBn: 'ঢাকা' }
const ctg = { code: 'CTG', name: 'Chattogram', nameBn: 'চট্টগ্রাম' }
const morning = { label: 'Morning', value: '04:00AM-11:59AM', integerValue: 1 }
const eid = { id: 1, title: 'Eid schedule', titleBn: 'ঈদের সময়সূচি' }
const fog = { id: 2, title: 'Fog delays', titleBn: 'কুয়াশায় বিলম্ব' }

function fakeApi(overrides: Partial<l.LookupsApi> = {}): l.LookupsApi & { calls: number } {
  const api: l.LookupsApi & { calls: number } = {
    calls: 0,
    getOriginCities: async () => {
      api.calls++
      return [dhaka]
    },
    getDestinationCities: async () => [ctg],
    getTimePeriods: async () => [morning],
    getAnnouncements: async () => [eid],
    getOffers: async () => [],
    ...overrides,
  }
  return api
}

let ss: KeyValue
test.before.each(() => {
  ss = memoryStorage()
  useStorages(ss, memoryStorage())
  l.resetLookups()
})

test('loads every list; time periods start with All', async () => {
  l.configureLookups(fakeApi())
  await l.loadLookups()
  assert.equal(l.originCities.value, [dhaka])
  assert.equal(l.destinationCities.value, [ctg])
  assert.equal(l.timePeriods.value, [{ label: 'All', value: '04:00AM-11:59PM', integerValue: 0 }, morning])
  assert.equal(l.announcements.value, [eid])
  assert.ok(l.lookupsLoaded.value)
})

test('the lists asked for and failed (their code did not load): marked loaded, so the search form shows', async () => {
  l.configureLookups(() => Promise.reject(new Error('offline')))
  assert.not.ok(l.lookupsLoaded.value)
  await l.loadLookups().then(
    () => assert.unreachable('should reject'),
    (e: Error) => assert.is(e.message, 'offline'),
  )
  assert.ok(l.lookupsLoaded.value)
  assert.equal(l.originCities.value, [])
})

test('All is not duplicated when the server already sends it', () => {
  assert.is(l.withAllPeriod([l.ALL_TIME_PERIOD, morning]).length, 2)
})

test('failed announcements keep the existing list', async () => {
  l.configureLookups(fakeApi())
  await l.loadLookups()
  l.configureLookups(fakeApi({ getAnnouncements: () => Promise.reject(new Error('503')) }))
  await l.loadLookups()
  assert.equal(l.announcements.value, [eid])
})

test('skipped when the URL contains search', async () => {
  const api = fakeApi()
  l.configureLookups(api)
  await l.startLookups('/search?originCode=DHK')
  assert.is(api.calls, 0)
  await l.startLookups('/')
  assert.is(api.calls, 1)
})

test('announcements already shown (by id) are skipped; the list is stored under `announcement`', async () => {
  l.configureLookups(fakeApi())
  await l.loadLookups()
  assert.equal(l.takeUnseenAnnouncements(), [eid])
  assert.equal(l.takeUnseenAnnouncements(), [])
  l.configureLookups(fakeApi({ getAnnouncements: async () => [eid, fog] }))
  await l.loadLookups()
  assert.equal(l.takeUnseenAnnouncements(), [fog])
  assert.equal(JSON.parse(ss.getItem('announcement')!).map((a: { id: number }) => a.id), [1, 2])
})

test.run()
