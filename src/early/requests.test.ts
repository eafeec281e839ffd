import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { RouteName } from '../../contract/api.ts'
import { type ApiEnv, type CallOptions, request } from '../api/client.ts'
import { fakeApi, type FakeCall } from '../api/index.ts'
import type { WireRequest } from '../api/wire.ts'
import { addDays, todayInDhaka } from '../lib/dates.ts'
import { DEVICE_ID_KEY } from '../lib/device-id.ts'
import { storageKeys } from '../lib/storage.ts'
import { tripRefFromQuery } from '../lib/trip-ref.ts'
import { BookingModel } from '../models/booking.ts'
import { LookupsModel } from '../models/lookups.ts'
import { SearchModel } from '../models/search.ts'
import { SessionModel } from '../models/session.ts'
import { UiModel } from '../models/ui.ts'
import { SeatPageModel } from '../models/seat-page.ts'
import { EARLY_KEYS, EARLY_MAX_AGE_MS, type EarlyEntry, type EarlyInput, earlyRequests, sameRequest, takeEarlyResponse } from './requests.ts'

const today = todayInDhaka()
const tomorrow = addDays(today, 1)

/** The page at `path`, signed in with `token` (or not). */
function input(path: string, token: string | null = null): EarlyInput {
  const u = new URL(path, 'https://app.example.test')
  return {
    pathname: u.pathname,
    search: u.search.slice(1),
    href: u.href,
    baseUrl: () => 'https://api.example.test/api',
    token: () => token,
    deviceId: () => 'device-1234567890',
    language: () => 'bn',
    today: () => today,
  }
}

/** The wire request the app's fetch wrapper makes for a store's call, with `i`'s session and language. */
async function wire(call: FakeCall, i: EarlyInput): Promise<WireRequest> {
  let seen: WireRequest | null = null
  const env: ApiEnv = {
    baseUrl: i.baseUrl,
    token: i.token,
    deviceId: i.deviceId,
    language: i.language,
    currentPath: () => '/',
    onUnauthorized: () => undefined,
    fetch: (async (url: string, init: RequestInit) => {
      seen = { method: init.method!, url, headers: init.headers as Record<string, string>, body: init.body as string | undefined }
      return new Response(JSON.stringify({ data: null }), { status: 200 })
    }) as typeof fetch,
    timeoutMs: 60_000,
    online: () => true,
    retryDelaysMs: [],
  }
  await request(env, call.name as RouteName, call.opts as CallOptions<RouteName>).catch(() => undefined)
  return seen!
}

/** What the stores ask for when `run` runs, as wire requests (their answers are not needed). */
async function appRequests(i: EarlyInput, run: () => unknown, answers: Parameters<typeof fakeApi>[0]): Promise<WireRequest[]> {
  const calls = fakeApi(answers)
  void run()
  // the fake API answers without timers: after one turn of the event loop the stores have asked for all they ask
  await new Promise((r) => setImmediate(r))
  return Promise.all(calls.map((c) => wire(c, i)))
}

/** An answer that never comes: the store stays where a first visit is (other tests and the prerender share the stores). */
const never = () => new Promise<never>(() => undefined)

/** The start-up's load of the lookup lists, into a fresh set. */
const loadLookups = () => new LookupsModel().loadLookups()

function assertSame(early: WireRequest[], app: WireRequest[]) {
  assert.is(early.length, app.length, `early ${JSON.stringify(early.map((r) => r.url))} / app ${JSON.stringify(app.map((r) => r.url))}`)
  for (const [k, e] of early.entries()) assert.ok(sameRequest(e, app[k]!), `${JSON.stringify(e)}\n  is not the app's\n${JSON.stringify(app[k])}`)
}

const lookupAnswers = { originCities: () => [], destinationCities: () => [], timePeriods: () => [], announcements: () => [], offers: () => [] }

test('the start-up lookups: the very requests src/models/lookups.ts makes, public reads with the language only', async () => {
  const i = input('/', 'tok-123')
  const early = earlyRequests(i)
  assertSame(early, await appRequests(i, loadLookups, lookupAnswers))
  // CORS-safelisted headers only: no preflight with the API on another origin
  assert.equal(early[0]!.headers, { Accept: 'application/json', 'Accept-Language': 'bn' })
})

test('a shared results link: its trip search as src/models/search.ts sends it, and no lookups (the address contains "search")', async () => {
  const i = input(`/search?from=DHK&to=CTG&date=${tomorrow}`)
  const early = earlyRequests(i)
  assertSame(early, await appRequests(i, () => new SearchModel(new UiModel()).searchFromLink(i.search), { tripSearch: never }))
  assert.equal(JSON.parse(early[0]!.body!), { originCode: 'DHK', destinationCode: 'CTG', tripDate: tomorrow })
  // what the app would not search: nothing early
  for (const q of [
    `from=DHK&to=DHK&date=${tomorrow}`,
    'from=DHK&to=CTG',
    `from=dhk&to=CTG&date=${tomorrow}`,
    `from=DHK&to=CTG&date=${addDays(today, -1)}`,
  ]) {
    assert.equal(earlyRequests(input(`/search?${q}`)), [], q)
  }
})

