/**
 * Live seat-map streams per address (server/trips/stream-slots.ts), on PGlite with two
 * "processes" (two slot counters on one database) and a test clock: the count is shared,
 * a process renews the leases of its open streams, and the places of one that stopped
 * renewing (it died) come back when their leases run out. Through nginx and real
 * processes on PostgreSQL: proxy-on-postgres.test.ts.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { AppError } from '../core.ts'
import { createStreamSlots } from '../trips/stream-slots.ts'
import { startTestApp, type TestApp } from '../test/helpers.ts'

let t: TestApp
test.before(async () => {
  t = await startTestApp()
})
test.after(async () => {
  await t.close()
})

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  )

test('the count is shared, renewed leases keep counting, released places and a silent process’s places come back', async () => {
  const now = () => t.clock.now()
  // a: renews every 20 ms (a lease of 60 ms); dead: its first renewal would be in an hour (a lease of 3 hours)
  const a = createStreamSlots(t.db, { max: 3, renewMs: 20, now })
  const dead = createStreamSlots(t.db, { max: 3, renewMs: 3_600_000, now })
  try {
    const mine = [await a.take('203.0.113.1', 1), await a.take('203.0.113.1', 2)]
    await dead.take('203.0.113.1', 1)
    const over = await refusal(a.take('203.0.113.1', 3))
    assert.ok(over instanceof AppError)
    assert.is(over.code, 'TOO_MANY_REQUESTS')
    assert.is(over.status, 429)
    assert.is(over.message, 'Too many requests. Please wait a moment.')
    assert.is(over.retryAfterSeconds, 30)
    assert.ok(await refusal(dead.take('203.0.113.1', 3)), 'the other process sees the same count')
    await dead.take('203.0.113.2', 3)

    // 4 hours later: a's leases were renewed meanwhile, the silent process's ran out
    t.clock.advance(4 * 3_600_000)
    for (let i = 0; i < 200; i++) {
      const [row] = await t.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM seat_streams WHERE address = '203.0.113.1' AND lease_until > $1",
        [now()],
      )
      if (row!.n === 2) break
      await new Promise((r) => setTimeout(r, 20))
    }
    const third = await a.take('203.0.113.1', 3)
    assert.ok(await refusal(a.take('203.0.113.1', 4)), 'a’s two renewed streams and the new one count')
    assert.is(a.held, 3)

    // a stream that ends gives its place back at once
    await mine[0]!.release()
    await mine[0]!.release()
    assert.is(a.held, 2)
    await a.take('203.0.113.1', 4)
    await third.release()
  } finally {
    await a.close()
    await dead.close()
  }
  const [left] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM seat_streams')
  assert.is(left!.n, 0, 'closing gives back every place a process held')
})

test('a refused open takes no transaction (a crowd behind one address is refused with one read)', async () => {
  let transactions = 0
  const counted = new Proxy(t.db, {
    get(target, key, receiver) {
      if (key === 'transaction') {
        return (fn: Parameters<typeof target.transaction>[0]) => {
          transactions++
          return target.transaction(fn)
        }
      }
      const v = Reflect.get(target, key, receiver)
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
  const slots = createStreamSlots(counted, { max: 2, renewMs: 3_600_000, now: () => t.clock.now() })
  try {
    await slots.take('203.0.113.9', 1)
    await slots.take('203.0.113.9', 2)
    const before = transactions
    const over = await refusal(slots.take('203.0.113.9', 3))
    assert.ok(over instanceof AppError)
    assert.is(over.code, 'TOO_MANY_REQUESTS')
    assert.is(transactions, before, 'the refusal took a transaction')
  } finally {
    await slots.close()
  }
})

test.run()
