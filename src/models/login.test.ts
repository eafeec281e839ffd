// The login flow: signing in, signing up with the mobile code, a forgotten password.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { LoginModel } from './login.ts'
import { type AccountTest, endAccountTest, fail, registered, sent, startAccountTest, theSession } from './account-fixture.ts'

const test = suite<AccountTest>('login')
test.before.each((ctx) => {
  Object.assign(ctx, startAccountTest())
})
test.after.each((ctx) => endAccountTest(ctx))

test('a known mobile no. continues to the password, LOGIN signs in and returns to the remembered page', async ({
  login,
  handlers,
  calls,
  session,
}) => {
  handlers.passengerByMobile = ({ params }) => ({ mobile: String(params!.mobile), registered: true })
  handlers.login = () => theSession
  session.rememberRedirect('/reservation')
  await login.submitMobile(' 01812345678 ')
  assert.is(login.step.value, 'password')
  assert.is(calls[0]!.opts.params!.mobile, '01812345678')
  const to = await login.login('Secret@1', true)
  assert.is(to, '/reservation')
  assert.equal(calls[1]!.opts.body, { mobile: '01812345678', password: 'Secret@1', staySignedIn: true })
  assert.is(session.token.value, 'tok-7')
  assert.is(session.passenger.value?.fullName, 'Rahim')
  assert.is(login.step.value, 'mobile', 'the flow starts over for the next visit')
})

test('without a remembered page LOGIN goes home', async ({ login, handlers }) => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.login = () => theSession
  await login.submitMobile('01812345678')
  assert.is(await login.login('Secret@1', false), '/')
})

test('a wrong password keeps the step and shows BAD_CREDENTIALS; the next try clears it', async ({ login, handlers, session }) => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.login = fail('BAD_CREDENTIALS')
  await login.submitMobile('01812345678')
  assert.is(await login.login('wrong', false), undefined)
  assert.is(login.step.value, 'password')
  assert.is(login.error.value?.code, 'BAD_CREDENTIALS')
  assert.is(login.error.value?.reason, 'Invalid Credentials')
  assert.is(session.token.value, null)
  assert.not.ok(login.busy.value)
  handlers.login = () => theSession
  await login.login('Secret@1', false)
  assert.is(login.error.value, null)
})

test('an unknown mobile no. continues to SIGNUP, then the code with a 180 s resend timer, then signs in', async ({
  login,
  handlers,
  calls,
  clock,
  session,
}) => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: false })
  handlers.register = () => registered
  handlers.verifyMobile = () => theSession
  await login.submitMobile('01812345678')
  assert.is(login.step.value, 'signup')
  await login.signUp({ mobile: '01812345678', fullName: ' Rahim ', email: 'rahim@example.com', city: 'Dhaka', password: 'Secret@1' })
  assert.equal(calls[1]!.opts.body, { mobile: '01812345678', fullName: 'Rahim', email: 'rahim@example.com', city: 'Dhaka', password: 'Secret@1' })
  assert.is(login.step.value, 'verify')
  assert.is(login.resendSecondsLeft.value, 180)
  assert.not.ok(login.canResend.value)
  clock.advance(1_000)
  assert.is(login.resendSecondsLeft.value, 179)
  const to = await login.verifyMobile('123456')
  assert.equal(calls[2]!.opts.body, { mobile: '01812345678', code: '123456', registrationToken: 'reg-token-1' })
  assert.is(to, '/')
  assert.is(session.passenger.value?.id, 7)
  assert.is(clock.timers, 0, 'the countdown stops after sign-in')
})

test('Resend Code is refused until 180 s have passed, then restarts the countdown', async ({ login, handlers, calls, clock }) => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: false })
  handlers.register = () => registered
  handlers.resendMobileCode = () => sent
  await login.submitMobile('01812345678')
  await login.signUp({ mobile: '01812345678', fullName: 'Rahim', email: 'rahim@example.com', city: 'Dhaka', password: 'Secret@1' })
  clock.advance(179_000)
  assert.is(login.resendSecondsLeft.value, 1)
  assert.not.ok(login.canResend.value)
  clock.advance(1_000)
  assert.ok(login.canResend.value)
  assert.is(clock.timers, 0, 'the ticker stops at zero')
  await login.resendCode()
  assert.is(calls.at(-1)!.name, 'resendMobileCode')
  assert.equal(calls.at(-1)!.opts.params, { registrationToken: 'reg-token-1' }, 'only the registration this browser started')
  assert.is(login.resendSecondsLeft.value, 180)
})

test('a second submit while the first is pending is dropped', async ({ login, handlers, calls }) => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: false })
  handlers.register = () => registered
  await login.submitMobile('01812345678')
  await login.signUp({ mobile: '01812345678', fullName: 'Rahim', email: 'rahim@example.com', city: 'Dhaka', password: 'Secret@1' })
  let release!: () => void
  handlers.verifyMobile = () => new Promise((r) => (release = () => r(theSession)))
  const first = login.verifyMobile('123456')
  assert.ok(login.busy.value)
  assert.is(await login.verifyMobile('123456'), undefined)
  release()
  assert.is(await first, '/')
  assert.is(calls.filter((c) => c.name === 'verifyMobile').length, 1)
})

