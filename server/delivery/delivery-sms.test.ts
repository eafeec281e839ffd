/**
 * SMS through the HTTP provider adapter against a local receiver started here:
 * the request it gets (JSON `{ to, text, sender }`, Bearer token, idempotency key,
 * 8801XXXXXXXXX), 2xx accepted with the provider id recorded, 503 and 429 retried
 * after the backoff (the clock is moved), 400 failed at once, the attempt limit,
 * time-outs and refused connections, and one-time codes kept out of storage.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { smsTransport, toSmsNumber } from '../delivery/sms.ts'
import { consoleTransport, DeliveryError } from '../delivery/transport.ts'
import { createTransports } from '../delivery/transports.ts'
import { startDeliveryWorker, type DeliveryWorker } from '../delivery/worker.ts'
import { issueOtp } from '../account/otp.ts'
import { installationId } from '../delivery/installation.ts'
import { REDACTED_CODE } from '../delivery/outbox.ts'
import { buyTicketWith, lastCode, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { startTestApp } from '../test/helpers.ts'
import { startSmsReceiver, startSmtpReceiver, until, type SmsReceiver } from '../test/receivers.ts'
import { freePort } from '../../harness/spawn-server.ts'
import { smsParts } from './sms-parts.ts'

const t = suite('delivery by the SMS provider')
const TOKEN = 'tok-3f9a'
let f: Fixture
let sms: SmsReceiver
let worker: DeliveryWorker
const logged: string[] = []
const accept = (_r: unknown, n: number) => ({ status: 200, body: { id: `sms-${n}` } })

interface Row {
  id: number
  status: string
  attempts: number
  body: string
  code: string | null
  provider_message_id: string | null
  last_error: string | null
  next_attempt_at: Date
}
const row = async (id: number) => (await f.db.query<Row>('SELECT * FROM outbox_messages WHERE id = $1', [id]))[0]!
const newest = async (to: string) => (await f.db.query<Row>('SELECT * FROM outbox_messages WHERE "to" = $1 ORDER BY id DESC LIMIT 1', [to]))[0]!
const later = (ms: number) => f.setNow(new Date(f.now().getTime() + ms))
/**
 * Waits for a whole pass of the worker that starts after this call: an e-mail stored now is
 * claimed (passes claim due messages by id, so a due message stored before it is claimed in
 * the same pass or an earlier one). What the worker did not send by then, it was not going to.
 */
async function nextPass(): Promise<void> {
  await f.deps.outbox.send({ channel: 'EMAIL', to: 'probe@example.com', subject: 'probe', body: 'A pass of the worker.' })
  const [probe] = await f.db.query<{ id: number }>('SELECT id FROM outbox_messages WHERE "to" = $1 ORDER BY id DESC LIMIT 1', ['probe@example.com'])
  worker.nudge()
  await until(async () => ['SENT', 'FAILED'].includes((await row(probe!.id)).status), 'a pass of the worker (the probe e-mail done)')
}

async function enqueue(to: string, body = 'Your coach leaves at 08:30 from Kalabagan.'): Promise<number> {
  await f.deps.outbox.send({ channel: 'SMS', to, body })
  return (await newest(to)).id
}

t.before(async () => {
  sms = await startSmsReceiver()
  f = await openFixture({ config: { sms: { provider: 'http-json', url: sms.url, token: TOKEN, senderId: 'NodiEx' }, smtp: null } })
  worker = startDeliveryWorker(f.deps, createTransports(f.deps.config, { timeoutMs: 5000, log: () => undefined }), {
    pollMs: 50,
    maxAttempts: 4,
    // long enough for a first send on a loaded machine (1.5 s abandoned it before it reached the provider, and the
    // retry waited for the frozen clock)
    sendTimeoutMs: 5000,
    log: (l) => logged.push(l),
  })
})
t.after(async () => {
  await worker.stop()
  await f.close()
  await sms.close()
})
t.before.each(() => {
  sms.answer = accept
})

