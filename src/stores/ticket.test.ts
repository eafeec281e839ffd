import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { errorCatalogue, type ErrorCode } from '../../contract/errors.ts'
import { ApiError } from '../api/api-error.ts'
import { fakeApi, type FakeCall, type FakeRoutes } from '../api/index.ts'
import { fakeClock, type FakeClock } from '../lib/clock.ts'
import { memoryStorage, useStorages } from '../lib/storage.ts'
import * as saved from './saved-tickets.ts'
import { session } from '../app-models.ts'
import { iso, NOW, sold } from './ticket-fixture.ts'
import * as t from './ticket.ts'

const fail = (code: ErrorCode) => {
  throw new ApiError(code, errorCatalogue[code].reason, errorCatalogue[code].status)
}
const passenger = { id: 3, mobile: '01712345678', fullName: 'Rahim', email: 'r@example.com', city: 'Dhaka', balance: 0, createdAt: iso(NOW) }

interface Ctx {
  clock: FakeClock
  handlers: FakeRoutes
  calls: FakeCall[]
}
const test = suite<Ctx>('ticket')
test.before.each(async (ctx) => {
  ctx.clock = fakeClock(NOW)
  // the passenger's balance on the stand-in server
  let balance = 0
  useStorages(memoryStorage(), memoryStorage())
  session.loadSession()
  // the saved tickets an earlier test's session removes are removed before this test
  await session.savedTicketsDropped()
  ctx.handlers = {
    reservationByPnr: ({ params }) => (params!.pnr === 'ABCDEFGHJK' && params!.pin === '1234' ? sold : fail('WRONG_PNR_PIN')),
    reservationById: ({ params }) => (params!.id === 41 ? sold : fail('RESERVATION_NOT_ACCESSIBLE')),
    resendReservationEmail: () => true,
    cancelInitialize: () => ({
      reservationId: 41,
      refundAmount: 900,
      cancellationCharge: 100,
      chargePercent: 10,
      policy: 'Cancellation charge: 10% ...',
      otpSentTo: '017******78',
      resendAfterSeconds: 180,
    }),
    cancel: ({ params }) => {
      if (params!.otp !== '654321') fail('INVALID_OTP_PROVIDED')
      balance += 900
      return { ...sold, status: 5, refundAmount: 900, canceledAt: iso(ctx.clock.now) }
    },
    profile: () => ({ ...passenger, balance }),
  }
  ctx.calls = fakeApi(ctx.handlers)
  t.resetTicket()
})

test('find by PNR and PIN (typed in lower case with spaces)', async ({ calls }) => {
  const r = await t.findByPnr(' abcde fghjk ', '1234')
  assert.is(r?.id, 41)
  assert.equal(calls[0]!.opts.params, { pnr: 'ABCDEFGHJK', pin: '1234' })
  assert.is(t.ticket.value?.pnr, 'ABCDEFGHJK')
  assert.ok(t.isSold.value)
  assert.is(t.announcement.value?.id, 'ticket.announceFound')
})

test('a PIN typed in Bengali digits, as a Bengali ticket shows it, is the same PIN', async ({ calls }) => {
  assert.is((await t.findByPnr('ABCDEFGHJK', ' ১২৩৪ '))?.id, 41)
  assert.equal(calls[0]!.opts.params, { pnr: 'ABCDEFGHJK', pin: '1234' })
  assert.is(t.normalisePin('০৯8'), '098')
})

test('WRONG_PNR_PIN and RESERVATION_NOT_ACCESSIBLE are kept as errors', async () => {
  assert.is(await t.findByPnr('ABCDEFGHJK', '9999'), undefined)
  assert.equal(t.error.value, { scope: 'find', code: 'WRONG_PNR_PIN', reason: 'Wrong PNR and/or PIN' })
  assert.is(t.ticket.value, null)
  assert.is(await t.openById(99), undefined)
  assert.is(t.error.value?.code, 'RESERVATION_NOT_ACCESSIBLE')
  assert.is((await t.openById(41))?.id, 41)
  assert.is(t.error.value, null)
})

test('resend the ticket e-mail', async ({ calls }) => {
  await t.findByPnr('ABCDEFGHJK', '1234')
  assert.ok(await t.resendEmail())
  assert.equal(calls.at(-1)!.opts.params, { pnr: 'ABCDEFGHJK', pin: '1234' })
  assert.ok(t.emailSent.value)
  assert.is(t.announcement.value?.id, 'ticket.announceEmailSent')
})

