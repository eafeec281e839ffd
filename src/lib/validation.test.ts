import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readFileSync } from 'node:fs'
import { contactRequest, updateProfileRequest } from '../../contract/schemas.ts'
import { emailPattern, FIELD_MAX, passwordSpecials } from '../../contract/values.ts'
import {
  passwordProblems,
  validateConfirmPassword,
  validateContactForm,
  validateEmail,
  validateMobile,
  validateOriginDestination,
  validatePassword,
  validateChangePasswordForm,
  validateCode,
  validateProfileForm,
  validateSignupForm,
  validateTopUpForm,
  toAsciiDigits,
} from './validation.ts'

const en = JSON.parse(readFileSync(new URL('../../locales/en.json', import.meta.url), 'utf8')) as Record<string, string>
const text = (id: string | undefined) => (id ? en[id] : undefined)

test("each of the contract's password specials counts as one, and nothing else does", () => {
  for (const ch of passwordSpecials) assert.not.ok(passwordProblems(`Abcde1${ch}`).includes('validation.passwordSpecial'), ch)
  for (const ch of ['_', '-', '.', '+', '?']) assert.ok(passwordProblems(`Abcde1${ch}`).includes('validation.passwordSpecial'), ch)
})

test('mobile: optional leading 0, then 01, then 3-9, then 8 digits', () => {
  for (const ok of ['01712345678', '001712345678', '01312345678', '01999999999']) {
    assert.is(validateMobile(ok), undefined, ok)
  }
  for (const bad of ['01212345678', '0171234567', '017123456789', '1712345678', '+8801712345678', '01712 45678']) {
    assert.is(text(validateMobile(bad)), 'Please enter a valid mobile no.', bad)
  }
  assert.is(text(validateMobile('')), 'Mobile no. is required')
  assert.is(validateMobile('', { optional: true }), undefined)
})

test('email', () => {
  assert.is(validateEmail('rahim@example.com.bd'), undefined)
  assert.is(validateEmail('rahim@[192.168.0.1]'), undefined)
  assert.is(text(validateEmail('')), 'Email is required')
  for (const bad of ['rahim', 'rahim@example', 'rahim@example.c', 'a b@example.com', 'rahim@@example.com']) {
    assert.is(text(validateEmail(bad)), 'Please enter a valid email', bad)
  }
  assert.ok(emailPattern.test('x@y.org'))
})

test('password: each missing rule has its message', () => {
  assert.is(text(validatePassword('')), 'Password is required')
  assert.equal(passwordProblems('Abcde1!'), [])
  assert.is(text(validatePassword('abcde1!')), 'Must add one UPPERCASE letter')
  assert.is(text(validatePassword('ABCDE1!')), 'Must add one lowercase letter')
  assert.is(text(validatePassword('Abcdef!')), 'Must add one number')
  assert.is(text(validatePassword('Abcdef1')), 'Must add one special symbol')
  assert.is(text(validatePassword('Abc de1!')), 'White space not allowed')
  assert.equal(passwordProblems('Ab1!'), ['validation.passwordLength'])
  assert.equal(passwordProblems('Ab1!' + 'x'.repeat(47)), ['validation.passwordLength'])
  assert.equal(passwordProblems('Ab1!' + 'x'.repeat(46)), [])
  assert.equal(passwordProblems('abc'), [
    'validation.passwordLength',
    'validation.passwordUppercase',
    'validation.passwordNumber',
    'validation.passwordSpecial',
  ])
})

test('confirm password', () => {
  assert.is(text(validateConfirmPassword('Abcde1!', '')), 'Confirm password is required')
  assert.is(text(validateConfirmPassword('Abcde1!', 'Abcde1?')), "Confirm password doesn't match")
  assert.is(validateConfirmPassword('Abcde1!', 'Abcde1!'), undefined)
})

test('origin and destination must differ', () => {
  assert.ok(validateOriginDestination('DHK', 'DHK'))
  assert.is(validateOriginDestination('DHK', 'CTG'), undefined)
})

