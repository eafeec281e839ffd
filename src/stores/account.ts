/**
 * The passenger's account: the login and sign-up flow (a small state machine
 * that starts from the mobile number), the forgotten-password flow, the
 * profile, the balance with its transactions, top-ups and the passenger's
 * reservations. Actions are the only writers; uvu runs them against `fakeApi`
 * and `fakeClock`. The state (and the helpers the actions share) is in account-state.ts; its public part is
 * re-exported here.
 *
 * Login flow:  mobile → password                    → signed in
 *                     → signup → verify             → signed in
 *              password → forgotOtp → newPassword   → signed in
 */
import { batch } from '@preact/signals-react'
import { OTP_RESEND_SECONDS } from '../../contract/values.ts'
import { call } from '../api/index.ts'
import { now } from '../lib/clock.ts'
import { keepResultToken, resultRequest } from './payment-tokens.ts'
import { keepTicketsLater } from './saved-tickets-later.ts'
import * as session from './session.ts'
import {
  type DateRange,
  type ProfileInput,
  type Scope,
  type SignupInput,
  type TopUpOutcome,
  balanceState,
  confirmedTopUps,
  errorState,
  finishSignIn,
  loginError,
  mobileState,
  nowState,
  own,
  profileState,
  rangeState,
  registrationTokenState,
  resendAtState,
  reservationsState,
  resetTokenState,
  run,
  setError,
  startResendTimer,
  stepState,
  stopResendTimer,
  transactionsState,
} from './account-state.ts'

export type { DateRange, LoginStep, ProfileInput, Scope, SignupInput, TopUpOutcome } from './account-state.ts'
export {
  balance,
  busy,
  canResend,
  defaultRange,
  errors,
  isUpcoming,
  mobile,
  profile,
  range,
  reservations,
  reservationsUpcomingFirst,
  resendSecondsLeft,
  step,
  transactions,
  upcomingFirst,
} from './account-state.ts'

// ---------- login flow actions ----------

/** Returns to the first step, keeping the typed mobile no. */
export function restartLogin(): void {
  stopResendTimer()
  batch(() => {
    stepState.value = 'mobile'
    resetTokenState.value = null
    registrationTokenState.value = null
    resendAtState.value = null
    setError('login', null)
  })
}

/** Clears a scope's server error (the passenger edits the form again). */
export function dismissError(scope: Scope): void {
  setError(scope, null)
}

/** Step 1: looks the mobile no. up; a known one continues to the password, an unknown one to sign-up. */
export async function submitMobile(value: string): Promise<void> {
  const m = value.trim()
  mobileState.value = m
  const found = await run('login', () => call('passengerByMobile', { params: { mobile: m } }))
  if (found) stepState.value = found.registered ? 'password' : 'signup'
}

/** LOGIN: checks the password; on success stores the session and answers where to go next. */
export async function login(password: string, staySignedIn: boolean): Promise<string | undefined> {
  const m = mobileState.value
  const s = await run('login', () => call('login', { body: { mobile: m, password, staySignedIn } }))
  if (s) return finishSignIn(s, staySignedIn)
  // a number whose sign-up was never confirmed signs up again (the error stays shown)
  if (loginError()?.code === 'MOBILE_NOT_VERIFIED') stepState.value = 'signup'
  return undefined
}

/** SIGNUP: registers and sends the SMS verification code. */
export async function signUp(input: SignupInput): Promise<void> {
  const m = input.mobile.trim()
  mobileState.value = m
  const body = { mobile: m, fullName: input.fullName.trim(), email: input.email.trim(), city: input.city.trim(), password: input.password }
  const sent = await run('login', () => call('register', { body }))
  if (sent) {
    batch(() => {
      registrationTokenState.value = sent.registrationToken
      stepState.value = 'verify'
    })
    startResendTimer(sent.resendAfterSeconds || OTP_RESEND_SECONDS)
  }
}

/** Confirms the SMS verification code; the new passenger is signed in. */
export async function verifyMobile(code: string): Promise<string | undefined> {
  const m = mobileState.value
  const registrationToken = registrationTokenState.value ?? ''
  const s = await run('login', () => call('verifyMobile', { body: { mobile: m, code, registrationToken } }))
  return s ? finishSignIn(s, false) : undefined
}

/** Resend Code on the verification step (sign-up): a new code for this browser's registration. */
export async function resendCode(): Promise<void> {
  const registrationToken = registrationTokenState.value
  if (!registrationToken) {
    stepState.value = 'signup'
    return
  }
  const sent = await run('login', () => call('resendMobileCode', { params: { registrationToken } }))
  if (sent) startResendTimer(sent.resendAfterSeconds || OTP_RESEND_SECONDS)
  // the sign-up expired or was completed elsewhere: start it again
  else if (loginError()?.code === 'REGISTRATION_NOT_FOUND') stepState.value = 'signup'
}

/** Forgot your password: sends an OTP to the mobile no. and continues to the OTP step. */
export async function forgotPassword(): Promise<void> {
  const m = mobileState.value
  const sent = await run('login', () => call('sendOtp', { body: { mobile: m, purpose: 'RESET_PASSWORD' } }))
  if (sent) {
    stepState.value = 'forgotOtp'
    startResendTimer(sent.resendAfterSeconds || OTP_RESEND_SECONDS)
  } else if (loginError()?.code === 'OTP_ALREADY_SENT') {
    // an OTP sent moments ago is still valid: let the passenger type it
    stepState.value = 'forgotOtp'
  }
}

