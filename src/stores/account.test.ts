// The account store: signing in, signing up with the mobile code, a forgotten password.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as a from './account.ts'
import * as session from './session.ts'
import { theSession, sent, registered, handlers, calls, fail, clock, startAccountTest } from './account-fixture.ts'

test.before.each(() => startAccountTest())

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

test.run()
