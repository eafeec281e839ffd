import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { formatMoney } from './money.ts'

test('groups thousands and appends Tk', () => {
  assert.is(formatMoney(1200), '1,200 Tk')
  assert.is(formatMoney(0), '0 Tk')
  assert.is(formatMoney(1234567), '1,234,567 Tk')
  assert.is(formatMoney(-50), '-50 Tk')
  assert.is(formatMoney(-1200), '-1,200 Tk')
  assert.is(formatMoney(999.6), '1,000 Tk')
})

test('groups as en-US number formatting does, for every size of amount', () => {
  for (const n of [0, 7, 99, 100, 999, 1000, 10000, 99999, 100000, 123456, 1000000, 98765432, 1234567890, -1, -1000, -123456]) {
    assert.is(formatMoney(n), `${n.toLocaleString('en-US')} Tk`)
  }
})

test('bn uses Bengali digits and টাকা, grouped by the same rule as en', () => {
  assert.is(formatMoney(1200, 'bn'), '১,২০০ টাকা')
  assert.is(formatMoney(1234567, 'bn'), '১,২৩৪,৫৬৭ টাকা')
})

test.run()
