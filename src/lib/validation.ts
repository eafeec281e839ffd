/**
 * Form validation rules of docs/spec.md section 5. Each validator returns the message
 * id of the first problem (see locales/en.json for the exact texts) or
 * undefined when the value is valid. The patterns come from contract/values.ts, which
 * the API's schemas use too, without zod (the page's first render does not load it).
 */
import {
  emailPattern,
  FIELD_MAX,
  mobilePattern,
  PASSWORD_MAX,
  PASSWORD_MIN,
  passwordSpecialPattern,
  TOP_UP_MAX,
  TOP_UP_MIN,
} from '../../contract/values.ts'

/** A message id from locales/en.json. */
export type MessageId = string

const isBlank = (v: string | null | undefined) => !v || v.trim() === ''

/** Required check with the given message id. */
export function required(value: string | null | undefined, messageId: MessageId): MessageId | undefined {
  return isBlank(value) ? messageId : undefined
}

/** Mobile no.: required (unless optional) and matching the Bangladeshi pattern. */
export function validateMobile(value: string, opts: { optional?: boolean } = {}): MessageId | undefined {
  if (isBlank(value)) return opts.optional ? undefined : 'validation.mobileRequired'
  return mobilePattern.test(value.trim()) ? undefined : 'validation.mobileInvalid'
}

/** E-mail: required (unless optional) and a valid address. */
export function validateEmail(value: string, opts: { optional?: boolean } = {}): MessageId | undefined {
  if (isBlank(value)) return opts.optional ? undefined : 'validation.emailRequired'
  return emailPattern.test(value.trim()) ? undefined : 'validation.emailInvalid'
}

/** Every rule a password breaks, in display order (empty when valid). */
export function passwordProblems(value: string): MessageId[] {
  if (!value) return ['validation.passwordRequired']
  const problems: MessageId[] = []
  if (value.length < PASSWORD_MIN || value.length > PASSWORD_MAX) problems.push('validation.passwordLength')
  if (!/[A-Z]/.test(value)) problems.push('validation.passwordUppercase')
  if (!/[a-z]/.test(value)) problems.push('validation.passwordLowercase')
  if (!/\d/.test(value)) problems.push('validation.passwordNumber')
  if (!passwordSpecialPattern.test(value)) problems.push('validation.passwordSpecial')
  if (/\s/.test(value)) problems.push('validation.passwordWhitespace')
  return problems
}

/** Password: first broken rule. */
export function validatePassword(value: string): MessageId | undefined {
  return passwordProblems(value)[0]
}

/** Confirm password: required and equal to the password. */
export function validateConfirmPassword(password: string, confirm: string): MessageId | undefined {
  if (!confirm) return 'validation.confirmPasswordRequired'
  return confirm === password ? undefined : 'validation.confirmPasswordMismatch'
}

/** Maximum length check; the message takes `{max}`. */
export function maxLength(value: string, max: number): MessageId | undefined {
  return value.length > max ? 'validation.tooLong' : undefined
}

/** Origin and destination must differ. */
export function validateOriginDestination(origin: string, destination: string): MessageId | undefined {
  return origin && destination && origin === destination ? 'validation.sameOriginDestination' : undefined
}

/** Field → message id map; fields without a problem are left out. */
export type FieldErrors<F extends string> = Partial<Record<F, MessageId>>

/** Fields of the contact form. */
export interface ContactForm {
  name: string
  email: string
  mobile: string
  subject: string
  message: string
}

/** Validates the contact form; limits follow contract `contactRequest`. */
export function validateContactForm(form: ContactForm): FieldErrors<keyof ContactForm> {
  const errors: FieldErrors<keyof ContactForm> = {}
  const set = (k: keyof ContactForm, id: MessageId | undefined) => {
    if (id) errors[k] = id
  }
  set('name', required(form.name, 'validation.fullNameRequired') ?? maxLength(form.name.trim(), FIELD_MAX.fullName))
  set('email', validateEmail(form.email) ?? maxLength(form.email.trim(), FIELD_MAX.email))
  set('mobile', validateMobile(form.mobile, { optional: true }))
  set('subject', required(form.subject, 'validation.subjectRequired') ?? maxLength(form.subject.trim(), FIELD_MAX.subject))
  set('message', required(form.message, 'validation.messageRequired') ?? maxLength(form.message.trim(), FIELD_MAX.message))
  return errors
}

