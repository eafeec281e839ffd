import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ApiError } from './api-error.ts'
import type { ApiEnv } from './client.ts'
import { call, configureApi, fakeApi, lazyClient, loadBeforeErrors, REQUEST_TIMEOUT_MS, type Client } from './index.ts'

// the stand-in wrapper below reads only the token (and a failed load, whether the browser is online)
const env = (token: string | null, online = true) => ({ token: () => token, online: () => online }) as ApiEnv

/** A stand-in for the fetch wrapper that answers every request with its route name and token. */
function client(seen: { name: string; token: string | null }[]): Client {
  return {
    request: (async (request: ApiEnv, name: string) => {
      seen.push({ name, token: request.token() })
      return name
    }) as Client['request'],
  }
}

test('the default time-out is 60 seconds', () => {
  assert.is(REQUEST_TIMEOUT_MS, 60_000)
})

test('the fetch wrapper is loaded on the first request, once, and used at once afterwards', async () => {
  let loads = 0
  const seen: { name: string; token: string | null }[] = []
  const api = lazyClient(async () => {
    loads++
    return client(seen)
  })
  assert.is(loads, 0, 'nothing is loaded before a request')
  const [a, b] = await Promise.all([api.send(env('t1'), 'offers'), api.send(env('t1'), 'announcements')])
  assert.equal([a, b], ['offers', 'announcements'])
  assert.is(loads, 1)
  await api.send(env('t2'), 'offers')
  assert.is(loads, 1)
  assert.equal(
    seen.map((s) => s.token),
    ['t1', 't1', 't2'],
  )
})

test('a wrapper that cannot be loaded fails the request as NO_INTERNET_CONNECTION offline, SERVICE_UNREACHABLE online; the next request loads it again', async () => {
  let loads = 0
  const api = lazyClient(async () => {
    loads++
    if (loads <= 2) throw new TypeError('Failed to fetch dynamically imported module')
    return client([])
  })
  const failed = (online: boolean) =>
    api.send(env(null, online), 'offers').then(
      () => null,
      (err: unknown) => err as ApiError,
    )
  const offline = await failed(false)
  assert.instance(offline, ApiError)
  assert.is(offline!.code, 'NO_INTERNET_CONNECTION')
  assert.is((await failed(true))!.code, 'SERVICE_UNREACHABLE')
  assert.is(await api.send(env(null), 'offers'), 'offers')
  assert.is(loads, 3)
})

test('preload fetches the wrapper before any request', async () => {
  let loads = 0
  const api = lazyClient(async () => {
    loads++
    return client([])
  })
  api.preload()
  await Promise.resolve()
  assert.is(loads, 1)
  await api.send(env(null), 'offers')
  assert.is(loads, 1)
})

test('a call carries the token of the moment it is made (a LOGOUT sent just before the session is cleared)', async () => {
  let token: string | null = 'tok-1'
  configureApi({ token: () => token })
  const calls = fakeApi({ logout: () => true })
  const sent = call('logout')
  token = null
  assert.is(await sent, true)
  assert.is(calls[0]!.token, 'tok-1')
  configureApi({ token: () => null })
})

test('fakeApi answers one task later from routes read at each call, logs every call, and rejects a route it has no answer for', async () => {
  const routes: Parameters<typeof fakeApi>[0] = { offers: () => [] }
  const calls = fakeApi(routes)
  let answered = false
  const first = call('offers').then((v) => {
    answered = true
    return v
  })
  assert.is(answered, false)
  assert.equal(await first, [])
  routes.offers = () => {
    throw new ApiError('SALES_RESTRICTED', 'System is in under maintenance', 503)
  }
  const refused = await call('offers').then(
    () => null,
    (err: unknown) => err as ApiError,
  )
  assert.is(refused?.code, 'SALES_RESTRICTED')
  const unknown = await call('timePeriods').then(
    () => null,
    (err: unknown) => err as Error,
  )
  assert.match(String(unknown?.message), /unexpected call timePeriods/)
  assert.equal(
    calls.map((c) => c.name),
    ['offers', 'offers', 'timePeriods'],
  )
})

test('a failed call rejects only after the error texts have loaded; a successful one does not wait for them', async () => {
  let release = () => {}
  const texts = new Promise<void>((r) => {
    release = r
  })
  const order: string[] = []
  loadBeforeErrors(() => texts.then(() => void order.push('texts')))
  try {
    fakeApi({ company: () => ({ name: 'x' }) as never })
    assert.equal(await call('company'), { name: 'x' })
    fakeApi({})
    const failed = call('company').catch(() => order.push('rejected'))
    // the fake answers without timers: after one turn of the event loop every promise it settles has run
    await new Promise((r) => setImmediate(r))
    assert.equal(order, [], 'still waiting for the texts')
    release()
    await failed
    assert.equal(order, ['texts', 'rejected'])
  } finally {
    loadBeforeErrors(() => Promise.resolve())
  }
})

test.run()
