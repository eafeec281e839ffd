import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { buildApp } from '../app.ts'
import { startTestApp, tempDir, type TestApp } from './helpers.ts'

let t: TestApp
let dist: string
const bigJs = 'export const x = ' + JSON.stringify('bus '.repeat(5000)) + ';\n'
test.before(async () => {
  dist = path.join(tempDir('bus-dist-'), 'dist')
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true })
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><title>Nodi Express</title><div id="root"><h1>prerendered home</h1></div>' + ' '.repeat(2000),
  )
  fs.writeFileSync(path.join(dist, 'app.html'), '<!doctype html><title>Nodi Express</title><div id="root"></div><!-- empty shell -->')
  fs.writeFileSync(path.join(dist, 'search.html'), '<!doctype html><title>Nodi Express</title><div id="root"><h1>results frame</h1></div>')
  fs.writeFileSync(path.join(dist, 'login.html'), '<!doctype html><title>Nodi Express</title><div id="root"><h1>login frame</h1></div>')
  fs.mkdirSync(path.join(dist, 'reservation'))
  fs.writeFileSync(
    path.join(dist, 'reservation', 'success.html'),
    '<!doctype html><title>Nodi Express</title><div id="root"><h1>paid frame</h1></div>',
  )
  fs.writeFileSync(path.join(dist, 'config.js'), "window.__APP_CONFIG__ = { apiBaseUrl: '/api' };\n")
  fs.writeFileSync(path.join(dist, 'assets', 'main-ABCD1234.js'), bigJs)
  // the build's own compressed copies (build.mjs writePrecompressed): brotli 11 and gzip 9, smaller than on-the-fly
  fs.writeFileSync(path.join(dist, 'assets', 'page-EFGH5678.js'), bigJs)
  fs.writeFileSync(
    path.join(dist, 'assets', 'page-EFGH5678.js.br'),
    zlib.brotliCompressSync(bigJs, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  )
  fs.writeFileSync(path.join(dist, 'assets', 'page-EFGH5678.js.gz'), zlib.gzipSync(bigJs, { level: 9 }))
  fs.writeFileSync(path.join(dist, 'sw.js'), 'self.version = "second deploy"' + ' '.repeat(2000))
  fs.writeFileSync(path.join(dist, 'sw.js.br'), zlib.brotliCompressSync('self.version = "first deploy"' + ' '.repeat(2000)))
  fs.writeFileSync(
    path.join(dist, 'search.html.br'),
    zlib.brotliCompressSync('<!doctype html><title>Nodi Express</title><div id="root"><h1>results frame</h1></div>'),
  )
  fs.writeFileSync(path.join(dist, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  fs.writeFileSync(path.join(dist, 'chunk-ZX12QW34.js'), 'export {};')
  fs.writeFileSync(path.join(dist, 'meta.json'), '{"secret":"build graph"}')
  t = await startTestApp({ daysAhead: 0, app: { distDir: dist } })
})
test.after(async () => {
  await t.close()
})

const isIndex = (r: { status: number; text: string; headers: Record<string, unknown> }) => {
  assert.is(r.status, 200)
  assert.ok(r.text.includes('<div id="root">'))
  assert.is(r.headers['cache-control'], 'no-cache')
}

test('security headers: CSP without inline scripts, framing refused', async () => {
  for (const url of ['/', '/api/company']) {
    const r = await t.call('GET', url)
    const csp = String(r.headers['content-security-policy'])
    const script = csp.split(';').find((d) => d.trim().startsWith('script-src '))!
    assert.is(script.trim(), "script-src 'self'")
    assert.not.ok(script.includes('unsafe-inline') || script.includes('unsafe-eval'))
    for (const d of ["connect-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "default-src 'self'"]) assert.ok(csp.includes(d), d)
    assert.is(r.headers['x-content-type-options'], 'nosniff')
  }
})

test('security headers on every answer: pages, the API, a 404 and a refused body (set from a table made once at start)', async () => {
  const expected = {
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  }
  const answers = [
    await t.call('GET', '/'),
    await t.call('GET', '/api/company'),
    await t.call('GET', '/api/no-such-route'),
    await t.call('POST', '/api/reservation/tripSearch', { body: { originCode: 1 } }),
  ]
  assert.equal(
    answers.map((r) => r.status),
    [200, 200, 404, 400],
  )
  for (const r of answers) {
    for (const [name, value] of Object.entries(expected)) assert.is(r.headers[name], value, `${name} on a ${r.status}`)
    assert.ok(String(r.headers['content-security-policy']).startsWith("default-src 'self';script-src 'self';"), `CSP on a ${r.status}`)
  }
})

test('static files: hashed assets immutable, index and config.js no-cache', async () => {
  const js = await t.call('GET', '/assets/main-ABCD1234.js')
  assert.is(js.status, 200)
  assert.is(js.headers['cache-control'], 'public, max-age=31536000, immutable')
  assert.match(String(js.headers['content-type']), /javascript/)
  assert.is((await t.call('GET', '/assets/logo.svg')).headers['cache-control'], 'public, max-age=31536000, immutable')
  assert.is((await t.call('GET', '/chunk-ZX12QW34.js')).headers['cache-control'], 'public, max-age=31536000, immutable')
  const cfg = await t.call('GET', '/config.js')
  assert.is(cfg.status, 200)
  assert.is(cfg.headers['cache-control'], 'no-cache')
  isIndex(await t.call('GET', '/'))
  isIndex(await t.call('GET', '/index.html'))
})

test('compression: br and gzip', async () => {
  const br = await t.app.inject({ method: 'GET', url: '/assets/main-ABCD1234.js', headers: { 'accept-encoding': 'br' } })
  assert.is(br.headers['content-encoding'], 'br')
  assert.is(zlib.brotliDecompressSync(br.rawPayload).toString(), bigJs)
  const gz = await t.app.inject({ method: 'GET', url: '/assets/main-ABCD1234.js', headers: { 'accept-encoding': 'gzip' } })
  assert.is(gz.headers['content-encoding'], 'gzip')
  assert.is(zlib.gunzipSync(gz.rawPayload).toString(), bigJs)
  const api = await t.app.inject({ method: 'GET', url: '/api/busStationsByOriginDestinationAndTripDate', headers: { 'accept-encoding': 'br' } })
  assert.is(api.statusCode, 404)
  const routes = await t.app.inject({ method: 'GET', url: '/api/routes', headers: { 'accept-encoding': 'gzip' } })
  assert.is(routes.headers['content-encoding'], 'gzip')
  assert.ok(JSON.parse(zlib.gunzipSync(routes.rawPayload).toString()).data.length > 10)
})

test("the build's compressed copies are sent as they are (brotli 11, gzip 9), to the browsers that take them", async () => {
  const file = path.join(dist, 'assets', 'page-EFGH5678.js')
  const br = await t.app.inject({ method: 'GET', url: '/assets/page-EFGH5678.js', headers: { 'accept-encoding': 'gzip, deflate, br' } })
  assert.is(br.headers['content-encoding'], 'br')
  assert.ok(br.rawPayload.equals(fs.readFileSync(`${file}.br`)), 'the .br file itself')
  assert.is(br.headers['cache-control'], 'public, max-age=31536000, immutable')
  assert.match(String(br.headers.vary), /accept-encoding/i)
  assert.match(String(br.headers['content-type']), /javascript/)
  const gz = await t.app.inject({ method: 'GET', url: '/assets/page-EFGH5678.js', headers: { 'accept-encoding': 'gzip' } })
  assert.is(gz.headers['content-encoding'], 'gzip')
  assert.ok(gz.rawPayload.equals(fs.readFileSync(`${file}.gz`)), 'the .gz file itself')
  const plain = await t.app.inject({ method: 'GET', url: '/assets/page-EFGH5678.js', headers: { 'accept-encoding': 'identity' } })
  assert.is(plain.headers['content-encoding'], undefined)
  assert.is(plain.payload, bigJs)
  // the worker script and the shells change in place (the next deploy, an operator's edit): never an older compressed copy
  const worker = await t.app.inject({ method: 'GET', url: '/sw.js', headers: { 'accept-encoding': 'br' } })
  assert.is(zlib.brotliDecompressSync(worker.rawPayload).toString(), 'self.version = "second deploy"' + ' '.repeat(2000))
  assert.is(worker.headers['cache-control'], 'no-cache')
  const shell = await t.app.inject({ method: 'GET', url: '/search?from=DHK', headers: { 'accept-encoding': 'br' } })
  assert.is(shell.headers['content-encoding'], 'br')
  assert.match(zlib.brotliDecompressSync(shell.rawPayload).toString(), /results frame<\/h1><\/div>$/)
  assert.is(shell.headers['cache-control'], 'no-cache')
})

test('hashed assets from memory: encodings as asked, HEAD, nothing outside assets/, a file written after a miss', async () => {
  const file = path.join(dist, 'assets', 'page-EFGH5678.js')
  // a refused encoding (q=0) is not sent; the next one taken is
  const gz = await t.app.inject({ method: 'GET', url: '/assets/page-EFGH5678.js', headers: { 'accept-encoding': 'br;q=0, gzip' } })
  assert.is(gz.headers['content-encoding'], 'gzip')
  assert.ok(gz.rawPayload.equals(fs.readFileSync(`${file}.gz`)))
  const head = await t.app.inject({ method: 'HEAD', url: '/assets/page-EFGH5678.js', headers: { 'accept-encoding': 'br' } })
  assert.is(head.statusCode, 200)
  assert.is(head.payload, '')
  assert.is(head.headers['content-encoding'], 'br')
  assert.is(Number(head.headers['content-length']), fs.statSync(`${file}.br`).size)
  assert.is((await t.call('GET', '/assets/logo.svg')).headers['content-type'], 'image/svg+xml')
  // a compressed copy asked for by its own name comes as those bytes, whatever the encoding taken
  const ask = { 'accept-encoding': 'gzip, deflate, br, zstd' }
  const gzFile = await t.app.inject({ method: 'GET', url: '/assets/page-EFGH5678.js.gz', headers: ask })
  assert.is(gzFile.statusCode, 200)
  assert.is(gzFile.headers['content-type'], 'application/gzip')
  assert.is(gzFile.headers['content-encoding'], undefined)
  assert.ok(gzFile.rawPayload.equals(fs.readFileSync(`${file}.gz`)))
  const brFile = await t.app.inject({ method: 'GET', url: '/assets/page-EFGH5678.js.br', headers: ask })
  assert.is(brFile.statusCode, 200)
  const brBytes = brFile.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(brFile.rawPayload) : brFile.rawPayload
  assert.ok(brBytes.equals(fs.readFileSync(`${file}.br`)))
  // no way out of assets/, and no dot file
  for (const url of ['/assets/..%2Fconfig.js', '/assets/%2e%2e%2Fmeta.json', '/assets/.hidden.js', '/assets/sub/x.js']) {
    const r = await t.call('GET', url)
    assert.is(r.status, 404, url)
    assert.not.match(r.text, /secret|__APP_CONFIG__/, url)
  }
  // not there at first (a request before the build wrote it): served once it is
  assert.is((await t.call('GET', '/assets/late-QWER5678.js')).status, 404)
  fs.writeFileSync(path.join(dist, 'assets', 'late-QWER5678.js'), 'export const late = 1;\n')
  const late = await t.call('GET', '/assets/late-QWER5678.js')
  assert.is(late.status, 200)
  assert.is(late.text, 'export const late = 1;\n')
  assert.is(late.headers['cache-control'], 'public, max-age=31536000, immutable')
})

test('SPA fallback for app paths; real 404 for missing files and unknown API paths', async () => {
  // the prerendered home page only where the home page is, a route's own shell (`<path>.html`) on
  // that route; the empty shell for paths the build wrote none for
  for (const url of ['/', '/home', '/home/']) assert.ok((await t.call('GET', url)).text.includes('prerendered home'), url)
  for (const [url, frame] of [
    ['/search', 'results frame'],
    ['/search?from=DHK&to=CTG&date=2030-01-01', 'results frame'],
    ['/login', 'login frame'],
    ['/login/', 'login frame'],
    ['/reservation/success?paymentId=abc', 'paid frame'],
  ]) {
    const r = await t.call('GET', url)
    isIndex(r)
    assert.ok(r.text.includes(frame), url)
  }
  // /reservation is a folder of dist/ (it holds success.html) without a shell of its own
  for (const url of ['/reservation?tripId=1', '/reservation/', '/error/404', '/some/unknown/page', '/searching', '/login/more']) {
    const r = await t.call('GET', url)
    isIndex(r)
    assert.ok(r.text.includes('empty shell'), url)
  }
  const missing = await t.call('GET', '/assets/main-OLD12345.js')
  assert.is(missing.status, 404)
  assert.is((await t.call('GET', '/meta.json')).status, 404)
  for (const [method, url] of [
    ['GET', '/api/nope'],
    ['POST', '/api/nope'],
    ['GET', '/api'],
    ['DELETE', '/api/profile'],
    ['GET', '/dev/nothing'],
    ['GET', '/sandbox/nothing/here'],
    ['POST', '/home'],
  ]) {
    const r = await t.call(method!, url!)
    assert.is(r.status, 404, `${method} ${url}`)
    assert.equal(r.body, { error: { code: 'NOT_FOUND', reason: 'Not found.' } })
  }
})

test('without a build: a clear 503 for app pages, the API still works', async () => {
  const bare = await startTestApp({ daysAhead: 0 })
  try {
    const r = await bare.call('GET', '/home')
    assert.is(r.status, 503)
    assert.match(r.text, /npm run build/)
    assert.is((await bare.call('GET', '/api/company')).status, 200)
  } finally {
    await bare.close()
  }
})

test('bodies: JSON only (text, XML and forms 415), bad JSON 400, too large 413, prototype poisoning 400', async () => {
  let r = await t.call('POST', '/api/checkPassenger', { raw: 'mobile=1', headers: { 'content-type': 'text/plain' } })
  assert.is(r.status, 415)
  assert.is(r.body.error.code, 'VALIDATION_FAILED')
  r = await t.call('POST', '/api/checkPassenger', { raw: '<mobile/>', headers: { 'content-type': 'application/xml' } })
  assert.is(r.status, 415)
  assert.is(r.body.error.code, 'VALIDATION_FAILED')
  r = await t.call('POST', '/api/checkPassenger', { raw: '{bad json', headers: { 'content-type': 'application/json' } })
  assert.is(r.status, 400)
  assert.is(r.body.error.code, 'VALIDATION_FAILED')
  r = await t.call('POST', '/api/checkPassenger', {
    raw: JSON.stringify({ x: 'y'.repeat(100_000) }),
    headers: { 'content-type': 'application/json' },
  })
  assert.is(r.status, 413)
  r = await t.call('POST', '/api/checkPassenger', {
    raw: '{"__proto__":{"admin":true},"mobile":"01712345678","password":"x"}',
    headers: { 'content-type': 'application/json' },
  })
  assert.is(r.status, 400)
  r = await t.call('POST', '/api/checkPassenger', {
    raw: 'mobile=01712345678&password=x',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  assert.is(r.status, 415)
  r = await t.call('GET', '/api/getPassengerByMobile/%E0%A4%A')
  assert.is(r.status, 400)
  assert.is(r.body.error.code, 'VALIDATION_FAILED')
})

test('unexpected errors: 500 INTERNAL_ERROR without details', async () => {
  const app = await buildApp(t.deps, { logLevel: false, distDir: dist })
  app.get('/api/boom', async () => {
    throw new Error('secret database detail at /srv/x.ts:12')
  })
  await app.ready()
  const r = await app.inject({ method: 'GET', url: '/api/boom' })
  assert.is(r.statusCode, 500)
  assert.equal(r.json(), { error: { code: 'INTERNAL_ERROR', reason: 'Something went wrong. Please try again.' } })
  assert.not.ok(r.body.includes('secret'))
  await app.close()
})

test('global rate limit answers 429 TOO_MANY_REQUESTS', async () => {
  const app = await buildApp(t.deps, { logLevel: false, distDir: dist, rateLimitMax: 3 })
  await app.ready()
  const codes = []
  for (let i = 0; i < 4; i++) codes.push((await app.inject({ method: 'GET', url: '/api/company' })).statusCode)
  assert.equal(codes, [200, 200, 200, 429])
  const r = await app.inject({ method: 'GET', url: '/api/company' })
  assert.is(r.json().error.code, 'TOO_MANY_REQUESTS')
  await app.close()
})

test.run()
