/** Settings from the environment: what a production start refuses, and the defaults of development. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readConfig } from '../config.ts'
import { DEV_TICKET_SIGNING_KEY, publicKeyOf, readSigningKey, signingKey } from '../lib/ticket-signing.ts'
import { TEST_SIGNING_KEY } from './signing-key.ts'

const full = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://api.example.com',
  PAYMENT_PROVIDER: 'sslcommerz',
  SSLCOMMERZ_STORE_ID: 'store',
  SSLCOMMERZ_STORE_PASSWORD: 'secret',
  SSLCOMMERZ_API_URL: 'https://sandbox.sslcommerz.com',
  SMTP_URL: 'smtp://user:pass@mail.example.com:587',
  MAIL_FROM: 'Nodi Express <tickets@example.com>',
  SMS_API_URL: 'https://sms.example.com/send',
  SMS_API_TOKEN: 'token',
  TICKET_SIGNING_KEY: TEST_SIGNING_KEY,
}

test('production with nothing configured names every missing variable', () => {
  const { config, problems } = readConfig({ NODE_ENV: 'production' })
  assert.ok(config.production)
  const text = problems.join('\n')
  for (const k of [
    'PUBLIC_URL',
    'PAYMENT_PROVIDER',
    'SSLCOMMERZ_STORE_ID',
    'SSLCOMMERZ_STORE_PASSWORD',
    'SSLCOMMERZ_API_URL',
    'SMTP_URL',
    'MAIL_FROM',
    'SMS_API_URL',
    'SMS_API_TOKEN',
    'TICKET_SIGNING_KEY',
  ]) {
    assert.ok(text.includes(k), `${k} not named in:\n${text}`)
  }
})

test('production refuses the sandbox gateway, whatever else is set', () => {
  const { problems } = readConfig({ ...full, PAYMENT_PROVIDER: 'sandbox' })
  assert.equal(problems, ['PAYMENT_PROVIDER=sandbox is refused in production (set PAYMENT_PROVIDER=sslcommerz)'])
})

test('production with every channel configured starts', () => {
  const { config, problems } = readConfig(full)
  assert.equal(problems, [])
  assert.equal(config.payment, {
    provider: 'sslcommerz',
    storeId: 'store',
    storePassword: 'secret',
    apiUrl: 'https://sandbox.sslcommerz.com',
    timeoutMs: 15_000,
  })
  assert.equal(config.smtp, { url: full.SMTP_URL, from: full.MAIL_FROM })
  assert.equal(config.sms, { provider: 'http-json', url: full.SMS_API_URL, token: 'token', senderId: null })
  assert.is(config.smsFallback, null)
})

test('TICKET_SIGNING_KEY: production refuses none, a malformed one and the public development key; development runs on the development key', () => {
  assert.equal(readConfig({ ...full, TICKET_SIGNING_KEY: 'not a key' }).problems, [
    'TICKET_SIGNING_KEY is not an Ed25519 private key in PEM (make one with: openssl genpkey -algorithm ed25519)',
  ])
  assert.equal(readConfig({ ...full, TICKET_SIGNING_KEY: DEV_TICKET_SIGNING_KEY }).problems, [
    'TICKET_SIGNING_KEY is the development key, which is public; make one with: openssl genpkey -algorithm ed25519',
  ])
  // a key pasted into one line with \n, as some secret stores keep it
  assert.equal(readConfig({ ...full, TICKET_SIGNING_KEY: TEST_SIGNING_KEY.trim().replace(/\n/g, '\\n') }).problems, [])
  const dev = readConfig({}).config
  assert.is(dev.ticketSigningKey, undefined)
  assert.is(publicKeyOf(signingKey(dev)), publicKeyOf(readSigningKey(DEV_TICKET_SIGNING_KEY)!))
})

test("QUEUE_ADMIT_PER_MINUTE: a whole number or 'auto' (from seats free); anything else is refused", () => {
  assert.is(readConfig({ QUEUE_ADMIT_PER_MINUTE: 'auto' }).config.queueAdmitPerMinute, 'auto')
  assert.is(readConfig({ QUEUE_ADMIT_PER_MINUTE: '90' }).config.queueAdmitPerMinute, 90)
  assert.is(readConfig({}).config.queueAdmitPerMinute, 60)
  assert.equal(readConfig({ QUEUE_ADMIT_PER_MINUTE: 'fast' }).problems, ['QUEUE_ADMIT_PER_MINUTE must be a positive whole number'])
})

test('TICKET_CHANGE_CHARGE: 0 by default, whole taka up to 100000, anything else named', () => {
  assert.is(readConfig({}).config.ticketChangeCharge, 0)
  assert.is(readConfig({ TICKET_CHANGE_CHARGE: '0' }).config.ticketChangeCharge, 0)
  assert.is(readConfig({ TICKET_CHANGE_CHARGE: '150' }).config.ticketChangeCharge, 150)
  for (const bad of ['-5', '12.5', 'fifty', '100001']) {
    const { config, problems } = readConfig({ TICKET_CHANGE_CHARGE: bad })
    assert.is(config.ticketChangeCharge, 0)
    assert.equal(problems, [`TICKET_CHANGE_CHARGE must be a whole number of taka from 0 to 100000, not "${bad}"`])
  }
})

test('SMS_PROVIDER picks SSL Wireless or BulkSMSBD with their settings; SMS_API_URL alone still means the JSON relay', () => {
  const { SMS_API_URL: _u, SMS_API_TOKEN: _t, ...rest } = full
  const ssl = readConfig({ ...rest, SMS_PROVIDER: 'sslwireless', SSLWIRELESS_API_TOKEN: 'tok', SSLWIRELESS_SID: 'NODI' })
  assert.equal(ssl.problems, [])
  assert.equal(ssl.config.sms, { provider: 'sslwireless', apiToken: 'tok', sid: 'NODI', apiUrl: 'https://smsplus.sslwireless.com' })
  const both = readConfig({
    ...rest,
    SMS_PROVIDER: 'sslwireless',
    SSLWIRELESS_API_TOKEN: 'tok',
    SSLWIRELESS_SID: 'NODI',
    SSLWIRELESS_API_URL: 'http://127.0.0.1:9000/',
    SMS_FALLBACK_PROVIDER: 'bulksmsbd',
    BULKSMSBD_API_KEY: 'key',
    BULKSMSBD_SENDER_ID: '8809617611111',
  })
  assert.equal(both.problems, [])
  assert.is(both.config.sms?.provider === 'sslwireless' && both.config.sms.apiUrl, 'http://127.0.0.1:9000')
  assert.equal(both.config.smsFallback, {
    provider: 'bulksmsbd',
    apiKey: 'key',
    senderId: '8809617611111',
    apiUrl: 'https://bulksmsbd.net/api/smsapi',
  })
  assert.equal(readConfig({ ...rest, SMS_PROVIDER: 'sslwireless' }).problems, ['SSLWIRELESS_API_TOKEN is not set', 'SSLWIRELESS_SID is not set'])
  assert.equal(readConfig({ ...rest, SMS_PROVIDER: 'bulksmsbd', BULKSMSBD_API_KEY: 'k' }).problems, ['BULKSMSBD_SENDER_ID is not set'])
  assert.equal(readConfig({ ...rest, SMS_PROVIDER: 'twilio' }).problems, ['SMS_PROVIDER must be sslwireless, bulksmsbd, http-json, not "twilio"'])
  assert.equal(readConfig({ ...full, SMS_FALLBACK_PROVIDER: 'http-json' }).problems, [
    'SMS_FALLBACK_PROVIDER must be another provider than SMS_PROVIDER (http-json)',
  ])
  assert.equal(readConfig({ ...full, SMS_PROVIDER: 'http-json' }).config.sms, readConfig(full).config.sms)
})

test('production refuses an http PUBLIC_URL (callbacks and ticket links in clear text); http on this machine only is a test start', () => {
  assert.equal(readConfig({ ...full, PUBLIC_URL: 'http://tickets.example.com' }).problems, [
    'PUBLIC_URL must be https in production, not http://tickets.example.com',
  ])
  for (const local of ['http://127.0.0.1:8080', 'http://localhost:8080', 'http://[::1]:8080']) {
    assert.equal(readConfig({ ...full, PUBLIC_URL: local }).problems, [], local)
  }
  assert.equal(readConfig({ PUBLIC_URL: 'http://tickets.example.com' }).problems, [], 'development takes http')
})

test('production refuses a METRICS_TOKEN shorter than 32 characters; unset is no /metrics', () => {
  assert.equal(readConfig({ ...full, METRICS_TOKEN: 'letmein' }).problems, [
    'METRICS_TOKEN must be at least 32 characters in production (it has 7); e.g. openssl rand -hex 32',
  ])
  assert.equal(readConfig({ ...full, METRICS_TOKEN: 'x'.repeat(31) }).problems.length, 1)
  const long = readConfig({ ...full, METRICS_TOKEN: 'a'.repeat(32) })
  assert.equal(long.problems, [])
  assert.is(long.config.metricsToken, 'a'.repeat(32))
  assert.is(readConfig(full).config.metricsToken, null)
  assert.equal(readConfig({ METRICS_TOKEN: 'dev' }).problems, [], 'development takes any token')
})

test('SSLCOMMERZ_TIMEOUT_MS sets how long a gateway call may take; a malformed one is named', () => {
  const { config } = readConfig({ ...full, SSLCOMMERZ_TIMEOUT_MS: '4000' })
  assert.equal(config.payment, {
    provider: 'sslcommerz',
    storeId: 'store',
    storePassword: 'secret',
    apiUrl: 'https://sandbox.sslcommerz.com',
    timeoutMs: 4000,
  })
  assert.equal(readConfig({ ...full, SSLCOMMERZ_TIMEOUT_MS: 'soon' }).problems, ['SSLCOMMERZ_TIMEOUT_MS must be a positive whole number'])
})

test('development defaults: sandbox gateway, development outbox, hold limits 10 and 30', () => {
  const { config, problems } = readConfig({})
  assert.equal(problems, [])
  assert.is(config.production, false)
  assert.equal(config.payment, { provider: 'sandbox' })
  assert.is(config.smtp, null)
  assert.is(config.sms, null)
  assert.is(config.holdLimitPerAddress, 10)
  assert.is(config.holdLimitPerAddressTotal, 30)
  assert.is(config.publicUrl, 'http://localhost:8080')
})

test('UNPAID_SEATS_PER_PASSENGER: 10 unless set; a malformed one is named', () => {
  assert.is(readConfig({}).config.unpaidSeatsPerPassenger, 10)
  assert.is(readConfig({ UNPAID_SEATS_PER_PASSENGER: '4' }).config.unpaidSeatsPerPassenger, 4)
  assert.match(readConfig({ UNPAID_SEATS_PER_PASSENGER: '-1' }).problems.join('\n'), 'UNPAID_SEATS_PER_PASSENGER must be a positive whole number')
})

test('SEATS_PER_PASSENGER_PER_DATE: 4 unless set; a malformed one is named', () => {
  assert.is(readConfig({}).config.seatsPerPassengerPerDate, 4)
  assert.is(readConfig({ SEATS_PER_PASSENGER_PER_DATE: '6' }).config.seatsPerPassengerPerDate, 6)
  assert.match(readConfig({ SEATS_PER_PASSENGER_PER_DATE: '0' }).problems.join('\n'), 'SEATS_PER_PASSENGER_PER_DATE must be a positive whole number')
})

test('delivery settings: 8 attempts and a 120 s lease unless set; malformed values are named', () => {
  const { config } = readConfig({})
  assert.is(config.deliveryMaxAttempts, 8)
  assert.is(config.deliveryLeaseSeconds, 120)
  const set = readConfig({ DELIVERY_MAX_ATTEMPTS: '3', DELIVERY_LEASE_SECONDS: '30' })
  assert.equal([set.config.deliveryMaxAttempts, set.config.deliveryLeaseSeconds, set.problems], [3, 30, []])
  const bad = readConfig({ DELIVERY_MAX_ATTEMPTS: '0', DELIVERY_LEASE_SECONDS: 'soon' })
  assert.equal(bad.problems, ['DELIVERY_MAX_ATTEMPTS must be a positive whole number', 'DELIVERY_LEASE_SECONDS must be a positive whole number'])
})

test('live seat map: a heartbeat as slow as the app’s silence limit is refused by name (every quiet page would reconnect)', () => {
  assert.is(readConfig({}).config.seatStreamHeartbeatMs, 15_000)
  assert.equal(readConfig({ SEAT_STREAM_HEARTBEAT_SECONDS: '44' }).problems, [])
  assert.equal(readConfig({ SEAT_STREAM_HEARTBEAT_SECONDS: '45' }).problems, [
    'SEAT_STREAM_HEARTBEAT_SECONDS must be below 45 (the app takes a stream silent that long for dropped)',
  ])
})

test('malformed values are named', () => {
  const { problems } = readConfig({ HOLD_LIMIT_PER_ADDRESS: 'ten', SMTP_URL: 'http://x', SMS_API_URL: 'ftp://x' })
  const text = problems.join('\n')
  assert.match(text, 'HOLD_LIMIT_PER_ADDRESS must be a positive whole number')
  assert.match(text, 'SMTP_URL must look like')
  assert.match(text, 'MAIL_FROM is not set')
  assert.match(text, 'SMS_API_URL must be an http(s) URL')
  assert.match(text, 'SMS_API_TOKEN is not set')
})

test('SMS_SIGNUP_SHARE (percent, default 50) and IPV6_CLIENT_PREFIX (32 to 64, default 48): out of range is a problem', () => {
  const dev = readConfig({})
  assert.equal([dev.config.smsSignupShare, dev.config.ipv6ClientPrefix], [50, 48])
  const set = readConfig({ SMS_SIGNUP_SHARE: '30', IPV6_CLIENT_PREFIX: '56' })
  assert.equal([set.problems, set.config.smsSignupShare, set.config.ipv6ClientPrefix], [[], 30, 56])
  for (const [k, v] of [
    ['SMS_SIGNUP_SHARE', '0'],
    ['SMS_SIGNUP_SHARE', '101'],
    ['IPV6_CLIENT_PREFIX', '16'],
    ['IPV6_CLIENT_PREFIX', '128'],
    ['IPV6_CLIENT_PREFIX', 'x'],
  ]) {
    assert.match(readConfig({ [k!]: v }).problems.join('\n'), `${k} must be a whole number from`, `${k}=${v}`)
  }
})

test('the waitlist offer: 10 minutes unless set, in WAITLIST_OFFER_MINUTES or (tests) WAITLIST_OFFER_SECONDS, not both; out of range is named', () => {
  const offer = (env: Record<string, string>) => {
    const { config, problems } = readConfig(env)
    return [config.waitlistOfferSeconds, problems]
  }
  assert.equal(offer({}), [600, []])
  assert.equal(offer({ WAITLIST_OFFER_MINUTES: '2' }), [120, []])
  assert.equal(offer({ WAITLIST_OFFER_SECONDS: '15' }), [15, []])
  assert.equal(offer({ WAITLIST_OFFER_MINUTES: '2', WAITLIST_OFFER_SECONDS: '15' })[1], [
    'set WAITLIST_OFFER_SECONDS or WAITLIST_OFFER_MINUTES, not both',
  ])
  for (const [k, v] of [
    ['WAITLIST_OFFER_MINUTES', '0'],
    ['WAITLIST_OFFER_MINUTES', '1441'],
    ['WAITLIST_OFFER_SECONDS', '9'],
    ['WAITLIST_OFFER_SECONDS', '86401'],
    ['WAITLIST_OFFER_SECONDS', 'x'],
  ]) {
    assert.match(readConfig({ [k!]: v }).problems.join('\n'), `${k} must be a whole number from`, `${k}=${v}`)
  }
})

test.run()
