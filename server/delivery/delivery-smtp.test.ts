/**
 * Ticket e-mail over real SMTP: the app configured with SMTP_URL / MAIL_FROM of an
 * smtp-server started here, the delivery worker running, and what arrived parsed
 * with mailparser: recipient, subject and body in the booking language, PNR and PIN,
 * the .ics attachment, a hostile passenger name arriving as text. Also smtps://,
 * a permanent 5xx refusal and a retried 4xx one, the connection pool, and a refused
 * login: failed at once as a configuration error, the channel down until it works.
 */
import { suite } from 'uvu'
import { formatDate } from '../../contract/dhaka-dates.ts'
import * as assert from 'uvu/assert'
import { formatMoney } from '../../contract/money.ts'
import { installationId } from '../delivery/installation.ts'
import { SMTP_POOL_CONNECTIONS, smtpTransport } from '../delivery/smtp.ts'
import { consoleTransport } from '../delivery/transport.ts'
import { createTransports } from '../delivery/transports.ts'
import { startDeliveryWorker, type DeliveryWorker } from '../delivery/worker.ts'
import { buyTicketWith, lastCode, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { startSmtpReceiver, until, type SmtpReceiver } from '../test/receivers.ts'

const t = suite('delivery over SMTP')
const FROM = 'Nodi Express <tickets@nodi.test>'
const HOSTILE = '<img src=x onerror=alert(1)>'
const bn = { 'accept-language': 'bn-BD,bn;q=0.9,en;q=0.8' }
const en = { 'accept-language': 'en-GB,en;q=0.9' }
let f: Fixture
let smtp: SmtpReceiver
let worker: DeliveryWorker
const printed: string[] = []
const logged: string[] = []
let trips = 0
const nextTrip = () => pickTrip(f, { skip: trips++ * 5 + 2, minHours: 72 })

interface Row {
  id: number
  status: string
  attempts: number
  provider_message_id: string | null
  last_error: string | null
  next_attempt_at: Date | null
}
const rowOf = async (sql: string, params: unknown[]) =>
  (await f.db.query<Row>(`SELECT * FROM outbox_messages WHERE ${sql} ORDER BY id DESC LIMIT 1`, params))[0]!
const bengaliDigits = /[০-৯]/

t.before(async () => {
  smtp = await startSmtpReceiver()
  f = await openFixture({ config: { smtp: { url: smtp.url, from: FROM }, sms: null } })
  worker = startDeliveryWorker(f.deps, createTransports(f.deps.config, { timeoutMs: 5000, log: (l) => printed.push(l) }), {
    pollMs: 50,
    log: (l) => logged.push(l),
  })
})
t.after(async () => {
  await worker.stop()
  await f.close()
  await smtp.close()
})

t('a ticket booked in Bengali arrives by SMTP: Bengali subject and text, PNR and PIN, escaped name, the .ics attached', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const trip = await nextTrip()
  const before = smtp.mails.length
  const sold = await buyTicketWith(f, p, trip, { seats: 2, headers: bn, body: { passengerName: HOSTILE, passengerEmail: 'rahim@example.com' } })
  await smtp.waitFor(before + 1)
  const mail = smtp.mails[before]!
  const m = mail.parsed
  assert.equal(mail.envelope.to, ['rahim@example.com'])
  assert.is(mail.envelope.from, 'tickets@nodi.test')
  assert.equal(m.from?.value, [{ name: 'Nodi Express', address: 'tickets@nodi.test' }])
  assert.is(m.to && !Array.isArray(m.to) ? m.to.text : '', 'rahim@example.com')
  assert.match(m.subject ?? '', `আপনার বাস টিকিট ${sold.pnr}: ${sold.origin.nameBn} থেকে ${sold.destination.nameBn}`)
  assert.match(m.subject ?? '', bengaliDigits)

  const text = m.text ?? ''
  assert.ok(text.includes(sold.pnr) && text.includes(sold.pin), 'PNR and PIN in the text part')
  assert.ok(text.includes(`প্রিয় ${HOSTILE},`), 'the name as typed in the plain text')
  assert.match(text, 'আপনার টিকিট নিশ্চিত হয়েছে')
  assert.match(text, `${formatMoney(sold.fare.total, 'bn')}`)
  for (const s of sold.seats) assert.ok(text.includes(s.name))

  const html = typeof m.html === 'string' ? m.html : ''
  assert.ok(html.includes(sold.pnr) && html.includes(sold.pin), 'PNR and PIN in the HTML part')
  assert.match(html, '<html lang="bn">')
  assert.not.match(html, /<img/i, 'no img element in the HTML')
  assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'), 'the name is escaped text in the HTML')

  assert.is(m.attachments.length, 1)
  const ics = m.attachments[0]!
  assert.is(ics.filename, `ticket-${sold.pnr}.ics`)
  assert.is(ics.contentType, 'text/calendar')
  const cal = ics.content.toString('utf8').replace(/\r\n /g, '')
  // the reporting times as Dhaka wall-clock times (the API answers them with +06:00)
  const dhaka = (iso: string) => iso.slice(0, 19).replace(/[-:]/g, '')
  assert.match(cal, 'BEGIN:VCALENDAR\r\n')
  assert.match(cal, 'BEGIN:VEVENT')
  assert.match(cal, `DTSTART;TZID=Asia/Dhaka:${dhaka(sold.boardingStation.time)}\r\n`)
  assert.match(cal, `DTEND;TZID=Asia/Dhaka:${dhaka(sold.droppingStation.time)}\r\n`)
  assert.match(cal, 'BEGIN:VTIMEZONE\r\nTZID:Asia/Dhaka')
  assert.match(cal, `SUMMARY:বাস ${sold.origin.nameBn} থেকে ${sold.destination.nameBn}\\, কোচ ${sold.coach.code}`)
  assert.match(cal, `LOCATION:${sold.boardingStation.name}\\, `)
  assert.match(cal, `DESCRIPTION:পিএনআর ${sold.pnr}। আসন ${sold.seats.map((s: { name: string }) => s.name).join('\\, ')}`)
  assert.match(cal, `UID:reservation-${sold.id}@`)

  const row = await rowOf(`channel = 'EMAIL' AND "to" = $1`, ['rahim@example.com'])
  const inst = await installationId(f.db)
  assert.is(m.messageId, `<outbox-${inst}-${row.id}@localhost>`, 'the Message-ID is made from the installation and outbox ids')
  await until(async () => (await rowOf('id = $1', [row.id])).status === 'SENT', 'the e-mail row SENT')
  const sent = await rowOf('id = $1', [row.id])
  assert.is(sent.attempts, 1)
  assert.is(sent.provider_message_id, mail.queueId, "the SMTP server's queue id is recorded")

  // No SMS provider is set in this app: the ticket SMS went to the development console, in Bengali.
  await until(() => printed.some((l) => l.includes(`SMS to ${sold.passengerMobile}`) && l.includes(sold.pnr)), 'the console SMS')
  const sms = printed.find((l) => l.includes(`SMS to ${sold.passengerMobile}`) && l.includes(sold.pnr))!
  assert.match(sms, `পিএনআর ${sold.pnr} পিন ${sold.pin}`)
  assert.not.ok(
    logged.some((l) => l.includes(sold.pnr) || l.includes(HOSTILE)),
    'the worker log never carries a PNR or a body',
  )
})