t('a one-time code goes to the provider as JSON with the Bearer token; 2xx is accepted, its id recorded, the code masked in storage', async () => {
  const before = sms.requests.length
  await f.db.transaction((tx) => issueOtp(tx, f.deps, { mobile: '01912340001', purpose: 'LOGIN', address: '127.0.0.1' }))
  const code = await lastCode(f, '01912340001')
  await sms.waitFor(before + 1)
  const req = sms.requests[before]!
  const id = (await newest('01912340001')).id
  assert.is(req.method, 'POST')
  assert.is(req.headers.authorization, `Bearer ${TOKEN}`)
  assert.match(String(req.headers['content-type']), 'application/json')
  assert.is(req.headers['idempotency-key'], `outbox-${await installationId(f.db)}-${id}`)
  assert.equal(Object.keys(req.body).sort(), ['sender', 'text', 'to'])
  assert.is(req.body.to, '8801912340001')
  assert.is(req.body.sender, 'NodiEx')
  assert.ok(req.body.text!.startsWith(`${code} is your Nodi Express login code.`))
  await until(async () => (await row(id)).status === 'SENT', 'SENT')
  const r = await row(id)
  assert.is(r.provider_message_id, `sms-${before + 1}`)
  assert.is(r.attempts, 1)
  assert.is(r.last_error, null)
  assert.not.ok(r.body.includes(code), 'the sent body no longer holds the code')
  assert.ok(r.body.startsWith(`${REDACTED_CODE} is your Nodi Express login code.`))
  assert.is(r.code, code, 'development keeps the code column for /dev/outbox')
  const listed = await f.api('GET', '/dev/outbox?to=01912340001')
  assert.is(listed.body.data[0].status, 'SENT')
  assert.is(listed.body.data[0].code, code)
  assert.not.ok(
    logged.some((l) => l.includes(code)),
    'no code in the worker log',
  )
})

t('503 then 200: retried once the backoff has passed on the clock, delivered once with the same idempotency key', async () => {
  const before = sms.requests.length
  sms.answer = (_r, n) => (n === before + 1 ? { status: 503, body: { error: 'maintenance' } } : { status: 200, body: { messageId: 'm-503' } })
  const id = await enqueue('01912340002')
  await until(async () => (await row(id)).last_error !== null, 'the 503 recorded')
  let r = await row(id)
  assert.is(r.status, 'PENDING')
  assert.is(r.attempts, 1)
  assert.is(r.last_error, 'SMS provider answered HTTP 503: maintenance')
  assert.is(r.next_attempt_at.getTime(), f.now().getTime() + 30_000)
  worker.nudge()
  later(29_000)
  await nextPass()
  assert.is(sms.requests.length, before + 1, 'not retried before the backoff')
  later(1_000)
  worker.nudge()
  await until(async () => (await row(id)).status === 'SENT', 'SENT on the retry')
  r = await row(id)
  assert.is(r.attempts, 2)
  assert.is(r.provider_message_id, 'm-503')
  assert.is(r.last_error, null)
  assert.is(sms.requests.length, before + 2)
  assert.equal(
    sms.requests.slice(before).map((q) => q.headers['idempotency-key']),
    [`outbox-${await installationId(f.db)}-${id}`, `outbox-${await installationId(f.db)}-${id}`],
  )
  assert.ok(
    logged.some((l) => l === `[delivery] message ${id} (SMS) attempt 1 not accepted, retry in 30 s: SMS provider answered HTTP 503: maintenance`),
  )
})

t('429 is retried, no sooner than the Retry-After the provider asked for; the backoff doubles', async () => {
  const before = sms.requests.length
  sms.answer = (_r, n) => {
    if (n === before + 1) return { status: 429, headers: { 'retry-after': '120' } }
    if (n === before + 2) return { status: 429 }
    return { status: 202, body: { message_id: 'q-429' } }
  }
  const id = await enqueue('01912340003')
  await until(async () => (await row(id)).last_error !== null, 'the first 429')
  assert.is((await row(id)).next_attempt_at.getTime(), f.now().getTime() + 120_000)
  later(119_000)
  worker.nudge()
  await nextPass()
  assert.is(sms.requests.length, before + 1)
  later(1_000)
  worker.nudge()
  await until(async () => (await row(id)).attempts === 2 && (await row(id)).status === 'PENDING', 'the second 429')
  assert.is((await row(id)).next_attempt_at.getTime(), f.now().getTime() + 60_000, 'second wait: twice the first backoff')
  later(60_000)
  worker.nudge()
  await until(async () => (await row(id)).status === 'SENT', 'SENT')
  assert.is((await row(id)).provider_message_id, 'q-429')
  assert.is(sms.requests.length, before + 3)
})

