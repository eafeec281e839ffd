import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { RouteName } from '../../contract/api.ts'
import { errorCatalogue, type ErrorCode } from '../../contract/errors.ts'
import type { PaymentResult, Reservation } from '../../contract/schemas.ts'
import { ApiError } from '../api/api-error.ts'
import { fakeApi, type FakeCall, type FakeRoutes } from '../api/index.ts'
import { fakeClock, type FakeClock } from '../lib/clock.ts'
import { memoryStorage, useStorages } from '../lib/storage.ts'
import * as bookingStore from './booking.ts'
import { findSavedTicket } from './saved-tickets.ts'
import * as session from './session.ts'

// ---------- a fake server with one booking, like the real one ----------

const NOW = Date.parse('2026-11-22T10:00:00+06:00')
let clock: FakeClock
const iso = (ms: number) => new Date(ms).toISOString()

const station = (id: number, name: string) => ({ id, name, cityCode: 'DHK', address: 'Road 1', phone: '01700000000', time: null })

function booking(extra: Partial<Reservation> = {}): Reservation {
  return {
    id: 41,
    status: 2,
    pnr: null,
    pin: null,
    tripId: 7,
    tripDate: '2026-11-23',
    coach: { code: 'NX-101', type: 'AC_BUSINESS', name: 'Business' },
    origin: { code: 'DHK', name: 'Dhaka', nameBn: 'ঢাকা' },
    destination: { code: 'CTG', name: 'Chattogram', nameBn: 'চট্টগ্রাম' },
    departureTime: '2026-11-23T22:00:00+06:00',
    arrivalTime: '2026-11-24T04:00:00+06:00',
    boardingStation: station(1, 'Kalabagan'),
    droppingStation: station(9, 'GEC'),
    seats: [
      { name: 'A1', seatType: 'Standard', fare: 800 },
      { name: 'A2', seatType: 'Standard', fare: 800 },
    ],
    passengerName: 'Rahim',
    passengerMobile: '01712345678',
    passengerEmail: null,
    fare: { subtotal: 1600, discount: 0, total: 1600, couponCode: null },
    expirationTime: iso(NOW + 15 * 60_000),
    maxExpirationTime: iso(NOW + 30 * 60_000),
    paymentMethod: null,
    paidAt: null,
    canceledAt: null,
    refundAmount: null,
    cancelReason: null,
    operatorReason: null,
    movedFrom: null,
    createdAt: iso(NOW),
    ...extra,
  }
}

let handlers: FakeRoutes
let calls: FakeCall[]
let server: Reservation
let balance: number
let pendingPayment: string | null

const fail = (code: ErrorCode) => {
  throw new ApiError(code, errorCatalogue[code].reason, errorCatalogue[code].status)
}

const passenger = { id: 3, mobile: '01712345678', fullName: 'Rahim', email: 'r@example.com', city: 'Dhaka', balance: 5000, createdAt: iso(NOW) }

function fakeServer(): FakeRoutes {
  return {
    booking: () => (server = booking()),
    extendBooking: ({ body }) => {
      const at = Date.parse((body as { expirationTime: string }).expirationTime)
      if (at > Date.parse(server.maxExpirationTime!)) fail('INVALID_EXPIRATION_TIME')
      return (server = { ...server, expirationTime: iso(at) })
    },
    applyCoupon: ({ params }) => {
      if (params!.couponCode !== 'EID10') fail('INVALID_COUPON')
      pendingPayment = null
      // the server's rule (10%, capped at 100) differs from any client guess
      return (server = { ...server, fare: { subtotal: 1600, discount: 100, total: 1500, couponCode: 'EID10' } })
    },
    removeCoupon: () => (server = { ...server, fare: { subtotal: 1600, discount: 0, total: 1600, couponCode: null } }),
    payment: () => {
      if (server.status === 1) fail('PAYMENT_ALREADY_COMPLETED')
      pendingPayment ??= `pay_${calls.filter((c) => c.name === 'payment').length}`
      return { paymentId: pendingPayment, redirectUrl: `/sandbox/gateway/${pendingPayment}`, resultToken: `tok_${pendingPayment}` }
    },
    payFromBalance: () => {
      if (balance < server.fare.total) fail('INSUFFICIENT_BALANCE')
      balance -= server.fare.total
      return (server = {
        ...server,
        status: 1,
        pnr: 'ABCDEFGHJK',
        pin: '1234',
        paymentMethod: 'BALANCE',
        expirationTime: null,
        maxExpirationTime: null,
      })
    },
    paymentSuccess: ({ body }) => result((body as { paymentId: string }).paymentId, true),
    paymentFailure: ({ body }) => result((body as { paymentId: string }).paymentId, false),
    cancelBooking: () => (server = { ...server, status: 5, expirationTime: null }),
    profile: () => ({ ...passenger, balance }),
    myReservations: () => [server],
    reservationById: () => server,
  }
}

