/** CORS_ORIGINS: a web app on another origin may call /api; no other origin, method or header, and never with credentials. */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readConfig } from '../config.ts'
import { CORS_MAX_AGE_SECONDS } from '../http/cors.ts'
import { startTestApp, type CallResult, type TestApp } from '../test/helpers.ts'

const APP = 'https://tickets.example.com'
const OTHER = 'https://evil.example.net'

const header = (r: CallResult, name: string) => {
  const v = r.headers[name]
  return v === undefined ? undefined : String(v)
}
const varyNames = (r: CallResult) => (header(r, 'vary') ?? '').split(',').map((v) => v.trim().toLowerCase())

/** A browser's preflight for `method` with `headers` from `origin`. */
const preflight = (t: TestApp, path: string, origin: string, method: string, headers = 'authorization,content-type,x-device-id') =>
  t.call('OPTIONS', path, { headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } })

const configSuite = suite('CORS_ORIGINS setting')

configSuite('none by default; a comma-separated list is read as origins the way browsers send them', () => {
  assert.equal(readConfig({}).config.corsOrigins, [])
  const { config, problems } = readConfig({ CORS_ORIGINS: ' https://Tickets.Example.com, http://127.0.0.1:8081 ,https://a.example.com:443,, ' })
  assert.equal(problems, [])
  assert.equal(config.corsOrigins, ['https://tickets.example.com', 'http://127.0.0.1:8081', 'https://a.example.com'])
})

configSuite('anything that is not an origin is refused by name', () => {
  const bad = [
    'https://tickets.example.com/',
    'https://tickets.example.com/app',
    '*',
    'https://*.example.com',
    'tickets.example.com',
    'ftp://x.example.com',
    'https://u@x.example.com',
    'null',
  ]
  const { problems } = readConfig({ CORS_ORIGINS: bad.join(',') })
  assert.is(problems.length, bad.length, problems.join('\n'))
  for (const [i, v] of bad.entries()) assert.ok(problems[i]!.includes(`"${v}"`), problems[i])
  assert.match(problems[0]!, /^CORS_ORIGINS: .* is not an origin/)
})

configSuite.run()

const off = suite('CORS off (no CORS_ORIGINS)')
let plain: TestApp

off.before(async () => {
  plain = await startTestApp()
})
off.after(async () => {
  await plain.close()
})

off('no preflight is answered and no answer allows another origin', async () => {
  const pre = await preflight(plain, '/api/originCities', APP, 'GET')
  assert.is(pre.status, 404)
  assert.is(header(pre, 'access-control-allow-origin'), undefined)
  const get = await plain.call('GET', '/api/originCities', { headers: { origin: APP } })
  assert.is(get.status, 200)
  assert.is(header(get, 'access-control-allow-origin'), undefined)
})

off.run()

const on = suite('CORS for the listed origins')
let t: TestApp

on.before(async () => {
  t = await startTestApp({ config: { corsOrigins: [APP, 'http://127.0.0.1:9000'] }, app: { authRateLimitMax: 2 } })
})
on.after(async () => {
  await t.close()
})

on('a preflight from a listed origin is answered with the methods, headers and caching the app needs, without credentials', async () => {
  const r = await preflight(t, '/api/reservation/booking', APP, 'POST')
  assert.is(r.status, 204)
  assert.is(header(r, 'access-control-allow-origin'), APP)
  assert.equal(header(r, 'access-control-allow-methods')!.split(', ').sort(), ['GET', 'POST', 'PUT'])
  const allowed = header(r, 'access-control-allow-headers')!.toLowerCase().split(', ')
  for (const h of ['authorization', 'x-device-id', 'content-type', 'accept']) assert.ok(allowed.includes(h), `${h} in ${allowed}`)
  assert.is(header(r, 'access-control-max-age'), String(CORS_MAX_AGE_SECONDS))
  assert.is(header(r, 'access-control-allow-credentials'), undefined)
  assert.ok(varyNames(r).includes('origin'))
  // the second listed origin too, with a PUT (profile edit)
  const put = await preflight(t, '/api/profile', 'http://127.0.0.1:9000', 'PUT', 'Authorization, Content-Type')
  assert.is(put.status, 204)
  assert.is(header(put, 'access-control-allow-origin'), 'http://127.0.0.1:9000')
})

on('a preflight from another origin, or for another method or header, is refused without any allow header', async () => {
  const cases: [string, string, string, RegExp][] = [
    [OTHER, 'GET', 'x-device-id', /origin https:\/\/evil\.example\.net may not/],
    [APP, 'DELETE', 'authorization', /method DELETE is not allowed/],
    [APP, 'POST', 'authorization,x-admin-key', /header x-admin-key is not allowed/],
  ]
  for (const [origin, method, headers, reason] of cases) {
    const r = await preflight(t, '/api/reservations', origin, method, headers)
    assert.is(r.status, 403, `${origin} ${method} ${headers}`)
    assert.is(r.body.error.code, 'PERMISSION_DENIED')
    assert.match(r.body.error.reason, reason)
    assert.is(header(r, 'access-control-allow-origin'), undefined)
    assert.is(header(r, 'access-control-allow-methods'), undefined)
    assert.ok(varyNames(r).includes('origin'))
  }
  const noOrigin = await t.call('OPTIONS', '/api/reservations', { headers: { 'access-control-request-method': 'GET' } })
  assert.is(noOrigin.status, 403)
})

on('answers to a listed origin allow it and vary by Origin; other origins get no allow header', async () => {
  const ok = await t.call('GET', '/api/originCities', { headers: { origin: APP, 'accept-encoding': 'br' } })
  assert.is(ok.status, 200)
  assert.is(header(ok, 'access-control-allow-origin'), APP)
  assert.is(header(ok, 'access-control-allow-credentials'), undefined)
  assert.ok(varyNames(ok).includes('origin'), header(ok, 'vary'))
  const other = await t.call('GET', '/api/originCities', { headers: { origin: OTHER } })
  assert.is(other.status, 200)
  assert.is(header(other, 'access-control-allow-origin'), undefined)
  assert.ok(varyNames(other).includes('origin'))
  // the app's pages are not part of the API
  const health = await t.call('GET', '/healthz', { headers: { origin: APP } })
  assert.is(header(health, 'access-control-allow-origin'), undefined)
})

on('error answers carry the CORS headers, so the app can read the catalogue error', async () => {
  const h = { origin: APP }
  const invalid = await t.call('POST', '/api/reservation/tripSearch', { body: { originCode: 'DHK' }, headers: h })
  assert.is(invalid.status, 400)
  assert.is(invalid.body.error.code, 'VALIDATION_FAILED')
  const unauthorized = await t.call('GET', '/api/reservations', { headers: h })
  assert.is(unauthorized.status, 401)
  const missing = await t.call('GET', '/api/no/such/route', { headers: h })
  assert.is(missing.status, 404)
  const badUrl = await t.call('GET', '/api/getPassengerByMobile/%E0%A4%A', { headers: h })
  assert.is(badUrl.status, 400)
  const limited: CallResult[] = []
  for (let i = 0; i < 3; i++)
    limited.push(await t.call('POST', '/api/checkPassenger', { body: { mobile: '01799999999', password: 'x' }, headers: h }))
  assert.is(limited[2]!.status, 429)
  assert.is(limited[2]!.body.error.code, 'TOO_MANY_REQUESTS')
  for (const r of [invalid, unauthorized, missing, badUrl, limited[2]!]) {
    assert.is(header(r, 'access-control-allow-origin'), APP, `${r.status} ${r.text}`)
    assert.ok(varyNames(r).includes('origin'))
  }
})

on.run()
