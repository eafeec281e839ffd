/**
 * The per-passenger cap for one travel date (SEATS_PER_PASSENGER_PER_DATE): seats sold, moved
 * there by the operator, or booked and still live, on every trip of the date, counted per account
 * and per mobile number (db/functions/passenger_date_seats.sql says which bookings count toward which).
 * Unpaid live bookings count: only a live booking can be paid (payments.ts), so every seat that
 * can still become paid was counted when it was booked, and paying never needs a check of its own.
 */
import type { Queryable } from '../db/db.ts'
import { AppError } from '../core.ts'

/** The cap and what the caller has left of it for the date (left null: not signed in, so unknown). */
export interface DateSeatLimit {
  cap: number
  left: number | null
}

/** Seats the passenger (account `passengerId`, its mobile, and `mobile` when given) has for `tripDate`. */
export async function dateSeatsUsed(q: Queryable, at: { passengerId: number; mobile: string | null; tripDate: string; now: Date }): Promise<number> {
  const [r] = await q.query<{ n: number }>('SELECT passenger_date_seats($1, $2, $3::date, $4) AS n', [at.passengerId, at.mobile, at.tripDate, at.now])
  return Number(r?.n ?? 0)
}

/** The cap for the trip-details answer: what `passengerId` (null: a visitor) has left for `tripDate`. */
export async function dateSeatLimit(q: Queryable, cap: number, passengerId: number | null, tripDate: string, now: Date): Promise<DateSeatLimit> {
  if (passengerId == null) return { cap, left: null }
  const used = await dateSeatsUsed(q, { passengerId, mobile: null, tripDate, now })
  return { cap, left: Math.max(0, cap - used) }
}

/**
 * Takes the passenger's turn for `tripDate` in the transaction (every key the cap counts, in every
 * process), so the check after the booking's insert sees every other booking of theirs committed.
 */
export async function lockDateCap(tx: Queryable, at: { passengerId: number; mobile: string; tripDate: string }): Promise<void> {
  await tx.query('SELECT 1 FROM passenger_date_lock($1, $2, $3::date)', [at.passengerId, at.mobile, at.tripDate])
}

/**
 * Throws SEAT_LIMIT_EXCEEDED when, with the booking of `seats` seats just written, the passenger
 * has more than `cap` seats for `tripDate`. Call under lockDateCap.
 */
export async function assertDateCap(
  tx: Queryable,
  cap: number,
  at: { passengerId: number; mobile: string; tripDate: string; seats: number; now: Date },
): Promise<void> {
  const used = await dateSeatsUsed(tx, at)
  if (used <= cap) return
  const left = Math.max(0, cap - (used - at.seats))
  throw new AppError('SEAT_LIMIT_EXCEEDED', {
    reason: `Seat limit exceeded. One passenger may buy at most ${cap} seats for travel on ${at.tripDate}; you have ${left} left.`,
    values: { scope: 'date', count: cap, left },
  })
}
