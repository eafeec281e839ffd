/**
 * Passenger sessions: an opaque random bearer token (the database keeps only its
 * SHA-256), 12 hours, or 30 days with "stay signed in". Logging out deletes it.
 */
import type { Session } from '../../contract/schemas.ts'
import { prepared, type Queryable } from '../db/db.ts'
import type { Auth, Deps } from '../core.ts'
import { getCompany } from '../company/company.ts'
import { toPassenger, type PassengerRow } from './passengers.ts'
import { addDhakaDays, addTime, toDhakaIso } from '../lib/time.ts'
import { newToken, sha256 } from '../lib/tokens.ts'

export const SESSION_HOURS = 12
export const STAY_SIGNED_IN_DAYS = 30

/** Creates a session for an ACTIVE passenger and answers the contract `session`. */
export async function createSession(q: Queryable, deps: Deps, passenger: PassengerRow, staySignedIn = false): Promise<Session> {
  const token = newToken()
  const now = deps.now()
  const expiresAt = staySignedIn ? addDhakaDays(now, STAY_SIGNED_IN_DAYS) : addTime(now, { hours: SESSION_HOURS })
  await q.query('INSERT INTO sessions (passenger_id, token_hash, expires_at, created_at) VALUES ($1, $2, $3, $4)', [
    passenger.id,
    sha256(token),
    expiresAt,
    now,
  ])
  return { token, expiresAt: toDhakaIso(expiresAt), passenger: toPassenger(passenger), company: await getCompany(q) }
}

// every signed-in request asks it: prepared once per connection
const SESSION_SQL = prepared(`SELECT s.id, s.passenger_id FROM sessions s JOIN passengers p ON p.id = s.passenger_id
  WHERE s.token_hash = $1 AND s.expires_at > $2 AND p.status = 'ACTIVE'`)

/** `deps.authenticate`: the passenger behind a token, or null when unknown, expired or the passenger is not ACTIVE. */
export function sessionAuthenticator(db: Queryable, now: () => Date): (token: string) => Promise<Auth | null> {
  return async (token) => {
    if (!token || token.length > 100) return null
    const rows = await db.query<{ id: number; passenger_id: number }>(SESSION_SQL, [sha256(token), now()])
    const row = rows[0]
    return row ? { passengerId: row.passenger_id, tokenId: row.id } : null
  }
}

/** Ends one session. */
export async function revokeSession(q: Queryable, tokenId: number): Promise<void> {
  await q.query('DELETE FROM sessions WHERE id = $1', [tokenId])
}

/** Ends every session of a passenger except `keepId` (after a password change). */
export async function revokeOtherSessions(q: Queryable, passengerId: number, keepId: number | null): Promise<void> {
  await q.query('DELETE FROM sessions WHERE passenger_id = $1 AND ($2::bigint IS NULL OR id <> $2)', [passengerId, keepId])
}