t('400 fails the message at once with the reason (digits masked) and never retries it', async () => {
  const before = sms.requests.length
  sms.answer = () => ({ status: 400, body: { error: { message: 'invalid recipient 8801912340004' } } })
  const id = await enqueue('01912340004')
  await until(async () => (await row(id)).status === 'FAILED', 'FAILED')
  const r = await row(id)
  assert.is(r.attempts, 1)
  assert.is(r.last_error, 'SMS provider answered HTTP 400: invalid recipient #############')
  sms.answer = accept
  later(24 * 3_600_000)
  worker.nudge()
  await nextPass()
  assert.is(sms.requests.length, before + 1)
  assert.is((await row(id)).status, 'FAILED')
})

t('a provider that keeps failing: FAILED after the attempt limit (4 here), then left alone', async () => {
  const before = sms.requests.length
  sms.answer = () => ({ status: 500 })
  const id = await enqueue('01912340005')
  for (let attempt = 1; attempt <= 4; attempt++) {
    await until(async () => (await row(id)).attempts === attempt && (await row(id)).status !== 'SENDING', `attempt ${attempt} recorded`)
    if (attempt < 4) {
      assert.is((await row(id)).status, 'PENDING')
      later(30_000 * 2 ** (attempt - 1))
      worker.nudge()
    }
  }
  const r = await row(id)
  assert.is(r.status, 'FAILED')
  assert.is(r.last_error, 'SMS provider answered HTTP 500')
  assert.is(sms.requests.length, before + 4)
  later(24 * 3_600_000)
  worker.nudge()
  await nextPass()
  assert.is(sms.requests.length, before + 4)
  assert.ok(logged.some((l) => l.includes(`message ${id} (SMS) FAILED after 4 attempt(s)`)))
})

t('no answer in time, or no provider listening: retried, not failed', async () => {
  const before = sms.requests.length
  sms.answer = () => 'hang'
  const id = await enqueue('01912340006')
  await until(async () => (await row(id)).last_error !== null, 'the time-out recorded', 30_000)
  const r = await row(id)
  assert.is(r.status, 'PENDING')
  assert.match(r.last_error!, /^no answer within 5 s|SMS provider unreachable: timed out/)
  sms.release({ status: 200 })
  assert.is(sms.requests.length, before + 1)
  sms.answer = accept
  later(30_000)
  worker.nudge()
  await until(async () => (await row(id)).status === 'SENT', 'SENT on the retry')
  assert.is(sms.requests.length, before + 2)

  const port = await freePort()
  const nobody = smsTransport({ url: `http://127.0.0.1:${port}/send`, token: TOKEN, senderId: null }, { timeoutMs: 2000 })
  const err = await nobody
    .send(
      {
        id: 1,
        channel: 'SMS',
        to: '01912340007',
        subject: null,
        text: 'x',
        html: null,
        attachments: [],
        installationId: 'abcd1234',
        idempotencyKey: 'outbox-1',
      },
      new AbortController().signal,
    )
    .catch((e) => e)
  assert.ok(err instanceof DeliveryError)
  assert.is(err.permanent, false)
  assert.is(err.message, 'SMS provider unreachable: ECONNREFUSED')
})

t('Bangladeshi numbers are sent as 8801XXXXXXXXX; anything else is refused for good without a request', async () => {
  for (const m of ['01712345678', '8801712345678', '+8801712345678', '008801712345678', '+880 1712-345678'])
    assert.is(toSmsNumber(m), '8801712345678', m)
  for (const m of ['01212345678', '0171234567', '447911123456', '', 'abc']) assert.is(toSmsNumber(m), null, m)
  const before = sms.requests.length
  const id = await enqueue('+44 7911 123456')
  await until(async () => (await row(id)).status === 'FAILED', 'FAILED')
  assert.is((await row(id)).last_error, 'not a Bangladeshi mobile number')
  assert.is(sms.requests.length, before)
})

