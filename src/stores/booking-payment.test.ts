// The booking store: paying by card or from the balance, and the gateway's result on the success and failure pages.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as bookingStore from './booking.ts'
import { findSavedTicket } from './saved-tickets.ts'
import * as session from './session.ts'
import { handlers, fail, result, input, named, setBalance, serveAgain, startBookingTest } from './booking-fixture.ts'

test.before.each(() => startBookingTest())

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
  setBalance(100)
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
  serveAgain()
  assert.ok(await bookingStore.confirmPayment('x', 'success'))
})

test.run()
