/**
 * Setting a new password: with the current one (signed in), or with a reset token that
 * a RESET_PASSWORD code earned (forgot password). Either way the passenger's other
 * sessions end.
 */
import type { Session } from '../../contract/schemas.ts'
import type { Db, Queryable } from '../db/db.ts'
import { AppError, type Deps } from '../core.ts'
import type { PassengerRow } from './passengers.ts'
import { createSession, revokeOtherSessions } from './sessions.ts'
import { addTime } from '../lib/time.ts'
import { newToken, sha256 } from '../lib/tokens.ts'

/** How long a password-reset token from /verifyOTP stays usable. */
export const RESET_TOKEN_MINUTES = 10

/** A new reset token for the passenger (after their RESET_PASSWORD code was verified). */
export async function issueResetToken(q: Queryable, passengerId: number, now: Date): Promise<string> {
  const token = newToken()
  await q.query('INSERT INTO password_resets (token_hash, passenger_id, expires_at) VALUES ($1, $2, $3)', [
    sha256(token),
    passengerId,
    addTime(now, { minutes: RESET_TOKEN_MINUTES }),
  ])
  return token
}

/**
 * Stores the new password hash and ends the passenger's sessions but `keepSessionId`.
 * A PENDING passenger becomes ACTIVE: only a reset code sent to the mobile gets here
 * for one, and it proved the mobile.
 */
async function setPassword(tx: Queryable, passengerId: number, hash: string, now: Date, keepSessionId: number | null): Promise<PassengerRow | null> {
  const [p] = await tx.query<PassengerRow>(
    `UPDATE passengers SET password_hash = $2, password_changed_at = $3,
            status = CASE WHEN status = 'PENDING' THEN 'ACTIVE' ELSE status END
      WHERE id = $1 RETURNING *`,
    [passengerId, hash, now],
  )
  if (p) await revokeOtherSessions(tx, p.id, keepSessionId)
  return p ?? null
}

/** Sets a signed-in passenger's new password hash; the calling session stays. */
export async function changePassword(db: Db, passengerId: number, hash: string, sessionId: number, now: Date): Promise<void> {
  await db.transaction((tx) => setPassword(tx, passengerId, hash, now, sessionId))
}

/**
 * Spends a reset token of the mobile's passenger on a new password hash and answers a
 * new session: OTP_VALIDITY_EXPIRED for a token that is unknown, spent, expired or
 * another passenger's, USER_INACTIVE for an inactive passenger.
 */
export async function resetPassword(deps: Deps, req: { mobile: string; resetToken: string; hash: string }): Promise<Session> {
  return deps.db.transaction(async (tx) => {
    const now = deps.now()
    const [reset] = await tx.query<{ passenger_id: number }>(
      `UPDATE password_resets SET consumed_at = $3
        WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $3
          AND passenger_id = (SELECT id FROM passengers WHERE mobile = $2)
        RETURNING passenger_id`,
      [sha256(req.resetToken), req.mobile, now],
    )
    if (!reset) throw new AppError('OTP_VALIDITY_EXPIRED')
    const p = await setPassword(tx, reset.passenger_id, req.hash, now, null)
    if (p?.status !== 'ACTIVE') throw new AppError('USER_INACTIVE')
    return createSession(tx, deps, p)
  })
}
