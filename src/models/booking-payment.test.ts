// The booking model: paying by card or from the balance, and the gateway's result on the success and failure pages.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { gatewayUrl } from './booking.ts'
import { findSavedTicket } from '../stores/saved-tickets.ts'
import { type BookingTest, fail, input, startBookingTest } from './booking-fixture.ts'

const test = suite<BookingTest>('booking payment')
test.before.each(async (ctx) => {
  Object.assign(ctx, await startBookingTest())
})
test.after.each(({ b }) => b[Symbol.dispose]())

test('pay by card: one payment request however often it is pressed, then the gateway', async ({ b, s }) => {
  await b.book(input)
  const first = b.payByCard()
  const second = b.payByCard()
  assert.is(b.canPay.value, false)
  assert.is(await second, undefined)
  assert.is(await first, '/sandbox/gateway/pay_1')
  assert.is(s.named('payment').length, 1)
  // leaving for the gateway: still not pressable
  assert.is(await b.payByCard(), undefined)
  assert.is(await b.payFromBalance(), undefined)
  assert.is(s.named('payment').length, 1)
  assert.is(s.named('payFromBalance').length, 0)
})

test('the gateway page is on the API origin when the API lives elsewhere', () => {
  assert.is(gatewayUrl('/sandbox/gateway/p1', '/api'), '/sandbox/gateway/p1')
  assert.is(gatewayUrl('/sandbox/gateway/p1', 'https://api.example.com/api'), 'https://api.example.com/sandbox/gateway/p1')
  assert.is(gatewayUrl('https://pay.example.com/x', 'https://api.example.com/api'), 'https://pay.example.com/x')
})

test('pay from balance sells the ticket and refreshes the balance', async ({ b, s, session }) => {
  await b.book(input)
  const r = await b.payFromBalance()
  assert.is(r?.status, 1)
  assert.is(b.phase.value, 'sold')
  assert.is(session.passenger.value?.balance, 3400)
  assert.is(b.announcement.value?.id, 'booking.announcePaid')
  assert.is(await b.payFromBalance(), undefined)
  assert.is(s.named('payFromBalance').length, 1)
})

test('INSUFFICIENT_BALANCE keeps the booking payable by card', async ({ b, s, session }) => {
  s.setBalance(100)
  await b.book(input)
  assert.is(await b.payFromBalance(), undefined)
  assert.ok(b.insufficientBalance.value)
  assert.is(b.phase.value, 'booked')
  assert.is(session.passenger.value?.balance, 100)
  assert.ok(b.canPay.value)
  assert.is(await b.payByCard(), '/sandbox/gateway/pay_1')
})

test('success page: confirms once with the server and shows the sold ticket', async ({ b, s, session }) => {
  const [a, c] = await Promise.all([b.confirmPayment('pay_9', 'success'), b.confirmPayment('pay_9', 'success')])
  assert.is(a, c)
  assert.is(s.named('paymentSuccess').length, 1)
  assert.is(b.paymentResult.value?.status, 'APPROVED')
  assert.is(b.booking.value?.pnr, 'ABCDEFGHJK')
  assert.is(b.phase.value, 'sold')
  assert.is(b.announcement.value?.id, 'booking.announcePaid')
  // kept on the device: the success page's address opens it offline
  assert.is(findSavedTicket(session.passenger.value?.id ?? null, { paymentId: 'pay_9' })?.reservation.pnr, 'ABCDEFGHJK')
})

test('LOGOUT or a 401: the paid booking on screen (its PNR and PIN) is gone from memory', async ({ b, session }) => {
  await b.confirmPayment('pay_9', 'success')
  assert.is(b.booking.value?.pin, '1234')
  session.signOut()
  assert.is(b.booking.value, null)
  assert.is(b.paymentResult.value, null)
})

test("success page: sends this tab's result token; without one the status alone shows no booking", async ({ b, s, session }) => {
  await b.book(input)
  await b.payByCard()
  await b.confirmPayment('pay_1', 'success')
  assert.is(JSON.stringify(s.named('paymentSuccess')[0]!.opts.body), JSON.stringify({ paymentId: 'pay_1', resultToken: 'tok_pay_1' }))
  // another tab (or a link from the history): no token, so the server answers the status alone
  s.handlers.paymentSuccess = ({ body }) => ({
    ...s.result((body as { paymentId: string }).paymentId, true),
    full: false,
    reservation: null,
    balance: null,
  })
  const other = await b.confirmPayment('pay_5', 'success')
  assert.is(JSON.stringify(s.named('paymentSuccess')[1]!.opts.body), JSON.stringify({ paymentId: 'pay_5' }))
  assert.equal([other?.status, other?.full], ['APPROVED', false])
  assert.is(b.booking.value, null, 'no booking from before is shown as this payment')
  assert.is(findSavedTicket(session.passenger.value?.id ?? null, { paymentId: 'pay_5' }), null)
})

test('failure page: the booking stays payable while its time lasts', async ({ b, s }) => {
  const res = await b.confirmPayment('pay_8', 'failure')
  assert.is(res?.status, 'DECLINED')
  assert.is(b.phase.value, 'booked')
  assert.is(b.announcement.value?.id, 'booking.announceDeclined')
  assert.ok(b.canPay.value)
  await b.payByCard()
  assert.is(s.named('payment').length, 1)
})

test('success page: a payment held for review is announced as such and sells nothing', async ({ b, s }) => {
  s.handlers.paymentSuccess = ({ body }) => ({ ...s.result((body as { paymentId: string }).paymentId, false), status: 'REVIEW' })
  const res = await b.confirmPayment('pay_7', 'success')
  assert.is(res?.status, 'REVIEW')
  assert.is(b.paymentResult.value?.status, 'REVIEW')
  assert.is(b.announcement.value?.id, 'booking.announceReview')
  assert.is(b.booking.value?.status, 2)
  assert.is(b.booking.value?.pnr, null)
})

test('success page: a payment still being confirmed can be checked again, and then shows the ticket', async ({ b, s }) => {
  s.handlers.paymentSuccess = ({ body }) => ({ ...s.result((body as { paymentId: string }).paymentId, false), status: 'PENDING' })
  assert.is((await b.confirmPayment('pay_6', 'success'))?.status, 'PENDING')
  assert.is((await b.confirmPayment('pay_6', 'success'))?.status, 'PENDING', 'the same page life asks once')
  assert.is(s.named('paymentSuccess').length, 1)
  s.handlers.paymentSuccess = ({ body }) => s.result((body as { paymentId: string }).paymentId, true)
  const again = await b.recheckPayment('pay_6')
  assert.is(again?.status, 'APPROVED')
  assert.is(s.named('paymentSuccess').length, 2)
  assert.is(b.phase.value, 'sold')
  assert.is(b.announcement.value?.id, 'booking.announcePaid')
})

test('a failed confirmation can be tried again', async ({ b, s }) => {
  s.handlers.paymentSuccess = () => fail('PAYMENT_NOT_FOUND')
  assert.is(await b.confirmPayment('x', 'success'), undefined)
  assert.is(b.error.value?.code, 'PAYMENT_NOT_FOUND')
  s.serveAgain()
  assert.ok(await b.confirmPayment('x', 'success'))
})

test.run()
