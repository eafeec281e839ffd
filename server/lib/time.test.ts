/**
 * Asia/Dhaka calendar and clock arithmetic (time.ts): Dhaka dates and day starts,
 * days and time added, time between instants, and the fixed-offset instant format
 * checked against Temporal's Asia/Dhaka time zone.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Temporal } from 'temporal-polyfill'
import { addDays, addDhakaDays, addTime, calendarDays, dhakaDate, dhakaDayStart, dhakaIsoOrNull, timeBetween, toDhakaIso } from '../lib/time.ts'

test('toDhakaIso writes the instant in Asia/Dhaka to the second, as Temporal does, from 2010 to 2100', () => {
  const from = Date.parse('2010-01-01T00:00:00Z')
  const to = Date.parse('2100-12-31T23:59:59Z')
  // 2000 instants spread over the range, with milliseconds (they are cut, not rounded)
  for (let i = 0; i < 2000; i++) {
    const ms = Math.floor(from + ((to - from) * i) / 1999) + (i % 1000)
    const temporal = Temporal.Instant.fromEpochMilliseconds(ms).toString({ timeZone: 'Asia/Dhaka', smallestUnit: 'second' })
    assert.is(toDhakaIso(ms), temporal, new Date(ms).toISOString())
  }
  assert.is(toDhakaIso(new Date('2026-11-22T02:30:59.999Z')), '2026-11-22T08:30:59+06:00')
  assert.is(toDhakaIso('2026-12-31T18:00:00Z'), '2027-01-01T00:00:00+06:00')
  assert.is(dhakaIsoOrNull(null), null)
})

test('dhakaDate: the date in Dhaka, which turns at 18:00 UTC', () => {
  assert.is(dhakaDate(new Date('2026-11-22T17:59:59.999Z')), '2026-11-22')
  assert.is(dhakaDate(new Date('2026-11-22T18:00:00Z')), '2026-11-23')
  assert.is(dhakaDate(Date.parse('2028-02-28T18:00:00Z')), '2028-02-29')
})

test('dhakaDate and addTime agree with Temporal (Asia/Dhaka, Instant.add) from 2010 to 2100', () => {
  const from = Date.parse('2010-01-01T00:00:00Z')
  const to = Date.parse('2100-12-31T23:59:59Z')
  for (let i = 0; i < 2000; i++) {
    // spread over the range, and each side of 18:00 UTC, when the Dhaka date turns
    const ms = Math.floor(from + ((to - from) * i) / 1999) + (i % 2 ? 18 * 3_600_000 - 1 : 0)
    const at = Temporal.Instant.fromEpochMilliseconds(ms)
    assert.is(dhakaDate(ms), at.toZonedDateTimeISO('Asia/Dhaka').toPlainDate().toString(), new Date(ms).toISOString())
    // Temporal refuses mixed signs, so callers never mix them
    const sign = i % 3 ? 1 : -1
    const duration = { hours: sign * (i % 7), minutes: sign * (i % 61), seconds: sign * (i % 3600), milliseconds: sign * (i % 2001) }
    assert.is(addTime(new Date(ms), duration).getTime(), at.add(duration).epochMilliseconds, JSON.stringify(duration))
  }
})

test('dhakaDayStart: midnight in Dhaka, and the date of that instant is the date again', () => {
  assert.equal(dhakaDayStart('2026-11-23'), new Date('2026-11-22T18:00:00Z'))
  for (const d of ['2026-01-01', '2028-02-29', '2099-12-31']) assert.is(dhakaDate(dhakaDayStart(d)), d)
})

test('addDays: calendar days across month, year and leap-day ends', () => {
  assert.is(addDays('2026-11-30', 1), '2026-12-01')
  assert.is(addDays('2026-12-31', 1), '2027-01-01')
  assert.is(addDays('2028-02-28', 1), '2028-02-29')
  assert.is(addDays('2028-03-01', -1), '2028-02-29')
  assert.is(addDays('2026-11-22', 30), '2026-12-22')
})

test('addDhakaDays keeps the wall-clock time; addTime adds exact time, either way', () => {
  const at = new Date('2026-11-22T02:30:00Z')
  assert.equal(addDhakaDays(at, 30), new Date('2026-12-22T02:30:00Z'))
  assert.equal(addDhakaDays(at, -1), new Date('2026-11-21T02:30:00Z'))
  assert.equal(addTime(at, { minutes: 15 }), new Date('2026-11-22T02:45:00Z'))
  assert.equal(addTime(at, { hours: -2 }), new Date('2026-11-22T00:30:00Z'))
  assert.equal(addTime(at, { seconds: 180 }), new Date('2026-11-22T02:33:00Z'))
  assert.equal(addTime(at, { milliseconds: -1 }), new Date('2026-11-22T02:29:59.999Z'))
})

test('timeBetween: exact fractions, negative when the second instant is earlier', () => {
  const a = new Date('2026-11-22T02:30:00Z')
  assert.is(timeBetween(a, new Date('2026-11-24T02:30:00Z'), 'hours'), 48)
  assert.is(timeBetween(a, new Date('2026-11-24T02:29:59.999Z'), 'hours') < 48, true)
  assert.is(timeBetween(a, new Date('2026-11-22T08:15:30Z'), 'minutes'), 345.5)
  assert.is(timeBetween(a, new Date('2026-11-22T02:29:00Z'), 'seconds'), -60)
  assert.is(timeBetween(a, new Date('2026-11-22T02:30:00.250Z'), 'milliseconds'), 250)
})

test('calendarDays: each day from first to last with its ISO weekday', () => {
  assert.equal(calendarDays('2026-11-28', '2026-12-02'), {
    dates: ['2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02'],
    weekdays: [6, 7, 1, 2, 3],
  })
  assert.equal(calendarDays('2026-11-28', '2026-11-27'), { dates: [], weekdays: [] })
})

test.run()
