/**
 * Cross-cutting protections of the API, each tried the way an attacker or a careless
 * proxy would: bodies another site's form can send, caching of personal data, and
 * secrets in the logs.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Writable } from 'node:stream'
import { buildApp } from '../app.ts'
import { count, leaksSecret, startTestApp, type TestApp } from '../test/helpers.ts'

let t: TestApp
test.before(async () => {
  t = await startTestApp({ daysAhead: 2 })
})
test.after(async () => {
  await t.close()
})

const contact = { name: 'Sadia Islam', email: 'sadia@example.com', subject: 'Lost bag', message: 'I left a bag on coach 101.' }

test('cross-site form posts: urlencoded, multipart and text/plain bodies are refused with 415 on every API route; nothing is stored', async () => {
  const before = [await count(t.db, 'contact_messages'), await count(t.db, 'registrations'), await count(t.db, 'outbox_messages')]
  const form = new URLSearchParams(contact).toString()
  const bodies: [string, string][] = [
    ['application/x-www-form-urlencoded', form],
    ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nSadia\r\n--x--\r\n`],
    ['text/plain', JSON.stringify(contact)],
  ]
  for (const url of ['/api/reservation/contactUs', '/api/register', '/api/checkPassenger', '/api/reservation/seatLock']) {
    for (const [type, payload] of bodies) {
      const r = await t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': type } })
      assert.is(r.statusCode, 415, `${url} ${type}: ${r.body}`)
      assert.is(r.json().error.code, 'VALIDATION_FAILED')
    }
  }
  const after = [await count(t.db, 'contact_messages'), await count(t.db, 'registrations'), await count(t.db, 'outbox_messages')]
  assert.equal(after, before)
  // the same message as JSON is accepted
  const ok = await t.app.inject({ method: 'POST', url: '/api/reservation/contactUs', payload: contact })
  assert.is(ok.statusCode, 200, ok.body)
})

test('personal data is never cached: every API answer says Cache-Control: no-store', async () => {
  const s = await t.signUp('01912000001')
  const id = s.passenger.id
  const urls: [string, string, unknown?][] = [
    ['POST', '/api/checkPassenger', { mobile: '01912000001', password: 'Secret@123' }],
    ['GET', `/api/profile/${id}`],
    ['GET', `/api/account/${id}`],
    ['GET', '/api/reservations'],
    ['GET', '/api/reservation/details/ABCDEFGHJK/1234'],
    ['GET', '/api/reservation/details/999999'],
    ['GET', '/api/originCities'],
  ]
  for (const [method, url, body] of urls) {
    const r = await t.call(method, url, { token: s.token, ...(body ? { body } : {}) })
    assert.ok(r.status < 500, url)
    assert.is(r.headers['cache-control'], 'no-store', `${method} ${url}`)
  }
})

test('logs never hold PNRs, PINs, codes, registration tokens or mobile numbers, at any level', async () => {
  let log = ''
  const sink = new Writable({
    write(chunk, _enc, done) {
      log += chunk.toString()
      done()
    },
  })
  const app = await buildApp(t.deps, {
    logLevel: 'trace',
    logStream: sink,
    distDir: '/nonexistent',
    rateLimitMax: 1_000_000,
    authRateLimitMax: 1_000_000,
  })
  try {
    const secrets = { pnr: 'QQZXWVYTUP', pin: '8642', otp: '975310', token: 'RegTok_very-secret-value_0123456789abcdefghij', mobile: '01987654321' }
    const urls = [
      `/api/reservation/details/${secrets.pnr}/${secrets.pin}`,
      `/api/reservation/cancelInitialize/${secrets.pnr}/${secrets.pin}`,
      `/api/reservation/cancel/${secrets.pnr}/${secrets.pin}/${secrets.otp}`,
      `/api/reservation/resendReservationEmail/${secrets.pnr}/${secrets.pin}`,
      `/api/resendMobileVerificationCode/${secrets.token}`,
      `/api/getPassengerByMobile/${secrets.mobile}`,
      `/api/reservation/details/${secrets.pnr}/${secrets.pin}?pin=${secrets.pin}`,
    ]
    for (const url of urls) await app.inject({ method: 'GET', url })
    await app.inject({
      method: 'POST',
      url: '/api/verifyMobileVerificationCode',
      payload: { mobile: secrets.mobile, code: secrets.otp, registrationToken: secrets.token },
    })
    assert.ok(log.includes('/api/reservation/details/[redacted]/[redacted]'), 'requests are still logged')
    // Timestamps and response times are digits too: a 4-digit PIN turns up in them by chance (leaksSecret).
    for (const [name, value] of Object.entries(secrets)) assert.not.ok(leaksSecret(log, value), `${name} in the log`)
    assert.not.ok(log.includes(`/${secrets.pin}`), 'PIN in a logged path')
  } finally {
    await app.close()
  }
})

test('/healthz and /readyz: alive, ready when the database answers, every migration is applied and each check passes; never says why', async () => {
  const health = await t.call('GET', '/healthz')
  assert.is(health.status, 200)
  assert.equal(health.body, { status: 'ok' })
  const ready = await t.call('GET', '/readyz')
  assert.is(ready.status, 200)
  assert.equal(ready.body, { status: 'ready' })
  // a migration missing
  const [last] = await t.db.query<{ version: string; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1')
  await t.db.query('DELETE FROM schema_migrations WHERE version = $1', [last!.version])
  try {
    const r = await t.call('GET', '/readyz')
    assert.is(r.status, 503)
    assert.equal(r.body, { status: 'not ready' })
  } finally {
    await t.db.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [last!.version, last!.name])
  }
  // a worker that stopped
  let running = false
  const app = await buildApp(t.deps, { logLevel: false, distDir: '/nonexistent', readiness: { 'delivery worker': () => running } })
  try {
    assert.is((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 503)
    running = true
    assert.is((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200)
  } finally {
    await app.close()
  }
  // no metrics without a token configured
  assert.is((await t.call('GET', '/metrics')).status, 404)
})

test('/metrics behind METRICS_TOKEN: latency by route template, seat-lock outcomes, lockouts, payments; no secrets', async () => {
  const m = await startTestApp({ daysAhead: 3, config: { metricsToken: 'metrics-secret-token' } })
  try {
    assert.is((await m.call('GET', '/metrics')).status, 401)
    assert.is((await m.call('GET', '/metrics', { headers: { authorization: 'Bearer wrong-token-of-same-len' } })).status, 401)
    // picked by what the test needs, not by the hour: a trip a day or more ahead whose coach has a seat A1 (the
    // double-deck sleeper's berths are named otherwise) that no demo sale, booking or hold has taken
    const [trip] = await m.db.query<{ trip_date: string; coach_code: string; origin_code: string; destination_code: string }>(
      `SELECT t.trip_date::text AS trip_date, t.coach_code, r.origin_code, r.destination_code FROM trips t JOIN routes r ON r.id = t.route_id
        WHERE t.status = 'OPEN' AND t.departure_at > $1::timestamptz + interval '1 day'
          AND EXISTS (SELECT 1 FROM layout_seats s WHERE s.layout_id = t.layout_id AND s.name = 'A1')
          AND NOT EXISTS (SELECT 1 FROM reservation_seats rs WHERE rs.trip_id = t.id AND rs.seat_name = 'A1' AND rs.active)
          AND NOT EXISTS (SELECT 1 FROM seat_locks k WHERE k.trip_id = t.id AND k.seat_name = 'A1' AND k.expires_at > $1)
        ORDER BY t.id LIMIT 1`,
      [m.clock.now()],
    )
    assert.ok(trip, 'a trip with a free seat A1')
    const lock = {
      tripDate: trip!.trip_date,
      coachCode: trip!.coach_code,
      originCode: trip!.origin_code,
      destinationCode: trip!.destination_code,
      seatNames: ['A1'],
      locked: true,
    }
    await m.call('POST', '/api/reservation/seatLock', { body: lock, headers: { 'x-device-id': 'metrics-device-1' } })
    await m.call('POST', '/api/reservation/seatLock', { body: lock, headers: { 'x-device-id': 'metrics-device-2' } })
    for (let i = 0; i < 11; i++) await m.call('GET', `/api/reservation/details/ZZZZZZZZZZ/${String(1000 + i)}`)
    const r = await m.call('GET', '/metrics', { headers: { authorization: 'Bearer metrics-secret-token' } })
    assert.is(r.status, 200)
    assert.match(r.text, 'http_request_duration_seconds_bucket{le="0.005",method="POST",route="/api/reservation/seatLock",status="200"}')
    assert.match(r.text, 'route="/api/reservation/details/:pnr/:pin"')
    assert.match(r.text, 'seat_lock_requests_total{outcome="won"} 1')
    assert.match(r.text, 'seat_lock_requests_total{outcome="lost"} 1')
    assert.match(r.text, 'limit_refusals_total{bucket="pnr-pin"} 1')
    assert.match(r.text, /payments_refunded \d+/)
    assert.match(r.text, /outbox_oldest_pending_seconds \d/)
    assert.match(r.text, '# TYPE outbox_messages gauge')
    assert.match(r.text, 'process_cpu_seconds_total')
    assert.not.match(r.text, 'ZZZZZZZZZZ')
    assert.is(r.headers['cache-control'], 'no-store')
  } finally {
    await m.close()
  }
})

test.run()