test('contact form', () => {
  const empty = validateContactForm({ name: '', email: '', mobile: '', subject: '', message: '' })
  assert.equal(Object.keys(empty).sort(), ['email', 'message', 'name', 'subject'])
  assert.is(text(empty.name), 'Full name is required')
  assert.is(text(empty.email), 'Email is required')
  const bad = validateContactForm({ name: 'Rahim', email: 'x', mobile: '0123', subject: 'Hi', message: 'Hello' })
  assert.is(text(bad.email), 'Please enter a valid email')
  assert.is(text(bad.mobile), 'Please enter a valid mobile no.')
  const ok = validateContactForm({ name: 'Rahim', email: 'r@example.com', mobile: '', subject: 'Hi', message: 'Hello' })
  assert.equal(ok, {})
})

test('sign-up form: every SPEC message beside its field', () => {
  const empty = validateSignupForm({ mobile: '', fullName: '', email: '', city: '', password: '', confirmPassword: '' })
  assert.equal(Object.fromEntries(Object.entries(empty).map(([k, v]) => [k, text(v)])), {
    mobile: 'Mobile no. is required',
    fullName: 'Full name is required',
    email: 'Email is required',
    city: 'City is required',
    password: 'Password is required',
    confirmPassword: 'Confirm password is required',
  })
  const bad = validateSignupForm({ mobile: '0121', fullName: 'R', email: 'r@x', city: 'Dhaka', password: 'Secret@1', confirmPassword: 'Secret@2' })
  assert.is(text(bad.mobile), 'Please enter a valid mobile no.')
  assert.is(text(bad.email), 'Please enter a valid email')
  assert.is(text(bad.confirmPassword), "Confirm password doesn't match")
  assert.is(bad.password, undefined)
  const ok = validateSignupForm({
    mobile: '01812345678',
    fullName: 'Rahim',
    email: 'r@example.com',
    city: 'Dhaka',
    password: 'Secret@1',
    confirmPassword: 'Secret@1',
  })
  assert.equal(ok, {})
  const long = validateSignupForm({
    mobile: '01812345678',
    fullName: 'x'.repeat(101),
    email: 'r@example.com',
    city: 'Dhaka',
    password: 'Secret@1',
    confirmPassword: 'Secret@1',
  })
  assert.is(long.fullName, 'validation.tooLong')
})

test('password rules list what is still missing as the value grows', () => {
  assert.equal(passwordProblems('a').map(text), [
    'Password must be 6 to 50 characters',
    'Must add one UPPERCASE letter',
    'Must add one number',
    'Must add one special symbol',
  ])
  assert.equal(passwordProblems('aB3').map(text), ['Password must be 6 to 50 characters', 'Must add one special symbol'])
  assert.equal(passwordProblems('aB3!56 ').map(text), ['White space not allowed'])
  assert.equal(passwordProblems('aB3!56'), [])
  assert.is(text(passwordProblems('a'.repeat(51))[0]), 'Password must be 6 to 50 characters')
})

test('verification code and OTP: 6 digits, else the required message', () => {
  assert.is(text(validateCode('')), 'Verification code is required')
  assert.is(text(validateCode('12345')), 'Verification code is required')
  assert.is(validateCode('123456'), undefined)
  assert.is(text(validateCode('12a456', 'validation.otpRequired')), 'OTP is required')
})

test('profile form', () => {
  assert.equal(validateProfileForm({ fullName: 'Rahim', email: 'r@example.com', city: 'Dhaka' }), {})
  const e = validateProfileForm({ fullName: ' ', email: 'bad', city: '' })
  assert.equal([text(e.fullName), text(e.email), text(e.city)], ['Full name is required', 'Please enter a valid email', 'City is required'])
})

