/** The in-memory answer cache behind trip search and trip rows (server/lib/memo.ts), also behind the waiting room's memory of a rush date (server/queue/memory.ts). */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { memoized } from '../lib/memo.ts'

function counting(fail = false) {
  const calls: number[] = []
  const load = async (n: number) => {
    calls.push(n)
    if (fail) throw new Error('down')
    return n * 2
  }
  return { calls, load }
}

test('calls within the time share one load, also while it runs; keys apart', async () => {
  const c = counting()
  const get = memoized(c.load, { ttlMs: () => 60_000, max: 10 })
  const [a, b] = await Promise.all([get(1), get(1)])
  assert.is(a, 2)
  assert.is(b, 2)
  assert.is(await get(1), 2)
  assert.is(await get(2), 4)
  assert.equal(c.calls, [1, 2])
})

test('a key function groups arguments', async () => {
  const calls: string[] = []
  const get = memoized(
    async (q: { k: string; extra: number }) => {
      calls.push(q.k)
      return q.extra
    },
    { ttlMs: () => 60_000, max: 10, key: (q) => q.k },
  )
  assert.is(await get({ k: 'a', extra: 1 }), 1)
  assert.is(await get({ k: 'a', extra: 2 }), 1, 'the first answer for the key')
  assert.equal(calls, ['a'])
})

test('no time (0): every call loads; a failed load is not kept', async () => {
  const c = counting()
  const none = memoized(c.load, { ttlMs: () => 0, max: 10 })
  await none(1)
  await none(1)
  assert.equal(c.calls, [1, 1])
  const f = counting(true)
  const failing = memoized(f.load, { ttlMs: () => 60_000, max: 10 })
  await failing(1).catch(() => undefined)
  await failing(1).catch(() => undefined)
  assert.equal(f.calls, [1, 1])
})

test('past max keys the memory starts over', async () => {
  const c = counting()
  const get = memoized(c.load, { ttlMs: () => 60_000, max: 2 })
  await get(1)
  await get(2)
  await get(3) // clears 1 and 2
  await get(1)
  assert.equal(c.calls, [1, 2, 3, 1])
})

test('stale: a kept answer its check calls stale is loaded again, and the new one kept', async () => {
  const calls: number[] = []
  const get = memoized(
    async (q: { k: string; v: number }) => {
      calls.push(q.v)
      return q.v
    },
    { ttlMs: () => 60_000, max: 10, key: (q) => q.k, stale: (q, held) => Math.abs(q.v - held.v) >= 10 },
  )
  assert.is(await get({ k: 'a', v: 1 }), 1)
  assert.is(await get({ k: 'a', v: 5 }), 1, 'within the check: kept')
  assert.is(await get({ k: 'a', v: 20 }), 20, 'past it: loaded again')
  assert.is(await get({ k: 'a', v: 25 }), 20, 'compared with the argument of the new answer')
  assert.equal(calls, [1, 20])
})

test.run()