test('cancel: initialize shows the refund, the code cancels, the balance is refreshed', async ({ calls }) => {
  session.signIn({ token: 't', expiresAt: iso(NOW + 86_400_000), passenger, company: { name: 'C', phone: '1', email: 'c@example.com' } })
  await t.openById(41)
  const q = await t.startCancel()
  assert.is(q?.refundAmount, 900)
  assert.is(t.cancelStep.value, 'otp')
  assert.is(t.resendSecondsLeft.value, 180)
  assert.is(await t.resendCancelCode(), false)
  assert.is(await t.confirmCancel('12'), undefined)
  assert.is(t.error.value?.code, 'INVALID_OTP_PROVIDED')
  assert.is(calls.filter((c) => c.name === 'cancel').length, 0)
  assert.is(await t.confirmCancel('111111'), undefined)
  assert.is(t.error.value?.code, 'INVALID_OTP_PROVIDED')
  assert.is(t.cancelStep.value, 'otp')
  const r = await t.confirmCancel('654321')
  assert.is(r?.status, 5)
  assert.is(t.cancelStep.value, 'done')
  assert.is(t.ticket.value?.refundAmount, 900)
  assert.is(session.passenger.value?.balance, 900)
  assert.is(t.announcement.value?.id, 'ticket.announceCanceled')
  assert.is(t.isSold.value, false)
})

test('a ticket the operator moved (10) can be cancelled for the whole fare: it becomes 14', async ({ clock, handlers }) => {
  const moved = { ...sold, status: 10, movedFrom: { coachCode: 'OLD-1', departureTime: sold.departureTime } }
  handlers.reservationByPnr = () => moved
  handlers.cancelInitialize = () => ({
    reservationId: 41,
    refundAmount: sold.fare.total,
    cancellationCharge: 0,
    chargePercent: 0,
    policy: 'p',
    otpSentTo: 'x',
    resendAfterSeconds: 30,
  })
  handlers.cancel = () => ({ ...moved, status: 14, cancelReason: 'TICKET_CANCELED', refundAmount: sold.fare.total, canceledAt: iso(clock.now) })
  await t.findByPnr('ABCDEFGHJK', '1234')
  assert.ok(t.isSold.value, 'the page offers cancel and resend for a moved ticket')
  assert.is((await t.startCancel())?.cancellationCharge, 0)
  const r = await t.confirmCancel('654321')
  assert.is(r?.status, 14)
  assert.is(t.cancelStep.value, 'done')
  assert.is(t.isSold.value, false)
})

test('cancel refusals are explained; the resend wait counts down', async ({ clock, handlers, calls }) => {
  await t.findByPnr('ABCDEFGHJK', '1234')
  handlers.cancelInitialize = () => fail('RESERVATION_CANCEL_TIME_EXPIRED')
  assert.is(await t.startCancel(), undefined)
  assert.equal(t.error.value?.scope, 'cancel')
  assert.is(t.error.value?.code, 'RESERVATION_CANCEL_TIME_EXPIRED')
  assert.is(t.cancelStep.value, 'idle')
  handlers.cancelInitialize = () => ({
    reservationId: 41,
    refundAmount: 500,
    cancellationCharge: 500,
    chargePercent: 50,
    policy: 'p',
    otpSentTo: 'x',
    resendAfterSeconds: 30,
  })
  await t.startCancel()
  clock.now += 31_000
  t.tick()
  assert.is(t.resendSecondsLeft.value, 0)
  assert.ok(await t.resendCancelCode())
  assert.is(calls.filter((c) => c.name === 'cancelInitialize').length, 3)
  t.abandonCancel()
  assert.is(t.cancelStep.value, 'idle')
})

const signedIn = () =>
  session.signIn({ token: 't', expiresAt: iso(NOW + 86_400_000), passenger, company: { name: 'C', phone: '1', email: 'c@example.com' } })

test('every ticket the server sends is kept on the device: the visitor’s by PNR, the passenger’s under their account', async () => {
  await t.findByPnr('ABCDEFGHJK', '1234')
  assert.is(saved.savedTicketsOf(null)[0]?.reservation.pin, '1234')
  assert.is(t.savedAt.value, null, 'the server’s answer, not a saved copy')
  signedIn()
  t.resetTicket()
  await t.openById(41)
  assert.is(saved.savedTicketsOf(passenger.id)[0]?.savedAt, NOW)
})

