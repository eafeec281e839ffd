/**
 * One-time codes sent by SMS: 6 digits, stored hashed, valid 5 minutes, one live
 * code per (mobile, purpose, ref), a new one only 180 s after the last, at most
 * 5 wrong tries. Each step is one atomic statement, so concurrent requests
 * cannot send two codes inside the interval or try a code more than 5 times.
 * Sign-up codes (one ref per registration) keep the 180 s interval per mobile.
 * Each SMS costs the operator money and a stream of them harasses the number's
 * owner, so these limits hold, counted in the sending transaction: no mobile gets
 * more than SMS_PER_MOBILE_HOUR codes of one purpose an hour (sign-up requests
 * cannot use up a victim's reset or cancel codes), no client address (an IPv6 one
 * by its /48) makes the server send more than SMS_LIMIT_PER_ADDRESS an hour, and the
 * whole site sends at most SMS_HOURLY_BUDGET an hour (then
 * SMS_PROVIDER_SERVICE_UNAVAILABLE), of which sign-up codes, the ones anybody can
 * ask for any number, spend at most SMS_SIGNUP_SHARE percent: a flood of sign-ups
 * leaves the rest for codes to existing accounts, so they can still sign in. A code
 * request for a number with no account sends nothing and spends no budget.
 */
import { randomInt } from 'node:crypto'
import type { Locale } from '../../contract/dhaka-dates.ts'
import { OTP_RESEND_SECONDS } from '../../contract/schemas.ts'
import type { Queryable } from '../db/db.ts'
import { AppError, type Deps } from '../core.ts'
import { check, take, type Limit } from '../http/limits.ts'
import { addTime } from '../lib/time.ts'
import { sha256 } from '../lib/tokens.ts'

export type OtpPurpose = 'SIGNUP' | 'LOGIN' | 'RESET_PASSWORD' | 'CANCEL_TICKET'

export const OTP_TTL_SECONDS = 5 * 60
export const OTP_MAX_ATTEMPTS = 5

/** Codes of one purpose one mobile no. may be sent in an hour (key `mobile:purpose`). */
export const SMS_PER_MOBILE_HOUR: Limit = {
  bucket: 'sms-per-mobile',
  max: 10,
  windowMs: 60 * 60_000,
  reason: 'Too many codes were sent to this mobile no. Try again in {minutes} minutes.',
}

/** Codes one client address may make the server send in an hour (`max` from SMS_LIMIT_PER_ADDRESS). */
export function smsPerAddress(deps: Deps): Limit {
  return {
    bucket: 'sms-per-address',
    max: deps.config.smsLimitPerAddress,
    windowMs: 60 * 60_000,
    code: 'TOO_MANY_REQUESTS',
    reason: 'Too many codes were asked for from your network. Try again in {minutes} minutes.',
  }
}

/** Codes the whole site sends in an hour (`max` from SMS_HOURLY_BUDGET, one key: `all`). */
export function smsBudget(deps: Deps): Limit {
  return {
    bucket: 'sms-budget',
    max: deps.config.smsHourlyBudget,
    windowMs: 60 * 60_000,
    code: 'SMS_PROVIDER_SERVICE_UNAVAILABLE',
    reason: 'Failed to send SMS. Please try again in {minutes} minutes.',
  }
}

/** Sign-up codes the whole site sends in an hour: SMS_SIGNUP_SHARE percent of SMS_HOURLY_BUDGET (one key: `all`). */
export function smsSignupBudget(deps: Deps): Limit {
  return {
    ...smsBudget(deps),
    bucket: 'sms-budget-signup',
    max: Math.max(1, Math.floor((deps.config.smsHourlyBudget * deps.config.smsSignupShare) / 100)),
  }
}

/**
 * Throws the per-address or site-wide refusal when no sign-up code could be sent now (counts
 * nothing): lets the sign-up refuse before expensive work, hashing its password.
 */
export async function assertSignupSmsAllowed(q: Queryable, deps: Deps, address: string): Promise<void> {
  const now = deps.now()
  await check(q, smsPerAddress(deps), address, now)
  await check(q, smsSignupBudget(deps), 'all', now)
  await check(q, smsBudget(deps), 'all', now)
}

// Stored instead of a code's hash when no SMS goes out (see issueOtp's `deliver`): no code matches it.
const NO_CODE = '-'

// The code first (a phone can offer to fill it in) and in ASCII digits; the Bengali text fits two UCS-2 SMS parts (134 characters).
const codeText: Record<Locale, (code: string, purpose: OtpPurpose) => string> = {
  en: (code, purpose) =>
    `${code} is your Nodi Express ${
      { SIGNUP: 'mobile verification', LOGIN: 'login', RESET_PASSWORD: 'password reset', CANCEL_TICKET: 'ticket cancellation' }[purpose]
    } code. It expires in 5 minutes. Do not share it with anyone.`,
  bn: (code, purpose) =>
    `${code} আপনার Nodi Express ${
      { SIGNUP: 'মোবাইল যাচাইয়ের', LOGIN: 'লগইন', RESET_PASSWORD: 'পাসওয়ার্ড রিসেটের', CANCEL_TICKET: 'টিকিট বাতিলের' }[purpose]
    } কোড। ৫ মিনিট পর মেয়াদ শেষ হবে। কাউকে জানাবেন না।`,
}

/** The stored form of a one-time code (a test forces a code by writing one). */
export function codeHash(mobile: string, purpose: OtpPurpose, ref: string, code: string): string {
  return sha256(`${mobile}|${purpose}|${ref}|${code}`)
}

