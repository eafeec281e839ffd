// The booking model: booking the held seats, picking a live booking up again, more time, coupons, its end.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { type BookingTest, NOW, iso, fail, input, startBookingTest } from './booking-fixture.ts'

const test = suite<BookingTest>('booking')
test.before.each(async (ctx) => {
  Object.assign(ctx, await startBookingTest())
})
test.after.each(({ b }) => b[Symbol.dispose]())

test('book sends the form (trimmed, empty e-mail as null) and shows the booked fare and countdown', async ({ b, s }) => {
  assert.is(b.phase.value, 'form')
  const r = await b.book(input)
  assert.ok(r)
  assert.equal(s.named('booking')[0]!.opts.body, {
    tripId: 7,
    seatNames: ['A1', 'A2'],
    boardingStationId: 1,
    droppingStationId: 9,
    passengerName: 'Rahim',
    passengerMobile: '01712345678',
    passengerEmail: null,
  })
  assert.is(b.phase.value, 'booked')
  assert.is(Date.parse(b.booking.value!.expirationTime!), NOW + 15 * 60_000)
  assert.is(b.announcement.value?.id, 'booking.announceBooked')
  assert.ok(b.canExtend.value)
})

test('a refused booking keeps the form with the server error', async ({ b, s }) => {
  s.handlers.booking = () => fail('SEAT_UNAVAILABLE')
  assert.is(await b.book(input), undefined)
  assert.is(b.phase.value, 'form')
  assert.equal(b.error.value, { scope: 'book', code: 'SEAT_UNAVAILABLE', reason: 'These seats are NOT available' })
})

test('Book pressed while the resume check runs waits for it and books (not dropped by the busy guard)', async ({ b, s }) => {
  // the seat page starts a resume check on every trip-details load; the passenger has no live booking
  s.handlers.myReservations = () => []
  const resumed = b.resume(7)
  assert.is(b.busy.value, 'resume')
  const booked = b.book(input)
  assert.is(await resumed, undefined)
  const r = await booked
  assert.ok(r)
  assert.is(s.named('booking').length, 1)
  assert.is(b.phase.value, 'booked')
})

test('Book pressed while the resume check finds a live booking of the trip answers that booking, not a second one', async ({ b, s }) => {
  const resumed = b.resume(7)
  const booked = b.book(input)
  assert.is((await resumed)?.id, 41)
  assert.is((await booked)?.id, 41)
  assert.is(s.named('booking').length, 0)
  assert.is(b.phase.value, 'booked')
})

test('extend asks for 10 more minutes, never past the maximum', async ({ b, s }) => {
  await b.book(input)
  s.clock.now += 60_000
  await b.extend()
  assert.is(
    s.named('extendBooking')[0]!.opts.body && (s.named('extendBooking')[0]!.opts.body as { expirationTime: string }).expirationTime,
    iso(NOW + 25 * 60_000),
  )
  await b.extend()
  assert.is((s.named('extendBooking')[1]!.opts.body as { expirationTime: string }).expirationTime, iso(NOW + 30 * 60_000))
  assert.is(b.canExtend.value, false)
  assert.is(await b.extend(), undefined)
  assert.is(s.named('extendBooking').length, 2)
  assert.is(b.announcement.value?.id, 'booking.announceExtended')
})

test('coupon apply and remove show the server figures', async ({ b, s }) => {
  await b.book(input)
  assert.is(await b.applyCoupon('nope'), false)
  assert.is(b.error.value?.code, 'INVALID_COUPON')
  assert.is(b.booking.value?.fare.total, 1600)
  assert.ok(await b.applyCoupon(' eid10 '))
  assert.equal(s.named('applyCoupon')[1]!.opts.params, { reservationId: 41, couponCode: 'EID10' })
  assert.equal(b.booking.value?.fare, { subtotal: 1600, discount: 100, total: 1500, couponCode: 'EID10' })
  assert.is(b.error.value, null)
  assert.ok(await b.removeCoupon())
  assert.equal(s.named('removeCoupon')[0]!.opts.params, { reservationId: 41, couponCode: 'EID10' })
  assert.is(b.booking.value?.fare.total, 1600)
})

test('the countdown ends the booking when its time is up', async ({ b, s }) => {
  await b.book(input)
  s.clock.now = NOW + 15 * 60_000 - 1000
  b.tick()
  assert.is(b.phase.value, 'booked')
  s.clock.now = NOW + 15 * 60_000
  b.tick()
  assert.is(b.phase.value, 'ended')
  assert.is(b.announcement.value?.id, 'booking.announceExpired')
  assert.is(b.canPay.value, false)
  assert.is(await b.payByCard(), undefined)
  assert.is(s.named('payment').length, 0)
})

test('cancel booking ends it; resume picks up a live booking of the same trip', async ({ b }) => {
  assert.is((await b.resume(7))?.id, 41)
  assert.is(b.phase.value, 'booked')
  assert.ok(await b.cancelBooking())
  assert.is(b.phase.value, 'ended')
  b.resetBooking()
  assert.is(await b.resume(7), undefined)
  assert.is(b.phase.value, 'form')
})

test.run()