function result(paymentId: string, approved: boolean): PaymentResult {
  if (approved && server.status === 2) server = { ...server, status: 1, pnr: 'ABCDEFGHJK', pin: '1234', paymentMethod: 'CARD', expirationTime: null }
  return {
    paymentId,
    full: true,
    status: approved ? 'APPROVED' : 'DECLINED',
    purpose: 'RESERVATION',
    amount: server.fare.total,
    reservation: server,
    balance,
  }
}

const input: bookingStore.BookingInput = {
  tripId: 7,
  seatNames: ['A1', 'A2'],
  boardingStationId: 1,
  droppingStationId: 9,
  passengerName: ' Rahim ',
  passengerMobile: '01712345678',
  passengerEmail: '',
}

test.before.each(async () => {
  clock = fakeClock(NOW)
  useStorages(memoryStorage(), memoryStorage())
  session.loadSession()
  session.signIn({ token: 't', expiresAt: iso(NOW + 86_400_000), passenger, company: { name: 'C', phone: '1', email: 'c@example.com' } })
  // the saved tickets an earlier test's session removes are removed before this test
  await session.savedTicketsDropped()
  balance = 5000
  pendingPayment = null
  server = booking()
  handlers = fakeServer()
  calls = fakeApi(handlers)
  bookingStore.resetBooking()
})

const named = (n: RouteName) => calls.filter((c) => c.name === n)

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

test('pay by card: one payment request however often it is pressed, then the gateway', async () => {
  await bookingStore.book(input)
  const first = bookingStore.payByCard()
  const second = bookingStore.payByCard()
  assert.is(bookingStore.canPay.value, false)
  assert.is(await second, undefined)
  assert.is(await first, '/sandbox/gateway/pay_1')
  assert.is(named('payment').length, 1)
  // leaving for the gateway: still not pressable
  assert.is(await bookingStore.payByCard(), undefined)
  assert.is(await bookingStore.payFromBalance(), undefined)
  assert.is(named('payment').length, 1)
  assert.is(named('payFromBalance').length, 0)
})

test('the gateway page is on the API origin when the API lives elsewhere', () => {
  assert.is(bookingStore.gatewayUrl('/sandbox/gateway/p1', '/api'), '/sandbox/gateway/p1')
  assert.is(bookingStore.gatewayUrl('/sandbox/gateway/p1', 'https://api.example.com/api'), 'https://api.example.com/sandbox/gateway/p1')
  assert.is(bookingStore.gatewayUrl('https://pay.example.com/x', 'https://api.example.com/api'), 'https://pay.example.com/x')
})

test('pay from balance sells the ticket and refreshes the balance', async () => {
  await bookingStore.book(input)
  const r = await bookingStore.payFromBalance()
  assert.is(r?.status, 1)
  assert.is(bookingStore.phase.value, 'sold')
  assert.is(session.passenger.value?.balance, 3400)
  assert.is(bookingStore.announcement.value?.id, 'booking.announcePaid')
  assert.is(await bookingStore.payFromBalance(), undefined)
  assert.is(named('payFromBalance').length, 1)
})

test('INSUFFICIENT_BALANCE keeps the booking payable by card', async () => {
  balance = 100
  await bookingStore.book(input)
  assert.is(await bookingStore.payFromBalance(), undefined)
  assert.ok(bookingStore.insufficientBalance.value)
  assert.is(bookingStore.phase.value, 'booked')
  assert.is(session.passenger.value?.balance, 100)
  assert.ok(bookingStore.canPay.value)
  assert.is(await bookingStore.payByCard(), '/sandbox/gateway/pay_1')
})

