/**
 * The passenger's account, the state (account.ts has the actions and is the public face): the login
 * flow's step and errors, the resend timer, the profile, balance, transactions and reservations, and
 * the helpers the actions share. Written only by account.ts' actions and the helpers below.
 */
import { batch, computed, signal } from '@preact/signals-react'
import type { Passenger, Reservation, Session, Transaction } from '../../contract/schemas.ts'
import { requestError, type RequestError } from '../api/api-error.ts'
import { every, now } from '../lib/clock.ts'
import { startOfMonthInDhaka, todayInDhaka } from '../lib/dates.ts'
import * as session from './session.ts'

// ---------- state ----------

/** Steps of the login page. */
export type LoginStep = 'mobile' | 'password' | 'signup' | 'verify' | 'forgotOtp' | 'newPassword'

/** Sign-up form fields (docs/spec.md section 3) before the verification code. */
export interface SignupInput {
  mobile: string
  fullName: string
  email: string
  city: string
  password: string
}

/** Editable profile fields. */
export interface ProfileInput {
  fullName: string
  email: string
  city: string
}

/** Transaction filter, inclusive calendar dates in Asia/Dhaka ('yyyy-LL-dd'). */
export interface DateRange {
  from: string
  to: string
}

/** What a top-up confirmation ended with. */
export type TopUpOutcome = { status: 'APPROVED'; amount: number; balance: number } | { status: 'DECLINED' | 'PENDING' | 'REVIEW'; amount: number }

export const stepState = signal<LoginStep>('mobile')
export const mobileState = signal('')
/** The forms and lists that keep their own busy flag and error. */
export type Scope = 'login' | 'profile' | 'password' | 'account' | 'topUp' | 'reservations'
export const busyState = signal<Partial<Record<Scope, boolean>>>({})
export const errorState = signal<Partial<Record<Scope, RequestError>>>({})
export const resendAtState = signal<number | null>(null)
export const nowState = signal(now())
export const resetTokenState = signal<string | null>(null)
/** The token /register answered: only this browser can confirm the code sent for that sign-up. */
export const registrationTokenState = signal<string | null>(null)

export const profileState = signal<Passenger | null>(null)
export const balanceState = signal<number | null>(null)
export const transactionsState = signal<Transaction[] | null>(null)
export const rangeState = signal<DateRange>(defaultRange())
export const reservationsState = signal<Reservation[] | null>(null)
/** Whose profile, balance, transactions and reservations the signals above hold. */
export const ownerState = signal<number | null>(null)
export const confirmedTopUps = new Set<string>()

export const step = computed(() => stepState.value)
/** The mobile no. the flow started with (normalised, as the passenger typed it). */
export const mobile = computed(() => mobileState.value)
/** Which scopes wait for the server. */
export const busy = computed(() => busyState.value)
/** The last server error of each scope (shown with its catalogue message). */
export const errors = computed(() => errorState.value)
/** Seconds until `Resend Code` may be used again (0 when it may). */
export const resendSecondsLeft = computed(() => {
  const at = resendAtState.value
  return at === null ? 0 : Math.max(0, Math.ceil((at - nowState.value) / 1000))
})
export const canResend = computed(() => resendSecondsLeft.value === 0)

// the header's LOGOUT only clears the session: data of a previous passenger is never shown
const mine = computed(() => ownerState.value !== null && ownerState.value === session.passenger.value?.id)
export const profile = computed(() => (mine.value ? profileState.value : null) ?? session.passenger.value)
export const balance = computed(() => (mine.value ? balanceState.value : null) ?? session.passenger.value?.balance ?? null)
export const transactions = computed(() => (mine.value ? transactionsState.value : null))
export const range = computed(() => rangeState.value)
export const reservations = computed(() => (mine.value ? reservationsState.value : null))
/** Reservations with upcoming trips first (soonest first), then past ones (latest first). */
export const reservationsUpcomingFirst = computed(() => {
  const list = reservations.value
  return list ? upcomingFirst(list, nowState.value) : null
})

/** Trips departing from `at` on, soonest first, then the past ones, latest first. */
export function upcomingFirst(list: readonly Reservation[], at: number): Reservation[] {
  const t = (r: Reservation) => Date.parse(r.departureTime)
  const upcoming = list.filter((r) => t(r) >= at).sort((a, b) => t(a) - t(b))
  const past = list.filter((r) => t(r) < at).sort((a, b) => t(b) - t(a))
  return [...upcoming, ...past]
}
/** Whether a reservation's trip is still ahead. */
export function isUpcoming(r: Reservation): boolean {
  return Date.parse(r.departureTime) >= nowState.value
}

/** The default transaction filter: the first of the current month until today (Asia/Dhaka). */
export function defaultRange(at: number = now()): DateRange {
  return { from: startOfMonthInDhaka(at), to: todayInDhaka(at) }
}

// ---------- helpers ----------

export function setError(scope: Scope, e: RequestError | null): void {
  const next = { ...errorState.value }
  if (e) next[scope] = e
  else delete next[scope]
  errorState.value = next
}

export function setBusy(scope: Scope, on: boolean): void {
  busyState.value = { ...busyState.value, [scope]: on }
}

/** Forms where a second submit while the first is pending is dropped (a code auto-submitted and Enter, a double click). */
const singleFlight: ReadonlySet<Scope> = new Set(['login', 'password', 'topUp'])

/** Runs `work` with the scope's busy flag and records its error; resolves to undefined on failure. */
export async function run<T>(scope: Scope, work: () => Promise<T>): Promise<T | undefined> {
  if (singleFlight.has(scope) && busyState.value[scope]) return undefined
  batch(() => {
    setBusy(scope, true)
    setError(scope, null)
  })
  try {
    return await work()
  } catch (err) {
    setError(scope, requestError(err))
    return undefined
  } finally {
    setBusy(scope, false)
  }
}

export const loginError = () => errorState.value.login ?? null

let stopTicker: (() => void) | null = null

export function startResendTimer(seconds: number): void {
  stopResendTimer()
  const at = now()
  batch(() => {
    nowState.value = at
    resendAtState.value = at + seconds * 1000
  })
  stopTicker = every(1000, () => {
    nowState.value = now()
    if (resendSecondsLeft.value === 0) stopResendTimer()
  })
}

export function stopResendTimer(): void {
  stopTicker?.()
  stopTicker = null
}

/** Points the account data at passenger `id` (null: nobody), dropping another passenger's data. */
export function own(id: number | null): void {
  if (ownerState.value === id) return
  batch(() => {
    ownerState.value = id
    profileState.value = null
    balanceState.value = null
    transactionsState.value = null
    reservationsState.value = null
    rangeState.value = defaultRange()
  })
}

export function finishSignIn(s: Session, staySignedIn: boolean): string {
  session.signIn(s, staySignedIn)
  stopResendTimer()
  own(s.passenger.id)
  batch(() => {
    profileState.value = s.passenger
    balanceState.value = s.passenger.balance
    stepState.value = 'mobile'
    resetTokenState.value = null
    registrationTokenState.value = null
    resendAtState.value = null
  })
  return session.takeRedirect()
}
