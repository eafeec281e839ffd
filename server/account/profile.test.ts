import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { api } from '../../contract/api.ts'
import { credit, debit } from '../account/ledger.ts'
import { hashCostForTest, TEST_SCRYPT } from '../account/passwords.ts'
import { dhakaDayStart } from '../lib/time.ts'
import { count, startTestApp, TEST_PASSWORD, type TestApp } from '../test/helpers.ts'

let t: TestApp
// A fixed clock (15 March 2026, 10:00 Dhaka) so "this month" is known.
const NOW = new Date('2026-03-15T04:00:00Z')
// passwords hashed at a low scrypt cost: these tests are about the profile, not the hash (server/account/auth.test.ts
// has the production cost's own test)
let productionCost = () => {}
test.before(async () => {
  productionCost = hashCostForTest(TEST_SCRYPT)
  t = await startTestApp({ now: NOW, daysAhead: 0 })
})
test.after(async () => {
  productionCost()
  await t.close()
})

const err = (r: { status: number; body: any; text: string }, status: number, code: string) => {
  assert.is(r.status, status, r.text)
  assert.is(r.body.error.code, code, r.text)
}

test('profile: own only, PERMISSION_DENIED for others, 401 without a session, 400 for a bad id', async () => {
  const a = await t.signUp('01911000001')
  const b = await t.signUp('01911000002')
  const r = await t.call('GET', `/api/profile/${a.passenger.id}`, { token: a.token })
  assert.is(r.status, 200)
  assert.ok(api.profile.response.safeParse(r.body.data).success)
  assert.equal(r.body.data, a.passenger)
  err(await t.call('GET', `/api/profile/${b.passenger.id}`, { token: a.token }), 403, 'PERMISSION_DENIED')
  err(await t.call('GET', `/api/profile/${a.passenger.id}`), 401, 'INVALID_SESSION')
  for (const bad of ['abc', '0', '-1', '1.5', '99999999999999'])
    err(await t.call('GET', `/api/profile/${bad}`, { token: a.token }), 400, 'VALIDATION_FAILED')
})

test('update profile; malformed updates change nothing', async () => {
  const s = await t.signUp('01911000003')
  const r = await t.call('PUT', '/api/profile', {
    token: s.token,
    body: { fullName: '  Nasrin Akter ', email: 'nasrin@example.com', city: 'Khulna' },
  })
  assert.is(r.status, 200, r.text)
  assert.equal({ ...r.body.data }, { ...s.passenger, fullName: 'Nasrin Akter', email: 'nasrin@example.com', city: 'Khulna' })
  for (const bad of [
    {},
    { fullName: 'A', email: 'bad', city: 'X' },
    { fullName: '', email: 'a@b.co', city: 'X' },
    { fullName: 'A', email: 'a@b.co', city: 'X', mobile: '01911000009' },
    { fullName: 'A', email: 'a@b.co', city: 'X', balance: 1_000_000 },
    { fullName: 'A'.repeat(10_000), email: 'a@b.co', city: 'X' },
  ]) {
    err(await t.call('PUT', '/api/profile', { token: s.token, body: bad }), 400, 'VALIDATION_FAILED')
  }
  const again = await t.call('GET', `/api/profile/${s.passenger.id}`, { token: s.token })
  assert.is(again.body.data.fullName, 'Nasrin Akter')
  assert.is(again.body.data.balance, 0)
  err(await t.call('PUT', '/api/profile', { body: { fullName: 'A', email: 'a@b.co', city: 'X' } }), 401, 'INVALID_SESSION')
})

test('change password: wrong current password is 400 (not a sign-out), others sessions end', async () => {
  const mobile = '01911000004'
  const s = await t.signUp(mobile)
  const other = (await t.call('POST', '/api/checkPassenger', { body: { mobile, password: TEST_PASSWORD } })).body.data
  err(
    await t.call('PUT', '/api/changePassword', { token: s.token, body: { currentPassword: 'Wrong@111', newPassword: 'Next@Pass1' } }),
    400,
    'BAD_CREDENTIALS',
  )
  err(
    await t.call('PUT', '/api/changePassword', { token: s.token, body: { currentPassword: TEST_PASSWORD, newPassword: 'weakpass' } }),
    400,
    'VALIDATION_FAILED',
  )
  const r = await t.call('PUT', '/api/changePassword', { token: s.token, body: { currentPassword: TEST_PASSWORD, newPassword: 'Next@Pass1' } })
  assert.is(r.status, 200, r.text)
  assert.is(r.body.data, true)
  assert.is((await t.call('GET', `/api/profile/${s.passenger.id}`, { token: s.token })).status, 200)
  err(await t.call('GET', `/api/profile/${s.passenger.id}`, { token: other.token }), 401, 'INVALID_SESSION')
  err(await t.call('POST', '/api/checkPassenger', { body: { mobile, password: TEST_PASSWORD } }), 401, 'BAD_CREDENTIALS')
  assert.is((await t.call('POST', '/api/checkPassenger', { body: { mobile, password: 'Next@Pass1' } })).status, 200)
})

