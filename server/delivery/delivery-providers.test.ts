/**
 * SMS through the providers an operator signs with, against stand-ins that accept
 * only each provider's documented request (server/test/sms-standins.ts): SSL Wireless
 * SMS Plus v3 (JSON, csms_id = the installation id and the outbox id, FAILED bodies
 * inside HTTP 200) and BulkSMSBD (form fields, response codes). Bengali and long texts
 * arrive whole; a FAILED body is a failure (temporary codes retried, the others failed
 * for good, the operator's settings logged as a configuration error); a resend the
 * provider already has is a duplicate to look into, never a send; and with a fallback
 * provider, what the first refuses or cannot take goes through the second, once.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { issueOtp } from '../account/otp.ts'
import { installationId } from '../delivery/installation.ts'
import { BULKSMSBD_CODES, bulkSmsBdTransport, SSL_WIRELESS_CODES, sslWirelessTransport } from '../delivery/sms.ts'
import { consoleTransport, type Transports } from '../delivery/transport.ts'
import { startDeliveryWorker, type DeliveryWorker } from '../delivery/worker.ts'
import { lastCode, openFixture, type Fixture } from '../test/booking-fixture.ts'
import { until } from '../test/receivers.ts'
import { startBulkSmsBd, startSslWireless, type ProviderStandIn } from '../test/sms-standins.ts'

const t = suite('delivery through SSL Wireless and BulkSMSBD')
const SSL = { apiToken: '1279-98d2bb25-3f7e-49bf-a1e2-5d1a6c6c588f', sid: 'NODIEXPRESS' }
const BULK = { apiKey: 'Bh6WCte0rmh9n0CCepCo', senderId: '8809617611111' }
let f: Fixture
let ssl: ProviderStandIn
let bulk: ProviderStandIn
let worker: DeliveryWorker | null = null
const logged: string[] = []

interface Row {
  id: number
  status: string
  attempts: number
  route: number
  provider: string | null
  body: string
  provider_message_id: string | null
  last_error: string | null
}
const row = async (id: number) => (await f.db.query<Row>('SELECT * FROM outbox_messages WHERE id = $1', [id]))[0]!
const later = (ms: number) => f.setNow(new Date(f.now().getTime() + ms))
const settled = (id: number) => until(async () => ['SENT', 'FAILED'].includes((await row(id)).status), `message ${id} SENT or FAILED`)

async function enqueue(to: string, body = 'Your coach leaves at 08:30 from Kalabagan.'): Promise<number> {
  await f.deps.outbox.send({ channel: 'SMS', to, body })
  return (await f.db.query<{ id: number }>('SELECT max(id)::int AS id FROM outbox_messages'))[0]!.id
}

/** Runs the worker with SSL Wireless first (or BulkSMSBD when `first` says so) and the fallback given. */
async function use(first: 'sslwireless' | 'bulksmsbd', fallback: 'sslwireless' | 'bulksmsbd' | null, maxAttempts = 3): Promise<void> {
  await worker?.stop()
  const make = (p: 'sslwireless' | 'bulksmsbd') =>
    p === 'sslwireless'
      ? sslWirelessTransport({ provider: p, ...SSL, apiUrl: ssl.url }, { timeoutMs: 5000 })
      : bulkSmsBdTransport({ provider: p, ...BULK, apiUrl: bulk.url }, { timeoutMs: 5000 })
  const transports: Transports = {
    EMAIL: consoleTransport(f.deps.config, () => undefined),
    SMS: make(first),
    smsFallback: fallback ? make(fallback) : null,
  }
  worker = startDeliveryWorker(f.deps, transports, { pollMs: 50, maxAttempts, sendTimeoutMs: 1500, log: (l) => logged.push(l) })
}

t.before(async () => {
  ;[ssl, bulk] = await Promise.all([startSslWireless(SSL), startBulkSmsBd(BULK)])
  f = await openFixture({ config: { sms: null, smtp: null } })
})
t.after(async () => {
  await worker?.stop()
  await f.close()
  await Promise.all([ssl.close(), bulk.close()])
})
t.before.each(() => {
  ssl.fail = () => null
  bulk.fail = () => null
})

