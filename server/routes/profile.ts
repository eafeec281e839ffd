/** The signed-in passenger's own profile, password and balance account. */
import type { FastifyInstance } from 'fastify';
import { MAX_ID, type Transaction } from '../../contract/schemas.ts';
import { AppError, handle, type Auth, type Deps } from '../http.ts';
import { passengerById, toPassenger, type PassengerRow } from '../passengers.ts';
import { hashPassword, verifyPassword } from '../passwords.ts';
import { revokeOtherSessions } from '../sessions.ts';
import { addDays, dhakaDate, dhakaDayStart, toDhakaIso } from '../time.ts';

/** Most ledger rows one account page answers. */
export const ACCOUNT_MAX_ROWS = 1000;

/** The `:id` path parameter as a passenger id that must be the caller's own. */
function ownId(raw: string | undefined, auth: Auth | null): number {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > MAX_ID) {
    throw new AppError('VALIDATION_FAILED', { fields: [{ path: 'id', message: 'Wrong format' }] });
  }
  if (!auth || Number(raw) !== auth.passengerId) throw new AppError('PERMISSION_DENIED');
  return auth.passengerId;
}

async function me(deps: Deps, id: number): Promise<PassengerRow> {
  const p = await passengerById(deps.db, id);
  if (!p) throw new AppError('PASSENGER_NOT_FOUND');
  return p;
}

interface LedgerRow {
  id: number;
  created_at: Date;
  amount: number;
  balance_after: number;
  kind: Transaction['kind'];
  description: string;
  reservation_id: number | null;
}

/** Registers the profile and account routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  const db = deps.db;

  handle(app, deps, 'profile', async ({ params, auth }) => toPassenger(await me(deps, ownId(params.id, auth))));

  handle(app, deps, 'updateProfile', async ({ body, auth }) => {
    const [row] = await db.query<PassengerRow>('UPDATE passengers SET full_name = $2, email = $3, city = $4 WHERE id = $1 RETURNING *', [
      auth!.passengerId,
      body.fullName,
      body.email,
      body.city,
    ]);
    if (!row) throw new AppError('PASSENGER_NOT_FOUND');
    return toPassenger(row);
  });

  handle(app, deps, 'changePassword', async ({ body, auth }) => {
    const p = await me(deps, auth!.passengerId);
    // 400, not the catalogue's 401: a wrong current password must not sign the passenger out.
    if (!(await verifyPassword(body.currentPassword, p.password_hash))) throw new AppError('BAD_CREDENTIALS', { status: 400 });
    const hash = await hashPassword(body.newPassword);
    await db.transaction(async (tx) => {
      await tx.query('UPDATE passengers SET password_hash = $2, password_changed_at = $3 WHERE id = $1', [p.id, hash, deps.now()]);
      await revokeOtherSessions(tx, p.id, auth!.tokenId);
    });
    return true;
  });

  handle(app, deps, 'account', async ({ params, query, auth }) => {
    const id = ownId(params.id, auth);
    const now = deps.now();
    const today = dhakaDate(now);
    const from = query.from ?? today.slice(0, 8) + '01';
    const to = query.to ?? today;
    if (from > to) throw new AppError('VALIDATION_FAILED', { fields: [{ path: 'from', message: 'From must not be after to' }] });
    const p = await me(deps, id);
    const rows = await db.query<LedgerRow>(
      `SELECT id, created_at, amount, balance_after, kind, description, reservation_id FROM ledger
        WHERE passenger_id = $1 AND created_at >= $2 AND created_at < $3
        ORDER BY created_at DESC, id DESC LIMIT ${ACCOUNT_MAX_ROWS}`,
      [id, dhakaDayStart(from), dhakaDayStart(addDays(to, 1))],
    );
    return {
      balance: p.balance,
      transactions: rows.map((r) => ({
        id: r.id,
        createdAt: toDhakaIso(r.created_at),
        amount: r.amount,
        balanceAfter: r.balance_after,
        kind: r.kind,
        description: r.description,
        reservationId: r.reservation_id,
      })),
    };
  });
}