test('success page: confirms once with the server and shows the sold ticket', async () => {
  const [a, c] = await Promise.all([bookingStore.confirmPayment('pay_9', 'success'), bookingStore.confirmPayment('pay_9', 'success')])
  assert.is(a, c)
  assert.is(named('paymentSuccess').length, 1)
  assert.is(bookingStore.paymentResult.value?.status, 'APPROVED')
  assert.is(bookingStore.booking.value?.pnr, 'ABCDEFGHJK')
  assert.is(bookingStore.phase.value, 'sold')
  assert.is(bookingStore.announcement.value?.id, 'booking.announcePaid')
  // kept on the device: the success page's address opens it offline
  assert.is(findSavedTicket(session.passenger.value?.id ?? null, { paymentId: 'pay_9' })?.reservation.pnr, 'ABCDEFGHJK')
})

test('LOGOUT or a 401: the paid booking on screen (its PNR and PIN) is gone from memory', async () => {
  await bookingStore.confirmPayment('pay_9', 'success')
  assert.is(bookingStore.booking.value?.pin, '1234')
  session.signOut()
  assert.is(bookingStore.booking.value, null)
  assert.is(bookingStore.paymentResult.value, null)
})

test("success page: sends this tab's result token; without one the status alone shows no booking", async () => {
  await bookingStore.book(input)
  await bookingStore.payByCard()
  await bookingStore.confirmPayment('pay_1', 'success')
  assert.is(JSON.stringify(named('paymentSuccess')[0]!.opts.body), JSON.stringify({ paymentId: 'pay_1', resultToken: 'tok_pay_1' }))
  // another tab (or a link from the history): no token, so the server answers the status alone
  handlers.paymentSuccess = ({ body }) => ({
    ...result((body as { paymentId: string }).paymentId, true),
    full: false,
    reservation: null,
    balance: null,
  })
  const other = await bookingStore.confirmPayment('pay_5', 'success')
  assert.is(JSON.stringify(named('paymentSuccess')[1]!.opts.body), JSON.stringify({ paymentId: 'pay_5' }))
  assert.equal([other?.status, other?.full], ['APPROVED', false])
  assert.is(bookingStore.booking.value, null, 'no booking from before is shown as this payment')
  assert.is(findSavedTicket(session.passenger.value?.id ?? null, { paymentId: 'pay_5' }), null)
})

test('failure page: the booking stays payable while its time lasts', async () => {
  const res = await bookingStore.confirmPayment('pay_8', 'failure')
  assert.is(res?.status, 'DECLINED')
  assert.is(bookingStore.phase.value, 'booked')
  assert.is(bookingStore.announcement.value?.id, 'booking.announceDeclined')
  assert.ok(bookingStore.canPay.value)
  await bookingStore.payByCard()
  assert.is(named('payment').length, 1)
})

test('success page: a payment held for review is announced as such and sells nothing', async () => {
  handlers.paymentSuccess = ({ body }) => ({ ...result((body as { paymentId: string }).paymentId, false), status: 'REVIEW' })
  const res = await bookingStore.confirmPayment('pay_7', 'success')
  assert.is(res?.status, 'REVIEW')
  assert.is(bookingStore.paymentResult.value?.status, 'REVIEW')
  assert.is(bookingStore.announcement.value?.id, 'booking.announceReview')
  assert.is(bookingStore.booking.value?.status, 2)
  assert.is(bookingStore.booking.value?.pnr, null)
})

test('success page: a payment still being confirmed can be checked again, and then shows the ticket', async () => {
  handlers.paymentSuccess = ({ body }) => ({ ...result((body as { paymentId: string }).paymentId, false), status: 'PENDING' })
  assert.is((await bookingStore.confirmPayment('pay_6', 'success'))?.status, 'PENDING')
  assert.is((await bookingStore.confirmPayment('pay_6', 'success'))?.status, 'PENDING', 'the same page life asks once')
  assert.is(named('paymentSuccess').length, 1)
  handlers.paymentSuccess = ({ body }) => result((body as { paymentId: string }).paymentId, true)
  const again = await bookingStore.recheckPayment('pay_6')
  assert.is(again?.status, 'APPROVED')
  assert.is(named('paymentSuccess').length, 2)
  assert.is(bookingStore.phase.value, 'sold')
  assert.is(bookingStore.announcement.value?.id, 'booking.announcePaid')
})

test('a failed confirmation can be tried again', async () => {
  handlers.paymentSuccess = () => fail('PAYMENT_NOT_FOUND')
  assert.is(await bookingStore.confirmPayment('x', 'success'), undefined)
  assert.is(bookingStore.error.value?.code, 'PAYMENT_NOT_FOUND')
  calls = fakeApi(fakeServer())
  assert.ok(await bookingStore.confirmPayment('x', 'success'))
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
