import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { mulberry32 } from '../server/lib/seeded-random.ts'
import { fifoViolations, ranks, spearman } from './order.ts'

test('ranks share the mean rank among ties', () => {
  assert.equal(ranks([30, 10, 20, 10]), [4, 1.5, 3, 1.5])
})

test("Spearman's rho is 1 for the same order, -1 for the reverse, and follows the ranks only", () => {
  assert.is(spearman([1, 2, 3, 4, 5], [10, 20, 30, 40, 50]), 1)
  assert.is(spearman([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]), -1)
  // monotone but not linear: still 1
  assert.is(spearman([1, 2, 3, 4], [1, 8, 27, 1000]), 1)
  // d² = 0+1+1+1+1 → 1 - 6·4/(5·24) = 0.8
  assert.ok(Math.abs(spearman([1, 2, 3, 4, 5], [1, 3, 2, 5, 4]) - 0.8) < 1e-12)
})

test("Spearman's rho of a random draw against arrival is near 0; NaN when undefined", () => {
  const rnd = mulberry32(42)
  const arrival = Array.from({ length: 10_000 }, (_, i) => i)
  const draw = arrival.map(() => rnd())
  assert.ok(Math.abs(spearman(arrival, draw)) < 0.05)
  assert.ok(Number.isNaN(spearman([1, 2], [2, 1])))
  assert.ok(Number.isNaN(spearman([1, 1, 1], [1, 2, 3])))
  assert.throws(() => spearman([1, 2, 3], [1, 2]))
})

test('FIFO: none out of turn when served in arrival order, ties and the still waiting at the back allowed', () => {
  assert.is(
    fifoViolations([
      { came: 1, served: 10 },
      { came: 2, served: 10 },
      { came: 2, served: 11 },
      { came: 3, served: null },
      { came: 4, served: null },
    ]),
    0,
  )
  assert.is(fifoViolations([]), 0)
})

test('FIFO: counts each place served before one that came earlier', () => {
  // 2, 3 and 4 are served while 1 still waits (3 also before 2)
  assert.is(
    fifoViolations([
      { came: 1, served: null },
      { came: 2, served: 20 },
      { came: 3, served: 15 },
      { came: 4, served: 30 },
    ]),
    3,
  )
  // a place served at the same moment as an earlier one is in turn
  assert.is(
    fifoViolations([
      { came: 2, served: 5 },
      { came: 1, served: 5 },
    ]),
    0,
  )
})

test('FIFO with a tolerance: places that came within it of each other may swap, farther ones may not', () => {
  const places = [
    { came: 10.0, served: 2 },
    { came: 10.4, served: 1 },
    { came: 12.0, served: 1.5 },
  ]
  assert.is(fifoViolations(places), 2)
  assert.is(fifoViolations(places, 1), 1, 'the one that came 2 s after the first was served before it')
  assert.is(fifoViolations(places, 5), 0)
})

test.run()
