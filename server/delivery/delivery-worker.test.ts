/**
 * The delivery worker in one process on PGlite: the development console outbox
 * (rows listed by /dev/outbox as soon as they are committed, printed, then SENT),
 * waking on a new message, a lease left by a stuck sender taken over only after it
 * runs out (and the stuck sender's late answer recorded nowhere), the attempt limit
 * reached through lost sends, and stop() letting the send in flight finish.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { smsTransport } from '../delivery/sms.ts'
import { consoleTransport, type Transports } from '../delivery/transport.ts'
import { createTransports } from '../delivery/transports.ts'
import { startDeliveryWorker } from '../delivery/worker.ts'
import { issueOtp } from '../account/otp.ts'
import { startTestApp, type TestApp } from '../test/helpers.ts'
import { startSmsReceiver, until, type SmsReceiver } from '../test/receivers.ts'

const t = suite('delivery worker')
let app: TestApp
const receivers: SmsReceiver[] = []

interface Row {
  id: number
  status: string
  attempts: number
  locked_until: Date | null
  provider_message_id: string | null
  last_error: string | null
}
const row = async (id: number) => (await app.db.query<Row>('SELECT * FROM outbox_messages WHERE id = $1', [id]))[0]!
/**
 * Waits for a pass of a worker that starts after this call: an e-mail stored now is done
 * (passes claim due messages by id, so a due message stored before it is claimed in the same
 * pass or an earlier one). What the workers did not claim by then was not due for them.
 */
async function nextPass(worker: { nudge(): void }): Promise<void> {
  await app.deps.outbox.send({ channel: 'EMAIL', to: 'probe@example.com', subject: 'probe', body: 'A pass of the worker.' })
  const [probe] = await app.db.query<{ id: number }>('SELECT id FROM outbox_messages WHERE "to" = $1 ORDER BY id DESC LIMIT 1', ['probe@example.com'])
  worker.nudge()
  await until(async () => (await row(probe!.id)).status === 'SENT', 'a pass of the worker (the probe e-mail SENT)')
}

async function enqueueSms(to: string): Promise<number> {
  await app.deps.outbox.send({ channel: 'SMS', to, body: 'Your coach leaves at 08:30.' })
  return (await app.db.query<{ id: number }>('SELECT id FROM outbox_messages WHERE "to" = $1 ORDER BY id DESC LIMIT 1', [to]))[0]!.id
}

async function receiver(): Promise<SmsReceiver> {
  const r = await startSmsReceiver()
  receivers.push(r)
  return r
}

function smsTo(r: SmsReceiver): Transports {
  return {
    SMS: smsTransport({ url: r.url, token: 't', senderId: null }, { timeoutMs: 600_000 }),
    EMAIL: consoleTransport({ production: false }, () => undefined),
  }
}

t.before(async () => {
  app = await startTestApp({ daysAhead: 0 })
})
t.after(async () => {
  await app.close()
  for (const r of receivers) await r.close()
})

t(
  'development without SMTP or SMS settings: /dev/outbox lists a message as soon as it is committed; the console prints it and it is SENT',
  async () => {
    const transports = createTransports(app.deps.config, { timeoutMs: 1000, log: () => undefined })
    assert.equal([transports.EMAIL.kind, transports.SMS.kind], ['console', 'console'])

    const c = await app.call('POST', '/api/reservation/contactUs', {
      body: { name: 'Sadia Islam', email: 'sadia@example.com', subject: 'Lost bag', message: 'I left a bag on coach 101.' },
    })
    assert.is(c.status, 200)
    await app.db.transaction((tx) => issueOtp(tx, app.deps, { mobile: '01911000222', purpose: 'LOGIN', address: '127.0.0.1' }))
    const code = await app.lastCode('01911000222')
    const listed = await app.call('GET', '/dev/outbox')
    const [otp, receipt] = listed.body.data
    assert.is(otp.to, '01911000222')
    assert.is(otp.code, code)
    assert.is(otp.status, 'PENDING')
    assert.is(receipt.to, 'sadia@example.com')
    assert.is(receipt.status, 'PENDING')

    const printed: string[] = []
    const worker = startDeliveryWorker(app.deps, createTransports(app.deps.config, { timeoutMs: 1000, log: (l) => printed.push(l) }), { pollMs: 50 })
    try {
      await until(async () => (await row(otp.id)).status === 'SENT' && (await row(receipt.id)).status === 'SENT', 'both SENT')
    } finally {
      await worker.stop()
    }
    assert.ok(
      printed.includes(`[outbox] SMS to 01911000222: ${code} is your Nodi Express login code. It expires in 5 minutes. Do not share it with anyone.`),
      printed.join('\n'),
    )
    assert.ok(
      printed.some((l) =>
        l.startsWith(`[outbox] EMAIL to sadia@example.com (We received your message #${c.body.data.id}): Thank you for contacting`),
      ),
    )
    const after = await app.call('GET', '/dev/outbox?to=01911000222')
    assert.is(after.body.data[0].status, 'SENT')
    assert.is(after.body.data[0].attempts, 1)
    assert.is(after.body.data[0].code, code, 'the development listing keeps the code')
    assert.is(after.body.data[0].sentAt, after.body.data[0].createdAt, 'sent at the (frozen) test clock')
  },
)