test('account: balance and transactions newest first, default this month, inclusive Dhaka dates', async () => {
  const s = await t.signUp('01911000005')
  const id = s.passenger.id
  const at = (iso: string) => new Date(iso)
  await t.db.transaction(async (tx) => {
    // 28 Feb 23:59:59 Dhaka, 1 Mar 00:00 Dhaka, 10 Mar, 31 Mar 23:59 Dhaka
    await credit(tx, { passengerId: id, amount: 1000, kind: 'TOP_UP', description: 'Top-up', reservationId: null, at: at('2026-02-28T17:59:59Z') })
    await credit(tx, { passengerId: id, amount: 500, kind: 'TOP_UP', description: 'Top-up', reservationId: null, at: at('2026-02-28T18:00:00Z') })
    await debit(tx, {
      passengerId: id,
      amount: 800,
      kind: 'TICKET_PAYMENT',
      description: 'Ticket DHK-CTG',
      reservationId: 42,
      at: at('2026-03-10T06:00:00Z'),
    })
    await credit(tx, { passengerId: id, amount: 200, kind: 'REFUND', description: 'Refund', reservationId: 42, at: at('2026-03-31T17:59:00Z') })
  })
  const url = `/api/account/${id}`
  const def = await t.call('GET', url, { token: s.token })
  assert.is(def.status, 200, def.text)
  assert.ok(api.account.response.safeParse(def.body.data).success)
  assert.is(def.body.data.balance, 900)
  // default: 1 March .. today (15 March): the 1 Mar top-up and the 10 Mar payment, newest first
  assert.equal(
    def.body.data.transactions.map((x: { amount: number }) => x.amount),
    [-800, 500],
  )
  const pay = def.body.data.transactions[0]
  const [r42] = await t.db.query<{ pnr: string | null }>('SELECT pnr FROM reservations WHERE id = 42')
  assert.equal(pay, {
    id: pay.id,
    createdAt: '2026-03-10T12:00:00+06:00',
    amount: -800,
    balanceAfter: 700,
    kind: 'TICKET_PAYMENT',
    reason: null,
    description: 'Ticket DHK-CTG',
    reservationId: 42,
    pnr: r42?.pnr ?? null,
  })
  const feb = await t.call('GET', `${url}?from=2026-02-28&to=2026-02-28`, { token: s.token })
  assert.equal(
    feb.body.data.transactions.map((x: { amount: number }) => x.amount),
    [1000],
  )
  const all = await t.call('GET', `${url}?from=2026-02-01&to=2026-03-31`, { token: s.token })
  assert.equal(
    all.body.data.transactions.map((x: { balanceAfter: number }) => x.balanceAfter),
    [900, 700, 1500, 1000],
  )
  assert.is(dhakaDayStart('2026-03-01').toISOString(), '2026-02-28T18:00:00.000Z')
})

test('account errors', async () => {
  const a = await t.signUp('01911000006')
  const b = await t.signUp('01911000007')
  err(await t.call('GET', `/api/account/${b.passenger.id}`, { token: a.token }), 403, 'PERMISSION_DENIED')
  err(await t.call('GET', `/api/account/${a.passenger.id}`), 401, 'INVALID_SESSION')
  for (const q of [
    'from=2026-13-01',
    'from=2026-02-30',
    'from=yesterday',
    'to=2026-03-01&from=2026-03-02',
    'page=2',
    'from=2026-03-01&from=2026-03-02',
  ]) {
    err(await t.call('GET', `/api/account/${a.passenger.id}?${q}`, { token: a.token }), 400, 'VALIDATION_FAILED')
  }
})

// Debits at the same moment on separate connections: on PostgreSQL, in migrate.test.ts
// (PGlite runs one transaction at a time, so it cannot show a race).
test('ledger: debits stop at the balance; an insufficient one changes nothing', async () => {
  const s = await t.signUp('01911000008')
  const id = s.passenger.id
  await t.db.transaction((tx) => credit(tx, { passengerId: id, amount: 1000, kind: 'TOP_UP', description: 'Top-up', reservationId: null }))
  const ledgerBefore = await count(t.db, 'ledger')
  const results: (number | null)[] = []
  for (let i = 0; i < 5; i++) {
    results.push(
      await t.db.transaction((tx) =>
        debit(tx, { passengerId: id, amount: 300, kind: 'TICKET_PAYMENT', description: `Ticket ${i}`, reservationId: i + 1 }),
      ),
    )
  }
  assert.equal(results, [700, 400, 100, null, null])
  assert.is(await count(t.db, 'ledger'), ledgerBefore + 3)
  const [p] = await t.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [id])
  assert.is(p!.balance, 100)
  const none = await t.db.transaction((tx) =>
    debit(tx, { passengerId: id, amount: 101, kind: 'TICKET_PAYMENT', description: 'x', reservationId: null }),
  )
  assert.is(none, null)
  assert.is(await count(t.db, 'ledger'), ledgerBefore + 3)
})

