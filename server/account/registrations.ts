/**
 * Sign-ups: a registration waits for the SMS code sent for it, under a token only the
 * browser that started it holds; confirming that code creates the ACTIVE passenger
 * (or completes one left PENDING by the old flow) and signs them in. A second
 * registration of the same mobile never changes the first one's details.
 */
import type { Locale } from '../../contract/dhaka-dates.ts'
import type { Session } from '../../contract/schemas.ts'
import type { Queryable } from '../db/db.ts'
import { AppError, type Deps } from '../core.ts'
import { issueOtp, verifyOtp } from './otp.ts'
import { passengerByMobile, type PassengerRow } from './passengers.ts'
import { createSession } from './sessions.ts'
import { addTime } from '../lib/time.ts'
import { newToken, sha256 } from '../lib/tokens.ts'

/** How long a sign-up may wait for its code to be confirmed (codes can be resent meanwhile). */
export const REGISTRATION_MINUTES = 30

/** A registrations row. */
export interface RegistrationRow {
  id: number
  mobile: string
  full_name: string
  email: string
  city: string
  password_hash: string
}

// The one-time codes of a registration are bound to it.
const signupRef = (registrationId: number) => `reg:${registrationId}`

/** Throws USER_INACTIVE or MOBILE_ALREADY_REGISTERED when a passenger other than a PENDING one has this mobile. */
export async function assertMobileUnregistered(q: Queryable, mobile: string): Promise<void> {
  const p = await passengerByMobile(q, mobile)
  if (p && p.status !== 'PENDING') throw new AppError(p.status === 'INACTIVE' ? 'USER_INACTIVE' : 'MOBILE_ALREADY_REGISTERED')
}

/** The open (unexpired, not completed) registration of a token, or REGISTRATION_NOT_FOUND (also when `mobile` is not its mobile). */
export async function openRegistration(q: Queryable, token: string, now: Date, mobile?: string): Promise<RegistrationRow> {
  const rows = await q.query<RegistrationRow>(
    `SELECT id, mobile, full_name, email, city, password_hash FROM registrations
      WHERE token_hash = $1 AND expires_at > $2 AND completed_at IS NULL`,
    [sha256(token), now],
  )
  const r = rows[0]
  if (!r || (mobile !== undefined && r.mobile !== mobile)) throw new AppError('REGISTRATION_NOT_FOUND')
  return r
}

/** Stores a new registration and sends its code (asked for from client `address`, in `language`); answers its token with the code's timings. */
export async function startRegistration(
  deps: Deps,
  fields: { mobile: string; fullName: string; email: string; city: string; passwordHash: string },
  address: string,
  language: Locale = 'en',
): Promise<{ registrationToken: string; resendAfterSeconds: number; expiresInSeconds: number }> {
  const token = newToken()
  return deps.db.transaction(async (tx) => {
    const now = deps.now()
    const [reg] = await tx.query<{ id: number }>(
      `INSERT INTO registrations (token_hash, mobile, full_name, email, city, password_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [
        sha256(token),
        fields.mobile,
        fields.fullName,
        fields.email,
        fields.city,
        fields.passwordHash,
        now,
        addTime(now, { minutes: REGISTRATION_MINUTES }),
      ],
    )
    const sent = await issueOtp(tx, deps, { mobile: fields.mobile, purpose: 'SIGNUP', ref: signupRef(reg!.id), address, language })
    return { ...sent, registrationToken: token }
  })
}

/** Sends the registration a new code (asked for from client `address`, in `language`). */
export async function resendRegistrationCode(
  deps: Deps,
  reg: RegistrationRow,
  address: string,
  language: Locale = 'en',
): Promise<{ resendAfterSeconds: number; expiresInSeconds: number }> {
  return deps.db.transaction((tx) => issueOtp(tx, deps, { mobile: reg.mobile, purpose: 'SIGNUP', ref: signupRef(reg.id), address, language }))
}

/**
 * Confirms the registration with the code sent for it (otp.ts errors), creates its
 * ACTIVE passenger and answers their session. REGISTRATION_NOT_FOUND when it was
 * completed meanwhile, MOBILE_ALREADY_REGISTERED when another sign-up won the mobile.
 */
export async function completeRegistration(deps: Deps, reg: RegistrationRow, code: string): Promise<Session> {
  await verifyOtp(deps.db, deps, { mobile: reg.mobile, purpose: 'SIGNUP', ref: signupRef(reg.id), code })
  return deps.db.transaction(async (tx) => {
    const now = deps.now()
    const done = await tx.query('UPDATE registrations SET completed_at = $2 WHERE id = $1 AND completed_at IS NULL RETURNING id', [reg.id, now])
    if (done.length === 0) throw new AppError('REGISTRATION_NOT_FOUND')
    // A passenger left PENDING by the old sign-up flow takes this registration's details.
    const [row] = await tx.query<PassengerRow>(
      `INSERT INTO passengers (mobile, full_name, email, city, password_hash, status, password_changed_at, created_at)
       VALUES ($1, $2, $3, $4, $5, 'ACTIVE', $6, $6)
       ON CONFLICT (mobile) DO UPDATE
         SET full_name = EXCLUDED.full_name, email = EXCLUDED.email, city = EXCLUDED.city,
             password_hash = EXCLUDED.password_hash, password_changed_at = EXCLUDED.password_changed_at, status = 'ACTIVE'
         WHERE passengers.status = 'PENDING'
       RETURNING *`,
      [reg.mobile, reg.full_name, reg.email, reg.city, reg.password_hash, now],
    )
    if (!row) throw new AppError('MOBILE_ALREADY_REGISTERED')
    return createSession(tx, deps, row)
  })
}
