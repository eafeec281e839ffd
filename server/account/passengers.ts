/** Passenger rows: mobile normalisation, the contract `passenger` shape, look-ups and profile changes. */
import type { Passenger } from '../../contract/schemas.ts'
import type { Queryable } from '../db/db.ts'
import { AppError } from '../core.ts'
import { normaliseMobile } from '../lib/mobile.ts'
import { toDhakaIso } from '../lib/time.ts'

/** A passengers row as stored. */
export interface PassengerRow {
  id: number
  mobile: string
  full_name: string
  email: string
  city: string
  password_hash: string | null
  status: 'PENDING' | 'ACTIVE' | 'INACTIVE'
  balance: number
  password_changed_at: Date | null
  created_at: Date
}

/** The normalised mobile of a (validated or path) value; VALIDATION_FAILED naming `field` when it is not one. */
export function requireMobile(value: string, field = 'mobile'): string {
  const m = normaliseMobile(value)
  if (!m) throw new AppError('VALIDATION_FAILED', { fields: [{ path: field, message: 'Please enter a valid mobile no.' }] })
  return m
}

/** Maps a passengers row to the contract shape (never the password hash). */
export function toPassenger(row: PassengerRow): Passenger {
  return {
    id: row.id,
    mobile: row.mobile,
    fullName: row.full_name,
    email: row.email,
    city: row.city,
    balance: row.balance,
    createdAt: toDhakaIso(row.created_at),
  }
}

/** The passenger with this normalised mobile, or null. */
export async function passengerByMobile(q: Queryable, mobile: string, forUpdate = false): Promise<PassengerRow | null> {
  const rows = await q.query<PassengerRow>(`SELECT * FROM passengers WHERE mobile = $1${forUpdate ? ' FOR UPDATE' : ''}`, [mobile])
  return rows[0] ?? null
}

/** The passenger with this id, or null. */
export async function passengerById(q: Queryable, id: number): Promise<PassengerRow | null> {
  const rows = await q.query<PassengerRow>('SELECT * FROM passengers WHERE id = $1', [id])
  return rows[0] ?? null
}

/** Updates the passenger's own details; answers the row, or null when there is no such passenger. */
export async function updateProfile(q: Queryable, id: number, p: { fullName: string; email: string; city: string }): Promise<PassengerRow | null> {
  const rows = await q.query<PassengerRow>('UPDATE passengers SET full_name = $2, email = $3, city = $4 WHERE id = $1 RETURNING *', [
    id,
    p.fullName,
    p.email,
    p.city,
  ])
  return rows[0] ?? null
}

/** Replaces a password hash made with older parameters by `hash` of the same password, unless it changed meanwhile. */
export async function replacePasswordHash(q: Queryable, id: number, old: string, hash: string): Promise<void> {
  await q.query('UPDATE passengers SET password_hash = $2 WHERE id = $1 AND password_hash = $3', [id, hash, old])
}
