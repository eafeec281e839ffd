/** Passengers for tests on PostgreSQL: a row and a signed-in session, made straight in the database. */
import type { PassengerRow } from '../account/passengers.ts'
import { createSession } from '../account/sessions.ts'
import type { Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'

let seq = 0

/** A new active passenger with a session and `balance` Tk; `prefix` (3 digits, e.g. '017') keeps suites' mobile numbers apart. */
export async function signedInPassenger(db: Db, prefix: string, balance = 0): Promise<{ id: number; token: string; mobile: string }> {
  const mobile = `${prefix}${String(process.pid % 1000).padStart(3, '0')}${String(++seq).padStart(5, '0')}`
  const [row] = await db.query<PassengerRow>(
    `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at) VALUES ($1, 'Waiter', $2, 'Dhaka', 'ACTIVE', $3, now()) RETURNING *`,
    [mobile, `w${mobile}@example.com`, balance],
  )
  const s = await createSession(db, createDeps(db), row!, true)
  return { id: row!.id, token: s.token, mobile }
}
