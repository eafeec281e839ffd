import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { errorCatalogue, type ErrorCode } from '../../contract/errors.ts'
import { ApiError } from '../api/api-error.ts'
import { fakeApi, type FakeCall, type FakeRoutes } from '../api/index.ts'
import { fakeClock, type FakeClock } from '../lib/clock.ts'
import { useMemoryStorages } from '../lib/storage.ts'
import * as saved from '../stores/saved-tickets.ts'
import { iso, NOW, sold } from '../stores/ticket-fixture.ts'
import { type Session, SessionModel } from './session.ts'
import { normalisePin, type Ticket, TicketModel } from './ticket.ts'

const fail = (code: ErrorCode) => {
  throw new ApiError(code, errorCatalogue[code].reason, errorCatalogue[code].status)
}
const passenger = { id: 3, mobile: '01712345678', fullName: 'Rahim', email: 'r@example.com', city: 'Dhaka', balance: 0, createdAt: iso(NOW) }

interface Ctx {
  /** This test's visit of the ticket page. */
  t: Ticket & Disposable
  /** The session it is shown in. */
  session: Session
  clock: FakeClock
  handlers: FakeRoutes
  calls: FakeCall[]
}
const test = suite<Ctx>('ticket')
test.before.each((ctx) => {
  ctx.clock = fakeClock(NOW)
  // the passenger's balance on the stand-in server
  let balance = 0
  useMemoryStorages()
  ctx.session = new SessionModel()
  ctx.session.loadSession()
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
  ctx.t = new TicketModel(ctx.session)
})
// the saved tickets this test's sign-ins and sign-outs remove are removed in its own storage, not the next test's
test.after.each(({ t, session }) => {
  t[Symbol.dispose]()
  return session.savedTicketsDropped()
})

test('find by PNR and PIN (typed in lower case with spaces)', async ({ t, calls }) => {
  const r = await t.findByPnr(' abcde fghjk ', '1234')
  assert.is(r?.id, 41)
  assert.equal(calls[0]!.opts.params, { pnr: 'ABCDEFGHJK', pin: '1234' })
  assert.is(t.ticket.value?.pnr, 'ABCDEFGHJK')
  assert.ok(t.isSold.value)
  assert.is(t.announcement.value?.id, 'ticket.announceFound')
})

test('a PIN typed in Bengali digits, as a Bengali ticket shows it, is the same PIN', async ({ t, calls }) => {
  assert.is((await t.findByPnr('ABCDEFGHJK', ' ১২৩৪ '))?.id, 41)
  assert.equal(calls[0]!.opts.params, { pnr: 'ABCDEFGHJK', pin: '1234' })
  assert.is(normalisePin('০৯8'), '098')
})

test('WRONG_PNR_PIN and RESERVATION_NOT_ACCESSIBLE are kept as errors', async ({ t }) => {
  assert.is(await t.findByPnr('ABCDEFGHJK', '9999'), undefined)
  assert.equal(t.error.value, { scope: 'find', code: 'WRONG_PNR_PIN', reason: 'Wrong PNR and/or PIN' })
  assert.is(t.ticket.value, null)
  assert.is(await t.openById(99), undefined)
  assert.is(t.error.value?.code, 'RESERVATION_NOT_ACCESSIBLE')
  assert.is((await t.openById(41))?.id, 41)
  assert.is(t.error.value, null)
})

test('resend the ticket e-mail', async ({ t, calls }) => {
  await t.findByPnr('ABCDEFGHJK', '1234')
  assert.ok(await t.resendEmail())
  assert.equal(calls.at(-1)!.opts.params, { pnr: 'ABCDEFGHJK', pin: '1234' })
  assert.ok(t.emailSent.value)
  assert.is(t.announcement.value?.id, 'ticket.announceEmailSent')
})

