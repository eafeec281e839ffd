import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Opener } from '../../api/streams.ts'
import { type FollowDeps, followAfterPaint } from './follow-after-paint.ts'

/** A page whose paint and stream code arrive when the test says. */
function stage(load: 'ok' | 'fails' = 'ok') {
  const painted: (() => void)[] = []
  const opener = (() => null) as Opener
  const log: string[] = []
  const deps: FollowDeps = {
    afterPaint: (fn) => painted.push(fn),
    loadOpener: () => {
      log.push('load')
      return load === 'ok' ? Promise.resolve(opener) : Promise.reject(new Error('offline'))
    },
  }
  const start = (open: Opener) => {
    log.push(open === opener ? 'follow' : 'follow with another opener')
    return () => log.push('stop')
  }
  const paint = () => {
    for (const fn of painted.splice(0)) fn()
  }
  return { paint, deps, start, log }
}

const settle = () => new Promise((r) => setTimeout(r, 0))

test('the live seat map starts only after the seat map has painted, its code fetched then', async () => {
  const s = stage()
  const stop = followAfterPaint(s.start, s.deps)
  await settle()
  assert.equal(s.log, [], 'nothing fetched or followed in the render that shows the seats')
  s.paint()
  await settle()
  assert.equal(s.log, ['load', 'follow'])
  stop()
  assert.equal(s.log, ['load', 'follow', 'stop'])
})

test('leaving before the paint: nothing is fetched or followed', async () => {
  const s = stage()
  const stop = followAfterPaint(s.start, s.deps)
  stop()
  s.paint()
  await settle()
  assert.equal(s.log, [])
})

test('leaving while the stream code is on its way: it is not followed', async () => {
  const s = stage()
  const stop = followAfterPaint(s.start, s.deps)
  s.paint()
  stop()
  await settle()
  assert.equal(s.log, ['load'])
})

test('stream code that cannot be fetched (offline): no follow, no unhandled rejection', async () => {
  const s = stage('fails')
  const stop = followAfterPaint(s.start, s.deps)
  s.paint()
  await settle()
  assert.equal(s.log, ['load'])
  stop()
})

test.run()
