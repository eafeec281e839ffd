/**
 * What a passenger's code and the operator's counts need from SMS delivery, against the
 * providers' stand-ins (server/test/sms-standins.ts): message ids that no other database on
 * the same provider account uses, a "duplicate id" answer that is a failure and never a send,
 * codes that go to the second provider after the first failure (other messages keep their
 * patient retries), a provider that fails again and again routed around (the state in the
 * database, so a second worker agrees), BulkSMSBD's 1005 as a refusal, the counts in
 * /metrics, and the code SMS in the language the passenger asked in.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { issueOtp } from '../account/otp.ts'
import { bulkSmsBdTransport, sslWirelessTransport } from '../delivery/sms.ts'
import { consoleTransport, type Transports } from '../delivery/transport.ts'
import { startDeliveryWorker, type DeliveryWorker } from '../delivery/worker.ts'
import { freePort } from '../../harness/spawn-server.ts'
import { buyTicket, lastCode, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { until } from '../test/receivers.ts'
import { startBulkSmsBd, startSslWireless, type ProviderStandIn } from '../test/sms-standins.ts'

const t = suite('SMS ids, duplicates, failover and the circuit')
const SSL = { apiToken: '1279-98d2bb25-3f7e-49bf-a1e2-5d1a6c6c588f', sid: 'NODIEXPRESS' }
const BULK = { apiKey: 'Bh6WCte0rmh9n0CCepCo', senderId: '8809617611111' }
let ssl: ProviderStandIn
let bulk: ProviderStandIn
const sites: Site[] = []
const logged: string[] = []

type Row = { id: number; status: string; attempts: number; route: number; provider: string | null; last_error: string | null; next_attempt_at: Date }

type Provider = 'sslwireless' | 'bulksmsbd' | { deadPort: number }

function transportsFor(f: Fixture, first: Provider, fallback: Provider | null): Transports {
  const make = (p: Provider) =>
    p === 'bulksmsbd'
      ? bulkSmsBdTransport({ provider: p, ...BULK, apiUrl: bulk.url }, { timeoutMs: 5000 })
      : sslWirelessTransport(
          { provider: 'sslwireless', ...SSL, apiUrl: p === 'sslwireless' ? ssl.url : `http://127.0.0.1:${p.deadPort}` },
          { timeoutMs: 5000 },
        )
  return { EMAIL: consoleTransport(f.deps.config, () => undefined), SMS: make(first), smsFallback: fallback ? make(fallback) : null }
}

interface Site {
  f: Fixture
  worker: DeliveryWorker | null
  /** Stops this database's worker and starts a new one (as another process would) sending through `first` (and `fallback`). */
  use(first: Provider, fallback: Provider | null): Promise<void>
}

/** A fresh database (its own fixture), with no worker yet. */
async function site(): Promise<Site> {
  const f = await openFixture({ daysAhead: 3, config: { sms: null, smtp: null } })
  const s: Site = {
    f,
    worker: null,
    async use(first, fallback) {
      await s.worker?.stop()
      s.worker = startDeliveryWorker(f.deps, transportsFor(f, first, fallback), {
        pollMs: 50,
        maxAttempts: 8,
        sendTimeoutMs: 2000,
        log: (l) => logged.push(l),
      })
    },
  }
  sites.push(s)
  return s
}
let a: Site
let b: Site

const row = async (f: Fixture, id: number) => (await f.db.query<Row>('SELECT * FROM outbox_messages WHERE id = $1', [id]))[0]!
const newest = async (f: Fixture, to: string) =>
  (await f.db.query<Row>('SELECT * FROM outbox_messages WHERE "to" = $1 ORDER BY id DESC LIMIT 1', [to]))[0]!
const settled = (f: Fixture, id: number) => until(async () => ['SENT', 'FAILED'].includes((await row(f, id)).status), `message ${id} SENT or FAILED`)

async function sendCode(f: Fixture, mobile: string): Promise<number> {
  await f.db.transaction((tx) => issueOtp(tx, f.deps, { mobile, purpose: 'LOGIN', address: '127.0.0.1' }))
  return (await newest(f, mobile)).id
}

async function sendNotice(f: Fixture, mobile: string): Promise<number> {
  await f.deps.outbox.send({ channel: 'SMS', to: mobile, body: 'Your coach leaves at 08:30 from Kalabagan.' })
  return (await newest(f, mobile)).id
}

t.before(async () => {
  ;[ssl, bulk, a, b] = await Promise.all([startSslWireless(SSL), startBulkSmsBd(BULK), site(), site()])
})
t.after(async () => {
  for (const s of sites) {
    await s.worker?.stop()
    await s.f.close()
  }
  await Promise.all([ssl.close(), bulk.close()])
})
t.before.each(() => {
  ssl.fail = () => null
  bulk.fail = () => null
})

