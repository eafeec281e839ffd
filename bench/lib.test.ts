import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fig, median, ms } from './lib.ts'

test('a budget held "every run" fails on one slow run that the median hides, and says so', () => {
  const runs = [90, 120, 140, 150, 410]
  const byMedian = fig('TBT', median(runs), ms, { samples: runs, max: 200 })
  const everyRun = fig('TBT', median(runs), ms, { samples: runs, max: 200, every: true })
  assert.is(byMedian.pass, true)
  assert.is(everyRun.pass, false)
  assert.is(everyRun.value, '140 ms')
  assert.is(everyRun.spread, '90.0 ms – 410 ms (n=5)')
  assert.is(everyRun.budget, '≤ 200 ms every run')
  assert.is(fig('TBT', median(runs), ms, { samples: [90, 120, 199], max: 200, every: true }).pass, true)
})

test.run()