t('SSL Wireless: a sign-up code goes as the documented JSON, installation + outbox id as csms_id; SUCCESS records its reference_id', async () => {
  await use('sslwireless', null)
  const before = ssl.requests.length
  await f.db.transaction((tx) => issueOtp(tx, f.deps, { mobile: '01912340101', purpose: 'SIGNUP', address: '127.0.0.1' }))
  const code = await lastCode(f, '01912340101')
  await ssl.waitFor(before + 1)
  const req = ssl.requests[before]!
  const id = (await f.db.query<{ id: number }>('SELECT id FROM outbox_messages WHERE "to" = $1', ['01912340101']))[0]!.id
  assert.is(req.path, '/api/v3/send-sms')
  assert.match(req.contentType, 'application/json')
  assert.equal(Object.keys(req.fields).sort(), ['api_token', 'csms_id', 'msisdn', 'sid', 'sms'])
  assert.equal(
    { api_token: req.fields.api_token, sid: req.fields.sid, msisdn: req.fields.msisdn, csms_id: req.fields.csms_id },
    { api_token: SSL.apiToken, sid: SSL.sid, msisdn: '8801912340101', csms_id: `${await installationId(f.db)}${id}` },
  )
  assert.ok(req.fields.sms!.includes(code), 'the code is in the SMS')
  await settled(id)
  const r = await row(id)
  assert.is(r.status, 'SENT')
  assert.is(r.attempts, 1)
  assert.is(r.provider, 'sslwireless')
  assert.match(r.provider_message_id ?? '', /^5da2f0b5ba\d+$/)
})

t('SSL Wireless: Bengali and long texts arrive whole; one over the documented 1,000 characters is refused (4027) for good', async () => {
  await use('sslwireless', null)
  const bengali = 'আপনার টিকিট নিশ্চিত হয়েছে। পিএনআর ABC123, পিন ৪৫৬৭। ঢাকা থেকে চট্টগ্রাম, কোচ ১২, আসন A1, A2। '.repeat(4).trim()
  assert.ok([...bengali].length > 300, 'several SMS parts long')
  const id = await enqueue('01812340102', bengali)
  await settled(id)
  assert.is((await row(id)).status, 'SENT')
  assert.is(ssl.accepted.at(-1)!.fields.sms, bengali)

  const tooLong = await enqueue('01812340103', 'x'.repeat(1001))
  await settled(tooLong)
  const r = await row(tooLong)
  assert.is(r.status, 'FAILED')
  assert.is(r.attempts, 1)
  assert.is(r.last_error, 'SSL Wireless 4027: Message length exceeded')
})

t(
  'SSL Wireless: a FAILED body inside HTTP 200 is a failure: IP Blacklisted fails at once as a configuration error, with the reason in the row and the log',
  async () => {
    await use('sslwireless', null)
    ssl.fail = () => 4003
    const id = await enqueue('01712340104')
    await settled(id)
    const r = await row(id)
    assert.is(r.status, 'FAILED')
    assert.is(r.attempts, 1)
    assert.is(r.last_error, 'SSL Wireless 4003: IP Blacklisted (configuration error)')
    assert.ok(
      logged.includes(
        `[delivery] configuration error: message ${id} (SMS) FAILED after 1 attempt(s): SSL Wireless 4003: IP Blacklisted (configuration error)`,
      ),
      logged.join('\n'),
    )
  },
)

t('SSL Wireless: temporary codes (too many requests, TPS, unknown error) are retried; a resend it already has (4023) fails', async () => {
  await use('sslwireless', null, 4)
  const before = ssl.requests.length
  ssl.fail = (_r, n) => (n === before + 1 ? 4029 : n === before + 2 ? 'hang' : null)
  const id = await enqueue('01712340105')
  await until(async () => (await row(id)).last_error !== null, 'the 4029 recorded')
  let r = await row(id)
  assert.is(r.status, 'PENDING')
  assert.is(r.last_error, 'SSL Wireless 4029: Too many requests')
  // The second send reaches the provider, which takes it but never answers: retried after the time-out.
  later(30_000)
  worker!.nudge()
  await until(async () => (await row(id)).attempts === 2 && (await row(id)).status === 'PENDING', 'the unanswered send retried later', 10_000)
  later(60_000)
  worker!.nudge()
  await settled(id)
  r = await row(id)
  assert.is(r.status, 'FAILED', 'the provider answers "Duplicate CMS ID": this request sent nothing')
  assert.is(r.last_error, 'SSL Wireless 4023: Duplicate CMS ID (duplicate message id: not sent by this request)')
  assert.is(r.attempts, 3)
  const csms = `${await installationId(f.db)}${id}`
  assert.equal(
    ssl.requests.slice(before).map((q) => q.fields.csms_id),
    [csms, csms, csms],
  )
  assert.equal(
    ssl.requests.slice(before).map((q) => q.answered),
    [4029, 'hang', 4023],
  )
  assert.is(ssl.accepted.filter((q) => q.fields.csms_id === csms).length, 1, 'the provider has it once')
})

t('SSL Wireless codes: each documented code is classified', () => {
  const temporary = Object.entries(SSL_WIRELESS_CODES)
    .filter(([, [o]]) => o === 'temporary')
    .map(([c]) => Number(c))
  assert.equal(temporary, [4029, 4031, 5000])
  const config = Object.entries(SSL_WIRELESS_CODES)
    .filter(([, [o]]) => o === 'config')
    .map(([c]) => Number(c))
  assert.equal(config, [4001, 4002, 4003, 4004, 4022])
})

