import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { errorCatalogue, type ErrorCode } from '../../contract/errors.ts'
import type { Reservation } from '../../contract/schemas.ts'
import { ApiError } from '../api/api-error.ts'
import { configureApi, fakeApi, type FakeCall, type FakeRoutes } from '../api/index.ts'
import { fakeClock, type FakeClock } from '../lib/clock.ts'
import { memoryStorage, useStorages, type KeyValue } from '../lib/storage.ts'
import * as a from './account.ts'
import { savedTicketsOf } from './saved-tickets.ts'
import * as session from './session.ts'

const passenger = {
  id: 7,
  mobile: '01812345678',
  fullName: 'Rahim',
  email: 'rahim@example.com',
  city: 'Dhaka',
  balance: 100,
  createdAt: '2026-11-01T00:00:00+06:00',
}
const company = { name: 'Company', phone: '16460', email: 'support@example.com' }
const theSession = { token: 'tok-7', expiresAt: '2026-11-22T20:00:00+06:00', passenger, company }
const sent = { mobile: '01812345678', resendAfterSeconds: 180, expiresInSeconds: 300 }
const registered = { ...sent, registrationToken: 'reg-token-1' }

let handlers: FakeRoutes
let calls: FakeCall[]

const fail = (code: ErrorCode) => () => {
  throw new ApiError(code, errorCatalogue[code].reason, errorCatalogue[code].status)
}

const NOW = Date.parse('2026-11-22T10:00:00+06:00')
let ss: KeyValue
let clock: FakeClock

test.before.each(async () => {
  ss = memoryStorage()
  useStorages(ss, memoryStorage())
  session.loadSession()
  handlers = {}
  clock = fakeClock(NOW)
  await a.logout()
  calls = fakeApi(handlers)
})

test('a known mobile no. continues to the password, LOGIN signs in and returns to the remembered page', async () => {
  handlers.passengerByMobile = ({ params }) => ({ mobile: String(params!.mobile), registered: true })
  handlers.login = () => theSession
  session.rememberRedirect('/reservation')
  await a.submitMobile(' 01812345678 ')
  assert.is(a.step.value, 'password')
  assert.is(calls[0]!.opts.params!.mobile, '01812345678')
  const to = await a.login('Secret@1', true)
  assert.is(to, '/reservation')
  assert.equal(calls[1]!.opts.body, { mobile: '01812345678', password: 'Secret@1', staySignedIn: true })
  assert.is(session.token.value, 'tok-7')
  assert.is(a.profile.value?.fullName, 'Rahim')
  assert.is(a.step.value, 'mobile', 'the flow starts over for the next visit')
})

test('without a remembered page LOGIN goes home', async () => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.login = () => theSession
  await a.submitMobile('01812345678')
  assert.is(await a.login('Secret@1', false), '/')
})

test('a wrong password keeps the step and shows BAD_CREDENTIALS; the next try clears it', async () => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.login = fail('BAD_CREDENTIALS')
  await a.submitMobile('01812345678')
  assert.is(await a.login('wrong', false), undefined)
  assert.is(a.step.value, 'password')
  assert.is(a.errors.value.login?.code, 'BAD_CREDENTIALS')
  assert.is(a.errors.value.login?.reason, 'Invalid Credentials')
  assert.is(session.token.value, null)
  assert.not.ok(a.busy.value.login)
  handlers.login = () => theSession
  await a.login('Secret@1', false)
  assert.is(a.errors.value.login, undefined)
})

