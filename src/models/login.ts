/**
 * The login page's flow, one per visit: a small state machine that starts from the mobile number, sign-up with
 * the SMS code, and the forgotten password. The session it starts is the one it receives (the app's). Actions
 * are the only writers; uvu makes a fresh instance in Node against `fakeApi` and `fakeClock`.
 *
 * Login flow:  mobile → password                    → signed in
 *                     → signup → verify             → signed in
 *              password → forgotOtp → newPassword   → signed in
 */
import { batch, computed, createModel, effect, type ModelConstructor, type ReadonlySignal, signal } from '@preact/signals-core'
import type { Session } from '../../contract/schemas.ts'
import { OTP_RESEND_SECONDS } from '../../contract/values.ts'
import type { RequestError } from '../api/api-error.ts'
import { call } from '../api/index.ts'
import { every, now } from '../lib/clock.ts'
import type { Session as AppSession } from './session.ts'
import { scopedRequests } from './scoped-requests.ts'

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

/** The login flow's state (read-only) and actions. */
export interface Login {
  step: ReadonlySignal<LoginStep>
  /** The mobile no. the flow started with (normalised, as the passenger typed it). */
  mobile: ReadonlySignal<string>
  /** Whether the flow waits for the server. */
  busy: ReadonlySignal<boolean>
  /** The flow's last server error (shown with its catalogue message). */
  error: ReadonlySignal<RequestError | null>
  /** Seconds until `Resend Code` may be used again (0 when it may). */
  resendSecondsLeft: ReadonlySignal<number>
  canResend: ReadonlySignal<boolean>
  /** Returns to the first step, keeping the typed mobile no. */
  restartLogin(): void
  /** Step 1: looks the mobile no. up; a known one continues to the password, an unknown one to sign-up. */
  submitMobile(value: string): Promise<void>
  /** LOGIN: checks the password; on success stores the session and answers where to go next. */
  login(password: string, staySignedIn: boolean): Promise<string | undefined>
  /** SIGNUP: registers and sends the SMS verification code. */
  signUp(input: SignupInput): Promise<void>
  /** Confirms the SMS verification code; the new passenger is signed in. */
  verifyMobile(code: string): Promise<string | undefined>
  /** Resend Code on the verification step (sign-up): a new code for this browser's registration. */
  resendCode(): Promise<void>
  /** Forgot your password: sends an OTP to the mobile no. and continues to the OTP step. */
  forgotPassword(): Promise<void>
  /** Resend Code on the password-reset OTP step. */
  resendResetOtp(): Promise<void>
  /** Verifies the password-reset OTP and continues to the new password. */
  verifyResetOtp(otp: string): Promise<void>
  /** Sets the new password; the passenger is then signed in. */
  setNewPassword(password: string): Promise<string | undefined>
}

