import { randomBytes, scryptSync } from 'node:crypto'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { api } from '../../contract/api.ts'
import { hashCostForTest, hashesComputed, TEST_SCRYPT } from '../account/passwords.ts'
import { codeHash, type OtpPurpose } from '../account/otp.ts'
import { count, startTestApp, TEST_PASSWORD, type TestApp } from '../test/helpers.ts'

// Passwords are hashed at a low scrypt cost here: these tests are about sign-in, codes and limits, not the hash (a
// production hash holds 128 MiB and a thread for about 0.3 s); the one test of the hash itself restores the cost.
let t: TestApp
let productionCost = () => {}
test.before(async () => {
  productionCost = hashCostForTest(TEST_SCRYPT)
  t = await startTestApp({ daysAhead: 1 })
})
test.after(async () => {
  productionCost()
  await t.close()
})

const DEMO = { mobile: '01712345678', password: 'Demo@1234' }
const err = (r: { status: number; body: any; text: string }, status: number, code: string) => {
  assert.is(r.status, status, r.text)
  assert.is(r.body.error.code, code, r.text)
  assert.type(r.body.error.reason, 'string')
}
const regBody = (mobile: string) => ({ mobile, fullName: 'Karim Ahmed', email: 'karim@example.com', city: 'Sylhet', password: TEST_PASSWORD })

test('passengerByMobile: registered, unknown, normalised, invalid', async () => {
  let r = await t.call('GET', '/api/getPassengerByMobile/01712345678')
  assert.equal(r.body.data, { mobile: '01712345678', registered: true })
  r = await t.call('GET', '/api/getPassengerByMobile/001712345678')
  assert.equal(r.body.data, { mobile: '01712345678', registered: true })
  r = await t.call('GET', '/api/getPassengerByMobile/01999999999')
  assert.equal(r.body.data, { mobile: '01999999999', registered: false })
  err(await t.call('GET', '/api/getPassengerByMobile/0121234567'), 400, 'VALIDATION_FAILED')
  err(await t.call('GET', '/api/getPassengerByMobile/' + '1'.repeat(200)), 400, 'VALIDATION_FAILED')
})

test('login with the demo passenger answers a session; token is stored hashed', async () => {
  const r = await t.call('POST', '/api/checkPassenger', { body: DEMO })
  assert.is(r.status, 200, r.text)
  assert.ok(api.login.response.safeParse(r.body.data).success)
  const s = r.body.data
  assert.is(s.passenger.mobile, DEMO.mobile)
  assert.is(s.passenger.balance, 5000)
  assert.match(s.token, /^[A-Za-z0-9_-]{43}$/)
  assert.not.ok('passwordHash' in s.passenger || 'password_hash' in s.passenger)
  const stored = await t.db.query('SELECT 1 FROM sessions WHERE token_hash = $1', [s.token])
  assert.is(stored.length, 0)
  const hours = (Date.parse(s.expiresAt) - t.clock.now().getTime()) / 3_600_000
  assert.ok(Math.abs(hours - 12) < 0.01, String(hours))
  const p = await t.call('GET', `/api/profile/${s.passenger.id}`, { token: s.token })
  assert.is(p.status, 200)
})

