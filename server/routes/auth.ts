/**
 * Sign-up by mobile with an SMS code, login by password or by one-time code,
 * password reset, logout. Sessions are opaque bearer tokens (see sessions.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db.ts';
import { AppError, handle, type Deps } from '../http.ts';
import { issueOtp, verifyOtp } from '../otp.ts';
import { normaliseMobile, passengerByMobile, type PassengerRow } from '../passengers.ts';
import { hashPassword, needsRehash, verifyPassword } from '../passwords.ts';
import { createSession, revokeOtherSessions, revokeSession } from '../sessions.ts';
import { newToken, sha256 } from '../tokens.ts';

/** How long a password-reset token from /verifyOTP stays usable. */
export const RESET_TOKEN_MINUTES = 10;

/** How long a sign-up may wait for its code to be confirmed (codes can be resent meanwhile). */
export const REGISTRATION_MINUTES = 30;

interface RegistrationRow {
  id: number;
  mobile: string;
  full_name: string;
  email: string;
  city: string;
  password_hash: string;
}

/** The open (unexpired, not completed) registration of a token, or REGISTRATION_NOT_FOUND. */
async function openRegistration(q: Queryable, token: string, now: Date, mobile?: string): Promise<RegistrationRow> {
  const rows = await q.query<RegistrationRow>(
    `SELECT id, mobile, full_name, email, city, password_hash FROM registrations
      WHERE token_hash = $1 AND expires_at > $2 AND completed_at IS NULL`,
    [sha256(token), now],
  );
  const r = rows[0];
  if (!r || (mobile !== undefined && r.mobile !== mobile)) throw new AppError('REGISTRATION_NOT_FOUND');
  return r;
}

const signupRef = (registrationId: number) => `reg:${registrationId}`;

/** The normalised mobile of a (validated or path) value; VALIDATION_FAILED when it is not one. */
export function requireMobile(value: string, field = 'mobile'): string {
  const m = normaliseMobile(value);
  if (!m) throw new AppError('VALIDATION_FAILED', { fields: [{ path: field, message: 'Please enter a valid mobile no.' }] });
  return m;
}

async function requirePassenger(deps: Deps, mobile: string): Promise<PassengerRow> {
  const p = await passengerByMobile(deps.db, mobile);
  if (!p) throw new AppError('PASSENGER_NOT_FOUND');
  if (p.status === 'INACTIVE') throw new AppError('USER_INACTIVE');
  return p;
}

function passwordExpired(deps: Deps, p: PassengerRow): boolean {
  const days = deps.config.passwordMaxAgeDays ?? 0;
  if (!days || !p.password_changed_at) return false;
  return deps.now().getTime() - p.password_changed_at.getTime() > days * 86_400_000;
}

