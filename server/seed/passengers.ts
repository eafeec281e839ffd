/** The demo passenger (01712345678 / Demo@1234) with an opening balance of 5,000 Tk. */
import type { Queryable } from '../db/db.ts'
import { hashPassword } from '../account/passwords.ts'

export const DEMO_PASSENGER = {
  mobile: '01712345678',
  password: 'Demo@1234',
  fullName: 'Rahim Uddin',
  email: 'rahim.uddin@example.com',
  city: 'Dhaka',
  openingBalance: 5000,
}

/** Creates the demo passenger once. */
export async function seedPassengers(tx: Queryable, now: Date): Promise<void> {
  const d = DEMO_PASSENGER
  const exists = await tx.query('SELECT 1 FROM passengers WHERE mobile = $1', [d.mobile])
  if (exists.length > 0) return
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO passengers (mobile, full_name, email, city, password_hash, status, balance, password_changed_at, created_at)
     VALUES ($1, $2, $3, $4, $5, 'ACTIVE', $6, $7, $7) RETURNING id`,
    [d.mobile, d.fullName, d.email, d.city, await hashPassword(d.password), d.openingBalance, now],
  )
  await tx.query(
    `INSERT INTO ledger (passenger_id, amount, balance_after, kind, description, reservation_id, created_at)
     VALUES ($1, $2, $2, 'OPENING', 'Opening balance', NULL, $3)`,
    [row!.id, d.openingBalance, now],
  )
}

/**
 * Production: a database that ran in development, or under a version that seeded
 * the demo passenger everywhere, may hold it with its published password. It can
 * no longer sign in (no password, INACTIVE) and its sessions end. Matched on its
 * mobile, name and example.com address together, so a real passenger never is.
 * Answers whether it was there to lock out.
 */
export async function lockOutDemoPassenger(tx: Queryable): Promise<boolean> {
  const d = DEMO_PASSENGER
  const rows = await tx.query<{ id: number }>(
    `UPDATE passengers SET password_hash = NULL, status = 'INACTIVE'
      WHERE mobile = $1 AND full_name = $2 AND email = $3 AND (password_hash IS NOT NULL OR status <> 'INACTIVE')
      RETURNING id`,
    [d.mobile, d.fullName, d.email],
  )
  if (rows.length === 0) return false
  await tx.query('DELETE FROM sessions WHERE passenger_id = $1', [rows[0]!.id])
  return true
}