test('an unknown mobile no. continues to SIGNUP, then the code with a 180 s resend timer, then signs in', async () => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: false })
  handlers.register = () => registered
  handlers.verifyMobile = () => theSession
  await a.submitMobile('01812345678')
  assert.is(a.step.value, 'signup')
  await a.signUp({ mobile: '01812345678', fullName: ' Rahim ', email: 'rahim@example.com', city: 'Dhaka', password: 'Secret@1' })
  assert.equal(calls[1]!.opts.body, { mobile: '01812345678', fullName: 'Rahim', email: 'rahim@example.com', city: 'Dhaka', password: 'Secret@1' })
  assert.is(a.step.value, 'verify')
  assert.is(a.resendSecondsLeft.value, 180)
  assert.not.ok(a.canResend.value)
  clock.advance(1_000)
  assert.is(a.resendSecondsLeft.value, 179)
  const to = await a.verifyMobile('123456')
  assert.equal(calls[2]!.opts.body, { mobile: '01812345678', code: '123456', registrationToken: 'reg-token-1' })
  assert.is(to, '/')
  assert.is(session.passenger.value?.id, 7)
  assert.is(clock.timers, 0, 'the countdown stops after sign-in')
})

test('Resend Code is refused until 180 s have passed, then restarts the countdown', async () => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: false })
  handlers.register = () => registered
  handlers.resendMobileCode = () => sent
  await a.submitMobile('01812345678')
  await a.signUp({ mobile: '01812345678', fullName: 'Rahim', email: 'rahim@example.com', city: 'Dhaka', password: 'Secret@1' })
  clock.advance(179_000)
  assert.is(a.resendSecondsLeft.value, 1)
  assert.not.ok(a.canResend.value)
  clock.advance(1_000)
  assert.ok(a.canResend.value)
  assert.is(clock.timers, 0, 'the ticker stops at zero')
  await a.resendCode()
  assert.is(calls.at(-1)!.name, 'resendMobileCode')
  assert.equal(calls.at(-1)!.opts.params, { registrationToken: 'reg-token-1' }, 'only the registration this browser started')
  assert.is(a.resendSecondsLeft.value, 180)
})

test('a second submit while the first is pending is dropped', async () => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: false })
  handlers.register = () => registered
  await a.submitMobile('01812345678')
  await a.signUp({ mobile: '01812345678', fullName: 'Rahim', email: 'rahim@example.com', city: 'Dhaka', password: 'Secret@1' })
  let release!: () => void
  handlers.verifyMobile = () => new Promise((r) => (release = () => r(theSession)))
  const first = a.verifyMobile('123456')
  assert.ok(a.busy.value.login)
  assert.is(await a.verifyMobile('123456'), undefined)
  release()
  assert.is(await first, '/')
  assert.is(calls.filter((c) => c.name === 'verifyMobile').length, 1)
})

test('a wrong code shows INVALID_OTP_PROVIDED and stays on the code step', async () => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: false })
  handlers.register = () => registered
  handlers.verifyMobile = fail('INVALID_OTP_PROVIDED')
  await a.submitMobile('01812345678')
  await a.signUp({ mobile: '01812345678', fullName: 'Rahim', email: 'rahim@example.com', city: 'Dhaka', password: 'Secret@1' })
  assert.is(await a.verifyMobile('000000'), undefined)
  assert.is(a.step.value, 'verify')
  assert.is(a.errors.value.login?.code, 'INVALID_OTP_PROVIDED')
})

test('a login of a number whose sign-up was never confirmed moves to SIGNUP, the error shown', async () => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.login = fail('MOBILE_NOT_VERIFIED')
  await a.submitMobile('01812345678')
  await a.login('Secret@1', false)
  assert.is(a.step.value, 'signup')
  assert.is(a.errors.value.login?.code, 'MOBILE_NOT_VERIFIED')
  assert.not.ok(calls.some((c) => c.name === 'resendMobileCode'))
})

test('Resend Code for a sign-up that expired goes back to SIGNUP', async () => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: false })
  handlers.register = () => registered
  handlers.resendMobileCode = fail('REGISTRATION_NOT_FOUND')
  await a.submitMobile('01812345678')
  await a.signUp({ mobile: '01812345678', fullName: 'Rahim', email: 'rahim@example.com', city: 'Dhaka', password: 'Secret@1' })
  clock.advance(180_000)
  await a.resendCode()
  assert.is(a.step.value, 'signup')
  assert.is(a.errors.value.login?.code, 'REGISTRATION_NOT_FOUND')
})

