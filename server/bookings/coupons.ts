/**
 * Coupon rules (offers: first booking only, uses per passenger, total uses, minimum
 * fare). They are checked when a coupon is applied, so the passenger learns at once,
 * and again in the transaction that sells the ticket, where the use is recorded
 * (`coupon_redemptions`) under a lock on the offer row and on the passenger: two
 * payments at once can never both use a once-only coupon.
 */
import type { Queryable } from '../db/db.ts'
import { AppError } from '../core.ts'
import { dhakaDate } from '../lib/time.ts'
import { formatMoney } from '../../contract/money.ts'

/** An offer with its rules. */
export interface OfferRow {
  id: number
  coupon_code: string
  discount_percent: number
  max_discount: number
  first_booking_only: boolean
  max_uses_per_passenger: number | null
  max_uses_total: number | null
  min_fare: number
}

/** The offer of a coupon code (any case) valid today, or INVALID_COUPON. */
export async function findOffer(q: Queryable, code: string, now: Date): Promise<OfferRow> {
  const rows = await q.query<OfferRow>(
    `SELECT id, coupon_code, discount_percent, max_discount, first_booking_only, max_uses_per_passenger, max_uses_total, min_fare
       FROM offers WHERE upper(coupon_code) = upper($1) AND valid_until >= $2::date AND (valid_from IS NULL OR valid_from <= $2::date)`,
    [code, dhakaDate(now)],
  )
  if (!rows[0]) throw new AppError('INVALID_COUPON')
  return rows[0]
}

/** The discount an offer gives on a subtotal. */
export function discountOf(offer: OfferRow, subtotal: number): number {
  return Math.min(Math.floor((subtotal * Number(offer.discount_percent)) / 100), Number(offer.max_discount))
}

/**
 * Throws the coupon error when `offer` may not be used for this reservation: its
 * subtotal is below the minimum fare, the passenger has bought before (first booking
 * only), or the uses per passenger or in total are used up.
 */
export async function checkCouponRules(
  q: Queryable,
  offer: OfferRow,
  r: { id: number; passengerId: number | null; subtotal: number },
): Promise<void> {
  if (r.subtotal < offer.min_fare) {
    throw new AppError('COUPON_MIN_FARE', {
      reason: `This coupon needs a fare of at least ${formatMoney(offer.min_fare)}.`,
      values: { amount: offer.min_fare },
    })
  }
  if (offer.first_booking_only) {
    const paid = await q.query('SELECT 1 FROM reservations WHERE passenger_id = $1 AND paid_at IS NOT NULL AND id <> $2 LIMIT 1', [
      r.passengerId,
      r.id,
    ])
    if (paid.length > 0) throw new AppError('COUPON_FIRST_BOOKING_ONLY')
  }
  if (offer.max_uses_per_passenger != null) {
    const [mine] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM coupon_redemptions WHERE offer_id = $1 AND passenger_id = $2', [
      offer.id,
      r.passengerId,
    ])
    if (mine!.n >= offer.max_uses_per_passenger) throw new AppError('COUPON_ALREADY_USED')
  }
  if (offer.max_uses_total != null) {
    const [all] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM coupon_redemptions WHERE offer_id = $1', [offer.id])
    if (all!.n >= offer.max_uses_total) throw new AppError('COUPON_USED_UP')
  }
}

/** Throws the coupon error when the booking's coupon may no longer be used (before a card payment opens). */
export async function assertCouponUsable(
  q: Queryable,
  r: { id: number; passenger_id: number | null; subtotal: number; coupon_code: string | null },
): Promise<void> {
  if (!r.coupon_code) return
  const rows = await q.query<OfferRow>(
    `SELECT id, coupon_code, discount_percent, max_discount, first_booking_only, max_uses_per_passenger, max_uses_total, min_fare
       FROM offers WHERE coupon_code = $1`,
    [r.coupon_code],
  )
  if (rows[0]) await checkCouponRules(q, rows[0], { id: r.id, passengerId: r.passenger_id, subtotal: r.subtotal })
}

/**
 * Records the use of the reservation's coupon as it is sold (call inside the sale's
 * transaction, holding the reservation's and the passenger's rows): locks the offer,
 * checks the rules once more and counts the use, or throws the coupon error (the sale
 * must then roll back).
 */
export async function redeemCoupon(
  tx: Queryable,
  r: { id: number; passengerId: number | null; subtotal: number; couponCode: string },
  now: Date,
): Promise<void> {
  // The offer row orders the total count (markSold already holds the passenger's row).
  const rows = await tx.query<OfferRow>(
    `SELECT id, coupon_code, discount_percent, max_discount, first_booking_only, max_uses_per_passenger, max_uses_total, min_fare
       FROM offers WHERE coupon_code = $1 FOR UPDATE`,
    [r.couponCode],
  )
  const offer = rows[0]
  // An offer removed by the operator after the coupon was applied: the discount stands.
  if (!offer) return
  await checkCouponRules(tx, offer, r)
  await tx.query('INSERT INTO coupon_redemptions (reservation_id, offer_id, passenger_id, created_at) VALUES ($1, $2, $3, $4)', [
    r.id,
    offer.id,
    r.passengerId,
    now,
  ])
}