test('a seat page: the lookups and the trip, as the lookups and the seat page model (src/models/seat-page.ts) loadTrip send them', async () => {
  const i = input(`/reservation?tripId=151&from=DHK&to=CTG&date=${tomorrow}`)
  const early = earlyRequests(i)
  const trip = tripRefFromQuery(i.search)!
  const app = await appRequests(
    i,
    () => {
      void loadLookups()
      void new SeatPageModel(new UiModel()).loadTrip(trip)
    },
    { ...lookupAnswers, tripDetails: never },
  )
  assertSame(early, app)
  assert.is(early.at(-1)!.url, 'https://api.example.test/api/reservation/tripDetails')
  assert.is(early.at(-1)!.headers['X-Device-Id'], 'device-1234567890', 'the trip says which seats this device holds')
  assert.equal(earlyRequests(input('/reservation?tripId=x&from=DHK&to=CTG')).length, 5, 'no trip in the address: only the lookups')
})

test('a booking paid from the balance: the lookups and the booking, signed in only; a card payment is left to the app', async () => {
  const i = input('/reservation/success?reservationId=42', 'tok-123')
  const early = earlyRequests(i)
  const app = await appRequests(
    i,
    () => {
      void loadLookups()
      const booking = new BookingModel(new SessionModel())
      void booking.loadBooking(42)
      booking[Symbol.dispose]()
    },
    { ...lookupAnswers, reservationById: never },
  )
  assertSame(early, app)
  assert.is(earlyRequests(input('/reservation/success?reservationId=42')).length, 5, 'signed out: only the lookups')
  assert.is(earlyRequests(input('/reservation/success?paymentId=p-1', 't')).length, 5)
})

const entry = (r: WireRequest, at: number, body = '{"data":1}'): EarlyEntry => ({ ...r, at, response: Promise.resolve(new Response(body)) })

test('an early answer is taken once, only by the same request, and not when it is old', async () => {
  const [a, b] = earlyRequests(input('/'))
  globalThis.__EARLY_REQUESTS__ = [entry(a!, 0), entry(b!, 0)]
  assert.is(takeEarlyResponse({ ...a!, headers: { ...a!.headers, 'Accept-Language': 'en' } }, 1), null, 'another language')
  assert.is(takeEarlyResponse({ ...a!, headers: { ...a!.headers, Authorization: 'Bearer x' } }, 1), null, 'another session')
  assert.ok(takeEarlyResponse(a!, 1))
  assert.is(takeEarlyResponse(a!, 1), null, 'taken once')
  assert.is(takeEarlyResponse(b!, EARLY_MAX_AGE_MS + 1), null, 'too old')
  assert.is(globalThis.__EARLY_REQUESTS__.length, 0)
  globalThis.__EARLY_REQUESTS__ = undefined
})

test('the fetch wrapper uses the early answer instead of sending, and sends when there is none', async () => {
  const i = input('/')
  const [cities] = earlyRequests(i)
  const sent: string[] = []
  const env: ApiEnv = {
    baseUrl: i.baseUrl,
    token: () => null,
    deviceId: i.deviceId,
    language: i.language,
    currentPath: () => '/',
    onUnauthorized: () => undefined,
    fetch: (async (url: string) => {
      sent.push(url)
      return new Response(JSON.stringify({ data: [{ code: 'CTG', name: 'Chattogram', nameBn: 'চট্টগ্রাম' }] }))
    }) as typeof fetch,
    timeoutMs: 60_000,
    online: () => true,
    retryDelaysMs: [],
  }
  globalThis.__EARLY_REQUESTS__ = [entry(cities!, performance.now(), JSON.stringify({ data: [{ code: 'DHK', name: 'Dhaka', nameBn: 'ঢাকা' }] }))]
  assert.equal(
    (await request(env, 'originCities')).map((c) => c.code),
    ['DHK'],
    'the early answer',
  )
  assert.equal(sent, [])
  assert.equal(
    (await request(env, 'originCities')).map((c) => c.code),
    ['CTG'],
    'asked again',
  )
  assert.equal(sent, ['https://api.example.test/api/originCities'])
  // an early request that failed (the network was down) is sent again at once
  globalThis.__EARLY_REQUESTS__ = [{ ...cities!, at: performance.now(), response: Promise.reject(new TypeError('Failed to fetch')) }]
  assert.equal(
    (await request(env, 'originCities')).map((c) => c.code),
    ['CTG'],
  )
  assert.is(sent.length, 2)
  globalThis.__EARLY_REQUESTS__ = undefined
})

test('the shell reads the storage keys the app writes', () => {
  assert.is(EARLY_KEYS.token, storageKeys.token)
  assert.is(EARLY_KEYS.language, storageKeys.language)
  assert.is(DEVICE_ID_KEY, storageKeys.deviceId)
})

test.run()
