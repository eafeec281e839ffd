/**
 * Sign-up by mobile with an SMS code, login by password or by one-time code,
 * password reset, logout. Sessions are opaque bearer tokens (see sessions.ts).
 */
import type { FastifyInstance } from 'fastify'
import { AppError, handle, type Deps } from '../http/handle.ts'
import { issueOtp, verifyOtp } from '../account/otp.ts'
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

async function requirePassenger(deps: Deps, mobile: string): Promise<PassengerRow> {
  const p = await passengerByMobile(deps.db, mobile)
  if (!p) throw new AppError('PASSENGER_NOT_FOUND')
  if (p.status === 'INACTIVE') throw new AppError('USER_INACTIVE')
  return p
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

  handle(app, deps, 'register', async ({ body }) => {
    const mobile = requireMobile(body.mobile)
    await assertMobileUnregistered(db, mobile)
    const passwordHash = await hashPassword(body.password)
    const started = await startRegistration(deps, { mobile, fullName: body.fullName, email: body.email, city: body.city, passwordHash })
    return { mobile, ...started }
  })

  handle(app, deps, 'resendMobileCode', async ({ params }) => {
    const reg = await openRegistration(db, params.registrationToken ?? '', deps.now())
    await assertMobileUnregistered(db, reg.mobile)
    return { mobile: reg.mobile, ...(await resendRegistrationCode(deps, reg)) }
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
    const p = await passengerByMobile(db, mobile)
    const ok = await verifyPassword(body.password, p?.password_hash ?? null)
    if (!p || !ok) throw new AppError('BAD_CREDENTIALS')
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

  handle(app, deps, 'sendOtp', async ({ body }) => {
    const mobile = requireMobile(body.mobile)
    const p = await requirePassenger(deps, mobile)
    if (body.purpose === 'LOGIN' && p.status === 'PENDING') throw new AppError('MOBILE_NOT_VERIFIED')
    const sent = await db.transaction((tx) => issueOtp(tx, deps, { mobile, purpose: body.purpose }))
    return { mobile, ...sent }
  })

  handle(app, deps, 'verifyOtp', async ({ body }) => {
    const mobile = requireMobile(body.mobile)
    const p = await requirePassenger(deps, mobile)
    if (body.purpose === 'LOGIN' && p.status === 'PENDING') throw new AppError('MOBILE_NOT_VERIFIED')
    await verifyOtp(db, deps, { mobile, purpose: body.purpose, code: body.otp })
    if (body.purpose === 'LOGIN') return { session: await createSession(db, deps, p), resetToken: null }
    return { session: null, resetToken: await issueResetToken(db, p.id, deps.now()) }
  })

  handle(app, deps, 'setNewPassword', async ({ body }) => {
    const mobile = requireMobile(body.mobile)
    const hash = await hashPassword(body.password)
    return resetPassword(deps, { mobile, resetToken: body.resetToken, hash })
  })
}