test('login errors: wrong password, unknown mobile, inactive, not verified, password expired', async () => {
  err(await t.call('POST', '/api/checkPassenger', { body: { ...DEMO, password: 'Wrong@123' } }), 401, 'BAD_CREDENTIALS')
  err(await t.call('POST', '/api/checkPassenger', { body: { mobile: '01899999999', password: 'Demo@1234' } }), 401, 'BAD_CREDENTIALS')
  const s = await t.signUp('01811111111')
  await t.db.query(`UPDATE passengers SET status = 'INACTIVE' WHERE id = $1`, [s.passenger.id])
  err(await t.call('POST', '/api/checkPassenger', { body: { mobile: '01811111111', password: TEST_PASSWORD } }), 403, 'USER_INACTIVE')
  // an inactive passenger's existing session stops working too
  err(await t.call('GET', `/api/profile/${s.passenger.id}`, { token: s.token }), 401, 'INVALID_SESSION')
  // a sign-up whose code was never confirmed has no account yet
  const reg = await t.call('POST', '/api/register', { body: regBody('01822222222') })
  assert.is(reg.status, 200, reg.text)
  err(await t.call('POST', '/api/checkPassenger', { body: { mobile: '01822222222', password: TEST_PASSWORD } }), 401, 'BAD_CREDENTIALS')
  // a passenger the old sign-up flow left unverified is told so, after the right password only
  await t.db.query(
    `INSERT INTO passengers (mobile, full_name, email, city, password_hash, status, created_at)
     SELECT '01822222223', 'Old Flow', 'old@example.com', 'Dhaka', password_hash, 'PENDING', now() FROM passengers WHERE mobile = $1`,
    [DEMO.mobile],
  )
  err(await t.call('POST', '/api/checkPassenger', { body: { mobile: '01822222223', password: DEMO.password } }), 403, 'MOBILE_NOT_VERIFIED')
  err(await t.call('POST', '/api/checkPassenger', { body: { mobile: '01822222223', password: 'Nope@1234' } }), 401, 'BAD_CREDENTIALS')
  t.deps.config.passwordMaxAgeDays = 90
  t.clock.advance(91 * 86_400_000)
  err(await t.call('POST', '/api/checkPassenger', { body: DEMO }), 403, 'PASSWORD_EXPIRED')
  t.clock.advance(-91 * 86_400_000)
  t.deps.config.passwordMaxAgeDays = 0
})

test('malformed login and register bodies: 400, nothing stored', async () => {
  const before = [await count(t.db, 'passengers'), await count(t.db, 'otps'), await count(t.db, 'sessions'), await count(t.db, 'registrations')]
  const bad: unknown[] = [
    {},
    { mobile: DEMO.mobile },
    { mobile: 1712345678, password: 'x' },
    { mobile: DEMO.mobile, password: DEMO.password, admin: true },
    { mobile: DEMO.mobile, password: 'x'.repeat(51) },
    { mobile: DEMO.mobile, password: DEMO.password, staySignedIn: 'yes' },
    null,
    [1, 2],
  ]
  for (const b of bad) err(await t.call('POST', '/api/checkPassenger', { body: b }), 400, 'VALIDATION_FAILED')
  const r = await t.call('POST', '/api/checkPassenger', { body: { mobile: DEMO.mobile, password: DEMO.password, admin: true } })
  assert.equal(r.body.error.fields, [{ path: 'admin', message: 'Unknown field' }])
  err(await t.call('POST', '/api/checkPassenger', { raw: '{"mobile":', headers: { 'content-type': 'application/json' } }), 400, 'VALIDATION_FAILED')
  const regBad: unknown[] = [
    { ...regBody('01833333333'), password: 'short' },
    { ...regBody('01833333333'), password: 'nouppercase1!' },
    { ...regBody('01833333333'), password: 'With space1!' },
    { ...regBody('01833333333'), email: 'not-an-email' },
    { ...regBody('01833333333'), fullName: '' },
    { ...regBody('01833333333'), fullName: 'x'.repeat(101) },
    { ...regBody('01833333333'), city: 'y'.repeat(5000) },
    { ...regBody('01233333333') },
    { ...regBody('01833333333'), role: 'admin' },
  ]
  for (const b of regBad) err(await t.call('POST', '/api/register', { body: b }), 400, 'VALIDATION_FAILED')
  err(
    await t.call('POST', '/api/register', {
      raw: JSON.stringify({ ...regBody('01833333333'), pad: 'z'.repeat(70_000) }),
      headers: { 'content-type': 'application/json' },
    }),
    413,
    'VALIDATION_FAILED',
  )
  const after = [await count(t.db, 'passengers'), await count(t.db, 'otps'), await count(t.db, 'sessions'), await count(t.db, 'registrations')]
  assert.equal(after, before)
})

/** Registers `mobile`; answers the registration token (and fails the test on a refusal). */
async function register(mobile: string, body: Record<string, unknown> = {}): Promise<string> {
  const r = await t.call('POST', '/api/register', { body: { ...regBody(mobile), ...body } })
  assert.is(r.status, 200, r.text)
  return r.body.data.registrationToken
}
const verify = (mobile: string, code: string | null, registrationToken: string) =>
  t.call('POST', '/api/verifyMobileVerificationCode', { body: { mobile, code, registrationToken } })
const resend = (registrationToken: string) => t.call('GET', `/api/resendMobileVerificationCode/${registrationToken}`)