/** Registers the authentication routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  const db = deps.db;

  handle(app, deps, 'passengerByMobile', async ({ params }) => {
    const mobile = requireMobile(params.mobile ?? '');
    const p = await passengerByMobile(db, mobile);
    return { mobile, registered: !!p && p.status !== 'PENDING' };
  });

  handle(app, deps, 'register', async ({ body }) => {
    const mobile = requireMobile(body.mobile);
    const existing = await passengerByMobile(db, mobile);
    if (existing && existing.status === 'INACTIVE') throw new AppError('USER_INACTIVE');
    if (existing && existing.status === 'ACTIVE') throw new AppError('MOBILE_ALREADY_REGISTERED');
    const hash = await hashPassword(body.password);
    const token = newToken();
    return db.transaction(async (tx) => {
      const now = deps.now();
      // A registration of its own: nothing another sign-up of this mobile wrote is changed.
      const [reg] = await tx.query<{ id: number }>(
        `INSERT INTO registrations (token_hash, mobile, full_name, email, city, password_hash, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [sha256(token), mobile, body.fullName, body.email, body.city, hash, now, new Date(now.getTime() + REGISTRATION_MINUTES * 60_000)],
      );
      const sent = await issueOtp(tx, deps, { mobile, purpose: 'SIGNUP', ref: signupRef(reg!.id) });
      return { mobile, ...sent, registrationToken: token };
    });
  });

  handle(app, deps, 'resendMobileCode', async ({ params }) => {
    const reg = await openRegistration(db, params.registrationToken ?? '', deps.now());
    const p = await passengerByMobile(db, reg.mobile);
    if (p && p.status !== 'PENDING') throw new AppError(p.status === 'INACTIVE' ? 'USER_INACTIVE' : 'MOBILE_ALREADY_REGISTERED');
    const sent = await db.transaction((tx) => issueOtp(tx, deps, { mobile: reg.mobile, purpose: 'SIGNUP', ref: signupRef(reg.id) }));
    return { mobile: reg.mobile, ...sent };
  });

  handle(app, deps, 'verifyMobile', async ({ body }) => {
    const mobile = requireMobile(body.mobile);
    const reg = await openRegistration(db, body.registrationToken, deps.now(), mobile);
    const p = await passengerByMobile(db, mobile);
    if (p && p.status !== 'PENDING') throw new AppError(p.status === 'INACTIVE' ? 'USER_INACTIVE' : 'MOBILE_ALREADY_REGISTERED');
    // Only the code sent for this registration activates it.
    await verifyOtp(db, deps, { mobile, purpose: 'SIGNUP', ref: signupRef(reg.id), code: body.code });
    return db.transaction(async (tx) => {
      const now = deps.now();
      const done = await tx.query('UPDATE registrations SET completed_at = $2 WHERE id = $1 AND completed_at IS NULL RETURNING id', [reg.id, now]);
      if (done.length === 0) throw new AppError('REGISTRATION_NOT_FOUND');
      // A passenger left PENDING by the old sign-up flow takes this registration's details.
      const [row] = await tx.query<PassengerRow>(
        `INSERT INTO passengers (mobile, full_name, email, city, password_hash, status, password_changed_at, created_at)
         VALUES ($1, $2, $3, $4, $5, 'ACTIVE', $6, $6)
         ON CONFLICT (mobile) DO UPDATE
           SET full_name = EXCLUDED.full_name, email = EXCLUDED.email, city = EXCLUDED.city,
               password_hash = EXCLUDED.password_hash, password_changed_at = EXCLUDED.password_changed_at, status = 'ACTIVE'
           WHERE passengers.status = 'PENDING'
         RETURNING *`,
        [mobile, reg.full_name, reg.email, reg.city, reg.password_hash, now],
      );
      if (!row) throw new AppError('MOBILE_ALREADY_REGISTERED');
      return createSession(tx, deps, row);
    });
  });

  handle(app, deps, 'login', async ({ body }) => {
    const mobile = requireMobile(body.mobile);
    const p = await passengerByMobile(db, mobile);
    const ok = await verifyPassword(body.password, p?.password_hash ?? null);
    if (!p || !ok) throw new AppError('BAD_CREDENTIALS');
    if (p.status === 'PENDING') throw new AppError('MOBILE_NOT_VERIFIED');
    if (p.status === 'INACTIVE') throw new AppError('USER_INACTIVE');
    if (passwordExpired(deps, p)) throw new AppError('PASSWORD_EXPIRED');
    // A hash made with an older, cheaper cost is replaced now that the password is known.
    if (needsRehash(p.password_hash)) {
      await db.query('UPDATE passengers SET password_hash = $2 WHERE id = $1 AND password_hash = $3', [p.id, await hashPassword(body.password), p.password_hash]);
    }
    return createSession(db, deps, p, body.staySignedIn === true);
  });

  handle(app, deps, 'logout', async ({ auth }) => {
    await revokeSession(db, auth!.tokenId);
    return true;
  });

  handle(app, deps, 'sendOtp', async ({ body }) => {
    const mobile = requireMobile(body.mobile);
    const p = await requirePassenger(deps, mobile);
    if (body.purpose === 'LOGIN' && p.status === 'PENDING') throw new AppError('MOBILE_NOT_VERIFIED');
    const sent = await db.transaction((tx) => issueOtp(tx, deps, { mobile, purpose: body.purpose }));
    return { mobile, ...sent };
  });

  handle(app, deps, 'verifyOtp', async ({ body }) => {
    const mobile = requireMobile(body.mobile);
    const p = await requirePassenger(deps, mobile);
    if (body.purpose === 'LOGIN' && p.status === 'PENDING') throw new AppError('MOBILE_NOT_VERIFIED');
    await verifyOtp(db, deps, { mobile, purpose: body.purpose, code: body.otp });
    if (body.purpose === 'LOGIN') return { session: await createSession(db, deps, p), resetToken: null };
    const token = newToken();
    await db.query('INSERT INTO password_resets (token_hash, passenger_id, expires_at) VALUES ($1, $2, $3)', [
      sha256(token),
      p.id,
      new Date(deps.now().getTime() + RESET_TOKEN_MINUTES * 60_000),
    ]);
    return { session: null, resetToken: token };
  });

  handle(app, deps, 'setNewPassword', async ({ body }) => {
    const mobile = requireMobile(body.mobile);
    const hash = await hashPassword(body.password);
    return db.transaction(async (tx) => {
      const now = deps.now();
      const [reset] = await tx.query<{ passenger_id: number }>(
        `UPDATE password_resets SET consumed_at = $3
          WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $3
            AND passenger_id = (SELECT id FROM passengers WHERE mobile = $2)
          RETURNING passenger_id`,
        [sha256(body.resetToken), mobile, now],
      );
      if (!reset) throw new AppError('OTP_VALIDITY_EXPIRED');
      // The code proved the mobile, so a passenger who never verified it becomes ACTIVE.
      const [p] = await tx.query<PassengerRow>(
        `UPDATE passengers SET password_hash = $2, password_changed_at = $3,
                status = CASE WHEN status = 'PENDING' THEN 'ACTIVE' ELSE status END
          WHERE id = $1 RETURNING *`,
        [reset.passenger_id, hash, now],
      );
      if (!p || p.status !== 'ACTIVE') throw new AppError('USER_INACTIVE');
      await revokeOtherSessions(tx, p.id, null);
      return createSession(tx, deps, p);
    });
  });
}
