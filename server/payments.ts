/**
 * Card payments through the sandbox gateway and balance top-ups. A payment is
 * decided once (PENDING → APPROVED | DECLINED) and an approved one is confirmed
 * once: the atomic `confirmed_at IS NULL` update picks the single confirmer, so a
 * replayed callback never sells twice or credits twice.
 */
import crypto from 'node:crypto';
import type { PaymentResult } from '../contract/schemas.ts';
import type { Db, Queryable } from './db.ts';
import { AppError, type Deps } from './http.ts';
import { credit } from './ledger.ts';
import { loadReservation, markSold, notifySold } from './reservations.ts';

/** A payments row. */
export interface PaymentRow {
  id: string;
  purpose: 'RESERVATION' | 'TOP_UP';
  reservation_id: number | null;
  passenger_id: number;
  amount: number;
  status: 'PENDING' | 'APPROVED' | 'DECLINED';
  refunded: boolean;
  created_at: Date;
  decided_at: Date | null;
  confirmed_at: Date | null;
}

/** The sandbox gateway page of a payment. */
export const gatewayPath = (paymentId: string) => `/sandbox/gateway/${encodeURIComponent(paymentId)}`;

/** A random, unguessable payment id (it is the capability to read the payment result). */
export function newPaymentId(): string {
  return 'pay_' + crypto.randomBytes(15).toString('base64url');
}

/** Loads a payment or throws PAYMENT_NOT_FOUND. */
export async function findPayment(q: Queryable, id: string): Promise<PaymentRow> {
  const rows = await q.query<PaymentRow>('SELECT * FROM payments WHERE id = $1', [id]);
  if (!rows[0]) throw new AppError('PAYMENT_NOT_FOUND');
  return rows[0];
}

/** Declines the reservation's pending card payment (its amount is stale or the booking is settled). */
export async function declinePending(tx: Queryable, reservationId: number, now: Date): Promise<void> {
  await tx.query("UPDATE payments SET status = 'DECLINED', decided_at = $2 WHERE reservation_id = $1 AND status = 'PENDING'", [reservationId, now]);
}

/**
 * Records the gateway's decision, only from PENDING. An approval for a booking that
 * is no longer payable is recorded as declined (the card is never charged).
 * Answers the payment after the decision.
 */
export async function decide(db: Db, id: string, approve: boolean, now: Date): Promise<PaymentRow> {
  const p = await findPayment(db, id);
  if (p.status !== 'PENDING') return p;
  return db.transaction(async (tx) => {
    let ok = approve;
    if (ok && p.reservation_id != null) {
      const [r] = await tx.query<{ status: number; expiration_time: Date | null; total: number }>(
        'SELECT status, expiration_time, total FROM reservations WHERE id = $1 FOR UPDATE',
        [p.reservation_id],
      );
      ok = !!r && r.status === 2 && !!r.expiration_time && r.expiration_time > now && r.total === p.amount;
    }
    const rows = await tx.query<PaymentRow>(
      "UPDATE payments SET status = $2, decided_at = $3 WHERE id = $1 AND status = 'PENDING' RETURNING *",
      [id, ok ? 'APPROVED' : 'DECLINED', now],
    );
    return rows[0] ?? (await findPayment(tx, id));
  });
}

/**
 * Applies an approved payment exactly once: sells the booking (status 1, PNR, PIN) or
 * credits the top-up. If the booking was settled or ended meanwhile, the amount is
 * credited to the passenger's balance as a refund. Sends the ticket after commit.
 */
export async function confirmPayment(deps: Deps, id: string): Promise<void> {
  const now = deps.now();
  const p = await findPayment(deps.db, id);
  if (p.status !== 'APPROVED' || p.confirmed_at) return;
  const sold = await deps.db.transaction(async (tx) => {
    // Reservation row first, then the payment: the order payFromBalance uses too.
    const [r] = p.reservation_id != null
      ? await tx.query<{ id: number; status: number }>('SELECT id, status FROM reservations WHERE id = $1 FOR UPDATE', [p.reservation_id])
      : [];
    const won = await tx.query<PaymentRow>(
      "UPDATE payments SET confirmed_at = $2 WHERE id = $1 AND confirmed_at IS NULL AND status = 'APPROVED' RETURNING *",
      [id, now],
    );
    if (won.length === 0) return null;
    if (p.purpose === 'TOP_UP') {
      await credit(tx, { passengerId: p.passenger_id, amount: p.amount, kind: 'TOP_UP', description: 'Balance top-up by card', reservationId: null, at: now });
      return null;
    }
    if (r && r.status === 2 && (await markSold(tx, r.id, 'CARD', now))) return r.id;
    await credit(tx, {
      passengerId: p.passenger_id,
      amount: p.amount,
      kind: 'REFUND',
      description: 'Card payment received after the booking ended',
      reservationId: p.reservation_id,
      at: now,
    });
    await tx.query('UPDATE payments SET refunded = true WHERE id = $1', [id]);
    return null;
  });
  if (sold != null) await notifySold(deps, sold);
}

/** The payment as the success and failure pages read it. */
export async function paymentResult(q: Queryable, id: string): Promise<PaymentResult> {
  const p = await findPayment(q, id);
  const reservation = p.reservation_id != null ? await loadReservation(q, p.reservation_id) : null;
  const [bal] = await q.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [p.passenger_id]);
  return {
    paymentId: p.id,
    status: p.status,
    purpose: p.purpose,
    amount: p.amount,
    reservation,
    balance: bal ? Number(bal.balance) : null,
  };
}

/** Where the gateway sends the browser after a decision. */
export function resultUrl(p: PaymentRow): string {
  const id = encodeURIComponent(p.id);
  const ok = p.status === 'APPROVED';
  if (p.purpose === 'TOP_UP') return `/profile?topUp=${id}&result=${ok ? 'success' : 'failure'}`;
  return `/reservation/${ok ? 'success' : 'failure'}?paymentId=${id}`;
}
