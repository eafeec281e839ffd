/**
 * The passenger balance and its ledger. Each change is one atomic UPDATE (so
 * concurrent payments can never overdraw) followed by its ledger row; call
 * inside the transaction that owns the business change. The account page reads
 * the ledger by Dhaka dates.
 */
import type { LedgerReason, Transaction } from '../../contract/schemas.ts'
import type { Queryable } from '../db/db.ts'
import { addDays, dhakaDayStart, toDhakaIso } from '../lib/time.ts'

export type LedgerKind = 'TOP_UP' | 'TICKET_PAYMENT' | 'REFUND' | 'OPENING'

/** What a ledger row says: its kind, why (when the kind alone does not say), the English text, and its reservation. */
interface Entry {
  passengerId: number
  amount: number
  kind: LedgerKind
  reason?: LedgerReason | null
  description: string
  reservationId: number | null
  at?: Date
}

async function record(tx: Queryable, e: Entry, amount: number, balanceAfter: number) {
  await tx.query(
    `INSERT INTO ledger (passenger_id, amount, balance_after, kind, reason, description, reservation_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [e.passengerId, amount, balanceAfter, e.kind, e.reason ?? null, e.description, e.reservationId, e.at ?? new Date()],
  )
}

function checkAmount(amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`ledger amount must be a positive whole number, got ${amount}`)
}

/** Takes `amount` from the balance; answers the new balance, or null (nothing changed) when it is insufficient. */
export async function debit(tx: Queryable, p: Entry & { kind: 'TICKET_PAYMENT' }): Promise<number | null> {
  checkAmount(p.amount)
  const rows = await tx.query<{ balance: number }>('UPDATE passengers SET balance = balance - $1 WHERE id = $2 AND balance >= $1 RETURNING balance', [
    p.amount,
    p.passengerId,
  ])
  if (rows.length === 0) return null
  const balance = rows[0]!.balance
  await record(tx, p, -p.amount, balance)
  return balance
}

/** Adds `amount` to the balance; answers the new balance. Throws when the passenger does not exist. */
export async function credit(tx: Queryable, p: Entry & { kind: 'TOP_UP' | 'REFUND' | 'OPENING' }): Promise<number> {
  checkAmount(p.amount)
  const rows = await tx.query<{ balance: number }>('UPDATE passengers SET balance = balance + $1 WHERE id = $2 RETURNING balance', [
    p.amount,
    p.passengerId,
  ])
  if (rows.length === 0) throw new Error(`passenger ${p.passengerId} not found for credit`)
  const balance = rows[0]!.balance
  await record(tx, p, p.amount, balance)
  return balance
}

/** Most ledger rows one account page answers. */
export const ACCOUNT_MAX_ROWS = 1000

/** The passenger's ledger rows of the Dhaka dates `from` to `to` (inclusive), newest first, at most ACCOUNT_MAX_ROWS. */
export async function statement(q: Queryable, passengerId: number, from: string, to: string): Promise<Transaction[]> {
  const rows = await q.query<{
    id: number
    created_at: Date
    amount: number
    balance_after: number
    kind: Transaction['kind']
    reason: LedgerReason | null
    description: string
    reservation_id: number | null
    pnr: string | null
  }>(
    `SELECT l.id, l.created_at, l.amount, l.balance_after, l.kind, l.reason, l.description, l.reservation_id, r.pnr
       FROM ledger l LEFT JOIN reservations r ON r.id = l.reservation_id
      WHERE l.passenger_id = $1 AND l.created_at >= $2 AND l.created_at < $3
      ORDER BY l.created_at DESC, l.id DESC LIMIT ${ACCOUNT_MAX_ROWS}`,
    [passengerId, dhakaDayStart(from), dhakaDayStart(addDays(to, 1))],
  )
  return rows.map((r) => ({
    id: r.id,
    createdAt: toDhakaIso(r.created_at),
    amount: r.amount,
    balanceAfter: r.balance_after,
    kind: r.kind,
    reason: r.reason,
    description: r.description,
    reservationId: r.reservation_id,
    pnr: r.pnr,
  }))
}
