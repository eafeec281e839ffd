import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ApiError } from './api-error.ts'
import { request, type ApiEnv } from './client.ts'
import type { CallFn } from './index.ts'

type Seen = { url: string; init: RequestInit }

function fakeFetch(respond: (seen: Seen) => Response | Promise<Response>, log: Seen[] = []) {
  return (async (url: string, init: RequestInit) => {
    const seen = { url, init }
    log.push(seen)
    return respond(seen)
  }) as unknown as typeof fetch
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

let unauthorized: string[] = []
let env: ApiEnv
function setup(parts: Partial<ApiEnv> = {}) {
  unauthorized = []
  env = {
    baseUrl: () => 'https://api.example.test/api/',
    token: () => null,
    deviceId: () => 'device-1234567890',
    language: () => 'bn',
    currentPath: () => '/search?from=DHK',
    onUnauthorized: (p) => void unauthorized.push(p),
    fetch: () => Promise.reject(new Error('no fetch given')),
    timeoutMs: 60_000,
    online: () => true,
    retryDelaysMs: [0, 0, 0],
    ...parts,
  }
}
const call: CallFn = (name, opts) => request(env, name, opts)

/** The error a call failed with; fails the test when the call succeeds. */
async function failure(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err as ApiError,
  )
  if (!e) assert.unreachable('the call should have failed')
  return e!
}

test('a public read sends only Accept JSON and the language (no CORS preflight), and returns data', async () => {
  const log: Seen[] = []
  setup({ fetch: fakeFetch(() => json(200, { data: [{ code: 'DHK', name: 'Dhaka', nameBn: 'ঢাকা' }] }), log) })
  const cities = await call('originCities')
  assert.equal(cities[0].code, 'DHK')
  assert.is(log[0].url, 'https://api.example.test/api/originCities')
  const h = log[0].init.headers as Record<string, string>
  assert.equal(h, { Accept: 'application/json', 'Accept-Language': 'bn' }, 'CORS-safelisted headers only')
  assert.is(log[0].init.method, 'GET')
  // signed in, still no session: the lookups never need one
  setup({ token: () => 'tok-1', fetch: fakeFetch(() => json(200, { data: [] }), log) })
  await call('offers')
  assert.equal(log[1].init.headers, { Accept: 'application/json', 'Accept-Language': 'bn' })
})

test('other requests send the device id, the language, and no bearer without a token', async () => {
  const log: Seen[] = []
  setup({ fetch: fakeFetch(() => json(200, { data: [] }), log) })
  await call('tripSearch', { body: { originCode: 'DHK', destinationCode: 'CTG', tripDate: '2026-11-25' } })
  const h = log[0].init.headers as Record<string, string>
  assert.is(h.Accept, 'application/json')
  assert.is(h['X-Device-Id'], 'device-1234567890')
  assert.is(h['Accept-Language'], 'bn', 'the app language, so ticket e-mails and SMS follow it')
  assert.is(h.Authorization, undefined)
})

test('adds the bearer header when a token is stored, JSON body, path params encoded', async () => {
  const log: Seen[] = []
  setup({ token: () => 'tok123', fetch: fakeFetch(() => json(200, { data: true }), log) })
  await call('resendReservationEmail', { params: { pnr: 'AB/1', pin: '1234' } })
  assert.is((log[0].init.headers as Record<string, string>).Authorization, 'Bearer tok123')
  assert.is(log[0].url, 'https://api.example.test/api/reservation/resendReservationEmail/AB%2F1/1234')
  await call('tripSearch', { body: { originCode: 'DHK', destinationCode: 'CTG', tripDate: '2026-11-22' } })
  assert.is(log[1].init.method, 'POST')
  assert.equal(JSON.parse(String(log[1].init.body)), { originCode: 'DHK', destinationCode: 'CTG', tripDate: '2026-11-22' })
  assert.is((log[1].init.headers as Record<string, string>)['Content-Type'], 'application/json')
})

test('passes the server error code and reason through', async () => {
  setup({ fetch: fakeFetch(() => json(409, { error: { code: 'SEAT_UNAVAILABLE', reason: 'These seats are NOT available' } })) })
  const e = await failure(call('offers'))
  assert.instance(e, ApiError)
  assert.is(e.code, 'SEAT_UNAVAILABLE')
  assert.is(e.reason, 'These seats are NOT available')
  assert.is(e.status, 409)
  assert.equal(unauthorized, [])
})

test('message values sent with an error (minutes to wait, a limit) are kept on the ApiError', async () => {
  setup({
    fetch: fakeFetch(() =>
      json(429, {
        error: { code: 'TOO_MANY_ATTEMPTS', reason: 'Too many wrong PINs for this PNR. Try again in 12 minutes.', values: { minutes: 12 } },
      }),
    ),
  })
  const e = await failure(call('offers'))
  assert.instance(e, ApiError)
  assert.is(e.code, 'TOO_MANY_ATTEMPTS')
  assert.equal(e.values, { minutes: 12 })
})

test('times out after the configured time with a clear error', async () => {
  setup({
    timeoutMs: 20,
    fetch: ((_u: string, init: RequestInit) =>
      new Promise((_, reject) =>
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      )) as unknown as typeof fetch,
  })
  const e = await failure(call('offers'))
  assert.is(e.code, 'REQUEST_TIMEOUT')
  assert.match(e.reason, /too long/)
})

