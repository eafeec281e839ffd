/**
 * Sign-up by mobile with an SMS code, login by password or by one-time code,
 * password reset, logout. Sessions are opaque bearer tokens (see sessions.ts).
 *
 * Wrong passwords are counted per mobile no. (known or not, so the answer tells
 * nothing): past LOGIN_FAILURE_LIMIT in 15 minutes the number's password sign-in
 * answers TOO_MANY_ATTEMPTS, before any hash is computed, until the oldest wrong
 * one is 15 minutes old; its owner can still sign in or reset the password with an
 * SMS code. /sendOtp answers a number without an account exactly as a known one,
 * without sending it anything.
 */
import type { FastifyInstance } from 'fastify'
import { AppError, type Deps } from '../core.ts'
import { handle } from '../http/handle.ts'
import { addressKey, take, type Limit } from '../http/limits.ts'
import { assertSignupSmsAllowed, issueOtp, verifyOtp } from '../account/otp.ts'
import { issueResetToken, resetPassword } from '../account/password-changes.ts'
import { passengerByMobile, replacePasswordHash, requireMobile, type PassengerRow } from '../account/passengers.ts'
import { hashPassword, needsRehash, verifyPassword } from '../account/passwords.ts'
import {
  assertMobileUnregistered,
  completeRegistration,
  openRegistration,
  resendRegistrationCode,
  startRegistration,
} from '../account/registrations.ts'
import { createSession, revokeSession } from '../account/sessions.ts'
import { addDhakaDays } from '../lib/time.ts'
import { languageOf } from '../delivery/ticket-messages.ts'

/** Wrong passwords one mobile no. takes in 15 minutes (`max` from LOGIN_FAILURE_LIMIT) before its password sign-in waits. */
export function wrongPasswordLimit(deps: Deps): Limit {
  return {
    bucket: 'login-wrong-password',
    max: deps.config.loginFailureLimit,
    windowMs: 15 * 60_000,
    reason: 'Too many wrong passwords for this mobile no. Try again in {minutes} minutes, or reset your password with a code sent by SMS.',
  }
}

function passwordExpired(deps: Deps, p: PassengerRow): boolean {
  const days = deps.config.passwordMaxAgeDays ?? 0
  if (!days || !p.password_changed_at) return false
  return deps.now().getTime() > addDhakaDays(p.password_changed_at, days).getTime()
}

/** Registers the authentication routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  const db = deps.db

  handle(app, deps, 'passengerByMobile', async ({ params }) => {
    const mobile = requireMobile(params.mobile ?? '')
    const p = await passengerByMobile(db, mobile)
    return { mobile, registered: !!p && p.status !== 'PENDING' }
  })

  handle(app, deps, 'register', async ({ body, req }) => {
    const mobile = requireMobile(body.mobile)
    const address = addressKey(req.ip, deps.config.ipv6ClientPrefix)
    await assertMobileUnregistered(db, mobile)
    // refused before the password is hashed when no code could go out anyway
    await assertSignupSmsAllowed(db, deps, address)
    const passwordHash = await hashPassword(body.password)
    const started = await startRegistration(
      deps,
      { mobile, fullName: body.fullName, email: body.email, city: body.city, passwordHash },
      address,
      languageOf(req.headers['accept-language']),
    )
    return { mobile, ...started }
  })

  handle(app, deps, 'resendMobileCode', async ({ params, req }) => {
    const reg = await openRegistration(db, params.registrationToken ?? '', deps.now())
    await assertMobileUnregistered(db, reg.mobile)
    return {
      mobile: reg.mobile,
      ...(await resendRegistrationCode(deps, reg, addressKey(req.ip, deps.config.ipv6ClientPrefix), languageOf(req.headers['accept-language']))),
    }
  })

  handle(app, deps, 'verifyMobile', async ({ body }) => {
    const mobile = requireMobile(body.mobile)
    const reg = await openRegistration(db, body.registrationToken, deps.now(), mobile)
    await assertMobileUnregistered(db, mobile)
    // Only the code sent for this registration activates it.
    return completeRegistration(deps, reg, body.code)
  })

  handle(app, deps, 'login', async ({ body }) => {
    const mobile = requireMobile(body.mobile)
    // Counted before the hash is computed (so a refusal costs no scrypt, and simultaneous
    // guesses get exactly the limit's tries); the right password takes its try back.
    const slot = await take(db, wrongPasswordLimit(deps), mobile, deps.now())
    const p = await passengerByMobile(db, mobile)
    const ok = await verifyPassword(body.password, p?.password_hash ?? null)
    if (!p || !ok) throw new AppError('BAD_CREDENTIALS')
    await slot.release()
    if (p.status === 'PENDING') throw new AppError('MOBILE_NOT_VERIFIED')
    if (p.status === 'INACTIVE') throw new AppError('USER_INACTIVE')
    if (passwordExpired(deps, p)) throw new AppError('PASSWORD_EXPIRED')
    // A hash made with an older, cheaper cost is replaced now that the password is known.
    if (needsRehash(p.password_hash)) await replacePasswordHash(db, p.id, p.password_hash!, await hashPassword(body.password))
    return createSession(db, deps, p, body.staySignedIn === true)
  })

  handle(app, deps, 'logout', async ({ auth }) => {
    await revokeSession(db, auth!.tokenId)
    return true
  })

  handle(app, deps, 'sendOtp', async ({ body, req }) => {
    const mobile = requireMobile(body.mobile)
    const p = await passengerByMobile(db, mobile)
    // A number with no account (or, for LOGIN, one the old sign-up flow left unverified) is
    // answered alike, limits included, but sent nothing: the answer does not say which
    // numbers have accounts. Its code step then answers like a wrong code.
    const deliver = !!p && !(body.purpose === 'LOGIN' && p.status === 'PENDING')
    const language = languageOf(req.headers['accept-language'])
    const sent = await db.transaction((tx) =>
      issueOtp(tx, deps, { mobile, purpose: body.purpose, address: addressKey(req.ip, deps.config.ipv6ClientPrefix), deliver, language }),
    )
    return { mobile, ...sent }
  })

  handle(app, deps, 'verifyOtp', async ({ body }) => {
    const mobile = requireMobile(body.mobile)
    // The code first: before it, an unknown number answers as a known one with a wrong code.
    await verifyOtp(db, deps, { mobile, purpose: body.purpose, code: body.otp })
    const p = await passengerByMobile(db, mobile)
    if (!p) throw new AppError('OTP_VALIDITY_EXPIRED')
    if (p.status === 'INACTIVE') throw new AppError('USER_INACTIVE')
    if (body.purpose === 'LOGIN' && p.status === 'PENDING') throw new AppError('MOBILE_NOT_VERIFIED')
    if (body.purpose === 'LOGIN') return { session: await createSession(db, deps, p), resetToken: null }
    return { session: null, resetToken: await issueResetToken(db, p.id, deps.now()) }
  })

  handle(app, deps, 'setNewPassword', async ({ body }) => {
    const mobile = requireMobile(body.mobile)
    const hash = await hashPassword(body.password)
    return resetPassword(deps, { mobile, resetToken: body.resetToken, hash })
  })
}