/**
 * The newest code sent to `mobile`; should the random code equal `other` (one chance in a million), its otps row
 * is given another one instead, so a test of "the other code is refused" always runs.
 */
async function codeOtherThan(mobile: string, other: string): Promise<string> {
  const code = (await t.lastCode(mobile))!
  if (code !== other) return code
  const different = String((Number(other) + 1) % 1_000_000).padStart(6, '0')
  const [row] = await t.db.query<{ id: number; purpose: OtpPurpose; ref: string }>(
    'SELECT id, purpose, ref FROM otps WHERE mobile = $1 ORDER BY sent_at DESC, id DESC LIMIT 1',
    [mobile],
  )
  await t.db.query('UPDATE otps SET code_hash = $2 WHERE id = $1', [row!.id, codeHash(mobile, row!.purpose, row!.ref, different)])
  return different
}

test('sign-up: register sends an SMS code and a registration token; the code with the token activates and signs in', async () => {
  const mobile = '01912345670'
  const r = await t.call('POST', '/api/register', { body: regBody('0' + mobile) })
  assert.is(r.status, 200, r.text)
  const { registrationToken, ...sent } = r.body.data
  assert.equal(sent, { mobile, resendAfterSeconds: 180, expiresInSeconds: 300 })
  assert.match(registrationToken, /^[A-Za-z0-9_-]{43}$/)
  const code = await t.lastCode(mobile)
  assert.match(code!, /^\d{6}$/)
  const sms = await t.call('GET', `/dev/outbox?to=${mobile}`)
  assert.is(sms.status, 200)
  assert.is(sms.body.data[0].channel, 'SMS')
  assert.ok(sms.body.data[0].body.includes(code!))
  // nothing is a passenger until the code is confirmed; the token and code are stored hashed
  assert.is((await t.db.query('SELECT 1 FROM passengers WHERE mobile = $1', [mobile])).length, 0)
  const [reg] = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM registrations WHERE mobile = $1', [mobile])
  assert.is.not(reg!.token_hash, registrationToken)
  assert.is((await t.call('GET', `/api/getPassengerByMobile/${mobile}`)).body.data.registered, false)

  err(await verify(mobile, code === '000000' ? '111111' : '000000', registrationToken), 400, 'INVALID_OTP_PROVIDED')
  err(await verify(mobile, code, 'not-the-token'), 404, 'REGISTRATION_NOT_FOUND')
  err(await t.call('POST', '/api/verifyMobileVerificationCode', { body: { mobile, code } }), 400, 'VALIDATION_FAILED')
  const v = await verify(mobile, code, registrationToken)
  assert.is(v.status, 200, v.text)
  assert.ok(api.verifyMobile.response.safeParse(v.body.data).success)
  assert.is(v.body.data.passenger.fullName, 'Karim Ahmed')
  assert.is(v.body.data.passenger.balance, 0)
  // the registration is used up
  err(await verify(mobile, code, registrationToken), 404, 'REGISTRATION_NOT_FOUND')
  err(await resend(registrationToken), 404, 'REGISTRATION_NOT_FOUND')
  err(await t.call('POST', '/api/register', { body: regBody(mobile) }), 409, 'MOBILE_ALREADY_REGISTERED')
  const login = await t.call('POST', '/api/checkPassenger', { body: { mobile, password: TEST_PASSWORD, staySignedIn: true } })
  assert.is(login.status, 200)
  const days = (Date.parse(login.body.data.expiresAt) - t.clock.now().getTime()) / 86_400_000
  assert.ok(Math.abs(days - 30) < 0.01)
})