/** Resend Code on the password-reset OTP step. */
export async function resendResetOtp(): Promise<void> {
  const m = mobileState.value
  const sent = await run('login', () => call('sendOtp', { body: { mobile: m, purpose: 'RESET_PASSWORD' } }))
  if (sent) startResendTimer(sent.resendAfterSeconds || OTP_RESEND_SECONDS)
}

/** Verifies the password-reset OTP and continues to the new password. */
export async function verifyResetOtp(otp: string): Promise<void> {
  const m = mobileState.value
  const res = await run('login', () => call('verifyOtp', { body: { mobile: m, otp, purpose: 'RESET_PASSWORD' } }))
  if (res?.resetToken) {
    stopResendTimer()
    batch(() => {
      resetTokenState.value = res.resetToken
      resendAtState.value = null
      stepState.value = 'newPassword'
    })
  }
}

/** Sets the new password; the passenger is then signed in. */
export async function setNewPassword(password: string): Promise<string | undefined> {
  const m = mobileState.value
  const resetToken = resetTokenState.value
  if (!resetToken) {
    restartLogin()
    return undefined
  }
  const s = await run('login', () => call('setNewPassword', { body: { mobile: m, resetToken, password } }))
  return s ? finishSignIn(s, false) : undefined
}

/** LOGOUT: forgets the session and the account data at once, and ends the token on the server (best effort). */
export async function logout(): Promise<void> {
  // the request reads the token before the session is cleared below
  const ended = session.token.value !== null ? call('logout', { ignoreUnauthorized: true }).catch(() => undefined) : null
  session.signOut()
  batch(() => {
    own(null)
    stepState.value = 'mobile'
    errorState.value = {}
  })
  await ended
}

// ---------- profile ----------

/** The signed-in passenger's id (and the account data now belongs to them), or null. */
function passengerId(): number | null {
  const id = session.passenger.value?.id ?? null
  if (id !== null) own(id)
  return id
}

/** Loads the profile of the signed-in passenger. */
export async function loadProfile(): Promise<void> {
  const id = passengerId()
  if (id === null) return
  const p = await run('profile', () => call('profile', { params: { id } }))
  if (p) {
    session.updatePassenger(p)
    batch(() => {
      profileState.value = p
      balanceState.value = p.balance
    })
  }
}

/** Saves full name, e-mail and city; true when saved. */
export async function updateProfile(input: ProfileInput): Promise<boolean> {
  const body = { fullName: input.fullName.trim(), email: input.email.trim(), city: input.city.trim() }
  const p = await run('profile', () => call('updateProfile', { body }))
  if (!p) return false
  session.updatePassenger(p)
  profileState.value = p
  return true
}

/** Changes the password; true when changed. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<boolean> {
  const ok = await run('password', () => call('changePassword', { body: { currentPassword, newPassword } }))
  return ok === true
}

// ---------- account ----------

/** Loads the balance and the transactions of `r` (default: the current filter). */
export async function loadAccount(r: DateRange = rangeState.value): Promise<void> {
  const id = passengerId()
  if (id === null) return
  rangeState.value = r
  const res = await run('account', () => call('account', { params: { id }, query: { from: r.from, to: r.to } }))
  if (res) {
    batch(() => {
      balanceState.value = res.balance
      // newest first
      transactionsState.value = [...res.transactions].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
    })
  }
}

/** Starts a top-up; answers the card gateway's page the browser must open (a path here, or the gateway's address). */
export async function startTopUp(amount: number): Promise<string | undefined> {
  const res = await run('topUp', () => call('topUp', { body: { amount } }))
  if (res) keepResultToken(res.paymentId, res.resultToken)
  return res?.redirectUrl
}

/**
 * Confirms a top-up when the gateway returns to /profile?topUp=<id>&result=…;
 * each payment id is confirmed once per page life, the server credits once.
 */
export async function confirmTopUp(paymentId: string, result: 'success' | 'failure'): Promise<TopUpOutcome | undefined> {
  if (confirmedTopUps.has(paymentId)) return undefined
  confirmedTopUps.add(paymentId)
  const res = await run('topUp', () => call(result === 'success' ? 'paymentSuccess' : 'paymentFailure', { body: resultRequest(paymentId) }))
  if (!res) return undefined
  if (res.status === 'APPROVED' && res.balance !== null) {
    balanceState.value = res.balance
    const p = session.passenger.value
    if (p) session.updatePassenger({ ...p, balance: res.balance })
    await loadAccount()
    return { status: 'APPROVED', amount: res.amount, balance: res.balance }
  }
  return { status: res.status === 'APPROVED' ? 'PENDING' : res.status, amount: res.amount }
}

// ---------- reservations ----------

/** Loads the passenger's reservations (My tickets). */
export async function loadReservations(): Promise<void> {
  const id = passengerId()
  if (id === null) return
  const list = await run('reservations', () => call('myReservations'))
  if (list) {
    // every bought ticket opens offline (and a cancelled one's copy says so from now on)
    batch(() => {
      nowState.value = now()
      reservationsState.value = list
    })
    await keepTicketsLater(id, list)
  }
}