t('an English booking gets the English e-mail; "resend" sends it again through the same template', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const sold = await buyTicketWith(f, p, await nextTrip(), { headers: en, body: { passengerEmail: 'karim@example.com' } })
  await until(() => smtp.mails.some((x) => x.envelope.to.includes('karim@example.com')), 'the ticket e-mail')
  const r = await f.api('GET', `/api/reservation/resendReservationEmail/${sold.pnr}/${sold.pin}`)
  assert.is(r.status, 200)
  await until(() => smtp.mails.filter((x) => x.envelope.to.includes('karim@example.com')).length === 2, 'the resent e-mail')
  const [first, again] = smtp.mails.filter((x) => x.envelope.to.includes('karim@example.com'))
  // the day as the ticket page writes it: "Nov 29, 2026"
  const day = formatDate(sold.boardingStation.time)
  assert.match(day, /^[A-Z][a-z]{2} \d{2}, \d{4}$/)
  for (const mail of [first!, again!]) {
    const m = mail.parsed
    assert.is(m.subject, `Your bus ticket ${sold.pnr}: ${sold.origin.name} to ${sold.destination.name}, ${day}`)
    assert.match(m.text ?? '', `Dear Ayesha Rahman,`)
    assert.match(m.text ?? '', `PIN: ${sold.pin}`)
    assert.match(m.text ?? '', `Fare paid: ${formatMoney(sold.fare.total)}`)
    assert.not.match(m.text ?? '', bengaliDigits)
    assert.is(m.attachments[0]?.filename, `ticket-${sold.pnr}.ics`)
    assert.match(m.attachments[0]!.content.toString('utf8'), `SUMMARY:Bus ${sold.origin.name} to ${sold.destination.name}`)
  }
  assert.is.not(first!.parsed.messageId, again!.parsed.messageId, 'two messages, two ids')
})