test('sign-up takeover: a second registration of a pending mobile never changes the first one, and its code does not activate it', async () => {
  const victim = '01912345680'
  const victimToken = await register(victim, { fullName: 'Real Owner', password: 'Owner@1234' })
  const victimCode = (await t.lastCode(victim))!
  // within the resend interval another sign-up of the number is refused outright
  err(await t.call('POST', '/api/register', { body: { ...regBody(victim), fullName: 'Attacker', password: 'Attack@123' } }), 429, 'OTP_ALREADY_SENT')
  // after it, the attacker's sign-up is a registration of its own, with a code of its own
  t.clock.advance(181_000)
  const attackerToken = await register(victim, { fullName: 'Attacker', email: 'evil@example.com', password: 'Attack@123' })
  const attackerCode = await codeOtherThan(victim, victimCode)
  // neither code works with the other registration's token
  err(await verify(victim, victimCode, attackerToken), 400, 'INVALID_OTP_PROVIDED')
  err(await verify(victim, attackerCode, victimToken), 400, 'INVALID_OTP_PROVIDED')
  // the owner's own code (still within its 5 minutes) activates the owner's details
  t.clock.advance(60_000)
  const v = await verify(victim, victimCode, victimToken)
  assert.is(v.status, 200, v.text)
  assert.is(v.body.data.passenger.fullName, 'Real Owner')
  assert.is(v.body.data.passenger.email, 'karim@example.com')
  err(await t.call('POST', '/api/checkPassenger', { body: { mobile: victim, password: 'Attack@123' } }), 401, 'BAD_CREDENTIALS')
  assert.is((await t.call('POST', '/api/checkPassenger', { body: { mobile: victim, password: 'Owner@1234' } })).status, 200)
  // and the attacker's registration can no longer become the account
  err(await verify(victim, attackerCode, attackerToken), 409, 'MOBILE_ALREADY_REGISTERED')
})

test('resend interval: a second code only after 180 s, for register and resend', async () => {
  const mobile = '01912345671'
  const token = await register(mobile)
  const first = await t.lastCode(mobile)
  const otps = await count(t.db, 'otps')
  const regs = await count(t.db, 'registrations')
  err(await t.call('POST', '/api/register', { body: { ...regBody(mobile), fullName: 'Changed Name' } }), 429, 'OTP_ALREADY_SENT')
  err(await resend(token), 429, 'OTP_ALREADY_SENT')
  const [r] = await t.db.query<{ full_name: string }>('SELECT full_name FROM registrations WHERE mobile = $1', [mobile])
  assert.is(r!.full_name, 'Karim Ahmed')
  assert.is(await count(t.db, 'otps'), otps)
  assert.is(await count(t.db, 'registrations'), regs)
  t.clock.advance(179_000)
  err(await resend(token), 429, 'OTP_ALREADY_SENT')
  t.clock.advance(2_000)
  const again = await resend(token)
  assert.is(again.status, 200, again.text)
  assert.is(again.body.data.mobile, mobile)
  const second = await codeOtherThan(mobile, first!)
  // the old code no longer works once replaced
  err(await verify(mobile, first, token), 400, 'INVALID_OTP_PROVIDED')
  assert.is((await verify(mobile, second, token)).status, 200)
  err(await resend('A'.repeat(43)), 404, 'REGISTRATION_NOT_FOUND')
  // a sign-up left waiting expires after 30 minutes
  const late = await register('01912345681')
  t.clock.advance(31 * 60_000)
  err(await resend(late), 404, 'REGISTRATION_NOT_FOUND')
})