test('a wrong code shows INVALID_OTP_PROVIDED and stays on the code step', async ({ login, handlers }) => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: false })
  handlers.register = () => registered
  handlers.verifyMobile = fail('INVALID_OTP_PROVIDED')
  await login.submitMobile('01812345678')
  await login.signUp({ mobile: '01812345678', fullName: 'Rahim', email: 'rahim@example.com', city: 'Dhaka', password: 'Secret@1' })
  assert.is(await login.verifyMobile('000000'), undefined)
  assert.is(login.step.value, 'verify')
  assert.is(login.error.value?.code, 'INVALID_OTP_PROVIDED')
})

test('a login of a number whose sign-up was never confirmed moves to SIGNUP, the error shown', async ({ login, handlers, calls }) => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.login = fail('MOBILE_NOT_VERIFIED')
  await login.submitMobile('01812345678')
  await login.login('Secret@1', false)
  assert.is(login.step.value, 'signup')
  assert.is(login.error.value?.code, 'MOBILE_NOT_VERIFIED')
  assert.not.ok(calls.some((c) => c.name === 'resendMobileCode'))
})

test('Resend Code for a sign-up that expired goes back to SIGNUP', async ({ login, handlers, clock }) => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: false })
  handlers.register = () => registered
  handlers.resendMobileCode = fail('REGISTRATION_NOT_FOUND')
  await login.submitMobile('01812345678')
  await login.signUp({ mobile: '01812345678', fullName: 'Rahim', email: 'rahim@example.com', city: 'Dhaka', password: 'Secret@1' })
  clock.advance(180_000)
  await login.resendCode()
  assert.is(login.step.value, 'signup')
  assert.is(login.error.value?.code, 'REGISTRATION_NOT_FOUND')
})

test('forgotten password: OTP, verify, new password, then signed in', async ({ login, handlers, calls, session }) => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.sendOtp = () => sent
  handlers.verifyOtp = () => ({ session: null, resetToken: 'reset-1' })
  handlers.setNewPassword = () => theSession
  session.rememberRedirect('/profile')
  await login.submitMobile('01812345678')
  await login.forgotPassword()
  assert.equal(calls[1]!.opts.body, { mobile: '01812345678', purpose: 'RESET_PASSWORD' })
  assert.is(login.step.value, 'forgotOtp')
  assert.is(login.resendSecondsLeft.value, 180)
  await login.verifyResetOtp('654321')
  assert.equal(calls[2]!.opts.body, { mobile: '01812345678', otp: '654321', purpose: 'RESET_PASSWORD' })
  assert.is(login.step.value, 'newPassword')
  const to = await login.setNewPassword('NewPass@2')
  assert.equal(calls[3]!.opts.body, { mobile: '01812345678', resetToken: 'reset-1', password: 'NewPass@2' })
  assert.is(to, '/profile')
  assert.is(session.token.value, 'tok-7')
})

test('forgotten password errors: expired OTP stays, OTP already sent still lets the code be typed', async ({ login, handlers }) => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.sendOtp = fail('OTP_ALREADY_SENT')
  await login.submitMobile('01812345678')
  await login.forgotPassword()
  assert.is(login.step.value, 'forgotOtp')
  assert.is(login.error.value?.reason, 'OTP already sent. Check SMS and email.')
  handlers.verifyOtp = fail('OTP_VALIDITY_EXPIRED')
  await login.verifyResetOtp('111111')
  assert.is(login.step.value, 'forgotOtp')
  assert.is(login.error.value?.code, 'OTP_VALIDITY_EXPIRED')
  handlers.sendOtp = fail('SMS_PROVIDER_SERVICE_UNAVAILABLE')
  await login.resendResetOtp()
  assert.is(login.error.value?.reason, 'Failed to send SMS')
})

test('network failure and unknown errors become a code the page can show', async ({ login, handlers }) => {
  handlers.passengerByMobile = () => {
    throw new Error('boom')
  }
  await login.submitMobile('01812345678')
  assert.is(login.step.value, 'mobile')
  assert.is(login.error.value?.code, 'INTERNAL_ERROR')
})

test('restartLogin goes back to the mobile no. and clears the error', async ({ login, handlers }) => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: true })
  handlers.login = fail('USER_INACTIVE')
  await login.submitMobile('01812345678')
  await login.login('x', false)
  login.restartLogin()
  assert.is(login.step.value, 'mobile')
  assert.is(login.error.value, null)
  assert.is(login.mobile.value, '01812345678')
})

test('leaving the page stops the resend countdown; the next visit starts from the mobile no.', async ({ login, handlers, clock, session }) => {
  handlers.passengerByMobile = () => ({ mobile: '01812345678', registered: false })
  handlers.register = () => registered
  await login.submitMobile('01812345678')
  await login.signUp({ mobile: '01812345678', fullName: 'Rahim', email: 'rahim@example.com', city: 'Dhaka', password: 'Secret@1' })
  assert.is(clock.timers, 1)
  login[Symbol.dispose]()
  assert.is(clock.timers, 0)
  using next = new LoginModel(session)
  assert.is(next.step.value, 'mobile')
})

test.run()