t('cancelling a Bengali ticket sends the Bengali cancel e-mail, written in the cancel transaction', async () => {
  const p = await f.passenger({ balance: 50_000 })
  const sold = await buyTicketWith(f, p, await nextTrip(), { headers: bn, body: { passengerEmail: 'salma@example.com' } })
  await f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`)
  const c = await f.api('GET', `/api/reservation/cancel/${sold.pnr}/${sold.pin}/${await lastCode(f, p.mobile)}`)
  assert.is(c.status, 200, JSON.stringify(c.body))
  const refund = c.body.data.refundAmount as number
  await until(
    () => smtp.mails.some((x) => x.envelope.to.includes('salma@example.com') && x.parsed.subject === `টিকিট ${sold.pnr} বাতিল হয়েছে`),
    'the cancel e-mail',
  )
  const m = smtp.mails.find((x) => x.parsed.subject === `টিকিট ${sold.pnr} বাতিল হয়েছে`)!.parsed
  assert.match(m.text ?? '', `আপনার ব্যালেন্সে ${formatMoney(refund, 'bn')} ফেরত দেওয়া হয়েছে`)
  assert.match(typeof m.html === 'string' ? m.html : '', `টিকিট ${sold.pnr}`)
})

t('smtps:// sends over TLS from the first byte', async () => {
  const tls = await startSmtpReceiver({ secure: true })
  const transport = smtpTransport({ url: tls.url, from: FROM }, { messageIdHost: 'tickets.example.com', timeoutMs: 5000 })
  try {
    const r = await transport.send(
      {
        id: 42,
        channel: 'EMAIL',
        to: 'tls@example.com',
        subject: 'Over TLS',
        text: 'Hello',
        html: null,
        attachments: [],
        installationId: 'abcd1234',
        idempotencyKey: 'outbox-42',
      },
      new AbortController().signal,
    )
    await tls.waitFor(1)
    assert.is(tls.mails[0]!.secure, true)
    assert.is(tls.mails[0]!.parsed.subject, 'Over TLS')
    assert.is(tls.mails[0]!.parsed.messageId, '<outbox-42@tickets.example.com>')
    assert.is(r.providerMessageId, tls.mails[0]!.queueId)
  } finally {
    transport.close?.()
    await tls.close()
  }
})

t('a 5xx refusal fails the message at once; a 4xx one is retried after the backoff', async () => {
  smtp.rejectRecipient = (a) => (a === 'gone@example.com' ? 550 : a === 'busy@example.com' ? 451 : null)
  try {
    await f.deps.outbox.send({ channel: 'EMAIL', to: 'gone@example.com', subject: 'Hello', body: 'Hello' })
    await f.deps.outbox.send({ channel: 'EMAIL', to: 'busy@example.com', subject: 'Hello', body: 'Hello' })
    await until(async () => (await rowOf(`"to" = $1`, ['gone@example.com'])).status === 'FAILED', 'gone@ FAILED')
    const gone = await rowOf(`"to" = $1`, ['gone@example.com'])
    assert.is(gone.attempts, 1)
    assert.match(gone.last_error ?? '', /^SMTP 550: .*Mailbox unavailable/)
    await until(async () => (await rowOf(`"to" = $1`, ['busy@example.com'])).last_error !== null, 'busy@ refused once')
    const busy = await rowOf(`"to" = $1`, ['busy@example.com'])
    assert.is(busy.status, 'PENDING')
    assert.is(busy.attempts, 1)
    assert.match(busy.last_error ?? '', /^SMTP 451/)
    assert.is(busy.next_attempt_at!.getTime(), f.now().getTime() + 30_000)
    assert.ok(logged.some((l) => l.includes(`message ${gone.id} (EMAIL) FAILED`)))

    smtp.rejectRecipient = () => null
    f.setNow(new Date(f.now().getTime() + 30_000))
    worker.nudge()
    await until(async () => (await rowOf(`"to" = $1`, ['busy@example.com'])).status === 'SENT', 'busy@ SENT on the retry')
    assert.is((await rowOf(`"to" = $1`, ['busy@example.com'])).attempts, 2)
    assert.is((await rowOf(`"to" = $1`, ['gone@example.com'])).status, 'FAILED', 'a failed message stays failed')
    assert.not.ok(smtp.mails.some((x) => x.envelope.to.includes('gone@example.com')))
  } finally {
    smtp.rejectRecipient = () => null
  }
})

t('pooled: twelve e-mails sent at once go over at most a few kept-open connections', async () => {
  const pooled = await startSmtpReceiver()
  const transport = smtpTransport({ url: pooled.url, from: FROM }, { messageIdHost: 'tickets.example.com', timeoutMs: 5000 })
  try {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        transport.send(
          {
            id: i,
            channel: 'EMAIL',
            to: `p${i}@example.com`,
            subject: `Pooled ${i}`,
            text: 'Hello',
            html: null,
            attachments: [],
            installationId: 'abcd1234',
            idempotencyKey: `outbox-${i}`,
          },
          new AbortController().signal,
        ),
      ),
    )
    assert.is(pooled.mails.length, 12)
    assert.ok(pooled.maxOpen <= SMTP_POOL_CONNECTIONS, `${pooled.maxOpen} connections open at once`)
    assert.ok(pooled.connections <= SMTP_POOL_CONNECTIONS, `${pooled.connections} connections opened for 12 e-mails`)
  } finally {
    transport.close?.()
    await pooled.close()
  }
})

t('a refused login (wrong password) fails the e-mail at once as a configuration error; the channel is down until a check gets in', async () => {
  await worker.stop()
  const guarded = await startSmtpReceiver({ auth: { user: 'nodi', pass: 'right-pass' } })
  const warned: string[] = []
  const url = `smtp://nodi:wrong-pass@127.0.0.1:${guarded.port}`
  const transport = smtpTransport({ url, from: FROM }, { messageIdHost: 'localhost', timeoutMs: 5000, log: (l) => warned.push(l), recheckMs: 60_000 })
  const w = startDeliveryWorker(
    f.deps,
    { EMAIL: transport, SMS: consoleTransport(f.deps.config, () => undefined) },
    { pollMs: 50, log: (l) => logged.push(l) },
  )
  try {
    assert.match((await transport.check()) ?? '', /^SMTP 535: .*\(configuration error: the user or password in SMTP_URL is refused\)$/)
    assert.is(transport.healthy?.(), false)
    assert.ok(
      warned.some((l) => l.startsWith('[delivery] mail channel down: SMTP 535')),
      warned.join('\n'),
    )
    await f.deps.outbox.send({ channel: 'EMAIL', to: 'locked-out@example.com', subject: 'Hello', body: 'Hello' })
    await until(async () => (await rowOf(`"to" = $1`, ['locked-out@example.com'])).status === 'FAILED', 'FAILED at once')
    const r = await rowOf(`"to" = $1`, ['locked-out@example.com'])
    assert.is(r.attempts, 1, 'not retried eight times over an hour')
    assert.match(r.last_error ?? '', /^SMTP 535: .*configuration error/)
    assert.ok(logged.some((l) => l.startsWith(`[delivery] configuration error: message ${r.id} (EMAIL) FAILED after 1 attempt(s): SMTP 535`)))
    assert.not.ok(
      [...logged, ...warned].some((l) => l.includes('wrong-pass')),
      'the password is never logged',
    )
    guarded.password = 'wrong-pass'
    assert.is(await transport.check(), null)
    assert.is(transport.healthy?.(), true)
    assert.ok(warned.includes('[delivery] mail channel up again: the SMTP server accepted our login'))
  } finally {
    await w.stop()
    await guarded.close()
  }
})

t.run()
