// The booking store: booking the held seats, picking a live booking up again, more time, coupons, its end.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as bookingStore from './booking.ts'
import { NOW, clock, iso, handlers, fail, input, named, startBookingTest } from './booking-fixture.ts'

test.before.each(() => startBookingTest())

test('book sends the form (trimmed, empty e-mail as null) and shows the booked fare and countdown', async () => {
  assert.is(bookingStore.phase.value, 'form')
  const r = await bookingStore.book(input)
  assert.ok(r)
  assert.equal(named('booking')[0]!.opts.body, {
    tripId: 7,
    seatNames: ['A1', 'A2'],
    boardingStationId: 1,
    droppingStationId: 9,
    passengerName: 'Rahim',
    passengerMobile: '01712345678',
    passengerEmail: null,
  })
  assert.is(bookingStore.phase.value, 'booked')
  assert.is(Date.parse(bookingStore.booking.value!.expirationTime!), NOW + 15 * 60_000)
  assert.is(bookingStore.announcement.value?.id, 'booking.announceBooked')
  assert.ok(bookingStore.canExtend.value)
})

test('a refused booking keeps the form with the server error', async () => {
  handlers.booking = () => fail('SEAT_UNAVAILABLE')
  assert.is(await bookingStore.book(input), undefined)
  assert.is(bookingStore.phase.value, 'form')
  assert.equal(bookingStore.error.value, { scope: 'book', code: 'SEAT_UNAVAILABLE', reason: 'These seats are NOT available' })
})

test('Book pressed while the resume check runs waits for it and books (not dropped by the busy guard)', async () => {
  // the seat page starts a resume check on every trip-details load; the passenger has no live booking
  handlers.myReservations = () => []
  const resumed = bookingStore.resume(7)
  assert.is(bookingStore.busy.value, 'resume')
  const booked = bookingStore.book(input)
  assert.is(await resumed, undefined)
  const r = await booked
  assert.ok(r)
  assert.is(named('booking').length, 1)
  assert.is(bookingStore.phase.value, 'booked')
})

test('Book pressed while the resume check finds a live booking of the trip answers that booking, not a second one', async () => {
  const resumed = bookingStore.resume(7)
  const booked = bookingStore.book(input)
  assert.is((await resumed)?.id, 41)
  assert.is((await booked)?.id, 41)
  assert.is(named('booking').length, 0)
  assert.is(bookingStore.phase.value, 'booked')
})

test('extend asks for 10 more minutes, never past the maximum', async () => {
  await bookingStore.book(input)
  clock.now += 60_000
  await bookingStore.extend()
  assert.is(
    named('extendBooking')[0]!.opts.body && (named('extendBooking')[0]!.opts.body as { expirationTime: string }).expirationTime,
    iso(NOW + 25 * 60_000),
  )
  await bookingStore.extend()
  assert.is((named('extendBooking')[1]!.opts.body as { expirationTime: string }).expirationTime, iso(NOW + 30 * 60_000))
  assert.is(bookingStore.canExtend.value, false)
  assert.is(await bookingStore.extend(), undefined)
  assert.is(named('extendBooking').length, 2)
  assert.is(bookingStore.announcement.value?.id, 'booking.announceExtended')
})

test('coupon apply and remove show the server figures', async () => {
  await bookingStore.book(input)
  assert.is(await bookingStore.applyCoupon('nope'), false)
  assert.is(bookingStore.error.value?.code, 'INVALID_COUPON')
  assert.is(bookingStore.booking.value?.fare.total, 1600)
  assert.ok(await bookingStore.applyCoupon(' eid10 '))
  assert.equal(named('applyCoupon')[1]!.opts.params, { reservationId: 41, couponCode: 'EID10' })
  assert.equal(bookingStore.booking.value?.fare, { subtotal: 1600, discount: 100, total: 1500, couponCode: 'EID10' })
  assert.is(bookingStore.error.value, null)
  assert.ok(await bookingStore.removeCoupon())
  assert.equal(named('removeCoupon')[0]!.opts.params, { reservationId: 41, couponCode: 'EID10' })
  assert.is(bookingStore.booking.value?.fare.total, 1600)
})

test('the countdown ends the booking when its time is up', async () => {
  await bookingStore.book(input)
  clock.now = NOW + 15 * 60_000 - 1000
  bookingStore.tick()
  assert.is(bookingStore.phase.value, 'booked')
  clock.now = NOW + 15 * 60_000
  bookingStore.tick()
  assert.is(bookingStore.phase.value, 'ended')
  assert.is(bookingStore.announcement.value?.id, 'booking.announceExpired')
  assert.is(bookingStore.canPay.value, false)
  assert.is(await bookingStore.payByCard(), undefined)
  assert.is(named('payment').length, 0)
})

test('cancel booking ends it; resume picks up a live booking of the same trip', async () => {
  assert.is((await bookingStore.resume(7))?.id, 41)
  assert.is(bookingStore.phase.value, 'booked')
  assert.ok(await bookingStore.cancelBooking())
  assert.is(bookingStore.phase.value, 'ended')
  bookingStore.resetBooking()
  assert.is(await bookingStore.resume(7), undefined)
  assert.is(bookingStore.phase.value, 'form')
})

test.run()
