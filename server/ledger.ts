/**
 * The passenger balance and its ledger. Each change is one atomic UPDATE (so
 * concurrent payments can never overdraw) followed by its ledger row; call
 * inside the transaction that owns the business change. The account page reads
 * the ledger by Dhaka dates.
 */
import type { Transaction } from '../contract/schemas.ts'
import type { Queryable } from './db.ts'
import { addDays, dhakaDayStart, toDhakaIso } from './time.ts'

export type LedgerKind = 'TOP_UP' | 'TICKET_PAYMENT' | 'REFUND' | 'OPENING'

async function record(
  tx: Queryable,
  passengerId: number,
  amount: number,
  balanceAfter: number,
  kind: LedgerKind,
  description: string,
  reservationId: number | null,
  at: Date,
) {
  await tx.query(
    'INSERT INTO ledger (passenger_id, amount, balance_after, kind, description, reservation_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [passengerId, amount, balanceAfter, kind, description, reservationId, at],
  )
}

function checkAmount(amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`ledger amount must be a positive whole number, got ${amount}`)
}

/** Takes `amount` from the balance; answers the new balance, or null (nothing changed) when it is insufficient. */
export async function debit(
  tx: Queryable,
  p: { passengerId: number; amount: number; kind: 'TICKET_PAYMENT'; description: string; reservationId: number | null; at?: Date },
): Promise<number | null> {
  checkAmount(p.amount)
  const rows = await tx.query<{ balance: number }>('UPDATE passengers SET balance = balance - $1 WHERE id = $2 AND balance >= $1 RETURNING balance', [
    p.amount,
    p.passengerId,
  ])
  if (rows.length === 0) return null
  const balance = rows[0]!.balance
  await record(tx, p.passengerId, -p.amount, balance, p.kind, p.description, p.reservationId, p.at ?? new Date())
  return balance
}

/** Adds `amount` to the balance; answers the new balance. Throws when the passenger does not exist. */
export async function credit(
  tx: Queryable,
  p: { passengerId: number; amount: number; kind: 'TOP_UP' | 'REFUND' | 'OPENING'; description: string; reservationId: number | null; at?: Date },
): Promise<number> {
  checkAmount(p.amount)
  const rows = await tx.query<{ balance: number }>('UPDATE passengers SET balance = balance + $1 WHERE id = $2 RETURNING balance', [
    p.amount,
    p.passengerId,
  ])
  if (rows.length === 0) throw new Error(`passenger ${p.passengerId} not found for credit`)
  const balance = rows[0]!.balance
  await record(tx, p.passengerId, p.amount, balance, p.kind, p.description, p.reservationId, p.at ?? new Date())
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
    description: string
    reservation_id: number | null
  }>(
    `SELECT id, created_at, amount, balance_after, kind, description, reservation_id FROM ledger
      WHERE passenger_id = $1 AND created_at >= $2 AND created_at < $3
      ORDER BY created_at DESC, id DESC LIMIT ${ACCOUNT_MAX_ROWS}`,
    [passengerId, dhakaDayStart(from), dhakaDayStart(addDays(to, 1))],
  )
  return rows.map((r) => ({
    id: r.id,
    createdAt: toDhakaIso(r.created_at),
    amount: r.amount,
    balanceAfter: r.balance_after,
    kind: r.kind,
    description: r.description,
    reservationId: r.reservation_id,
  }))
}