/** Length of SMS verification codes and OTPs. */
export const CODE_LENGTH = 6

/** A 6-digit SMS code or OTP: anything shorter counts as missing (`messageId`). */
export function validateCode(value: string, messageId: MessageId = 'validation.verificationCodeRequired'): MessageId | undefined {
  return new RegExp(`^\\d{${CODE_LENGTH}}$`).test(value) ? undefined : messageId
}

/** Fields of the sign-up form (docs/spec.md section 3) before the code step. */
export interface SignupForm {
  mobile: string
  fullName: string
  email: string
  city: string
  password: string
  confirmPassword: string
}

/** Validates the sign-up form; limits follow contract `registerRequest`. */
export function validateSignupForm(form: SignupForm): FieldErrors<keyof SignupForm> {
  const errors: FieldErrors<keyof SignupForm> = {}
  const set = (k: keyof SignupForm, id: MessageId | undefined) => {
    if (id) errors[k] = id
  }
  set('mobile', validateMobile(form.mobile))
  Object.assign(errors, validateProfileForm(form))
  set('password', validatePassword(form.password))
  set('confirmPassword', validateConfirmPassword(form.password, form.confirmPassword))
  return errors
}

/** Editable profile fields. */
export interface ProfileForm {
  fullName: string
  email: string
  city: string
}

/** Validates the profile's fields (contract `updateProfileRequest`); sign-up checks them by these rules too. */
export function validateProfileForm(form: ProfileForm): FieldErrors<keyof ProfileForm> {
  const errors: FieldErrors<keyof ProfileForm> = {}
  const set = (k: keyof ProfileForm, id: MessageId | undefined) => {
    if (id) errors[k] = id
  }
  set('fullName', required(form.fullName, 'validation.fullNameRequired') ?? maxLength(form.fullName.trim(), FIELD_MAX.fullName))
  set('email', validateEmail(form.email) ?? maxLength(form.email.trim(), FIELD_MAX.email))
  set('city', required(form.city, 'validation.cityRequired') ?? maxLength(form.city.trim(), FIELD_MAX.city))
  return errors
}

/** Fields of the change-password form. */
export interface ChangePasswordForm {
  currentPassword: string
  newPassword: string
  confirmPassword: string
}

/** Validates the change-password form: current required, new by the password rules, confirm equal. */
export function validateChangePasswordForm(form: ChangePasswordForm): FieldErrors<keyof ChangePasswordForm> {
  const errors: FieldErrors<keyof ChangePasswordForm> = {}
  if (!form.currentPassword) errors.currentPassword = 'validation.currentPasswordRequired'
  const p = validatePassword(form.newPassword)
  if (p) errors.newPassword = p
  const c = validateConfirmPassword(form.newPassword, form.confirmPassword)
  if (c) errors.confirmPassword = c
  return errors
}

/** Fields of the top-up form: the amount typed twice. */
export interface TopUpForm {
  amount: string
  amountConfirmation: string
}

/** Validates the top-up form: whole Taka within limits, confirmation equal to the amount. */
export function validateTopUpForm(form: TopUpForm): FieldErrors<keyof TopUpForm> {
  const errors: FieldErrors<keyof TopUpForm> = {}
  const amount = form.amount.trim()
  const confirmation = form.amountConfirmation.trim()
  if (!amount) errors.amount = 'validation.amountRequired'
  else if (!/^\d+$/.test(amount) || Number(amount) < TOP_UP_MIN || Number(amount) > TOP_UP_MAX) errors.amount = 'validation.amountRange'
  if (!confirmation) errors.amountConfirmation = 'validation.amountConfirmationRequired'
  else if (confirmation !== amount) errors.amountConfirmation = 'validation.amountConfirmationMismatch'
  return errors
}

/** Bengali digits typed on a bn keyboard (০–৯) as ASCII digits, for mobile numbers, codes and amounts. */
export function toAsciiDigits(value: string): string {
  return value.replace(/[০-৯]/g, (d) => String(d.charCodeAt(0) - 0x09e6))
}