test('cancel: initialize shows the refund, the code cancels, the balance is refreshed', async ({ t, calls, session }) => {
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

test('a ticket the operator moved (10) can be cancelled for the whole fare: it becomes 14', async ({ t, clock, handlers }) => {
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

test('cancel refusals are explained; the resend wait counts down', async ({ t, clock, handlers, calls }) => {
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
  const stopClock = t.startResendClock()
  clock.advance(29_000)
  assert.is(t.resendSecondsLeft.value, 1)
  clock.advance(2_000)
  stopClock()
  assert.is(t.resendSecondsLeft.value, 0)
  assert.ok(await t.resendCancelCode())
  assert.is(calls.filter((c) => c.name === 'cancelInitialize').length, 3)
  t.abandonCancel()
  assert.is(t.cancelStep.value, 'idle')
})

const signedIn = (session: Session) =>
  session.signIn({ token: 't', expiresAt: iso(NOW + 86_400_000), passenger, company: { name: 'C', phone: '1', email: 'c@example.com' } })

test('every ticket the server sends is kept on the device: the visitor’s by PNR, the passenger’s under their account', async ({ t, session }) => {
  await t.findByPnr('ABCDEFGHJK', '1234')
  assert.is(saved.savedTicketsOf(null)[0]?.reservation.pin, '1234')
  assert.is(t.savedAt.value, null, 'the server’s answer, not a saved copy')
  signedIn(session)
  t.closeTicket()
  await t.openById(41)
  assert.is(saved.savedTicketsOf(passenger.id)[0]?.savedAt, NOW)
})

test('a ticket’s own address shows the saved copy at once, then the server’s answer asked with the saved PIN', async ({
  t,
  clock,
  handlers,
  calls,
}) => {
  assert.is(await t.openSaved('ABCDEFGHJK'), false, 'nothing saved: the passenger types the PIN')
  saved.keepTickets(null, [sold])
  clock.now += 3_600_000
  // the server's answer stays out until the test sends it; `asked` resolves with its sender once it is asked
  const asked = new Promise<(r: typeof sold) => void>((ask) => {
    handlers.reservationByPnr = () => new Promise((resolve) => ask(resolve))
  })
  const opening = t.openSaved('abcdefghjk')
  const send = await asked
  // the saved copy shows while the server's answer is still out (the store arrives first)
  assert.is(t.ticket.value?.pnr, 'ABCDEFGHJK')
  assert.is(t.savedAt.value, NOW)
  send(sold)
  assert.ok(await opening)
  assert.equal(calls.at(-1)!.opts.params, { pnr: 'ABCDEFGHJK', pin: '1234' })
  assert.is(t.savedAt.value, null)
  assert.is(saved.findSavedTicket(null, { pnr: 'ABCDEFGHJK' })?.savedAt, NOW + 3_600_000)
})

test('without an answer from the server the saved copy stays, marked with its time, with the reason', async ({ t, handlers }) => {
  saved.keepTickets(null, [sold])
  handlers.reservationByPnr = () => fail('NO_INTERNET_CONNECTION')
  assert.ok(await t.openSaved('ABCDEFGHJK'))
  assert.is(t.ticket.value?.pin, '1234')
  assert.is(t.savedAt.value, NOW)
  assert.is(t.error.value?.code, 'NO_INTERNET_CONNECTION')
  // typed in again offline: the copy answers when the PIN matches, never for a wrong one
  t.closeTicket()
  handlers.reservationByPnr = () => fail('SERVICE_UNREACHABLE')
  assert.is((await t.findByPnr('ABCDEFGHJK', '1234'))?.id, 41)
  assert.is(t.savedAt.value, NOW)
  assert.is(await t.findByPnr('ABCDEFGHJK', '9999'), undefined)
  assert.is(t.ticket.value, null)
  assert.is(t.error.value?.code, 'SERVICE_UNREACHABLE')
})

test('My tickets’ link by id opens the saved copy without the server; a server refusal never does', async ({ t, handlers, session }) => {
  signedIn(session)
  saved.keepTickets(passenger.id, [sold])
  handlers.reservationById = () => fail('REQUEST_TIMEOUT')
  assert.is((await t.openById(41))?.id, 41)
  assert.is(t.savedAt.value, NOW)
  handlers.reservationById = () => fail('RESERVATION_NOT_ACCESSIBLE')
  t.closeTicket()
  assert.is(await t.openById(41), undefined)
  assert.is(t.ticket.value, null)
})

test('a ticket cancelled elsewhere: its saved copy says so after the next online look-up', async ({ t, handlers }) => {
  saved.keepTickets(null, [sold])
  handlers.reservationByPnr = () => ({ ...sold, status: 5, canceledAt: iso(NOW), refundAmount: 900 })
  await t.openSaved('ABCDEFGHJK')
  assert.is(t.ticket.value?.status, 5)
  handlers.reservationByPnr = () => fail('NO_INTERNET_CONNECTION')
  t.closeTicket()
  await t.openSaved('ABCDEFGHJK')
  assert.is(t.ticket.value?.status, 5)
  assert.is(t.ticket.value?.refundAmount, 900)
})

test('cancelling here updates the saved copy at once', async ({ t }) => {
  await t.findByPnr('ABCDEFGHJK', '1234')
  await t.startCancel()
  await t.confirmCancel('654321')
  assert.is(saved.findSavedTicket(null, { pnr: 'ABCDEFGHJK' })?.reservation.status, 5)
})

test('another account’s or tab’s copy is never shown at the ticket’s address, nor its PIN sent to the server', async ({ t, calls, session }) => {
  saved.keepTickets(7, [sold])
  signedIn(session)
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

test('LOGOUT or a 401: the ticket on screen, with its PIN, is gone from memory too', async ({ t, session }) => {
  signedIn(session)
  await t.openById(41)
  assert.is(t.ticket.value?.pin, '1234')
  session.signOut()
  assert.is(t.ticket.value, null)
  signedIn(session)
  await t.openById(41)
  session.resetInvalidSession('/ticket-operation?reservationId=41')
  assert.is(t.ticket.value, null)
  // a visitor signing in keeps what they looked up on screen
  await t.findByPnr('ABCDEFGHJK', '1234')
  signedIn(session)
  assert.is(t.ticket.value?.pnr, 'ABCDEFGHJK')
})

test('each visit of the page has its own ticket: the next one starts at the search form, without the last one’s PIN', async ({ t, session }) => {
  await t.findByPnr('ABCDEFGHJK', '1234')
  const next = new TicketModel(session)
  assert.is(next.ticket.value, null)
  assert.is(next.announcement.value, null)
  assert.is(t.ticket.value?.pin, '1234')
  next[Symbol.dispose]()
})

test.run()
