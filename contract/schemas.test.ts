/** The contract's primitives at their edges: ids (int4), calendar dates, storable text. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { MAX_ID, extendBookingRequest, id, instantInput, isCalendarDate, isInstant, isoDate, isStorableText } from './schemas.ts'
import { deviceIdPattern } from './values.ts'

test('id: a positive int4', () => {
  for (const v of [1, 2, MAX_ID]) assert.ok(id.safeParse(v).success, String(v))
  for (const v of [0, -1, 1.5, MAX_ID + 1, 2 ** 53, 1e308, Number.NaN, '1']) assert.not.ok(id.safeParse(v).success, String(v))
})

test('isoDate: real calendar dates from 1900 to 2199', () => {
  for (const v of ['2026-02-28', '2024-02-29', '2000-02-29', '1900-01-01', '2199-12-31', '2026-12-31']) {
    assert.ok(isoDate.safeParse(v).success, v)
    assert.ok(isCalendarDate(v), v)
  }
  for (const v of [
    '2026-02-30',
    '2023-02-29',
    '2100-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '1899-12-31',
    '2200-01-01',
    '0001-01-01',
    '9999-12-31',
    '2026-1-1',
    '2026-01-01T00:00',
    ' 2026-01-01',
    '2026-01-01\u0000',
  ]) {
    assert.not.ok(isoDate.safeParse(v).success, v)
    assert.not.ok(isCalendarDate(v), v)
  }
})

test('instantInput: ISO-8601 instants with Z or an offset on a real date and time; 30 February is not 2 March', () => {
  for (const v of [
    '2026-11-22T08:30:00+06:00',
    '2026-11-22T02:30:00.123Z',
    '2026-11-22T02:30Z',
    '2024-02-29T23:59:59.999999999-05:30',
    new Date(Date.UTC(2026, 1, 28, 18)).toISOString(),
  ]) {
    assert.ok(instantInput.safeParse(v).success, v)
    assert.ok(isInstant(v), v)
  }
  for (const v of [
    '2026-02-30T10:00:00Z',
    '2026-02-30T10:00:00+06:00',
    '2023-02-29T10:00:00Z',
    '2026-04-31T10:00:00Z',
    '2026-13-45T99:00:00Z',
    '2026-11-22T24:00:00Z',
    '2026-11-22T10:60:00Z',
    '2026-11-22T10:00:60Z',
    '2026-11-22T10:00:00+24:00',
    '2026-11-22T10:00:00',
    '2026-11-22',
    'tomorrow',
    '',
  ]) {
    assert.not.ok(instantInput.safeParse(v).success, v)
    assert.not.ok(isInstant(v), v)
  }
  assert.not.ok(extendBookingRequest.safeParse({ reservationId: 1, expirationTime: '2026-02-30T10:00:00Z' }).success)
  assert.ok(extendBookingRequest.safeParse({ reservationId: 1, expirationTime: '2026-03-02T10:00:00Z' }).success)
})

test('isStorableText: no NUL, no unpaired surrogate; pairs and other controls are fine', () => {
  for (const v of ['', 'plain', 'ঢাকা', '😀', 'a\u0001b', 'tab\there', '\ud83d\ude00x']) assert.ok(isStorableText(v), JSON.stringify(v))
  for (const v of ['\u0000', 'a\u0000', '\ud800', 'a\ud800b', '\udc00', 'x\ude00', '\ude00\ud83d', '😀\ud800'])
    assert.not.ok(isStorableText(v), JSON.stringify(v))
})

test('deviceIdPattern: the X-Device-Id values the server holds seats under, and the ids the app makes', () => {
  for (const v of ['0123456789abcdef0123456789abcdef', 'abcdefgh', 'A_b-9'.padEnd(64, 'x'), 'fuzz-device-0001']) assert.ok(deviceIdPattern.test(v), v)
  for (const v of ['', 'abcdefg', 'x'.repeat(65), 'bad device!', 'abc/defgh', 'ঢাকাঢাকাঢাকা', 'abcdefgh\n'])
    assert.not.ok(deviceIdPattern.test(v), JSON.stringify(v))
})

test.run()
