/**
 * Two server processes on one PostgreSQL, both running the delivery worker against
 * a shared SMTP server and SMS provider: a burst of messages committed at once (and
 * more through the API of each process) is delivered exactly once, by both
 * processes. Then six workers on separate connections claiming two at a time, so
 * that their claims collide: still no message claimed twice. Then two processes on
 * SSL Wireless with BulkSMSBD as the fallback: what SSL Wireless refuses (a FAILED
 * body) or cannot take goes through BulkSMSBD, and each provider has each message at
 * most once. Then the circuit: the failures one process meets route SSL Wireless
 * around for the other process too, codes included.
 * Reported skipped without PostgreSQL binaries (a failure under CI).
 */
import * as assert from 'uvu/assert'
import { openDb } from '../db/db.ts'
import { smsProviderTransport } from '../delivery/sms.ts'
import { consoleTransport } from '../delivery/transport.ts'
import { startDeliveryWorker, type DeliveryWorker } from '../delivery/worker.ts'
import { createDeps } from '../deps.ts'
import { migrate } from '../db/migrate.ts'
import { createOutbox } from '../delivery/outbox.ts'
import { pgSuite, startPostgres } from '../test/pg.ts'
import { startSmsReceiver, startSmtpReceiver, until } from '../test/receivers.ts'
import { startBulkSmsBd, startSslWireless } from '../test/sms-standins.ts'
import { call, startServer, type ServerProcess } from '../../harness/spawn-server.ts'

const test = pgSuite('delivery on PostgreSQL')
const SSL_CREDS = { apiToken: 'tok-ssl', sid: 'NODIEXPRESS' }

/** A server's settings for SSL Wireless with BulkSMSBD as the fallback, on the stand-ins at `sslUrl` and `bulkUrl`. */
function withFallback(url: string, smtpUrl: string, sslUrl: string, bulkUrl: string): Record<string, string> {
  return {
    DATABASE_URL: url,
    SMTP_URL: smtpUrl,
    MAIL_FROM: 'tickets@nodi.test',
    SMS_PROVIDER: 'sslwireless',
    SSLWIRELESS_API_TOKEN: SSL_CREDS.apiToken,
    SSLWIRELESS_SID: SSL_CREDS.sid,
    SSLWIRELESS_API_URL: sslUrl,
    SMS_FALLBACK_PROVIDER: 'bulksmsbd',
    BULKSMSBD_API_KEY: 'key-bulk',
    BULKSMSBD_SENDER_ID: '8809617611111',
    BULKSMSBD_API_URL: bulkUrl,
  }
}

test('PostgreSQL, two server processes: every message is delivered exactly once, and both processes deliver', async () => {
  const pg = await startPostgres()
  const url = await pg.createDatabase('delivery')
  const smtp = await startSmtpReceiver({ delayMs: 100 })
  const sms = await startSmsReceiver()
  sms.answer = (_r, n) => ({ status: 200, body: { id: `sms-${n}` }, delayMs: 100 })
  const servers: ServerProcess[] = []
  const db = await openDb({ databaseUrl: url, max: 4 })
  try {
    for (const p of ['p1', 'p2']) {
      servers.push(
        await startServer({
          DATABASE_URL: url,
          SMTP_URL: smtp.url,
          MAIL_FROM: `Process ${p} <${p}@nodi.test>`,
          SMS_API_URL: sms.url,
          SMS_API_TOKEN: 'tok',
          SMS_SENDER_ID: p.toUpperCase(),
          // the receipts below come from addresses of their own (5 contact messages an hour per address)
          TRUST_PROXY: '1',
        }),
      )
    }
    // A burst committed in one transaction: both workers find all of it due at once.
    const outbox = createOutbox(db, () => new Date(), { production: false })
    const SMS = 80
    const EMAIL = 40
    await db.transaction(async (tx) => {
      for (let i = 0; i < SMS; i++) await outbox.send({ channel: 'SMS', to: `0191${String(i).padStart(7, '0')}`, body: `Burst SMS ${i}` }, tx)
      for (let i = 0; i < EMAIL; i++)
        await outbox.send({ channel: 'EMAIL', to: `burst${i}@example.com`, subject: `Burst ${i}`, body: `Burst e-mail ${i}` }, tx)
    })
    // And receipts written by each process's own requests.
    const RECEIPTS = 10
    for (let i = 0; i < RECEIPTS; i++) {
      const r = await call(
        servers[i % 2]!.url,
        'POST',
        '/api/reservation/contactUs',
        { name: `Sender ${i}`, email: `contact${i}@example.com`, subject: 'Question', message: `Question ${i}` },
        { headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } },
      )
      assert.is(r.status, 200, JSON.stringify(r.body))
    }
    const total = SMS + EMAIL + RECEIPTS
    const pending = async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox_messages WHERE status <> 'SENT'"))[0]!.n
    await until(async () => (await pending()) === 0, 'every message SENT', 60_000)
    // A duplicate would still be in flight after its first copy was recorded: both processes stop, which lets every
    // send in flight finish and be recorded, and claims nothing more.
    for (const s of servers) await s.kill('SIGTERM')

    assert.is(sms.requests.length, SMS, 'one request per SMS')
    assert.is(sms.keys().size, SMS, 'no idempotency key twice')
    assert.is(new Set(sms.requests.map((r) => r.body.to)).size, SMS)
    assert.is(smtp.mails.length, EMAIL + RECEIPTS, 'one e-mail per message')
    assert.is(new Set(smtp.mails.map((m) => m.parsed.messageId)).size, EMAIL + RECEIPTS)
    assert.is(new Set(smtp.mails.flatMap((m) => m.envelope.to)).size, EMAIL + RECEIPTS)

    const rows = await db.query<{ id: number; channel: string; attempts: number; provider_message_id: string | null }>(
      'SELECT id, channel, attempts, provider_message_id FROM outbox_messages ORDER BY id',
    )
    assert.is(rows.length, total)
    assert.ok(
      rows.every((r) => r.attempts === 1),
      'each claimed once',
    )
    assert.equal(
      new Set(rows.filter((r) => r.channel === 'SMS').map((r) => r.provider_message_id)),
      new Set(sms.requests.map((_, i) => `sms-${i + 1}`)),
      'the provider id of every SMS recorded',
    )
    assert.equal(new Set(rows.filter((r) => r.channel === 'EMAIL').map((r) => r.provider_message_id)), new Set(smtp.mails.map((m) => m.queueId)))
    const by = (p: string) =>
      `${sms.requests.filter((r) => r.body.sender === p).length} SMS and ${smtp.mails.filter((m) => m.envelope.from === `${p.toLowerCase()}@nodi.test`).length} e-mails`
    console.log(`delivery on PostgreSQL: process 1 sent ${by('P1')}, process 2 sent ${by('P2')}`)
    assert.equal(new Set(sms.requests.map((r) => r.body.sender)), new Set(['P1', 'P2']), 'both processes sent SMS')
    assert.equal(new Set(smtp.mails.map((m) => m.envelope.from)), new Set(['p1@nodi.test', 'p2@nodi.test']), 'both processes sent e-mail')
  } finally {
    await db.close()
    for (const s of servers) await s.kill('SIGTERM')
    await smtp.close()
    await sms.close()
    await pg.stop()
  }
})

