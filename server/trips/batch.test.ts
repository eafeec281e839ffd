/** The natural batcher behind seat locking (server/trips/batch.ts). */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { batched } from '../trips/batch.ts'

function recorder(concurrency: number) {
  const calls: number[][] = []
  let open = 0
  let maxOpen = 0
  const gates: (() => void)[] = []
  const run = batched(
    async (xs: number[]) => {
      calls.push(xs)
      open++
      maxOpen = Math.max(maxOpen, open)
      await new Promise<void>((r) => gates.push(r))
      open--
      if (xs.includes(-1)) throw new Error('boom')
      return xs.map((x) => x * 10)
    },
    { concurrency, maxBatch: 3 },
  )
  const release = async () => {
    while (gates.length) gates.shift()!()
    await new Promise((r) => setTimeout(r, 0))
  }
  return { run, calls, release, maxOpen: () => maxOpen }
}

const turn = () => new Promise((r) => setImmediate(r))

test('calls of one event-loop turn go together (at most maxBatch); calls made while one runs wait for it', async () => {
  const b = recorder(1)
  const first = [1, 2].map((x) => b.run(x))
  assert.equal(b.calls, [], 'nothing before the turn ends')
  await turn()
  assert.equal(b.calls, [[1, 2]])
  const rest = [3, 4, 5, 6, 7].map((x) => b.run(x))
  await turn()
  assert.is(b.calls.length, 1, 'waits while one call runs')
  for (let i = 0; i < 4; i++) await b.release()
  assert.equal(await Promise.all([...first, ...rest]), [10, 20, 30, 40, 50, 60, 70], 'each caller gets its own answer')
  assert.equal(b.calls, [
    [1, 2],
    [3, 4, 5],
    [6, 7],
  ])
  assert.is(b.maxOpen(), 1)
})

test('an idle batcher sends a lone call on the next turn', async () => {
  const b = recorder(1)
  const one = b.run(9)
  await turn()
  assert.equal(b.calls, [[9]])
  await b.release()
  assert.is(await one, 90)
})

test('concurrency allows that many calls side by side', async () => {
  const b = recorder(2)
  const all = [1, 2, 3, 4, 5].map((x) => b.run(x))
  await turn()
  assert.equal(b.calls, [
    [1, 2, 3],
    [4, 5],
  ])
  for (let i = 0; i < 4; i++) await b.release()
  assert.equal(await Promise.all(all), [10, 20, 30, 40, 50])
  assert.is(b.maxOpen(), 2)
})

test('a failing call rejects only its own batch; later calls go on', async () => {
  const b = recorder(1)
  const settled = Promise.allSettled([b.run(1), b.run(2), b.run(3), b.run(-1), b.run(5)])
  for (let i = 0; i < 4; i++) await b.release()
  const out = (await settled).map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))
  // 1, 2 and 3 went in the first batch (maxBatch 3); -1 and 5 in the second, which fails as a whole
  assert.equal(out, [10, 20, 30, 'boom', 'boom'])
  const next = b.run(4)
  await turn()
  await b.release()
  assert.is(await next, 40)
})

test.run()