t("a fresh database's first code on an SSL Wireless account another database used is delivered, not swallowed", async () => {
  await a.use('sslwireless', null)
  const first = await sendCode(a.f, '01912340201')
  await settled(a.f, first)
  assert.is((await row(a.f, first)).status, 'SENT')

  await b.use('sslwireless', null)
  const second = await sendCode(b.f, '01912340202')
  await settled(b.f, second)
  const ids = ssl.requests.slice(-2).map((q) => q.fields.csms_id!)
  assert.is.not(ids[0], ids[1], 'the two databases use different csms_ids')
  for (const id of ids) assert.match(id, /^[A-Za-z0-9]{1,20}$/)
  assert.ok(
    ssl.accepted.some((q) => q.fields.msisdn === '8801912340202'),
    `the provider took the second database's code (answered ${ssl.requests.at(-1)!.answered})`,
  )
  assert.is((await row(b.f, second)).status, 'SENT')
})

t('a "duplicate id" answer is a failure to look into, never a send: FAILED with the reason, logged, counted', async () => {
  await a.use('sslwireless', null)
  ssl.fail = () => 4023
  const id = await sendNotice(a.f, '01712340203')
  await settled(a.f, id)
  const r = await row(a.f, id)
  assert.is(r.status, 'FAILED')
  assert.is(r.attempts, 1)
  assert.match(r.last_error!, /^SSL Wireless 4023: Duplicate CMS ID \(duplicate message id: not sent by this request\)$/)
  assert.ok(
    logged.some((l) => l.startsWith(`[delivery] duplicate id, look into it: message ${id} (SMS) FAILED`)),
    logged.join('\n'),
  )
  const metrics = await a.f.deps.metrics.registry.metrics()
  assert.match(metrics, 'delivery_failures_total{channel="SMS",provider="sslwireless",reason="duplicate"} 1')
})

t(
  'a code goes to the second provider at its first failure (an answer or no connection), within seconds; a notice keeps its patient retries',
  async () => {
    await b.use('sslwireless', 'bulksmsbd')
    const sslBefore = ssl.requests.length
    ssl.fail = () => 5000
    const code = await sendCode(b.f, '01612340204')
    // The clock does not move: nothing waits for a backoff.
    await settled(b.f, code)
    let r = await row(b.f, code)
    assert.is(r.status, 'SENT')
    assert.is(r.route, 1)
    assert.is(r.provider, 'bulksmsbd')
    assert.is(ssl.requests.length - sslBefore, 1, 'one try at SSL Wireless')
    const sentCode = await lastCode(b.f, '01612340204')
    assert.ok(bulk.accepted.some((q) => q.fields.number === '8801612340204' && q.fields.message!.includes(sentCode)))

    const notice = await sendNotice(b.f, '01612340205')
    await until(async () => (await row(b.f, notice)).last_error !== null, 'the notice refused once')
    r = await row(b.f, notice)
    assert.is(r.status, 'PENDING')
    assert.is(r.route, 0, 'a notice stays with the first provider')
    assert.is(r.next_attempt_at.getTime(), b.f.now().getTime() + 30_000)

    // No SSL Wireless listening: the connection refused is the first failure.
    await b.use({ deadPort: await freePort() }, 'bulksmsbd')
    const unreachable = await sendCode(b.f, '01612340206')
    await settled(b.f, unreachable)
    r = await row(b.f, unreachable)
    assert.is(r.status, 'SENT')
    assert.is(r.provider, 'bulksmsbd')
    const metrics = await b.f.deps.metrics.registry.metrics()
    assert.match(metrics, 'delivery_failovers_total{from="sslwireless",cause="first_failure"} 2')
    assert.match(metrics, 'delivery_sends_total{channel="SMS",provider="bulksmsbd"} 2')
    assert.match(metrics, 'delivery_failures_total{channel="SMS",provider="sslwireless",reason="temporary"} 3')
  },
)

