import { test } from 'uvu'
import * as assert from 'uvu/assert'
import {
  addDays,
  dhakaFields,
  formatBrowserDate,
  formatCalendarDate,
  formatDate,
  formatDateTime,
  formatTime,
  startOfDayInDhaka,
  todayInDhaka,
} from './dhaka-dates.ts'
import { formatWeekdayDate } from './weekday-date.ts'
import { formatCountdown, startOfMonthInDhaka } from '../src/lib/dates.ts'

// 20:30 in Dhaka (UTC+6) on 22 Nov 2026, i.e. 14:30 UTC
const evening = '2026-11-22T14:30:00Z'
// 00:15 on 23 Nov in Dhaka is still 22 Nov in UTC: the formatted date must follow Dhaka
const afterMidnight = '2026-11-22T18:15:00Z'

test('formats in Asia/Dhaka whatever the process time zone', () => {
  assert.is(formatDate(evening), 'Nov 22, 2026')
  assert.is(formatTime(evening), '08:30 PM')
  assert.is(formatDateTime(evening), 'Nov 22, 2026 08:30 PM')
  assert.is(formatBrowserDate(evening), '2026-11-22')
  assert.is(formatDate(afterMidnight), 'Nov 23, 2026')
  assert.is(formatTime(afterMidnight), '12:15 AM')
})

test('accepts ISO strings with offsets, Dates and epoch ms', () => {
  assert.is(formatTime('2026-11-22T08:05:00+06:00'), '08:05 AM')
  assert.is(formatTime(new Date('2026-11-22T06:00:00Z')), '12:00 PM')
})

test('bn uses Bengali digits and month names', () => {
  assert.is(formatDate(evening, 'bn'), 'নভে ২২, ২০২৬')
  assert.is(formatTime(evening, 'bn'), '০৮:৩০ PM')
  // values for inputs stay ASCII
  assert.is(formatBrowserDate(evening), '2026-11-22')
})

test('a weekday date names the Dhaka day, in Bengali words and digits in bn', () => {
  // 2026-12-02 is a Wednesday; 00:15 there is still 1 Dec (Tuesday) in UTC
  assert.is(formatWeekdayDate('2026-12-02T08:00:00+06:00'), 'Wed 2 Dec')
  assert.is(formatWeekdayDate('2026-12-01T18:15:00Z'), 'Wed 2 Dec')
  assert.is(formatWeekdayDate('2026-12-02T08:00:00+06:00', 'bn'), 'বুধ ২ ডিসে')
  assert.is(formatWeekdayDate('2026-11-29T08:00:00+06:00', 'bn'), 'রবি ২৯ নভে')
})

test('today and start of month follow the Dhaka calendar', () => {
  assert.is(todayInDhaka(afterMidnight), '2026-11-23')
  assert.is(startOfMonthInDhaka(afterMidnight), '2026-11-01')
  assert.is(startOfMonthInDhaka('2026-11-30T18:30:00Z'), '2026-12-01')
})

test('start of a Dhaka day is 18:00 UTC the day before', () => {
  assert.is(startOfDayInDhaka('2026-11-23').toISOString(), '2026-11-22T18:00:00.000Z')
  assert.is(formatCalendarDate('2026-11-23'), 'Nov 23, 2026')
})

test('countdowns read m:ss in the locale digits; calendar dates move across month and year ends', () => {
  assert.is(formatCountdown(180, 'en'), '3:00')
  assert.is(formatCountdown(119, 'en'), '1:59')
  assert.is(formatCountdown(1, 'bn'), '০:০১')
  assert.is(addDays('2026-12-31', 1), '2027-01-01')
  assert.is(addDays('2028-03-01', -1), '2028-02-29')
})

test('the fixed UTC+06:00 fields agree with the time-zone database for Asia/Dhaka, 2010 to 2040', () => {
  const zone = new Intl.DateTimeFormat('en-US', {
    timeZone: 'Asia/Dhaka',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  })
  // every 7 days and 5 hours and 13 minutes: all hours, weekdays and month ends come round
  for (let t = Date.UTC(2010, 0, 1); t < Date.UTC(2040, 0, 1); t += (7 * 24 * 60 + 5 * 60 + 13) * 60_000) {
    const parts = Object.fromEntries(zone.formatToParts(t).map((p) => [p.type, Number(p.value)]))
    const want = { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour! % 24, minute: parts.minute }
    assert.equal(dhakaFields(t), want, new Date(t).toISOString())
  }
})

test('invalid input throws', () => {
  assert.throws(() => formatDate('not a date'))
  assert.throws(() => startOfDayInDhaka('22/11/2026'))
})

test.run()