test('PostgreSQL, six workers claiming two at a time on separate connections: no message is claimed twice', async () => {
  const pg = await startPostgres()
  const url = await pg.createDatabase('claims')
  const sms = await startSmsReceiver()
  const db = await openDb({ databaseUrl: url, max: 12 })
  const workers: DeliveryWorker[] = []
  try {
    await migrate(db)
    const deps = createDeps(db, { config: { sms: { provider: 'http-json', url: sms.url, token: 'tok', senderId: null }, smtp: null } })
    const N = 300
    await db.transaction(async (tx) => {
      for (let i = 0; i < N; i++) await deps.outbox.send({ channel: 'SMS', to: `0181${String(i).padStart(7, '0')}`, body: `Claim ${i}` }, tx)
    })
    // Tiny batches and no pause: the workers' claims run into each other all the time.
    for (let i = 0; i < 6; i++) {
      workers.push(
        startDeliveryWorker(
          deps,
          { SMS: smsProviderTransport(deps.config.sms!, { timeoutMs: 5000 }), EMAIL: consoleTransport(deps.config, () => undefined) },
          { batchSize: 2, pollMs: 1 },
        ),
      )
    }
    await until(
      async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox_messages WHERE status <> 'SENT'"))[0]!.n === 0,
      'all SENT',
      60_000,
    )
    // stopped, each worker has finished its sends in flight (a duplicate among them) and claims nothing more
    for (const w of workers) await w.stop()
    assert.is(sms.requests.length, N)
    assert.is(sms.keys().size, N)
    const [max] = await db.query<{ n: number }>('SELECT max(attempts)::int AS n FROM outbox_messages')
    assert.is(max!.n, 1)
  } finally {
    for (const w of workers) await w.stop()
    await db.close()
    await sms.close()
    await pg.stop()
  }
})