t('a provider failing again and again is routed around for a while, by every worker on the database; then tried again', async () => {
  const c = await site()
  await c.use('sslwireless', 'bulksmsbd')
  ssl.fail = () => 4031
  for (let i = 0; i < 5; i++) {
    const id = await sendNotice(c.f, `0151234030${i}`)
    await until(async () => (await row(c.f, id)).last_error !== null, `notice ${i} refused`)
  }
  await until(
    () => logged.some((l) => l.startsWith('[delivery] sslwireless failed 5 times in a row: SMS go to bulksmsbd until')),
    'the circuit opened',
  )

  // Another worker (as another process would) reads the circuit from the database.
  await c.use('sslwireless', 'bulksmsbd')
  const sslBefore = ssl.requests.length
  const next = await sendNotice(c.f, '01512340310')
  await settled(c.f, next)
  let r = await row(c.f, next)
  assert.is(r.status, 'SENT')
  assert.is(r.provider, 'bulksmsbd')
  assert.is(ssl.requests.length, sslBefore, 'not tried at SSL Wireless while it is routed around')

  // Two minutes later SSL Wireless is tried again, and works.
  ssl.fail = () => null
  c.f.setNow(new Date(c.f.now().getTime() + 2 * 60_000 + 1000))
  const later = await sendNotice(c.f, '01512340311')
  await settled(c.f, later)
  r = await row(c.f, later)
  assert.is(r.provider, 'sslwireless')
  const metrics = await c.f.deps.metrics.registry.metrics()
  assert.match(metrics, /delivery_failovers_total\{from="sslwireless",cause="routed_around"\} \d+/)
})

t(
  'BulkSMSBD 1005 (documented as "Internal Error") is a refusal: the fallback provider gets the message at once; alone, it fails with the reason',
  async () => {
    await a.use('bulksmsbd', 'sslwireless')
    bulk.fail = () => 1005
    const id = await sendNotice(a.f, '01312340207')
    await settled(a.f, id)
    let r = await row(a.f, id)
    assert.is(r.status, 'SENT')
    assert.is(r.provider, 'sslwireless')

    await a.use('bulksmsbd', null)
    const other = await sendNotice(a.f, '01312340208')
    await settled(a.f, other)
    r = await row(a.f, other)
    assert.is(r.status, 'FAILED')
    assert.is(r.attempts, 1)
    assert.is(r.last_error, 'BulkSMSBD 1005: Internal Error')
  },
)

t('the code SMS is in the language the passenger asked in (Bengali: sign-in, sign-up, ticket cancellation), within two SMS parts', async () => {
  await a.use('sslwireless', null)
  const p = await a.f.passenger()
  const sent = await a.f.api('POST', '/api/sendOtp', { mobile: p.mobile, purpose: 'LOGIN' }, { headers: { 'accept-language': 'bn' } })
  assert.is(sent.status, 200, JSON.stringify(sent.body))
  const login = await newest(a.f, p.mobile)
  const [body] = await a.f.db.query<{ body: string; code: string }>('SELECT body, code FROM outbox_messages WHERE id = $1', [login.id])
  assert.ok(body!.body.includes(body!.code), 'the code is in the text')
  assert.match(body!.body, /[\u0980-\u09FF]/u)
  assert.match(body!.body, 'লগইন')
  // Bengali goes as UCS-2: a part holds 70 characters, 67 each when split.
  assert.ok(body!.body.length <= 134, `${body!.body.length} characters`)

  const reg = await a.f.api(
    'POST',
    '/api/register',
    { mobile: '01812340209', fullName: 'Karim Ahmed', email: 'karim@example.com', city: 'Sylhet', password: 'Secret@123' },
    { headers: { 'accept-language': 'bn-BD,bn;q=0.9' } },
  )
  assert.is(reg.status, 200, JSON.stringify(reg.body))
  const [signup] = await a.f.db.query<{ body: string }>('SELECT body FROM outbox_messages WHERE "to" = $1 ORDER BY id DESC LIMIT 1', ['01812340209'])
  assert.match(signup!.body, /[\u0980-\u09FF]/u)
  assert.ok(signup!.body.length <= 134, `${signup!.body.length} characters`)

  const buyer = await a.f.passenger({ balance: 20_000 })
  const sold = await buyTicket(a.f, buyer, await pickTrip(a.f, { minHours: 24 }), 1)
  const init = await a.f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`, undefined, { headers: { 'accept-language': 'bn' } })
  assert.is(init.status, 200, JSON.stringify(init.body))
  const [cancel] = await a.f.db.query<{ body: string }>(
    'SELECT body FROM outbox_messages WHERE "to" = $1 AND code IS NOT NULL ORDER BY id DESC LIMIT 1',
    [buyer.mobile],
  )
  assert.match(cancel!.body, 'টিকিট বাতিলের কোড')
  assert.ok(cancel!.body.length <= 134, `${cancel!.body.length} characters`)

  const en = await a.f.api('POST', '/api/sendOtp', { mobile: p.mobile, purpose: 'RESET_PASSWORD' })
  assert.is(en.status, 200)
  const [english] = await a.f.db.query<{ body: string }>('SELECT body FROM outbox_messages WHERE "to" = $1 ORDER BY id DESC LIMIT 1', [p.mobile])
  assert.match(english!.body, /^\d{6} is your Nodi Express password reset code\./)
  assert.ok(english!.body.length <= 160)
})

t.run()
