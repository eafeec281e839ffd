import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { defer, every, fakeClock, now } from './clock.ts'

test('a fake clock stands still until moved; setting the time runs no timer', () => {
  const clock = fakeClock(1_000)
  let ticks = 0
  every(1000, () => ticks++)
  assert.is(now(), 1_000)
  clock.now = 50_000
  assert.is(now(), 50_000)
  assert.is(ticks, 0)
})

test('advance runs each timer as often as it falls due, at its own time, until stopped', () => {
  const clock = fakeClock(0)
  const seen: number[] = []
  const stop = every(1000, () => seen.push(now()))
  clock.advance(2_500)
  assert.equal(seen, [1000, 2000])
  assert.is(now(), 2_500)
  assert.is(clock.timers, 1)
  stop()
  clock.advance(5_000)
  assert.equal(seen, [1000, 2000])
  assert.is(clock.timers, 0)
})

test('deferred tasks run after the current task', async () => {
  fakeClock(0)
  const order: string[] = []
  defer(() => order.push('deferred'))
  order.push('now')
  await Promise.resolve()
  assert.equal(order, ['now', 'deferred'])
})

test.run()