test('a ticket’s own address shows the saved copy at once, then the server’s answer asked with the saved PIN', async ({ clock, handlers, calls }) => {
  assert.is(await t.openSaved('ABCDEFGHJK'), false, 'nothing saved: the passenger types the PIN')
  saved.keepTickets(null, [sold])
  clock.now += 3_600_000
  const answer: { send?: (r: typeof sold) => void } = {}
  handlers.reservationByPnr = () => new Promise((resolve) => (answer.send = resolve))
  const opening = t.openSaved('abcdefghjk')
  // the saved copy shows while the server's answer is still out (the store arrives first)
  for (let i = 0; i < 100 && !answer.send; i++) await new Promise((r) => setTimeout(r, 0))
  assert.is(t.ticket.value?.pnr, 'ABCDEFGHJK')
  assert.is(t.savedAt.value, NOW)
  answer.send?.(sold)
  assert.ok(await opening)
  assert.equal(calls.at(-1)!.opts.params, { pnr: 'ABCDEFGHJK', pin: '1234' })
  assert.is(t.savedAt.value, null)
  assert.is(saved.findSavedTicket(null, { pnr: 'ABCDEFGHJK' })?.savedAt, NOW + 3_600_000)
})

test('without an answer from the server the saved copy stays, marked with its time, with the reason', async ({ handlers }) => {
  saved.keepTickets(null, [sold])
  handlers.reservationByPnr = () => fail('NO_INTERNET_CONNECTION')
  assert.ok(await t.openSaved('ABCDEFGHJK'))
  assert.is(t.ticket.value?.pin, '1234')
  assert.is(t.savedAt.value, NOW)
  assert.is(t.error.value?.code, 'NO_INTERNET_CONNECTION')
  // typed in again offline: the copy answers when the PIN matches, never for a wrong one
  t.resetTicket()
  handlers.reservationByPnr = () => fail('SERVICE_UNREACHABLE')
  assert.is((await t.findByPnr('ABCDEFGHJK', '1234'))?.id, 41)
  assert.is(t.savedAt.value, NOW)
  assert.is(await t.findByPnr('ABCDEFGHJK', '9999'), undefined)
  assert.is(t.ticket.value, null)
  assert.is(t.error.value?.code, 'SERVICE_UNREACHABLE')
})

test('My tickets’ link by id opens the saved copy without the server; a server refusal never does', async ({ handlers }) => {
  signedIn()
  saved.keepTickets(passenger.id, [sold])
  handlers.reservationById = () => fail('REQUEST_TIMEOUT')
  assert.is((await t.openById(41))?.id, 41)
  assert.is(t.savedAt.value, NOW)
  handlers.reservationById = () => fail('RESERVATION_NOT_ACCESSIBLE')
  t.resetTicket()
  assert.is(await t.openById(41), undefined)
  assert.is(t.ticket.value, null)
})

test('a ticket cancelled elsewhere: its saved copy says so after the next online look-up', async ({ handlers }) => {
  saved.keepTickets(null, [sold])
  handlers.reservationByPnr = () => ({ ...sold, status: 5, canceledAt: iso(NOW), refundAmount: 900 })
  await t.openSaved('ABCDEFGHJK')
  assert.is(t.ticket.value?.status, 5)
  handlers.reservationByPnr = () => fail('NO_INTERNET_CONNECTION')
  t.resetTicket()
  await t.openSaved('ABCDEFGHJK')
  assert.is(t.ticket.value?.status, 5)
  assert.is(t.ticket.value?.refundAmount, 900)
})

test('cancelling here updates the saved copy at once', async () => {
  await t.findByPnr('ABCDEFGHJK', '1234')
  await t.startCancel()
  await t.confirmCancel('654321')
  assert.is(saved.findSavedTicket(null, { pnr: 'ABCDEFGHJK' })?.reservation.status, 5)
})

test('another account’s or tab’s copy is never shown at the ticket’s address, nor its PIN sent to the server', async ({ calls }) => {
  saved.keepTickets(7, [sold])
  signedIn()
  assert.is(await t.openSaved('ABCDEFGHJK'), false)
  assert.is(t.ticket.value, null)
  assert.not.ok(
    calls.some((c) => c.name === 'reservationByPnr'),
    'no look-up with the saved PIN',
  )
  session.signOut()
  assert.is(await t.openSaved('ABCDEFGHJK'), false)
  assert.not.ok(calls.some((c) => c.name === 'reservationByPnr'))
})

test('LOGOUT or a 401: the ticket on screen, with its PIN, is gone from memory too', async () => {
  signedIn()
  await t.openById(41)
  assert.is(t.ticket.value?.pin, '1234')
  session.signOut()
  assert.is(t.ticket.value, null)
  signedIn()
  await t.openById(41)
  session.resetInvalidSession('/ticket-operation?reservationId=41')
  assert.is(t.ticket.value, null)
  // a visitor signing in keeps what they looked up on screen
  await t.findByPnr('ABCDEFGHJK', '1234')
  signedIn()
  assert.is(t.ticket.value?.pnr, 'ABCDEFGHJK')
})

test.run()
