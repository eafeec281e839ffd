/**
 * Going live as docs/operating.md describes it, end to end with real processes: the operator
 * imports a network into an empty database (`npm run import`), starts
 * `NODE_ENV=production` with every channel set (SMTP server, SSL Wireless with
 * BulkSMSBD as the fallback SMS provider, and SSLCommerz stand-ins on 127.0.0.1), and
 * a passenger signs up with the SMS code, books, and pays through SSLCommerz; the
 * ticket arrives by e-mail, and by SMS through BulkSMSBD after SSL Wireless answers
 * FAILED. None of the development stand-ins exist, and nothing secret reaches the
 * server's output. Then a start with a wrong SMTP password: warned about at once,
 * /readyz down until the SMTP server takes the login.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { leaksSecret, tempDir } from './helpers.ts'
import { spawnServer, type ServerProcess } from './proc.ts'
import { startSmtpReceiver, until, type SmtpReceiver } from './receivers.ts'
import { startBulkSmsBd, startSslWireless, type ProviderStandIn } from './sms-standins.ts'
import { bookSeat, call, freePort } from '../../harness/spawn-server.ts'
import { startStandIn, type StandIn } from './sslcommerz-standin.ts'
import { TEST_SIGNING_KEY } from './signing-key.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

const SSL_WIRELESS = { apiToken: '1279-98d2bb25-3f7e-49bf-a1e2-5d1a6c6c588f', sid: 'NODIEXPRESS' }
const BULKSMSBD = { apiKey: 'Bh6WCte0rmh9n0CCepCo', senderId: '8809617611111' }
let smtp: SmtpReceiver
let sms: ProviderStandIn
let fallback: ProviderStandIn
let ssl: StandIn
let server: ServerProcess | null = null

test.before(async () => {
  ;[smtp, sms, fallback, ssl] = await Promise.all([startSmtpReceiver(), startSslWireless(SSL_WIRELESS), startBulkSmsBd(BULKSMSBD), startStandIn()])
})
test.after(async () => {
  if (server) {
    server.kill('SIGTERM')
    await server.exited
  }
  await Promise.all([smtp.close(), sms.close(), fallback.close(), ssl.close()])
})

/** The production settings of a start against the stand-ins. */
function productionEnv(dataDir: string, base: string, port: number): Record<string, string> {
  return {
    NODE_ENV: 'production',
    TICKET_SIGNING_KEY: TEST_SIGNING_KEY,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'info',
    PUBLIC_URL: base,
    PAYMENT_PROVIDER: 'sslcommerz',
    SSLCOMMERZ_STORE_ID: ssl.storeId,
    SSLCOMMERZ_STORE_PASSWORD: ssl.storePassword,
    SSLCOMMERZ_API_URL: ssl.url,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Nodi Express <tickets@nodi.test>',
    SMS_PROVIDER: 'sslwireless',
    SSLWIRELESS_API_TOKEN: SSL_WIRELESS.apiToken,
    SSLWIRELESS_SID: SSL_WIRELESS.sid,
    SSLWIRELESS_API_URL: sms.url,
    SMS_FALLBACK_PROVIDER: 'bulksmsbd',
    BULKSMSBD_API_KEY: BULKSMSBD.apiKey,
    BULKSMSBD_SENDER_ID: BULKSMSBD.senderId,
    BULKSMSBD_API_URL: fallback.url,
  }
}

/** Runs `npm run import -- <file>`'s command against DATA_DIR; answers exit code and output. */
function importNetwork(dataDir: string, file: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/commands/import-network.ts', file], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d))
    child.stderr.on('data', (d: Buffer) => (out += d))
    child.on('exit', (code) => resolve({ code, out }))
  })
}

