/**
 * Input PostgreSQL would refuse with an error (a 500 INTERNAL_ERROR if it got there): ids past
 * int4, dates that are not on the calendar or far outside any sane range, NUL and
 * unpaired surrogates in strings. Each is 400 VALIDATION_FAILED naming the field,
 * and nothing is written.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fingerprint, diff } from '../test/fuzz/db-fingerprint.ts'
import { bookingBody, freeSeats, lockAndBook, lockBody, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'

const t = suite('bad input')
let f: Fixture
let who: { id: number; token: string; mobile: string }

t.before(async () => {
  f = await openFixture()
  who = await f.passenger({ balance: 5000 })
})
t.after(async () => {
  await f.close()
})

/** Sends the request and asserts a 400 VALIDATION_FAILED naming `field`, with no table changed. */
async function refused(method: string, url: string, body: unknown, field: string, token?: string): Promise<void> {
  const before = await fingerprint(f.db)
  const r = await f.api(method, url, body, { token })
  const what = `${method} ${url} ${JSON.stringify(body)?.slice(0, 120)} → ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`
  assert.is(r.status, 400, what)
  assert.is(r.body?.error?.code, 'VALIDATION_FAILED', what)
  const paths: string[] = (r.body.error.fields ?? []).map((x: { path: string }) => x.path)
  assert.ok(paths.includes(field), `${what}: fields should name ${field}`)
  assert.equal(diff(before, await fingerprint(f.db)), [], `${what}: nothing written`)
}

const BIG = 2 ** 31

t('an id of 2147483648 or more in any body is 400 naming the field', async () => {
  const trip = await pickTrip(f)
  const seats = await freeSeats(f, trip.id, 1)
  const base = {
    tripId: trip.id,
    originCode: trip.originCode,
    destinationCode: trip.destinationCode,
    originBusStationId: null,
    destinationBusStationId: null,
  }
  await refused('POST', '/api/reservation/tripDetails', { ...base, tripId: BIG }, 'tripId')
  await refused('POST', '/api/reservation/tripDetails', { ...base, originBusStationId: BIG }, 'originBusStationId')
  await refused('POST', '/api/reservation/seatLock', { ...lockBody(trip, seats), tripId: BIG }, 'tripId', who.token)
  await refused('POST', '/api/reservation/seatLock', { ...lockBody(trip, seats, false), tripId: 2 ** 40 }, 'tripId')
  await refused(
    'POST',
    '/api/busStationsByOriginDestinationAndTripDate',
    { originCode: trip.originCode, destinationCode: trip.destinationCode, tripDate: trip.tripDate, tripId: BIG },
    'tripId',
  )
  await refused('POST', '/api/reservation/booking', bookingBody(trip, seats, { boardingStationId: BIG }), 'boardingStationId', who.token)
  for (const url of ['/api/reservation/cancelBooking', '/api/reservation/payment', '/api/reservation/payFromBalance']) {
    await refused('POST', url, { reservationId: BIG }, 'reservationId', who.token)
  }
  // The largest int4 is still an id: simply not found.
  const r = await f.api('POST', '/api/reservation/tripDetails', { ...base, tripId: 2 ** 31 - 1 })
  assert.is(r.body.error.code, 'TRIP_NOT_FOUND')
})

t('seatLock with a date that is not on the calendar (2026-02-30) is 400 naming tripDate, to lock or unlock', async () => {
  const trip = await pickTrip(f, { skip: 3 })
  const seats = await freeSeats(f, trip.id, 1)
  for (const locked of [true, false]) {
    await refused('POST', '/api/reservation/seatLock', { ...lockBody(trip, seats, locked), tripDate: '2026-02-30' }, 'tripDate', who.token)
    await refused('POST', '/api/reservation/seatLock', { ...lockBody(trip, seats, locked), tripDate: '2027-13-01' }, 'tripDate')
  }
  await refused(
    'POST',
    '/api/reservation/tripSearch',
    { originCode: trip.originCode, destinationCode: trip.destinationCode, tripDate: '2026-02-30' },
    'tripDate',
  )
})