test('concurrent requests send one code only', async () => {
  const mobile = '01912345672'
  const token = await register(mobile)
  t.clock.advance(181_000)
  const results = await Promise.all(Array.from({ length: 10 }, () => resend(token)))
  assert.is(results.filter((r) => r.status === 200).length, 1)
  assert.ok(results.every((r) => r.status === 200 || r.body.error.code === 'OTP_ALREADY_SENT'))
  const [n] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_messages WHERE "to" = $1`, [mobile])
  assert.is(n!.n, 2)
})

test('code expiry after 5 minutes and the 5-try cap', async () => {
  const mobile = '01912345673'
  const token = await register(mobile)
  const code = (await t.lastCode(mobile))!
  t.clock.advance(301_000)
  err(await verify(mobile, code, token), 400, 'OTP_VALIDITY_EXPIRED')
  assert.is((await resend(token)).status, 200)
  const code2 = (await t.lastCode(mobile))!
  const wrong2 = code2 === '123456' ? '654321' : '123456'
  for (let i = 0; i < 5; i++) err(await verify(mobile, wrong2, token), 400, 'INVALID_OTP_PROVIDED')
  err(await verify(mobile, code2, token), 400, 'OTP_VALIDITY_EXPIRED')
  err(await verify(mobile, 'abc', token), 400, 'VALIDATION_FAILED')
  err(await verify('01700000002', '123456', token), 404, 'REGISTRATION_NOT_FOUND')
})

test('concurrent wrong tries are all counted: never more than 5', async () => {
  const mobile = '01912345674'
  const token = await register(mobile)
  const code = (await t.lastCode(mobile))!
  const wrong = code === '123456' ? '654321' : '123456'
  const rs = await Promise.all(Array.from({ length: 12 }, () => verify(mobile, wrong, token)))
  assert.is(rs.filter((r) => r.body.error.code === 'INVALID_OTP_PROVIDED').length, 5)
  err(await verify(mobile, code, token), 400, 'OTP_VALIDITY_EXPIRED')
})

test('no mobile no. gets more than 10 codes of one purpose an hour; codes of another purpose still go', async () => {
  const mobile = '01912345682'
  await t.signUp(mobile)
  // ten login codes, 181 s apart
  for (let i = 0; i < 10; i++) {
    t.clock.advance(181_000)
    const r = await t.call('POST', '/api/sendOtp', { body: { mobile, purpose: 'LOGIN' } })
    assert.is(r.status, 200, `code ${i + 1}: ${r.text}`)
  }
  t.clock.advance(181_000)
  const refused = await t.call('POST', '/api/sendOtp', { body: { mobile, purpose: 'LOGIN' } })
  err(refused, 429, 'TOO_MANY_ATTEMPTS')
  assert.ok(refused.body.error.values.minutes > 0)
  const [n] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_messages WHERE "to" = $1`, [mobile])
  assert.is(n!.n, 11)
  // whoever asked for those cannot use up the owner's reset codes
  const reset = await t.call('POST', '/api/sendOtp', { body: { mobile, purpose: 'RESET_PASSWORD' } })
  assert.is(reset.status, 200, reset.text)
  t.clock.advance(60 * 60_000)
  assert.is((await t.call('POST', '/api/sendOtp', { body: { mobile, purpose: 'LOGIN' } })).status, 200)
})

test("sign-up codes do not use up a number's reset codes", async () => {
  const mobile = '01912345683'
  // ten sign-ups of an unregistered number, 181 s apart: the eleventh is refused
  for (let i = 0; i < 10; i++) {
    t.clock.advance(181_000)
    assert.is((await t.call('POST', '/api/register', { body: regBody(mobile) })).status, 200)
  }
  t.clock.advance(181_000)
  err(await t.call('POST', '/api/register', { body: regBody(mobile) }), 429, 'TOO_MANY_ATTEMPTS')
  // the number's owner signs up by another route meanwhile (an old-flow passenger): the reset code still goes
  await t.db.query(
    `INSERT INTO passengers (mobile, full_name, email, city, password_hash, status, created_at)
     SELECT $1, 'Owner', 'owner@example.com', 'Dhaka', password_hash, 'ACTIVE', now() FROM passengers WHERE mobile = $2`,
    [mobile, DEMO.mobile],
  )
  const reset = await t.call('POST', '/api/sendOtp', { body: { mobile, purpose: 'RESET_PASSWORD' } })
  assert.is(reset.status, 200, reset.text)
  assert.match(
    (await t.db.query<{ body: string }>(`SELECT body FROM outbox_messages WHERE "to" = $1 ORDER BY id DESC LIMIT 1`, [mobile]))[0]!.body,
    'password reset',
  )
})