test('forgotten password: OTP, verify, new password, then signed in', async () => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.sendOtp = () => sent
  handlers.verifyOtp = () => ({ session: null, resetToken: 'reset-1' })
  handlers.setNewPassword = () => theSession
  session.rememberRedirect('/profile')
  await a.submitMobile('01812345678')
  await a.forgotPassword()
  assert.equal(calls[1]!.opts.body, { mobile: '01812345678', purpose: 'RESET_PASSWORD' })
  assert.is(a.step.value, 'forgotOtp')
  assert.is(a.resendSecondsLeft.value, 180)
  await a.verifyResetOtp('654321')
  assert.equal(calls[2]!.opts.body, { mobile: '01812345678', otp: '654321', purpose: 'RESET_PASSWORD' })
  assert.is(a.step.value, 'newPassword')
  const to = await a.setNewPassword('NewPass@2')
  assert.equal(calls[3]!.opts.body, { mobile: '01812345678', resetToken: 'reset-1', password: 'NewPass@2' })
  assert.is(to, '/profile')
  assert.is(session.token.value, 'tok-7')
})

test('forgotten password errors: expired OTP stays, OTP already sent still lets the code be typed', async () => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.sendOtp = fail('OTP_ALREADY_SENT')
  await a.submitMobile('01812345678')
  await a.forgotPassword()
  assert.is(a.step.value, 'forgotOtp')
  assert.is(a.errors.value.login?.reason, 'OTP already sent. Check SMS and email.')
  handlers.verifyOtp = fail('OTP_VALIDITY_EXPIRED')
  await a.verifyResetOtp('111111')
  assert.is(a.step.value, 'forgotOtp')
  assert.is(a.errors.value.login?.code, 'OTP_VALIDITY_EXPIRED')
  handlers.sendOtp = fail('SMS_PROVIDER_SERVICE_UNAVAILABLE')
  await a.resendResetOtp()
  assert.is(a.errors.value.login?.reason, 'Failed to send SMS')
})

test('network failure and unknown errors become a code the page can show', async () => {
  handlers.passengerByMobile = () => {
    throw new Error('boom')
  }
  await a.submitMobile('01812345678')
  assert.is(a.step.value, 'mobile')
  assert.is(a.errors.value.login?.code, 'INTERNAL_ERROR')
})

test('restartLogin goes back to the mobile no. and clears the error', async () => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.login = fail('USER_INACTIVE')
  await a.submitMobile('01812345678')
  await a.login('x', false)
  a.restartLogin()
  assert.is(a.step.value, 'mobile')
  assert.is(a.errors.value.login, undefined)
  assert.is(a.mobile.value, '01812345678')
})

async function signedIn() {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.login = () => theSession
  await a.submitMobile('01812345678')
  await a.login('Secret@1', false)
  calls.length = 0
}

test('logout forgets the session and the account data, and tells the server', async () => {
  await signedIn()
  handlers.logout = () => true
  // as the app wires it at start
  configureApi({ token: () => session.token.value })
  await a.logout()
  assert.is(calls[0]!.token, 'tok-7', 'the server call still carries the token')
  assert.is(session.token.value, null)
  assert.is(a.profile.value, null)
  assert.is(a.balance.value, null)
  assert.is(calls[0]!.name, 'logout')
})

test('logout still signs out when the server call fails', async () => {
  await signedIn()
  handlers.logout = fail('INVALID_SESSION')
  await a.logout()
  assert.is(session.token.value, null)
  assert.is(ss.getItem('token'), null)
})