/** Creates the login flow of a page visit into `session`; its resend countdown stops when the model is disposed. */
export const LoginModel: ModelConstructor<Login, [Pick<AppSession, 'signIn' | 'takeRedirect'>]> = createModel(
  (session: Pick<AppSession, 'signIn' | 'takeRedirect'>): Login => {
    const step = signal<LoginStep>('mobile')
    const mobile = signal('')
    // a second submit while the first is pending is dropped (a code auto-submitted and Enter, a double click)
    const requests = scopedRequests<'login'>(new Set(['login']))
    const run = <T>(work: () => Promise<T>) => requests.run('login', work)
    const busy = computed(() => requests.busy.value.login === true)
    const error = computed(() => requests.errors.value.login ?? null)
    const resendAt = signal<number | null>(null)
    const clock = signal(now())
    const resetToken = signal<string | null>(null)
    // the token /register answered: only this browser can confirm the code sent for that sign-up
    const registrationToken = signal<string | null>(null)

    const resendSecondsLeft = computed(() => {
      const at = resendAt.value
      return at === null ? 0 : Math.max(0, Math.ceil((at - clock.value) / 1000))
    })
    const canResend = computed(() => resendSecondsLeft.value === 0)

    // the countdown's ticker: runs while a resend wait runs, stops at zero, on sign-in, and with the model
    let stopTicker: (() => void) | null = null
    const stopResendTimer = () => {
      stopTicker?.()
      stopTicker = null
    }
    effect(() => stopResendTimer)

    const startResendTimer = (seconds: number) => {
      stopResendTimer()
      const at = now()
      batch(() => {
        clock.value = at
        resendAt.value = at + (seconds || OTP_RESEND_SECONDS) * 1000
      })
      stopTicker = every(1000, () => {
        clock.value = now()
        if (resendSecondsLeft.value === 0) stopResendTimer()
      })
    }

    const restartLogin = () => {
      stopResendTimer()
      batch(() => {
        step.value = 'mobile'
        resetToken.value = null
        registrationToken.value = null
        resendAt.value = null
        requests.setError('login', null)
      })
    }

    const finishSignIn = (s: Session, staySignedIn: boolean) => {
      session.signIn(s, staySignedIn)
      restartLogin()
      return session.takeRedirect()
    }

    return {
      step,
      mobile,
      busy,
      error,
      resendSecondsLeft,
      canResend,
      restartLogin,

      async submitMobile(value) {
        const m = value.trim()
        mobile.value = m
        const found = await run(() => call('passengerByMobile', { params: { mobile: m } }))
        if (found) step.value = found.registered ? 'password' : 'signup'
      },

      async login(password, staySignedIn) {
        const m = mobile.value
        const s = await run(() => call('login', { body: { mobile: m, password, staySignedIn } }))
        if (s) return finishSignIn(s, staySignedIn)
        // a number whose sign-up was never confirmed signs up again (the error stays shown)
        if (error.value?.code === 'MOBILE_NOT_VERIFIED') step.value = 'signup'
        return undefined
      },

      async signUp(input) {
        const m = input.mobile.trim()
        mobile.value = m
        const body = { mobile: m, fullName: input.fullName.trim(), email: input.email.trim(), city: input.city.trim(), password: input.password }
        const sent = await run(() => call('register', { body }))
        if (!sent) return
        batch(() => {
          registrationToken.value = sent.registrationToken
          step.value = 'verify'
          startResendTimer(sent.resendAfterSeconds)
        })
      },

      async verifyMobile(code) {
        const m = mobile.value
        const token = registrationToken.value ?? ''
        const s = await run(() => call('verifyMobile', { body: { mobile: m, code, registrationToken: token } }))
        return s ? finishSignIn(s, false) : undefined
      },

      async resendCode() {
        const token = registrationToken.value
        if (!token) {
          step.value = 'signup'
          return
        }
        const sent = await run(() => call('resendMobileCode', { params: { registrationToken: token } }))
        if (sent) startResendTimer(sent.resendAfterSeconds)
        // the sign-up expired or was completed elsewhere: start it again
        else if (error.value?.code === 'REGISTRATION_NOT_FOUND') step.value = 'signup'
      },

      async forgotPassword() {
        const m = mobile.value
        const sent = await run(() => call('sendOtp', { body: { mobile: m, purpose: 'RESET_PASSWORD' } }))
        if (sent) {
          batch(() => {
            step.value = 'forgotOtp'
            startResendTimer(sent.resendAfterSeconds)
          })
        } else if (error.value?.code === 'OTP_ALREADY_SENT') {
          // an OTP sent moments ago is still valid: let the passenger type it
          step.value = 'forgotOtp'
        }
      },

      async resendResetOtp() {
        const m = mobile.value
        const sent = await run(() => call('sendOtp', { body: { mobile: m, purpose: 'RESET_PASSWORD' } }))
        if (sent) startResendTimer(sent.resendAfterSeconds)
      },

      async verifyResetOtp(otp) {
        const m = mobile.value
        const res = await run(() => call('verifyOtp', { body: { mobile: m, otp, purpose: 'RESET_PASSWORD' } }))
        if (!res?.resetToken) return
        stopResendTimer()
        batch(() => {
          resetToken.value = res.resetToken
          resendAt.value = null
          step.value = 'newPassword'
        })
      },

      async setNewPassword(password) {
        const m = mobile.value
        const token = resetToken.value
        if (!token) {
          restartLogin()
          return undefined
        }
        const s = await run(() => call('setNewPassword', { body: { mobile: m, resetToken: token, password } }))
        return s ? finishSignIn(s, false) : undefined
      },
    }
  },
)
