import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { buildIcs, dhakaLocal, escapeText, fold, utcStamp } from './ics.ts'

const event = {
  uid: 'reservation-41@nodiexpress.com.bd',
  start: '2026-11-23T22:30:00+06:00',
  end: '2026-11-24T04:00:00+06:00',
  summary: 'Bus Dhaka to Chattogram, coach NX-101, seats A1, A2',
  location: 'Kalabagan; Road 1',
  description: 'PNR ABCDEFGHJK\nPIN 1234',
  stamp: '2026-11-22T10:00:00Z',
}

test('the departure is a Dhaka wall-clock time with its zone', () => {
  const ics = buildIcs(event)
  assert.ok(ics.includes('\r\nDTSTART;TZID=Asia/Dhaka:20261123T223000\r\n'))
  assert.ok(ics.includes('\r\nDTEND;TZID=Asia/Dhaka:20261124T040000\r\n'))
  assert.ok(ics.includes('BEGIN:VTIMEZONE\r\nTZID:Asia/Dhaka\r\n'))
  assert.ok(ics.includes('TZOFFSETTO:+0600'))
  assert.ok(ics.includes('DTSTAMP:20261122T100000Z'))
})

test('instants given in UTC land on the Dhaka clock', () => {
  assert.is(dhakaLocal('2026-11-23T18:00:00Z'), '20261124T000000')
  assert.is(utcStamp('2026-11-23T22:30:00+06:00'), '20261123T163000Z')
})

test('the file is well formed: CRLF, one event, text escaped', () => {
  const ics = buildIcs(event)
  assert.ok(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n'))
  assert.ok(ics.endsWith('END:VCALENDAR\r\n'))
  assert.is(ics.split('BEGIN:VEVENT').length, 2)
  assert.not.match(ics, /[^\r]\n/)
  assert.ok(ics.includes('LOCATION:Kalabagan\\; Road 1'))
  assert.ok(ics.includes('DESCRIPTION:PNR ABCDEFGHJK\\nPIN 1234'))
  assert.is(escapeText('a,b\\c'), 'a\\,b\\\\c')
})

test('long lines fold at 75 octets without splitting a character', () => {
  const line = 'SUMMARY:' + 'ঢাকা থেকে চট্টগ্রাম '.repeat(10)
  const folded = fold(line)
  const enc = new TextEncoder()
  for (const part of folded.split('\r\n')) assert.ok(enc.encode(part).length <= 75, part)
  assert.is(folded.split('\r\n ').join(''), line)
})

test.run()