test('profile: load, edit (mobile untouched) and the stored passenger follows', async () => {
  await signedIn()
  handlers.profile = ({ params }) => ({ ...passenger, id: Number(params!.id), balance: 250 })
  await a.loadProfile()
  assert.is(calls[0]!.opts.params!.id, 7)
  assert.is(a.balance.value, 250)
  handlers.updateProfile = ({ body }) => ({ ...passenger, ...(body as object) })
  assert.ok(await a.updateProfile({ fullName: ' Rahim Uddin ', email: 'ru@example.com', city: 'Sylhet' }))
  assert.equal(calls[1]!.opts.body, { fullName: 'Rahim Uddin', email: 'ru@example.com', city: 'Sylhet' })
  assert.is(a.profile.value?.city, 'Sylhet')
  assert.is(JSON.parse(ss.getItem('passenger')!).fullName, 'Rahim Uddin')
})

test('change password: success, and a wrong current password keeps its own error', async () => {
  await signedIn()
  handlers.changePassword = () => true
  assert.ok(await a.changePassword('Secret@1', 'NewPass@2'))
  assert.equal(calls[0]!.opts.body, { currentPassword: 'Secret@1', newPassword: 'NewPass@2' })
  handlers.changePassword = fail('BAD_CREDENTIALS')
  assert.not.ok(await a.changePassword('nope', 'NewPass@2'))
  assert.is(a.errors.value.password?.code, 'BAD_CREDENTIALS')
  assert.is(a.errors.value.profile, undefined, 'other forms keep their own state')
})

test('account: the default range runs from the first of the month to today in Dhaka', async () => {
  // 23:30 on Nov 30 in UTC is already Dec 1 in Dhaka
  assert.equal(a.defaultRange(Date.parse('2026-11-30T23:30:00Z')), { from: '2026-12-01', to: '2026-12-01' })
  assert.equal(a.defaultRange(NOW), { from: '2026-11-01', to: '2026-11-22' })
})

test('account: loads balance and transactions for a range, newest first', async () => {
  await signedIn()
  const tx = (id: number, createdAt: string) => ({
    id,
    createdAt,
    amount: 10,
    balanceAfter: 10,
    kind: 'TOP_UP' as const,
    reason: null,
    description: '',
    reservationId: null,
    pnr: null,
  })
  handlers.account = () => ({ balance: 900, transactions: [tx(1, '2026-11-02T10:00:00+06:00'), tx(2, '2026-11-05T10:00:00+06:00')] })
  await a.loadAccount({ from: '2026-11-01', to: '2026-11-22' })
  assert.equal(calls[0]!.opts.query, { from: '2026-11-01', to: '2026-11-22' })
  assert.is(calls[0]!.opts.params!.id, 7)
  assert.is(a.balance.value, 900)
  assert.equal(
    a.transactions.value!.map((t) => t.id),
    [2, 1],
  )
  assert.equal(a.range.value, { from: '2026-11-01', to: '2026-11-22' })
})

test('top-up: start answers the gateway URL; confirm credits once and reloads the account', async () => {
  await signedIn()
  handlers.topUp = () => ({ paymentId: 'pay-1', redirectUrl: '/sandbox/gateway/pay-1', resultToken: 'tok-1' })
  assert.is(await a.startTopUp(500), '/sandbox/gateway/pay-1')
  assert.equal(calls[0]!.opts.body, { amount: 500 })
  handlers.paymentSuccess = () => ({
    paymentId: 'pay-1',
    full: true,
    status: 'APPROVED',
    purpose: 'TOP_UP',
    amount: 500,
    reservation: null,
    balance: 600,
  })
  handlers.account = () => ({ balance: 600, transactions: [] })
  const out = await a.confirmTopUp('pay-1', 'success')
  assert.equal(out, { status: 'APPROVED', amount: 500, balance: 600 })
  assert.is(a.balance.value, 600)
  assert.is(session.passenger.value?.balance, 600)
  assert.is(await a.confirmTopUp('pay-1', 'success'), undefined, 'confirmed once')
  assert.is(calls.filter((c) => c.name === 'paymentSuccess').length, 1)
  assert.equal(calls.find((c) => c.name === 'paymentSuccess')!.opts.body, { paymentId: 'pay-1', resultToken: 'tok-1' }, "this tab's result token")
})