test('contact us: stores the message, answers its id, e-mails a receipt; malformed is 400', async () => {
  const before = await count(t.db, 'contact_messages')
  const body = { name: 'Sadia Islam', email: 'sadia@example.com', mobile: '01711111111', subject: 'Lost bag', message: 'I left a bag on coach 101.' }
  const r = await t.call('POST', '/api/reservation/contactUs', { body })
  assert.is(r.status, 200, r.text)
  assert.ok(r.body.data.id > 0)
  const [row] = await t.db.query<{ subject: string; mobile: string }>('SELECT subject, mobile FROM contact_messages WHERE id = $1', [r.body.data.id])
  assert.equal(row, { subject: 'Lost bag', mobile: '01711111111' })
  const mail = await t.call('GET', '/dev/outbox?to=sadia@example.com')
  assert.is(mail.body.data[0].channel, 'EMAIL')
  assert.ok(mail.body.data[0].subject.includes(String(r.body.data.id)))
  assert.is((await t.call('POST', '/api/reservation/contactUs', { body: { ...body, mobile: '' } })).status, 200)
  for (const bad of [
    {},
    { ...body, email: 'nope' },
    { ...body, mobile: '123' },
    { ...body, message: 'x'.repeat(2001) },
    { ...body, subject: '   ' },
    { ...body, extra: true },
  ]) {
    err(await t.call('POST', '/api/reservation/contactUs', { body: bad }), 400, 'VALIDATION_FAILED')
  }
  assert.is(await count(t.db, 'contact_messages'), before + 2)
})

test('contact us as a spam relay: the receipt never repeats the sender text; 5 messages per address an hour, 3 receipts per e-mail a day', async () => {
  const spam = {
    name: 'BUY CHEAP PILLS http://spam.example',
    email: 'victim@example.com',
    subject: 'Click http://spam.example/now',
    message: 'Visit http://spam.example',
  }
  const send = (body: object, ip: string) =>
    t.app
      .inject({ method: 'POST', url: '/api/reservation/contactUs', payload: body, remoteAddress: ip })
      .then((r) => ({ status: r.statusCode, body: r.json() }))
  const first = await send(spam, '198.51.100.1')
  assert.is(first.status, 200)
  const [mail] = (await t.call('GET', '/dev/outbox?to=victim@example.com')).body.data
  for (const text of [mail.subject, mail.body]) {
    for (const echoed of ['PILLS', 'spam.example', 'Click', 'Visit']) assert.not.ok(text.includes(echoed), `receipt repeats "${echoed}": ${text}`)
  }
  assert.match(mail.body, `We received your message #${first.body.data.id}`)
  // three receipts a day to one address, whoever sends them
  assert.is((await send(spam, '198.51.100.2')).status, 200)
  assert.is((await send(spam, '198.51.100.3')).status, 200)
  const fourth = await send(spam, '198.51.100.4')
  assert.is(fourth.status, 429)
  assert.is(fourth.body.error.code, 'TOO_MANY_ATTEMPTS')
  assert.match(fourth.body.error.reason, 'for this e-mail address today')
  // five messages an hour from one address, to any e-mail addresses
  const codes: number[] = []
  for (let i = 0; i < 6; i++) codes.push((await send({ ...spam, email: `list${i}@example.com` }, '198.51.100.50')).status)
  assert.equal(codes, [200, 200, 200, 200, 200, 429])
  const [n] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_messages WHERE "to" LIKE \'list%@example.com\'')
  assert.is(n!.n, 5)
  t.clock.advance(61 * 60_000)
  assert.is((await send({ ...spam, email: 'list9@example.com' }, '198.51.100.50')).status, 200)
  t.clock.advance(23 * 60 * 60_000)
  assert.is((await send(spam, '198.51.100.4')).status, 200)
})

test('dev outbox: newest first, filter by recipient; absent in production', async () => {
  const all = await t.call('GET', '/dev/outbox')
  assert.is(all.status, 200)
  const ids = all.body.data.map((m: { id: number }) => m.id)
  assert.equal(
    ids,
    [...ids].sort((x: number, y: number) => y - x),
  )
  assert.ok(api.contactUs && all.body.data.every((m: { createdAt: string }) => m.createdAt.endsWith('+06:00')))
  const one = await t.call('GET', '/dev/outbox?to=01911000001')
  assert.ok(one.body.data.length >= 1 && one.body.data.every((m: { to: string }) => m.to === '01911000001'))
  const prod = await startTestApp({ daysAhead: 0, production: true })
  try {
    const r = await prod.call('GET', '/dev/outbox')
    err(r, 404, 'NOT_FOUND')
  } finally {
    await prod.close()
  }
})

test.run()