/** A fetch that throws like a browser with no answer (network down, or CORS refused); counts its calls. */
function failingFetch(log: Seen[]) {
  return fakeFetch(() => {
    throw new TypeError('Failed to fetch')
  }, log)
}

test('offline, a network failure is NO_INTERNET_CONNECTION at once, without repeats', async () => {
  const log: Seen[] = []
  setup({ online: () => false, fetch: failingFetch(log) })
  assert.is((await failure(call('offers'))).code, 'NO_INTERNET_CONNECTION')
  assert.is(log.length, 1)
})

test('online, a read the service does not answer is asked again after each wait, then is SERVICE_UNREACHABLE', async () => {
  const log: Seen[] = []
  const waits: number[] = []
  let last = Date.now()
  setup({
    retryDelaysMs: [30, 60],
    fetch: fakeFetch(() => {
      waits.push(Date.now() - last)
      last = Date.now()
      throw new TypeError('Failed to fetch')
    }, log),
  })
  const e = await failure(call('tripSearch', { body: { originCode: 'DHK', destinationCode: 'CTG', tripDate: '2026-11-22' } }))
  assert.is(e.code, 'SERVICE_UNREACHABLE')
  assert.is(e.status, 0)
  assert.match(e.reason, /cannot be reached/)
  assert.is(log.length, 3, 'the first try and one per wait')
  assert.ok(waits[1]! >= 25 && waits[2]! >= 55, `backs off: ${waits}`)
})

test('a repeat that gets through answers the data; a proxy error page counts as no answer, a server 503 does not', async () => {
  const log: Seen[] = []
  const answers = [() => new Response('<h1>502 Bad Gateway</h1>', { status: 502 }), () => json(200, { data: [] })]
  setup({ fetch: fakeFetch(() => answers[log.length - 1]!(), log) })
  assert.equal(await call('offers'), [])
  assert.is(log.length, 2)

  const again: Seen[] = []
  setup({ fetch: fakeFetch(() => json(503, { error: { code: 'SALES_RESTRICTED', reason: 'System is in under maintenance' } }), again) })
  assert.is((await failure(call('offers'))).code, 'SALES_RESTRICTED')
  assert.is(again.length, 1, 'the server answered: nothing to repeat')
})

test('a booking, a payment or a seat lock is never sent twice on its own', async () => {
  for (const send of [
    () =>
      call('booking', {
        body: { tripId: 1, seatNames: ['A1'], boardingStationId: 1, droppingStationId: 2, passengerName: 'K', passengerMobile: '01712345678' },
      }),
    () => call('payment', { body: { reservationId: 1 } }),
    () => call('paymentSuccess', { body: { paymentId: 'p1' } }),
    () =>
      call('seatLock', {
        body: { tripDate: '2026-11-22', coachCode: 'C', originCode: 'DHK', destinationCode: 'CTG', seatNames: ['A1'], locked: true },
      }),
    () => call('cancel', { params: { pnr: 'ABCDEFGHIJ', pin: '1234', otp: '123456' } }),
  ]) {
    const log: Seen[] = []
    setup({ fetch: failingFetch(log) })
    assert.is((await failure(send())).code, 'SERVICE_UNREACHABLE')
    assert.is(log.length, 1)
  }
})

test('going offline between repeats stops them and says so', async () => {
  const log: Seen[] = []
  let online = true
  setup({
    online: () => online,
    fetch: fakeFetch(() => {
      online = false
      throw new TypeError('Failed to fetch')
    }, log),
  })
  assert.is((await failure(call('offers'))).code, 'NO_INTERNET_CONNECTION')
  assert.is(log.length, 1)
})

test('an abort by the caller ends the waits between repeats', async () => {
  const ctl = new AbortController()
  setup({ retryDelaysMs: [10_000], fetch: failingFetch([]) })
  const sent = call('offers', { signal: ctl.signal })
  setTimeout(() => ctl.abort(), 20)
  const e = await failure(sent)
  assert.is((e as unknown as Error).name, 'AbortError')
})

test('a 401 outside the login page triggers the session reset with the current path', async () => {
  setup({ fetch: fakeFetch(() => json(401, { error: { code: 'INVALID_SESSION', reason: 'Invalid session. Please login again.' } })) })
  assert.is((await failure(call('profile', { params: { id: 1 } }))).code, 'INVALID_SESSION')
  assert.equal(unauthorized, ['/search?from=DHK'])
})

test('a 401 on the login page does not reset (wrong password answers stay on the page)', async () => {
  setup({
    currentPath: () => '/login',
    fetch: fakeFetch(() => json(401, { error: { code: 'BAD_CREDENTIALS', reason: 'Invalid Credentials' } })),
  })
  assert.is((await failure(call('login', { body: { mobile: '01712345678', password: 'x' } }))).code, 'BAD_CREDENTIALS')
  assert.equal(unauthorized, [])
})

test('a call that expects a 401 (LOGOUT with an expired token) does not reset the session', async () => {
  setup({ fetch: fakeFetch(() => json(401, { error: { code: 'INVALID_SESSION', reason: 'Invalid session. Please login again.' } })) })
  assert.is((await failure(call('logout', { ignoreUnauthorized: true }))).code, 'INVALID_SESSION')
  assert.equal(unauthorized, [])
})

test('a body without data is an error, not undefined', async () => {
  setup({ fetch: fakeFetch(() => new Response('<html>', { status: 200 })) })
  assert.is((await failure(call('offers'))).code, 'INTERNAL_ERROR')
})

test.run()