test('sendOtp answers a number without an account as a known one, and sends it nothing', async () => {
  const known = '01912345684'
  await t.signUp(known)
  const unknown = '01912345685'
  t.clock.advance(181_000)
  for (const purpose of ['LOGIN', 'RESET_PASSWORD'] as const) {
    const a = await t.call('POST', '/api/sendOtp', { body: { mobile: known, purpose } })
    const b = await t.call('POST', '/api/sendOtp', { body: { mobile: unknown, purpose } })
    assert.is(a.status, 200, a.text)
    assert.is(b.status, a.status, b.text)
    assert.equal(b.body, { data: { ...a.body.data, mobile: unknown } })
    // asked again at once: the same refusal for both
    const a2 = await t.call('POST', '/api/sendOtp', { body: { mobile: known, purpose } })
    const b2 = await t.call('POST', '/api/sendOtp', { body: { mobile: unknown, purpose } })
    err(a2, 429, 'OTP_ALREADY_SENT')
    err(b2, 429, 'OTP_ALREADY_SENT')
    // a code typed for either: Wrong OTP five times, then expired
    const wrong = (await t.lastCode(known)) === '000000' ? '111111' : '000000'
    for (let i = 0; i <= 5; i++) {
      const want = i < 5 ? 'INVALID_OTP_PROVIDED' : 'OTP_VALIDITY_EXPIRED'
      err(await t.call('POST', '/api/verifyOTP', { body: { mobile: known, otp: wrong, purpose } }), 400, want)
      err(await t.call('POST', '/api/verifyOTP', { body: { mobile: unknown, otp: wrong, purpose } }), 400, want)
    }
  }
  // no SMS ever went to the unregistered number
  const [sent] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_messages WHERE "to" = $1`, [unknown])
  assert.is(sent!.n, 0)
  // not even a code that happens to match: none is stored for it
  const [row] = await t.db.query<{ code_hash: string }>(`SELECT code_hash FROM otps WHERE mobile = $1 AND purpose = 'LOGIN'`, [unknown])
  assert.is(row!.code_hash, '-')
})

test('sessions expire after 12 hours; logout revokes', async () => {
  const s = (await t.call('POST', '/api/checkPassenger', { body: DEMO })).body.data
  const url = `/api/profile/${s.passenger.id}`
  t.clock.advance(12 * 3_600_000 - 1000)
  assert.is((await t.call('GET', url, { token: s.token })).status, 200)
  t.clock.advance(2000)
  err(await t.call('GET', url, { token: s.token }), 401, 'INVALID_SESSION')
  const s2 = (await t.call('POST', '/api/checkPassenger', { body: DEMO })).body.data
  const out = await t.call('POST', '/api/logout', { token: s2.token })
  assert.is(out.status, 200)
  assert.is(out.body.data, true)
  err(await t.call('GET', url, { token: s2.token }), 401, 'INVALID_SESSION')
  err(await t.call('POST', '/api/logout', { token: s2.token }), 401, 'INVALID_SESSION')
  err(await t.call('POST', '/api/logout'), 401, 'INVALID_SESSION')
  err(await t.call('GET', url, { token: 'x'.repeat(500) }), 401, 'INVALID_SESSION')
  err(await t.call('GET', url, { headers: { authorization: 'Basic abc' } }), 401, 'INVALID_SESSION')
})

test('login by one-time code', async () => {
  // an unknown number is answered as a known one (see above); nothing is sent to it
  assert.is((await t.call('POST', '/api/sendOtp', { body: { mobile: '01700000003', purpose: 'LOGIN' } })).status, 200)
  assert.is(await t.lastCode('01700000003'), null)
  err(await t.call('POST', '/api/sendOtp', { body: { mobile: DEMO.mobile, purpose: 'SIGNUP' } }), 400, 'VALIDATION_FAILED')
  const r = await t.call('POST', '/api/sendOtp', { body: { mobile: DEMO.mobile, purpose: 'LOGIN' } })
  assert.is(r.status, 200, r.text)
  err(await t.call('POST', '/api/sendOtp', { body: { mobile: DEMO.mobile, purpose: 'LOGIN' } }), 429, 'OTP_ALREADY_SENT')
  const code = (await t.lastCode(DEMO.mobile))!
  // a code for another purpose does not work
  err(await t.call('POST', '/api/verifyOTP', { body: { mobile: DEMO.mobile, otp: code, purpose: 'RESET_PASSWORD' } }), 400, 'OTP_VALIDITY_EXPIRED')
  const v = await t.call('POST', '/api/verifyOTP', { body: { mobile: DEMO.mobile, otp: code, purpose: 'LOGIN' } })
  assert.is(v.status, 200, v.text)
  assert.ok(api.verifyOtp.response.safeParse(v.body.data).success)
  assert.is(v.body.data.resetToken, null)
  assert.is((await t.call('GET', `/api/profile/${v.body.data.session.passenger.id}`, { token: v.body.data.session.token })).status, 200)
  err(await t.call('POST', '/api/verifyOTP', { body: { mobile: DEMO.mobile, otp: code, purpose: 'LOGIN' } }), 400, 'OTP_VALIDITY_EXPIRED')
  // a sign-up not confirmed yet has no account to log in to
  const pending = '01912345675'
  await register(pending)
  const before = await t.lastCode(pending)
  t.clock.advance(181_000)
  assert.is((await t.call('POST', '/api/sendOtp', { body: { mobile: pending, purpose: 'LOGIN' } })).status, 200)
  assert.is(await t.lastCode(pending), before, 'no login code went out')
})

test('wrong passwords are counted per mobile no.: after 10 in 15 minutes its password sign-in waits, with no hash computed; the SMS code still signs in', async () => {
  const mobile = '01912345686'
  await t.signUp(mobile)
  t.clock.advance(20 * 60_000)
  for (let i = 0; i < 10; i++) err(await t.call('POST', '/api/checkPassenger', { body: { mobile, password: `Wrong@${i}x` } }), 401, 'BAD_CREDENTIALS')
  const hashes = hashesComputed()
  const refused = await t.call('POST', '/api/checkPassenger', { body: { mobile, password: 'Wrong@11x' } })
  err(refused, 429, 'TOO_MANY_ATTEMPTS')
  assert.is(refused.body.error.values.minutes, 15)
  assert.match(refused.body.error.reason, 'reset your password with a code sent by SMS')
  assert.ok(Number(refused.headers['retry-after']) > 0)
  // even the right password waits, and neither cost a hash
  err(await t.call('POST', '/api/checkPassenger', { body: { mobile, password: TEST_PASSWORD } }), 429, 'TOO_MANY_ATTEMPTS')
  assert.is(hashesComputed(), hashes)
  // the owner signs in with an SMS code meanwhile
  t.clock.advance(181_000)
  assert.is((await t.call('POST', '/api/sendOtp', { body: { mobile, purpose: 'LOGIN' } })).status, 200)
  const v = await t.call('POST', '/api/verifyOTP', { body: { mobile, otp: (await t.lastCode(mobile))!, purpose: 'LOGIN' } })
  assert.is(v.status, 200, v.text)
  assert.type(v.body.data.session.token, 'string')
  // another number is not held back
  assert.is((await t.call('POST', '/api/checkPassenger', { body: DEMO })).status, 200)
  // 15 minutes after the wrong ones the password signs in again
  t.clock.advance(15 * 60_000)
  assert.is((await t.call('POST', '/api/checkPassenger', { body: { mobile, password: TEST_PASSWORD } })).status, 200)
})

test('an unknown mobile no. is throttled alike: the answer does not tell it has no account', async () => {
  const mobile = '01912345687'
  for (let i = 0; i < 10; i++) err(await t.call('POST', '/api/checkPassenger', { body: { mobile, password: `Wrong@${i}x` } }), 401, 'BAD_CREDENTIALS')
  const hashes = hashesComputed()
  const refused = await t.call('POST', '/api/checkPassenger', { body: { mobile, password: 'Wrong@11x' } })
  err(refused, 429, 'TOO_MANY_ATTEMPTS')
  assert.is(refused.body.error.values.minutes, 15)
  assert.is(hashesComputed(), hashes)
})

test('password reset: code, reset token, new password, other sessions ended', async () => {
  const mobile = '01912345676'
  const s = await t.signUp(mobile)
  assert.is((await t.call('POST', '/api/sendOtp', { body: { mobile, purpose: 'RESET_PASSWORD' } })).status, 200)
  const code = (await t.lastCode(mobile))!
  const v = await t.call('POST', '/api/verifyOTP', { body: { mobile, otp: code, purpose: 'RESET_PASSWORD' } })
  assert.is(v.status, 200, v.text)
  assert.is(v.body.data.session, null)
  const resetToken = v.body.data.resetToken
  assert.type(resetToken, 'string')
  err(await t.call('POST', '/api/setNewPassword', { body: { mobile, resetToken, password: 'weak' } }), 400, 'VALIDATION_FAILED')
  err(await t.call('POST', '/api/setNewPassword', { body: { mobile: DEMO.mobile, resetToken, password: 'Brand@New1' } }), 400, 'OTP_VALIDITY_EXPIRED')
  const done = await t.call('POST', '/api/setNewPassword', { body: { mobile, resetToken, password: 'Brand@New1' } })
  assert.is(done.status, 200, done.text)
  assert.ok(api.setNewPassword.response.safeParse(done.body.data).success)
  err(await t.call('GET', `/api/profile/${s.passenger.id}`, { token: s.token }), 401, 'INVALID_SESSION')
  err(await t.call('POST', '/api/checkPassenger', { body: { mobile, password: TEST_PASSWORD } }), 401, 'BAD_CREDENTIALS')
  assert.is((await t.call('POST', '/api/checkPassenger', { body: { mobile, password: 'Brand@New1' } })).status, 200)
  err(await t.call('POST', '/api/setNewPassword', { body: { mobile, resetToken, password: 'Other@New2' } }), 400, 'OTP_VALIDITY_EXPIRED')
})

test('reset tokens expire after 10 minutes', async () => {
  const mobile = '01912345677'
  await t.signUp(mobile)
  await t.call('POST', '/api/sendOtp', { body: { mobile, purpose: 'RESET_PASSWORD' } })
  const v = await t.call('POST', '/api/verifyOTP', { body: { mobile, otp: (await t.lastCode(mobile))!, purpose: 'RESET_PASSWORD' } })
  t.clock.advance(10 * 60_000 + 1000)
  err(
    await t.call('POST', '/api/setNewPassword', { body: { mobile, resetToken: v.body.data.resetToken, password: 'Brand@New1' } }),
    400,
    'OTP_VALIDITY_EXPIRED',
  )
})

test('housekeeping removes sign-in state expired over a day ago, keeps live sessions', async () => {
  const { purgeExpired } = await import('../housekeeping.ts')
  const live = (await t.call('POST', '/api/checkPassenger', { body: { ...DEMO, staySignedIn: true } })).body.data
  t.clock.advance(2 * 86_400_000)
  await purgeExpired(t.db, t.clock.now())
  const [left] = await t.db.query<{ s: number; o: number }>(
    `SELECT (SELECT count(*) FROM sessions WHERE expires_at < $1)::int AS s, (SELECT count(*) FROM otps WHERE expires_at < $1)::int AS o`,
    [new Date(t.clock.now().getTime() - 86_400_000)],
  )
  assert.equal(left, { s: 0, o: 0 })
  assert.is((await t.call('GET', `/api/profile/${live.passenger.id}`, { token: live.token })).status, 200)
})

test('passwords: new hashes use scrypt N=2^17, r=8, p=1; an older cheaper hash is replaced at the next successful login', async () => {
  productionCost()
  try {
    await hashedAtProductionCost()
  } finally {
    productionCost = hashCostForTest(TEST_SCRYPT)
  }
})

async function hashedAtProductionCost(): Promise<void> {
  const s = await t.signUp('01912345690')
  const stored = async () =>
    (await t.db.query<{ password_hash: string }>('SELECT password_hash FROM passengers WHERE id = $1', [s.passenger.id]))[0]!.password_hash
  assert.match(await stored(), /^scrypt\$131072\$8\$1\$/)
  // a hash as the first release made it (N=2^14)
  const salt = randomBytes(16)
  const old = [
    'scrypt',
    16384,
    8,
    1,
    salt.toString('base64url'),
    scryptSync(TEST_PASSWORD.normalize('NFKC'), salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64url'),
  ].join('$')
  await t.db.query('UPDATE passengers SET password_hash = $2 WHERE id = $1', [s.passenger.id, old])
  err(await t.call('POST', '/api/checkPassenger', { body: { mobile: '01912345690', password: 'Wrong@1234' } }), 401, 'BAD_CREDENTIALS')
  assert.is(await stored(), old, 'a failed login changes nothing')
  assert.is((await t.call('POST', '/api/checkPassenger', { body: { mobile: '01912345690', password: TEST_PASSWORD } })).status, 200)
  const upgraded = await stored()
  assert.match(upgraded, /^scrypt\$131072\$8\$1\$/)
  assert.is((await t.call('POST', '/api/checkPassenger', { body: { mobile: '01912345690', password: TEST_PASSWORD } })).status, 200)
  assert.is(await stored(), upgraded, 'hashed once')
}

test('strict rate limit on login and code routes', async () => {
  const limited = await startTestApp({ daysAhead: 0, app: { authRateLimitMax: 3 } })
  try {
    const codes: number[] = []
    for (let i = 0; i < 5; i++) codes.push((await limited.call('POST', '/api/checkPassenger', { body: { ...DEMO, password: 'Wrong@1234' } })).status)
    assert.equal(codes, [401, 401, 401, 429, 429])
    const r = await limited.call('POST', '/api/checkPassenger', { body: DEMO })
    err(r, 429, 'TOO_MANY_REQUESTS')
    // lookups are not held back by it
    assert.is((await limited.call('GET', '/api/originCities')).status, 200)
  } finally {
    await limited.close()
  }
})

test.run()