test('PostgreSQL, two processes on SSL Wireless with BulkSMSBD as fallback: refused and unavailable SMS go through BulkSMSBD, each provider has each message at most once', async () => {
  const pg = await startPostgres()
  const url = await pg.createDatabase('fallback')
  const ssl = await startSslWireless(SSL_CREDS)
  const bulk = await startBulkSmsBd({ apiKey: 'key-bulk', senderId: '8809617611111' })
  const smtp = await startSmtpReceiver()
  // every third number is blocked at SSL Wireless (for good); every third from the second gets "Unknown Error" (temporary)
  const fate = (msisdn: string) => Number(msisdn.slice(-3)) % 3
  ssl.fail = (r) => (fate(r.fields.msisdn ?? '') === 0 ? 4026 : fate(r.fields.msisdn ?? '') === 1 ? 5000 : null)
  const servers: ServerProcess[] = []
  const db = await openDb({ databaseUrl: url, max: 4 })
  try {
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startServer({
          ...withFallback(url, smtp.url, ssl.url, bulk.url),
          // one attempt per provider: "cannot take it after its retries" at once
          DELIVERY_MAX_ATTEMPTS: '1',
        }),
      )
    }
    const outbox = createOutbox(db, () => new Date(), { production: false })
    const N = 60
    await db.transaction(async (tx) => {
      for (let i = 0; i < N; i++) await outbox.send({ channel: 'SMS', to: `0171${String(i).padStart(7, '0')}`, body: `ফলব্যাক ${i}` }, tx)
    })
    const open = async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox_messages WHERE status <> 'SENT'"))[0]!.n
    await until(async () => (await open()) === 0, 'every SMS SENT', 60_000)
    // stopped, both processes have finished their sends in flight (a second copy among them) and claim nothing more
    for (const s of servers) await s.kill('SIGTERM')

    const rows = await db.query<{ id: number; to: string; route: number; provider: string }>(
      'SELECT id, "to", route, provider FROM outbox_messages ORDER BY id',
    )
    assert.is(rows.length, N)
    const [inst] = await db.query<{ value: string }>("SELECT value FROM settings WHERE name = 'installation_id'")
    for (const r of rows) {
      const msisdn = `88${r.to}`
      const atSsl = ssl.requests.filter((q) => q.fields.csms_id === `${inst!.value}${r.id}`)
      const atBulk = bulk.requests.filter((q) => q.fields.number === msisdn)
      assert.is(atSsl.length, 1, `${r.to}: one request to SSL Wireless`)
      if (fate(msisdn) === 2) {
        assert.equal([r.route, r.provider, atBulk.length], [0, 'sslwireless', 0], `${r.to}: taken by SSL Wireless, never by BulkSMSBD`)
      } else {
        assert.equal([r.route, r.provider, atBulk.length], [1, 'bulksmsbd', 1], `${r.to}: handed to BulkSMSBD once`)
        assert.is(atBulk[0]!.fields.message, `ফলব্যাক ${Number(r.to.slice(-7))}`)
      }
    }
    assert.is(ssl.accepted.length + bulk.accepted.length, N, 'each message accepted by exactly one provider')
  } finally {
    await db.close()
    for (const s of servers) await s.kill('SIGTERM')
    await Promise.all([ssl.close(), bulk.close(), smtp.close()])
    await pg.stop()
  }
})

test('PostgreSQL, two processes: a provider one process saw fail 5 times in a row is routed around by the other, codes included', async () => {
  const pg = await startPostgres()
  const url = await pg.createDatabase('circuit')
  const ssl = await startSslWireless(SSL_CREDS)
  const bulk = await startBulkSmsBd({ apiKey: 'key-bulk', senderId: '8809617611111' })
  const smtp = await startSmtpReceiver()
  ssl.fail = () => 4031
  const env = withFallback(url, smtp.url, ssl.url, bulk.url)
  const servers: ServerProcess[] = []
  const db = await openDb({ databaseUrl: url, max: 4 })
  const outbox = createOutbox(db, () => new Date(), { production: false })
  const rows = (prefix: string) =>
    db.query<{ to: string; status: string; route: number; provider: string | null }>(
      'SELECT "to", status, route, provider FROM outbox_messages WHERE "to" LIKE $1 ORDER BY id',
      [`${prefix}%`],
    )
  try {
    // The first process alone meets SSL Wireless's "TPS Exceeded" 5 times: notices wait for their retries.
    servers.push(await startServer(env))
    for (let i = 0; i < 5; i++) await outbox.send({ channel: 'SMS', to: `0171500000${i}`, body: `নোটিশ ${i}` })
    await until(async () => ssl.requests.length >= 5, 'five refusals at SSL Wireless', 30_000)
    await until(
      async () => (await db.query("SELECT 1 FROM delivery_providers WHERE provider = 'sslwireless' AND open_until > $1", [new Date()])).length === 1,
      'SSL Wireless routed around',
    )
    await until(async () => (await rows('017150')).every((r) => r.status === 'PENDING' && r.route === 0), 'the notices waiting for a retry')
    await servers[0]!.kill('SIGTERM')

    // The second process has seen no failure itself: it reads the circuit from the database.
    servers.push(await startServer(env))
    for (let i = 0; i < 5; i++) await outbox.send({ channel: 'SMS', to: `0171600000${i}`, body: `নোটিশ ${i}` })
    await until(async () => (await rows('017160')).every((r) => r.status === 'SENT'), 'the new notices SENT', 30_000)
    assert.ok((await rows('017160')).every((r) => r.provider === 'bulksmsbd'))
    assert.is(ssl.requests.length, 5, 'no further request to SSL Wireless while it is routed around')

    // A code: through BulkSMSBD within seconds.
    await outbox.send({ channel: 'SMS', to: '01717000000', body: '123456 is your Nodi Express login code.', code: '123456' })
    await until(async () => (await rows('01717')).every((r) => r.status === 'SENT'), 'the code SENT', 30_000)
    assert.is((await rows('01717'))[0]!.provider, 'bulksmsbd')
  } finally {
    await db.close()
    for (const s of servers) await s.kill('SIGTERM')
    await Promise.all([ssl.close(), bulk.close(), smtp.close()])
    await pg.stop()
  }
})

test.run()