/**
 * Issues a new code and sends it by SMS (through `deps.outbox`). Call it inside a
 * transaction (`db` = tx): a refusal then rolls the new code and its counted events
 * back. OTP_ALREADY_SENT when the last one for the same mobile, purpose and ref (any
 * ref for sign-up) was sent less than 180 s ago and not used yet; TOO_MANY_ATTEMPTS
 * past SMS_PER_MOBILE_HOUR; TOO_MANY_REQUESTS past the client `address`'s hourly
 * cap; SMS_PROVIDER_SERVICE_UNAVAILABLE past the site's hourly budget.
 *
 * Sign-up codes also spend the sign-up share of the budget (smsSignupBudget).
 *
 * `deliver: false` (a number with no account) does all the same, the mobile's and the
 * address's limits included, but stores a code nothing matches and sends no SMS: the
 * answer cannot tell the two apart. It spends no budget (nothing is sent), and is
 * refused alike once the whole budget is spent.
 * The SMS is written in `language` (the request's, default English).
 */
export async function issueOtp(
  db: Queryable,
  deps: Deps,
  p: { mobile: string; purpose: OtpPurpose; ref?: string; address: string; deliver?: boolean; language?: Locale },
): Promise<{ resendAfterSeconds: number; expiresInSeconds: number }> {
  const deliver = p.deliver ?? true
  const ref = p.ref ?? ''
  const now = deps.now()
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  const resendCutoff = addTime(now, { seconds: -OTP_RESEND_SECONDS })
  const expiresAt = addTime(now, { seconds: OTP_TTL_SECONDS })
  // Requests for one mobile wait for each other (inside the caller's transaction), so the
  // checks below cannot both pass for two of them.
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', ['otp-send', p.mobile])
  if (p.purpose === 'SIGNUP') {
    const recent = await db.query(
      "SELECT 1 FROM otps WHERE mobile = $1 AND purpose = 'SIGNUP' AND ref <> $2 AND sent_at > $3 AND consumed_at IS NULL LIMIT 1",
      [p.mobile, ref, resendCutoff],
    )
    if (recent.length > 0) throw new AppError('OTP_ALREADY_SENT')
  }
  const rows = await db.query(
    `INSERT INTO otps (mobile, purpose, ref, code_hash, attempts, sent_at, expires_at, consumed_at)
     VALUES ($1, $2, $3, $4, 0, $5, $6, NULL)
     ON CONFLICT (mobile, purpose, ref) DO UPDATE
       SET code_hash = EXCLUDED.code_hash, attempts = 0, sent_at = EXCLUDED.sent_at,
           expires_at = EXCLUDED.expires_at, consumed_at = NULL
       WHERE otps.sent_at <= $7 OR otps.consumed_at IS NOT NULL
     RETURNING id`,
    [p.mobile, p.purpose, ref, deliver ? codeHash(p.mobile, p.purpose, ref, code) : NO_CODE, now, expiresAt, resendCutoff],
  )
  if (rows.length === 0) throw new AppError('OTP_ALREADY_SENT')
  // After the upsert: a refusal here rolls the new code back with the caller's transaction.
  await take(db, SMS_PER_MOBILE_HOUR, `${p.mobile}:${p.purpose}`, now)
  await take(db, smsPerAddress(deps), p.address, now)
  if (!deliver) {
    await check(db, smsBudget(deps), 'all', now)
    return { resendAfterSeconds: OTP_RESEND_SECONDS, expiresInSeconds: OTP_TTL_SECONDS }
  }
  // Sign-ups' share first, then the whole budget, always in this order (no two transactions wait on each other).
  if (p.purpose === 'SIGNUP') await take(db, smsSignupBudget(deps), 'all', now)
  // Last: this one key serialises every sending transaction of the site until it commits.
  await take(db, smsBudget(deps), 'all', now)
  await deps.outbox.send(
    {
      channel: 'SMS',
      to: p.mobile,
      body: codeText[p.language ?? 'en'](code, p.purpose),
      code,
    },
    db,
  )
  return { resendAfterSeconds: OTP_RESEND_SECONDS, expiresInSeconds: OTP_TTL_SECONDS }
}

/**
 * Checks and consumes a code. Wrong code: INVALID_OTP_PROVIDED (the try is
 * counted); no live code, used, expired or 5 wrong tries: OTP_VALIDITY_EXPIRED.
 * Call it with `deps.db`, not inside a transaction that its error rolls back,
 * or the wrong try is not counted.
 */
export async function verifyOtp(db: Queryable, deps: Deps, p: { mobile: string; purpose: OtpPurpose; ref?: string; code: string }): Promise<void> {
  const ref = p.ref ?? ''
  const now = deps.now()
  const live = `mobile = $1 AND purpose = $2 AND ref = $3 AND consumed_at IS NULL AND expires_at > $4 AND attempts < ${OTP_MAX_ATTEMPTS}`
  if (/^\d{6}$/.test(p.code)) {
    const used = await db.query(`UPDATE otps SET consumed_at = $4 WHERE ${live} AND code_hash = $5 RETURNING id`, [
      p.mobile,
      p.purpose,
      ref,
      now,
      codeHash(p.mobile, p.purpose, ref, p.code),
    ])
    if (used.length > 0) return
  }
  const missed = await db.query(`UPDATE otps SET attempts = attempts + 1 WHERE ${live} RETURNING attempts`, [p.mobile, p.purpose, ref, now])
  throw new AppError(missed.length > 0 ? 'INVALID_OTP_PROVIDED' : 'OTP_VALIDITY_EXPIRED')
}