t(
  'BulkSMSBD: the documented form fields (Bengali as UTF-8 with type=text); 202 is sent with its message_id; no balance or an internal error fails for good',
  async () => {
    await use('bulksmsbd', null)
    const text = 'Nodi Express টিকিট: পিএনআর ABC123, পিন ৪৫৬৭। ঢাকা থেকে সিলেট।'
    const id = await enqueue('01612340106', text)
    await settled(id)
    const req = bulk.requests.at(-1)!
    assert.is(req.path, '/api/smsapi')
    assert.match(req.contentType, 'application/x-www-form-urlencoded')
    assert.equal(req.fields, { api_key: BULK.apiKey, type: 'text', number: '8801612340106', senderid: BULK.senderId, message: text })
    let r = await row(id)
    assert.is(r.status, 'SENT')
    assert.is(r.provider, 'bulksmsbd')
    assert.match(r.provider_message_id ?? '', /^\d+$/)

    bulk.fail = () => 1007
    const broke = await enqueue('01612340107')
    await settled(broke)
    r = await row(broke)
    assert.is(r.status, 'FAILED')
    assert.is(r.attempts, 1)
    assert.is(r.last_error, 'BulkSMSBD 1007: Balance Insufficient')

    bulk.fail = () => 1005
    const busy = await enqueue('01612340108')
    await settled(busy)
    assert.is((await row(busy)).status, 'FAILED')
    assert.is((await row(busy)).last_error, 'BulkSMSBD 1005: Internal Error')

    bulk.fail = () => 1032
    const ip = await enqueue('01612340109')
    await settled(ip)
    assert.is((await row(ip)).last_error, 'BulkSMSBD 1032: IP Not whitelisted (configuration error)')
    assert.equal(
      Object.entries(BULKSMSBD_CODES)
        .filter(([, [o]]) => o === 'temporary')
        .map(([c]) => Number(c)),
      [],
    )
  },
)

t(
  'fallback: what SSL Wireless refuses (FAILED body) or cannot take after its retries goes through BulkSMSBD, once each; what it takes never does',
  async () => {
    await use('sslwireless', 'bulksmsbd', 2)
    const sslBefore = ssl.requests.length
    const bulkBefore = bulk.requests.length
    ssl.fail = (r) => (r.fields.msisdn === '8801512340110' ? 4026 : r.fields.msisdn === '8801512340111' ? 5000 : null)
    const refused = await enqueue('01512340110')
    const unavailable = await enqueue('01512340111')
    const taken = await enqueue('01512340112')

    await settled(refused)
    let r = await row(refused)
    assert.is(r.status, 'SENT')
    assert.is(r.route, 1)
    assert.is(r.provider, 'bulksmsbd')
    assert.is(r.attempts, 1)
    assert.ok(
      logged.some((l) =>
        l.startsWith(`[delivery] message ${refused} (SMS) goes to bulksmsbd after 1 attempt(s) with sslwireless: SSL Wireless 4026: Blocked MSISDN`),
      ),
      logged.join('\n'),
    )

    await until(async () => (await row(unavailable)).last_error !== null, 'the first 5000')
    assert.is((await row(unavailable)).route, 0)
    later(30_000)
    worker!.nudge()
    await settled(unavailable)
    r = await row(unavailable)
    assert.is(r.status, 'SENT')
    assert.is(r.route, 1)

    await settled(taken)
    assert.is((await row(taken)).provider, 'sslwireless')

    const sslTo = ssl.requests.slice(sslBefore).map((q) => q.fields.msisdn)
    const bulkTo = bulk.requests.slice(bulkBefore).map((q) => q.fields.number)
    assert.equal(sslTo.filter((n) => n === '8801512340110').length, 1, 'refused: one request to SSL Wireless')
    assert.equal(sslTo.filter((n) => n === '8801512340111').length, 2, 'unavailable: its two attempts at SSL Wireless')
    assert.equal(bulkTo.sort(), ['8801512340110', '8801512340111'], 'each handed to BulkSMSBD once; the taken one never')
  },
)

t('fallback: refused by both, the message fails for good with both reasons', async () => {
  await use('sslwireless', 'bulksmsbd', 2)
  ssl.fail = () => 4025
  bulk.fail = () => 1001
  const id = await enqueue('01312340113')
  await settled(id)
  const r = await row(id)
  assert.is(r.status, 'FAILED')
  assert.is(r.last_error, 'sslwireless: SSL Wireless 4025: Invalid MSISDN; bulksmsbd: BulkSMSBD 1001: Invalid Number')
  assert.ok(logged.some((l) => l === `[delivery] message ${id} (SMS) FAILED after 1 attempt(s): BulkSMSBD 1001: Invalid Number`))
})

t.run()