test('top-up: a declined payment reports DECLINED and leaves the balance', async () => {
  await signedIn()
  handlers.paymentFailure = () => ({
    paymentId: 'pay-2',
    full: true,
    status: 'DECLINED',
    purpose: 'TOP_UP',
    amount: 500,
    reservation: null,
    balance: null,
  })
  const out = await a.confirmTopUp('pay-2', 'failure')
  assert.equal(out, { status: 'DECLINED', amount: 500 })
  assert.is(a.balance.value, 100)
})

test('top-up: a payment held for review or still being confirmed is reported as such, the balance unchanged', async () => {
  await signedIn()
  handlers.paymentSuccess = () => ({
    paymentId: 'pay-3',
    full: true,
    status: 'REVIEW',
    purpose: 'TOP_UP',
    amount: 700,
    reservation: null,
    balance: 100,
  })
  assert.equal(await a.confirmTopUp('pay-3', 'success'), { status: 'REVIEW', amount: 700 })
  handlers.paymentSuccess = () => ({
    paymentId: 'pay-4',
    full: true,
    status: 'PENDING',
    purpose: 'TOP_UP',
    amount: 800,
    reservation: null,
    balance: 100,
  })
  assert.equal(await a.confirmTopUp('pay-4', 'success'), { status: 'PENDING', amount: 800 })
  assert.is(a.balance.value, 100)
})

test('my tickets: upcoming trips first (soonest first), then past ones (latest first)', async () => {
  await signedIn()
  const r = (id: number, departureTime: string) => ({ id, departureTime }) as Reservation
  handlers.myReservations = () => [
    r(1, '2026-11-10T08:00:00+06:00'),
    r(2, '2026-11-25T08:00:00+06:00'),
    r(3, '2026-11-23T08:00:00+06:00'),
    r(4, '2026-11-15T08:00:00+06:00'),
  ]
  await a.loadReservations()
  assert.equal(
    a.reservationsUpcomingFirst.value!.map((x) => x.id),
    [3, 2, 4, 1],
  )
  assert.ok(a.isUpcoming(a.reservationsUpcomingFirst.value![0]!))
  assert.not.ok(a.isUpcoming(a.reservationsUpcomingFirst.value![3]!))
})

test('my tickets: every ticket with a PNR and PIN is kept on the device under the account', async () => {
  await signedIn()
  const id = session.passenger.value!.id
  handlers.myReservations = () => [
    { id: 1, pnr: 'AAAAAAAAAA', pin: '1111', departureTime: '2026-11-25T08:00:00+06:00' } as Reservation,
    { id: 2, pnr: null, pin: null, departureTime: '2026-11-26T08:00:00+06:00' } as Reservation,
  ]
  await a.loadReservations()
  assert.equal(
    savedTicketsOf(id).map((s) => s.reservation.id),
    [1],
  )
})

test("a LOGOUT that only clears the session (header) never shows the previous passenger's data", async () => {
  await signedIn()
  handlers.account = () => ({ balance: 900, transactions: [] })
  await a.loadAccount()
  assert.is(a.balance.value, 900)
  session.signOut()
  assert.is(a.transactions.value, null)
  assert.is(a.balance.value, null)
  handlers.login = () => ({ ...theSession, passenger: { ...passenger, id: 8, balance: 5 } })
  await a.submitMobile('01812345678')
  await a.login('Secret@1', false)
  assert.is(a.balance.value, 5)
  assert.is(a.transactions.value, null)
})

test('account actions do nothing for a visitor', async () => {
  await a.loadProfile()
  await a.loadAccount()
  await a.loadReservations()
  assert.is(calls.length, 0)
})

test.run()