t('account dates outside 1900-2199 (from=0001-01-01&to=9999-12-31) are 400 naming them', async () => {
  await refused('GET', `/api/account/${who.id}?from=0001-01-01&to=9999-12-31`, undefined, 'from', who.token)
  await refused('GET', `/api/account/${who.id}?from=0001-01-01&to=9999-12-31`, undefined, 'to', who.token)
  await refused('GET', `/api/account/${who.id}?from=2026-01-01&to=9999-12-31`, undefined, 'to', who.token)
  await refused('GET', `/api/account/${who.id}?to=0999-01-01`, undefined, 'to', who.token)
  await refused('GET', `/api/account/${who.id}?from=1899-12-31`, undefined, 'from', who.token)
  await refused('GET', `/api/account/${who.id}?to=2200-01-01`, undefined, 'to', who.token)
  // The ends of the range are dates like any other.
  const r = await f.api('GET', `/api/account/${who.id}?from=1900-01-01&to=2199-12-31`, undefined, { token: who.token })
  assert.is(r.status, 200, JSON.stringify(r.body))
  assert.is(r.body.data.balance, 5000)
})

t('a NUL character in any text field, query value or path parameter is 400 naming it; nothing stored', async () => {
  const trip = await pickTrip(f, { skip: 6 })
  const seats = await freeSeats(f, trip.id, 1)
  const contact = { name: 'Ayesha', email: 'ayesha@example.com', subject: 'Refund', message: 'Hello' }
  await refused('POST', '/api/reservation/contactUs', { ...contact, name: 'Aye\u0000sha' }, 'name')
  await refused('POST', '/api/reservation/contactUs', { ...contact, message: 'Hello\u0000' }, 'message')
  await refused('POST', '/api/reservation/contactUs', { ...contact, email: 'a\u0000b@example.com' }, 'email')
  await refused(
    'POST',
    '/api/register',
    { mobile: '01812000999', fullName: 'New\u0000Passenger', email: 'n@example.com', city: 'Dhaka', password: 'Secret@123' },
    'fullName',
  )
  await refused('PUT', '/api/profile', { fullName: 'Test Passenger', email: 't@example.com', city: '\u0000' }, 'city', who.token)
  await refused('PUT', '/api/changePassword', { currentPassword: 'Secret@123\u0000', newPassword: 'Secret@1234' }, 'currentPassword', who.token)
  await refused('POST', '/api/checkPassenger', { mobile: '01812000999', password: 'x\u0000' }, 'password')
  await refused('POST', '/api/reservation/booking', bookingBody(trip, seats, { passengerName: 'Ayesha\u0000' }), 'passengerName', who.token)
  await refused('POST', '/api/reservation/seatLock', { ...lockBody(trip, seats), coachCode: trip.coachCode + '\u0000' }, 'coachCode', who.token)
  await refused('POST', '/api/reservation/success', { paymentId: 'pay_\u0000' }, 'paymentId')
  await refused('POST', '/api/verifyCancelTicketOTP', { pnr: 'AB\u0000', pin: '1234', otp: '123456' }, 'pnr')
  await refused('GET', '/api/reservation/details/AB%00CD/1234', undefined, 'pnr')
  await refused('GET', '/api/reservation/cancel/ABCD/1234/12%0034', undefined, 'otp')
  // On one's own live booking the coupon code is checked before the database sees it.
  const booking = await lockAndBook(f, who, await pickTrip(f, { skip: 9 }), 1)
  await refused('GET', `/api/reservation/booking/applyDiscountCoupon/${booking.id}/FIRST%0050`, undefined, 'couponCode', who.token)
  await refused('GET', `/api/account/${who.id}?from=2026-01-01%00`, undefined, 'from', who.token)
})

t('the development outbox: a NUL in ?to= is 400, not 500', async () => {
  await refused('GET', '/dev/outbox?to=0171%002345678', undefined, 'to')
  const r = await f.api('GET', '/dev/outbox?to=01712345678')
  assert.is(r.status, 200)
})

t('unpaired UTF-16 surrogates are refused, not stored as U+FFFD', async () => {
  const contact = { name: 'Ayesha', email: 'ayesha@example.com', subject: 'Refund', message: 'Hello' }
  await refused('POST', '/api/reservation/contactUs', { ...contact, name: 'Aye\ud800sha' }, 'name')
  await refused('POST', '/api/reservation/contactUs', { ...contact, message: '\udc00 trailing' }, 'message')
  await refused('PUT', '/api/profile', { fullName: 'Test \udbff', email: 't@example.com', city: 'Dhaka' }, 'fullName', who.token)
  // A surrogate pair is one ordinary character (an emoji here) and is kept as sent.
  const r = await f.api('POST', '/api/reservation/contactUs', { ...contact, name: 'Ayesha \ud83d\ude00' })
  assert.is(r.status, 200, JSON.stringify(r.body))
  const [row] = await f.db.query<{ name: string }>('SELECT name FROM contact_messages WHERE id = $1', [r.body.data.id])
  assert.is(row!.name, 'Ayesha 😀')
})

t.run()