test('production with the real channels: imported network, SMS sign-up, SSLCommerz payment, ticket by e-mail and SMS', async () => {
  const dataDir = tempDir()
  const imported = await importNetwork(dataDir, 'data/demo-network.json')
  assert.is(imported.code, 0, imported.out)

  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  server = await spawnServer(productionEnv(dataDir, base, port))
  await server.ready

  // the development stand-ins do not exist, nor does the demo passenger
  assert.is((await call(base, 'GET', '/dev/outbox')).status, 404)
  assert.is((await call(base, 'GET', '/sandbox/gateway/pay_anything')).status, 404)
  assert.is((await call(base, 'POST', '/api/checkPassenger', { mobile: '01712345678', password: 'Demo@1234' })).status, 401)
  assert.is((await call(base, 'GET', '/readyz')).status, 200)

  // the imported network is served
  const cities = await call(base, 'GET', '/api/originCities')
  assert.ok(cities.body.data.some((c: { code: string }) => c.code === 'CTG'))

  // sign-up: the code arrives through SSL Wireless
  const mobile = '01955500011'
  const reg = await call(base, 'POST', '/api/register', {
    mobile,
    fullName: 'Live Passenger',
    email: 'live@example.com',
    city: 'Dhaka',
    password: 'Live@1234',
  })
  assert.is(reg.status, 200, JSON.stringify(reg.body))
  await sms.waitFor(1)
  assert.is(sms.requests[0]!.answered, 200)
  assert.is(sms.requests[0]!.fields.msisdn, '8801955500011')
  // the installation id (8 letters and digits) then the outbox id, within SSL Wireless's 20 characters
  assert.match(sms.requests[0]!.fields.csms_id ?? '', /^[A-Za-z0-9]{8}\d+$/)
  const code = /^(\d{6}) is your/.exec(sms.requests[0]!.fields.sms ?? '')?.[1]
  assert.ok(code, sms.requests[0]!.fields.sms)
  // from here on SSL Wireless answers FAILED (no more SMS for this SID): the fallback provider takes over
  sms.fail = () => 4002
  const session = await call(base, 'POST', '/api/verifyMobileVerificationCode', { mobile, code, registrationToken: reg.body.data.registrationToken })
  assert.is(session.status, 200, JSON.stringify(session.body))
  const token = session.body.data.token

  // search, hold a seat, book (in Bengali)
  const booking = await bookSeat(base, token, {
    passenger: { name: 'Live Passenger', mobile, email: 'live@example.com' },
    headers: { 'accept-language': 'bn' },
  })

  // pay through SSLCommerz: the browser goes to its page, pays, SSLCommerz sends the IPN
  const pay = await call(base, 'POST', '/api/reservation/payment', { reservationId: booking.id }, { token })
  assert.is(pay.status, 200, JSON.stringify(pay.body))
  assert.ok(pay.body.data.redirectUrl.startsWith(ssl.url), pay.body.data.redirectUrl)
  ssl.pay(pay.body.data.paymentId)
  assert.is(await ssl.sendIpn(pay.body.data.paymentId), 200)
  const result = await call(base, 'POST', '/api/reservation/success', { paymentId: pay.body.data.paymentId, resultToken: pay.body.data.resultToken })
  assert.is(result.body.data.status, 'APPROVED')
  const pnr: string = result.body.data.reservation.pnr
  const pin: string = result.body.data.reservation.pin
  assert.match(pnr, /^[A-Z0-9]{10}$/)

  // the ticket arrives: e-mail through SMTP (in Bengali, with the calendar file), and SMS through BulkSMSBD
  // once SSL Wireless has answered FAILED for it
  await smtp.waitFor(1, 30_000)
  const mail = smtp.mails[0]!
  assert.equal(mail.envelope.to, ['live@example.com'])
  assert.ok(mail.parsed.text?.includes(pnr))
  assert.ok(mail.parsed.attachments.some((a) => a.filename === `ticket-${pnr}.ics`))
  await until(() => fallback.accepted.some((r) => (r.fields.message ?? '').includes(pnr)), 'the ticket SMS through BulkSMSBD', 30_000)
  const refused = sms.requests.filter((r) => (r.fields.sms ?? '').includes(pnr))
  assert.equal(
    refused.map((r) => r.answered),
    [4002],
    'SSL Wireless had it once, and answered FAILED',
  )
  assert.is(fallback.requests.filter((r) => (r.fields.message ?? '').includes(pnr)).length, 1, 'BulkSMSBD had it once')
  assert.match(
    server.output(),
    /goes to bulksmsbd after 1 attempt\(s\) with sslwireless: SSL Wireless 4002: SID\/Stakeholder is not permitted \(configuration error\)/,
  )

  // nothing secret in the server's output, at LOG_LEVEL=info
  const out = server.output()
  for (const secret of [code!, pnr, pin, reg.body.data.registrationToken, token, ssl.storePassword, SSL_WIRELESS.apiToken, BULKSMSBD.apiKey]) {
    assert.not.ok(leaksSecret(out, secret), `a secret reached the server output: ${secret}`)
  }
})

test('production with a wrong SMTP password: a clear warning at start, /readyz down until the SMTP server takes the login', async () => {
  if (server) {
    server.kill('SIGTERM')
    await server.exited
    server = null
  }
  const guarded = await startSmtpReceiver({ auth: { user: 'tickets', pass: 'the-right-one' } })
  try {
    const dataDir = tempDir()
    assert.is((await importNetwork(dataDir, 'data/demo-network.json')).code, 0)
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    server = await spawnServer({ ...productionEnv(dataDir, base, port), SMTP_URL: `smtp://tickets:a-wrong-one@127.0.0.1:${guarded.port}` })
    await server.ready
    await until(() => server!.output().includes('[delivery] mail channel down: SMTP 535'), 'the warning')
    assert.match(server.output(), 'configuration error: the user or password in SMTP_URL is refused')
    assert.is((await call(base, 'GET', '/readyz')).status, 503)
    assert.is((await call(base, 'GET', '/healthz')).status, 200, 'alive, only not ready')
    // the operator fixes the account: the next check gets in, and the server is ready
    guarded.password = 'a-wrong-one'
    await until(async () => (await call(base, 'GET', '/readyz')).status === 200, '/readyz ready again', 30_000)
    assert.match(server.output(), '[delivery] mail channel up again')
    assert.not.match(server.output(), 'a-wrong-one')
  } finally {
    await guarded.close()
  }
})

test.run()