t('a new message wakes the worker at once, long before its next poll', async () => {
  const r = await receiver()
  const worker = startDeliveryWorker(app.deps, smsTo(r), { pollMs: 600_000 })
  try {
    // the first pass, at start, is over: the worker now sleeps for its 10-minute poll
    await nextPass(worker)
    const started = Date.now()
    const id = await enqueueSms('01911000223')
    await until(async () => (await row(id)).status === 'SENT', 'SENT', 3000)
    assert.ok(Date.now() - started < 3000)
  } finally {
    await worker.stop()
  }
})

t("a lease left by a stuck sender is taken over only when it runs out; the stuck sender's late answer changes nothing", async () => {
  const stuck = await receiver()
  const good = await receiver()
  stuck.answer = () => 'hang'
  const a = startDeliveryWorker(app.deps, smsTo(stuck), { pollMs: 50, leaseMs: 60_000, sendTimeoutMs: 600_000 })
  const id = await enqueueSms('01911000224')
  await stuck.waitFor(1)
  const held = await row(id)
  assert.is(held.status, 'SENDING')
  assert.is(held.attempts, 1)
  assert.is(held.locked_until!.getTime(), app.clock.now().getTime() + 60_000)

  const b = startDeliveryWorker(app.deps, smsTo(good), { pollMs: 50, leaseMs: 60_000 })
  try {
    app.clock.advance(59_999)
    // a is stuck in its send; b's pass claims the probe, and with it anything due
    await nextPass(b)
    assert.is(good.requests.length, 0, 'not taken over while the lease runs')
    app.clock.advance(1)
    b.nudge()
    await until(async () => (await row(id)).status === 'SENT', 'taken over and SENT')
    assert.is(good.requests.length, 1)
    assert.is(good.requests[0]!.headers['idempotency-key'], stuck.requests[0]!.headers['idempotency-key'], 'the same idempotency key on the resend')
    assert.is((await row(id)).attempts, 2)
    assert.is((await row(id)).provider_message_id, 'sms-1')

    stuck.release({ status: 200, body: { id: 'late' } })
    await a.stop()
    const final = await row(id)
    assert.is(final.provider_message_id, 'sms-1', "the stuck sender's late success is not recorded over the takeover")
    assert.is(final.attempts, 2)
    assert.is(final.status, 'SENT')
  } finally {
    stuck.release({ status: 500 })
    await a.stop()
    await b.stop()
  }
})

t('a lease that runs out after the last allowed attempt: FAILED, not sent again', async () => {
  const stuck = await receiver()
  const other = await receiver()
  stuck.answer = () => 'hang'
  const a = startDeliveryWorker(app.deps, smsTo(stuck), { pollMs: 50, leaseMs: 60_000, sendTimeoutMs: 600_000, maxAttempts: 1 })
  const b = startDeliveryWorker(app.deps, smsTo(other), { pollMs: 50, leaseMs: 60_000, maxAttempts: 1 })
  try {
    const id = await enqueueSms('01911000225')
    await stuck.waitFor(1)
    app.clock.advance(60_000)
    b.nudge()
    await until(async () => (await row(id)).status === 'FAILED', 'FAILED')
    assert.match((await row(id)).last_error!, 'no answer recorded for the last attempt')
    assert.is(other.requests.length, 0)
  } finally {
    stuck.release({ status: 200 })
    await a.stop()
    await b.stop()
  }
})

t('a message waiting for a retry when the attempt limit is lowered below its attempts: FAILED, not sent', async () => {
  const r = await receiver()
  const id = await enqueueSms('01911000228')
  // Two attempts made under an earlier DELIVERY_MAX_ATTEMPTS; the limit is now 2.
  await app.db.query("UPDATE outbox_messages SET attempts = 2, last_error = 'SMS provider answered HTTP 503' WHERE id = $1", [id])
  const worker = startDeliveryWorker(app.deps, smsTo(r), { pollMs: 50, maxAttempts: 2 })
  try {
    await until(async () => (await row(id)).status === 'FAILED', 'FAILED')
    assert.is((await row(id)).last_error, 'SMS provider answered HTTP 503')
    assert.is(r.requests.length, 0)
  } finally {
    await worker.stop()
  }
})

t('stop() lets the send in flight finish and be recorded, then claims nothing more', async () => {
  const slow = await receiver()
  slow.answer = () => 'hang'
  const worker = startDeliveryWorker(app.deps, smsTo(slow), { pollMs: 50 })
  const id = await enqueueSms('01911000226')
  await slow.waitFor(1)
  assert.is(worker.running(), true)
  const stopped = worker.stop()
  assert.is(worker.running(), false)
  let done = false
  void stopped.then(() => (done = true))
  // another worker's whole pass later, the stopped one still waits
  const other = startDeliveryWorker(app.deps, smsTo(await receiver()), { pollMs: 600_000 })
  await nextPass(other)
  await other.stop()
  assert.is(done, false, 'stop waits for the send in flight')
  slow.release({ status: 200, body: { id: 'in-flight' } })
  await stopped
  const r = await row(id)
  assert.is(r.status, 'SENT')
  assert.is(r.provider_message_id, 'in-flight')
  const next = await enqueueSms('01911000227')
  // a worker started afterwards finds the message unclaimed and sends it; the stopped one never did
  const fresh = await receiver()
  const after = startDeliveryWorker(app.deps, smsTo(fresh), { pollMs: 50 })
  try {
    await until(async () => (await row(next)).status === 'SENT', 'sent by the next worker')
  } finally {
    await after.stop()
  }
  assert.is((await row(next)).attempts, 1, 'a stopped worker claims nothing')
  assert.is(fresh.requests.length, 1)
  assert.is(slow.requests.length, 1)
})

t.run()