t('the ticket SMS is short and in the booking language (Bengali here), with PNR and PIN', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const trip = await pickTrip(f, { skip: 4, minHours: 72 })
  const sold = await buyTicketWith(f, p, trip, {
    headers: { 'accept-language': 'bn' },
    body: { passengerMobile: '01812999000', passengerEmail: null },
  })
  await until(() => sms.requests.some((r) => r.body.to === '8801812999000'), 'the ticket SMS')
  const text = sms.requests.find((r) => r.body.to === '8801812999000')!.body.text!
  assert.ok(text.startsWith(`পিএনআর ${sold.pnr} পিন ${sold.pin}। `), text)
  assert.match(text, `${sold.origin.nameBn}-${sold.destination.nameBn}`)
  assert.match(text, /\/t\?k=[A-Za-z0-9_-]{16}$/)
  assert.ok(smsParts(text).parts <= 3, `${text.length} characters`)
  assert.not.ok(
    logged.some((l) => l.includes(sold.pnr) || l.includes(sold.pin + '।')),
    'no PNR in the worker log',
  )
})

t('production: no console transport, and the code column is never written', async () => {
  assert.throws(() => consoleTransport({ production: true }), /does not exist in production/)
  const smtp = await startSmtpReceiver()
  // a provider of its own: the one above was last called before this app started, which holds the event loop for
  // seconds (its migrations); the pooled connection then passed the receiver's 5 s keep-alive unseen, the first send
  // reused it and got ECONNRESET, and the retry 5 s on waits for this app's clock, which stands still (2026-12-01)
  const prodSms = await startSmsReceiver()
  const prod = await startTestApp({
    production: true,
    daysAhead: 0,
    config: { sms: { provider: 'http-json', url: prodSms.url, token: TOKEN, senderId: null }, smtp: { url: smtp.url, from: 'tickets@nodi.test' } },
  })
  try {
    assert.throws(() => createTransports({ ...prod.deps.config, smtp: null }, { timeoutMs: 1000 }), /console outbox does not exist in production/)
    assert.throws(() => createTransports({ ...prod.deps.config, sms: null }, { timeoutMs: 1000 }), /console outbox does not exist in production/)
    const transports = createTransports(prod.deps.config, { timeoutMs: 5000 })
    assert.equal([transports.EMAIL.kind, transports.SMS.kind], ['smtp', 'sms-http'])

    await prod.db.transaction((tx) => issueOtp(tx, prod.deps, { mobile: '01912340009', purpose: 'LOGIN', address: '127.0.0.1' }))
    const [stored] = await prod.db.query<{ id: number; code: string | null; body: string }>(
      'SELECT id, code, body FROM outbox_messages WHERE "to" = $1',
      ['01912340009'],
    )
    assert.is(stored!.code, null)
    const w = startDeliveryWorker(prod.deps, transports, { pollMs: 50, log: () => undefined })
    try {
      await until(() => prodSms.requests.some((r) => r.body.to === '8801912340009'), 'the production SMS')
      const sent = prodSms.requests.find((r) => r.body.to === '8801912340009')!.body.text!
      const code = /^(\d{6}) /.exec(sent)![1]!
      await until(
        async () => (await prod.db.query<{ status: string }>('SELECT status FROM outbox_messages WHERE id = $1', [stored!.id]))[0]!.status === 'SENT',
        'SENT',
      )
      const [after] = await prod.db.query<{ code: string | null; body: string }>('SELECT code, body FROM outbox_messages WHERE id = $1', [stored!.id])
      assert.is(after!.code, null)
      assert.not.ok(after!.body.includes(code), 'the code is gone from storage once sent')
      assert.is((await prod.call('GET', '/dev/outbox')).status, 404)
    } finally {
      await w.stop()
    }
  } finally {
    await prod.close()
    await smtp.close()
    await prodSms.close()
  }
})

t.run()
