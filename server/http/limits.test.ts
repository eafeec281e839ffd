/** Database-kept limits: counting, waiting, releasing, and the address key of IPv4 and IPv6 clients. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { AppError } from '../core.ts'
import { addressKey, check, take, waitSeconds, type Limit } from '../http/limits.ts'
import { startTestApp } from '../test/helpers.ts'

test('addressKey: IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /48 (IPV6_CLIENT_PREFIX: another prefix)', () => {
  assert.is(addressKey('203.0.113.7'), '203.0.113.7')
  assert.is(addressKey('::ffff:203.0.113.7'), '203.0.113.7')
  assert.is(addressKey('2001:db8:85a3:1:aaaa:bbbb:cccc:dddd'), '2001:db8:85a3::/48')
  assert.is(addressKey('2001:0db8:85a3:0001:0000:0000:0000:0001'), '2001:db8:85a3::/48')
  assert.is(addressKey('2001:db8::1'), '2001:db8:0::/48')
  assert.is(addressKey('::1'), '0:0:0::/48')
  // many addresses in one /48, in as many /64 networks: one client
  const oneSite = Array.from({ length: 200 }, (_, i) => `2001:db8:85a3:${(i * 331).toString(16)}:${i.toString(16)}::${i + 1}`)
  assert.equal([...new Set(oneSite.map((a) => addressKey(a)))], ['2001:db8:85a3::/48'])
  assert.is(addressKey('2001:db8:85a4::1'), '2001:db8:85a4::/48')
  assert.is(addressKey('2001:db8:85a3:1:aaaa:bbbb:cccc:dddd', 64), '2001:db8:85a3:1::/64')
  assert.is(addressKey('2001:db8::1', 64), '2001:db8:0:0::/64')
  assert.is(addressKey('2001:db8:85a3:12ff::1', 56), '2001:db8:85a3:1200::/56')
})

test('take counts up to max, then refuses with the minutes to wait; release gives a slot back', async () => {
  const t = await startTestApp({ daysAhead: 0, now: new Date('2026-11-24T06:00:00Z') })
  try {
    const limit: Limit = { bucket: 'test', max: 3, windowMs: 10 * 60_000 }
    const now = () => t.clock.now()
    const slots = []
    for (let i = 0; i < 3; i++) {
      slots.push(await take(t.db, limit, 'k', now()))
      t.clock.advance(60_000)
    }
    const refused = await take(t.db, limit, 'k', now()).catch((e: unknown) => e)
    assert.ok(refused instanceof AppError)
    assert.is(refused.code, 'TOO_MANY_ATTEMPTS')
    // the oldest event leaves the window 10 minutes after it: 7 minutes from now
    assert.equal(refused.values, { minutes: 7 })
    assert.is(refused.retryAfterSeconds, 420)
    assert.is(await waitSeconds(t.db, limit, 'k', now()), 420, 'a refusal does not count')
    await take(t.db, limit, 'other', now())
    await slots[1]!.release()
    await check(t.db, limit, 'k', now())
    await take(t.db, limit, 'k', now())
    assert.ok((await check(t.db, limit, 'k', now()).catch((e: unknown) => e)) instanceof AppError)
    t.clock.advance(7 * 60_000)
    await take(t.db, limit, 'k', now())
  } finally {
    await t.close()
  }
})

test('SMS budget: sign-ups spend at most SMS_SIGNUP_SHARE of it and one /48 is one address; existing accounts still get login codes', async () => {
  const t = await startTestApp({ config: { smsHourlyBudget: 10, smsSignupShare: 50, smsLimitPerAddress: 3 } })
  try {
    const from = async (address: string, url: string, body: unknown) => {
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload: body as object,
        remoteAddress: address,
        headers: { accept: 'application/json' },
      })
      return { status: res.statusCode, body: res.json() }
    }
    const signUp = (address: string, mobile: string) =>
      from(address, '/api/register', { mobile, fullName: 'Flood', email: 'flood@example.com', city: 'Dhaka', password: 'Flood@1234' })
    const smsTo = async (mobiles: string[]) =>
      (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_messages WHERE channel = 'SMS' AND "to" = ANY($1)`, [mobiles]))[0]!.n

    // one /48, five /64 networks: one address, SMS_LIMIT_PER_ADDRESS (3) codes
    const site = await Promise.all([1, 2, 3, 4, 5].map((n) => signUp(`2001:db8:aa:${n}::1`, `0181230000${n}`)))
    assert.equal(site.map((r) => r.status).sort(), [200, 200, 200, 429, 429])
    assert.ok(site.filter((r) => r.status === 429).every((r) => r.body.error.code === 'TOO_MANY_REQUESTS'))

    // a flood of sign-ups to unknown numbers from many addresses: 5 (50 % of 10) in all, then refused
    const flood = await Promise.all(Array.from({ length: 8 }, (_, i) => signUp(`198.18.0.${i + 1}`, `0181230010${i}`)))
    assert.equal(flood.map((r) => r.status).sort(), [200, 200, 503, 503, 503, 503, 503, 503])
    assert.ok(flood.filter((r) => r.status === 503).every((r) => r.body.error.code === 'SMS_PROVIDER_SERVICE_UNAVAILABLE'))

    // existing accounts get their login and reset codes: the other half of the budget
    const accounts = ['01812300201', '01812300202', '01812300203', '01812300204', '01812300205', '01812300206']
    for (const m of accounts) {
      await t.db.query(
        `INSERT INTO passengers (mobile, full_name, email, city, password_hash, status, balance, created_at)
         VALUES ($1, 'Existing', 'existing@example.com', 'Dhaka', NULL, 'ACTIVE', 0, $2)`,
        [m, t.clock.now()],
      )
    }
    // a number with no account is answered alike, but sends nothing and spends nothing
    const unknown = await from('198.18.1.1', '/api/sendOtp', { mobile: '01812300299', purpose: 'LOGIN' })
    assert.is(unknown.status, 200, JSON.stringify(unknown.body))
    assert.is(await smsTo(['01812300299']), 0)
    const codes = []
    for (const [i, m] of accounts.entries()) {
      codes.push(await from(`198.18.2.${i + 1}`, '/api/sendOtp', { mobile: m, purpose: i % 2 ? 'RESET_PASSWORD' : 'LOGIN' }))
    }
    assert.equal(
      codes.map((r) => r.status),
      [200, 200, 200, 200, 200, 503],
    )
    assert.is(await smsTo(accounts), 5)
    // the whole budget spent: a number with no account is refused alike
    const unknownAfter = await from('198.18.1.2', '/api/sendOtp', { mobile: '01812300298', purpose: 'LOGIN' })
    assert.equal([unknownAfter.status, unknownAfter.body.error.code], [503, 'SMS_PROVIDER_SERVICE_UNAVAILABLE'])
  } finally {
    await t.close()
  }
})

test.run()
