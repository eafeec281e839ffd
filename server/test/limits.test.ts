/** Database-kept limits: counting, waiting, releasing, and the address key of IPv4 and IPv6 clients. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { AppError } from '../http/handle.ts'
import { addressKey, check, take, waitSeconds, type Limit } from '../http/limits.ts'
import { startTestApp } from './helpers.ts'

test('addressKey: IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64', () => {
  assert.is(addressKey('203.0.113.7'), '203.0.113.7')
  assert.is(addressKey('::ffff:203.0.113.7'), '203.0.113.7')
  assert.is(addressKey('2001:db8:85a3:1:aaaa:bbbb:cccc:dddd'), '2001:db8:85a3:1::/64')
  assert.is(addressKey('2001:0db8:85a3:0001:0000:0000:0000:0001'), '2001:db8:85a3:1::/64')
  assert.is(addressKey('2001:db8:85a3:1::1'), '2001:db8:85a3:1::/64')
  assert.is(addressKey('2001:db8::1'), '2001:db8:0:0::/64')
  assert.is(addressKey('::1'), '0:0:0:0::/64')
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

test.run()
