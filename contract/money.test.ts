import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { formatMoney } from './money.ts'

test('groups thousands and appends Tk', () => {
  assert.is(formatMoney(1200), '1,200 Tk')
  assert.is(formatMoney(0), '0 Tk')
  assert.is(formatMoney(1234567), '1,234,567 Tk')
  assert.is(formatMoney(-50), '-50 Tk')
})

test('bn uses Bengali digits and টাকা, grouped by the same rule as en', () => {
  assert.is(formatMoney(1200, 'bn'), '১,২০০ টাকা')
  assert.is(formatMoney(1234567, 'bn'), '১,২৩৪,৫৬৭ টাকা')
})

test.run()