test('the forms and the wire schemas take the same longest text (FIELD_MAX): one more character is refused by both', () => {
  const mail = (n: number) => `${'a'.repeat(n - '@example.com'.length)}@example.com`
  const profile = { fullName: 'a'.repeat(FIELD_MAX.fullName), email: mail(FIELD_MAX.email), city: 'a'.repeat(FIELD_MAX.city) }
  assert.equal(validateProfileForm(profile), {})
  assert.ok(updateProfileRequest.safeParse(profile).success)
  for (const [k, long] of [
    ['fullName', 'a'.repeat(FIELD_MAX.fullName + 1)],
    ['email', mail(FIELD_MAX.email + 1)],
    ['city', 'a'.repeat(FIELD_MAX.city + 1)],
  ] as const) {
    const tooLong = { ...profile, [k]: long }
    assert.ok(validateProfileForm(tooLong)[k], `${k}: the form refuses ${long.length} characters`)
    assert.not.ok(updateProfileRequest.safeParse(tooLong).success, `${k}: the schema refuses ${long.length} characters`)
  }
  const contact = {
    name: 'a'.repeat(FIELD_MAX.fullName),
    email: 'r@example.com',
    mobile: '',
    subject: 's'.repeat(FIELD_MAX.subject),
    message: 'm'.repeat(FIELD_MAX.message),
  }
  assert.equal(validateContactForm(contact), {})
  assert.ok(contactRequest.safeParse({ name: contact.name, email: contact.email, subject: contact.subject, message: contact.message }).success)
  for (const k of ['subject', 'message'] as const) {
    const tooLong = { ...contact, [k]: `${contact[k]}x` }
    assert.ok(validateContactForm(tooLong)[k], k)
    assert.not.ok(
      contactRequest.safeParse({ name: tooLong.name, email: tooLong.email, subject: tooLong.subject, message: tooLong.message }).success,
      k,
    )
  }
})

test('profile form: its own rules, no mobile or password involved; sign-up checks the same fields the same way', () => {
  const bad = { fullName: '', email: 'bad', city: 'a'.repeat(FIELD_MAX.city + 1) }
  const p = validateProfileForm(bad)
  assert.equal(Object.keys(p).sort(), ['city', 'email', 'fullName'])
  const s = validateSignupForm({ ...bad, mobile: '01712345678', password: 'Secret@1', confirmPassword: 'Secret@1' })
  assert.equal(s, p)
})

test('change-password form', () => {
  const e = validateChangePasswordForm({ currentPassword: '', newPassword: '', confirmPassword: '' })
  assert.equal(
    [text(e.currentPassword), text(e.newPassword), text(e.confirmPassword)],
    ['Current password is required', 'Password is required', 'Confirm password is required'],
  )
  assert.is(
    text(validateChangePasswordForm({ currentPassword: 'x', newPassword: 'Secret@1', confirmPassword: 'Secret@' }).confirmPassword),
    "Confirm password doesn't match",
  )
  assert.equal(validateChangePasswordForm({ currentPassword: 'x', newPassword: 'Secret@1', confirmPassword: 'Secret@1' }), {})
})

test('top-up form: amount and its confirmation, which must match', () => {
  const e = validateTopUpForm({ amount: '', amountConfirmation: '' })
  assert.equal([text(e.amount), text(e.amountConfirmation)], ['Amount is required', 'Amount confirmation is required'])
  assert.is(text(validateTopUpForm({ amount: '500', amountConfirmation: '50' }).amountConfirmation), "Amount confirmation doesn't match")
  for (const bad of ['5', '12.5', '-20', '100001', 'abc'])
    assert.is(validateTopUpForm({ amount: bad, amountConfirmation: bad }).amount, 'validation.amountRange', bad)
  assert.equal(validateTopUpForm({ amount: ' 500 ', amountConfirmation: '500' }), {})
})

test('Bengali digits typed on a bn keyboard become ASCII', () => {
  assert.is(toAsciiDigits('০১৭১২৩৪৫৬৭৮'), '01712345678')
  assert.is(validateMobile(toAsciiDigits('০১৭১২৩৪৫৬৭৮')), undefined)
  assert.is(toAsciiDigits('a1৯'), 'a19')
})

test('every message id exists in en.json', () => {
  const ids = [
    validateMobile(''),
    validateMobile('1'),
    validateEmail(''),
    validateEmail('x'),
    ...passwordProblems(' '),
    validateConfirmPassword('a', ''),
    validateConfirmPassword('a', 'b'),
    validateOriginDestination('A', 'A'),
    validateCode(''),
    ...Object.values(validateChangePasswordForm({ currentPassword: '', newPassword: '', confirmPassword: '' })),
    ...Object.values(validateTopUpForm({ amount: '', amountConfirmation: '' })),
    ...Object.values(validateTopUpForm({ amount: '1', amountConfirmation: '2' })),
  ]
  for (const id of ids) assert.ok(id && en[id], String(id))
})

test.run()
