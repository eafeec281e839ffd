/**
 * Card payments and balance top-ups, whichever gateway takes them
 * (gateways/). A payment is decided (PENDING → APPROVED | DECLINED |
 * REVIEW) and an approved one is confirmed once: the atomic `confirmed_at IS NULL`
 * update picks the single confirmer, so a replayed callback, in this process or
 * another, never sells twice or credits twice. REVIEW holds a payment the gateway
 * flagged as risky until an operator approves or declines it. A booking can also be
 * paid from the passenger's balance, in one transaction.
 */
import crypto from 'node:crypto'
import { type LedgerReason, type PaymentResult, type PayChoice, type PaySource, reservationStatus } from '../../contract/schemas.ts'
import { bookingLive, declinePending, expireBookings, lockChangeableBooking, setCoupon } from './bookings.ts'
import { lockPayableLegs } from './round-trips.ts'
import { assertCouponUsable } from './coupons.ts'
import type { Db, Queryable } from '../db/db.ts'
import { AppError, type Deps } from '../core.ts'
import { credit, debit } from '../account/ledger.ts'
import type { PaymentGateway } from './gateways/gateway.ts'
import { loadReservation } from './reservation-view.ts'
import { nudgeRefunds, queueCardRefund, refundsToCard } from './refunds.ts'
import { enqueueTicket, enqueueTripChangeNotice, markSold } from './tickets.ts'
import type { PaymentRow } from './payment-row.ts'
import { applyChangePayment } from './ticket-change.ts'

/** Payment ids as we issue them (`pay_` + base64url); anything else is never looked up. */
export const paymentIdPattern = /^[A-Za-z0-9_-]{1,100}$/

/**
 * A random, unguessable payment id. It travels in URLs (the gateway's return, browser
 * history) and to the gateway, so it is no capability: it reveals and changes nothing alone.
 */
export function newPaymentId(): string {
  return 'pay_' + crypto.randomBytes(15).toString('base64url')
}

/** Result tokens kept per payment (tabs that opened it); older ones stop working. */
const RESULT_TOKENS_KEPT = 10

const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('hex')

/**
 * A result token for the browser tab that opens a payment: it shows the payment's result
 * in full (PNR, PIN, mobile, balance) after the gateway, signed in or not. Only its hash is stored.
 */
function newResultToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(24).toString('base64url')
  return { token, hash: tokenHash(token) }
}

/** Who asks for a payment's result: the signed-in passenger (if any) and the tab's result token (if any). */
export interface ResultAsker {
  passengerId: number | null
  resultToken: string | null
}

/** Whether `who` may see the payment's result in full: the passenger who opened it, or the tab holding its result token. */
export function mayReadResult(p: PaymentRow, who: ResultAsker): boolean {
  if (who.passengerId !== null && who.passengerId === p.passenger_id) return true
  if (!who.resultToken) return false
  const h = Buffer.from(tokenHash(who.resultToken), 'hex')
  return p.result_token_hashes.some((x) => {
    const b = Buffer.from(x, 'hex')
    return b.length === h.length && crypto.timingSafeEqual(b, h)
  })
}

/** Loads a payment or throws PAYMENT_NOT_FOUND. */
export async function findPayment(q: Queryable, id: string): Promise<PaymentRow> {
  const rows = await q.query<PaymentRow>('SELECT * FROM payments WHERE id = $1', [id])
  if (!rows[0]) throw new AppError('PAYMENT_NOT_FOUND')
  return rows[0]
}

/**
 * Opens a card payment for the caller's live booking at its total (a round trip's outbound: both
 * legs' totals, lockPayableLegs), or hands out its pending one again (double click, second tab)
 * while amount, legs and gateway are unchanged.
 * A coupon used up meanwhile is refused now, not after paying; a total of nothing, or
 * below the gateway's minimum, is paid from the balance instead (VALIDATION_FAILED).
 */
export async function openCardPayment(
  db: Db,
  gateway: PaymentGateway,
  req: { reservationId: number; passengerId: number; now: Date; payWith?: PayChoice; outboundOnly?: boolean },
): Promise<{ payment: PaymentRow; reused: boolean; resultToken: string }> {
  const { reservationId: id, passengerId, now } = req
  const askedWith = req.payWith ?? 'card'
  const provider = providerOf(gateway)
  const result = newResultToken()
  return db.transaction(async (tx) => {
    const r = await lockChangeableBooking(tx, id, passengerId, now)
    const legs = await lockPayableLegs(tx, r, now, req.outboundOnly ?? false)
    // Learn now, not after paying, that the coupon was used up meanwhile.
    for (const leg of legs) await assertCouponUsable(tx, leg)
    const total = legs.reduce((a, leg) => a + leg.total, 0)
    const returnId = legs[1]?.id ?? null
    const [pending] = await tx.query<PaymentRow>("SELECT * FROM payments WHERE reservation_id = $1 AND status = 'PENDING'", [id])
    // Double click or a second tab: the same payment, unless the amount, the legs, the gateway or the wallet chosen changed since (or it cannot be resumed).
    const same =
      pending &&
      pending.amount === total &&
      pending.return_reservation_id === returnId &&
      pending.provider === provider &&
      (pending.asked_with ?? 'card') === askedWith
    if (pending && same && gateway.canReuse(pending, now)) {
      // This tab gets its own result token; the other tab's keeps working.
      await tx.query(
        `UPDATE payments SET result_token_hashes = (array_append(result_token_hashes, $2))[greatest(1, cardinality(result_token_hashes) + 2 - ${RESULT_TOKENS_KEPT}):] WHERE id = $1`,
        [pending.id, result.hash],
      )
      return { payment: pending, reused: true, resultToken: result.token }
    }
    if (pending) await declinePending(tx, id, now)
    if (total <= 0) throw new AppError('VALIDATION_FAILED', { reason: 'Nothing to pay by card: pay from balance.' })
    if (total < gateway.minAmount)
      throw new AppError('VALIDATION_FAILED', { reason: `Card payments start at ${gateway.minAmount} Tk: pay from balance.` })
    const [row] = await tx.query<PaymentRow>(
      `INSERT INTO payments (id, purpose, reservation_id, passenger_id, amount, created_at, provider, result_token_hashes, asked_with, return_reservation_id)
       VALUES ($1, 'RESERVATION', $2, $3, $4, $5, $6, ARRAY[$7], $8, $9) RETURNING *`,
      [newPaymentId(), id, passengerId, total, now, provider, result.hash, askedWith, returnId],
    )
    return { payment: row!, reused: false, resultToken: result.token }
  })
}

/** Opens a gateway payment of `amount` for ticket change `changeId` of ticket `reservationId`, with the result token of the tab that opens it. */
export async function openChangePayment(
  q: Queryable,
  gateway: PaymentGateway,
  req: { reservationId: number; changeId: number; passengerId: number; amount: number; now: Date; payWith: PayChoice },
): Promise<{ payment: PaymentRow; resultToken: string }> {
  if (req.amount < gateway.minAmount)
    throw new AppError('VALIDATION_FAILED', { reason: `Card payments start at ${gateway.minAmount} Tk: pay from balance.` })
  const result = newResultToken()
  const [payment] = await q.query<PaymentRow>(
    `INSERT INTO payments (id, purpose, reservation_id, change_id, passenger_id, amount, created_at, provider, result_token_hashes, asked_with)
     VALUES ($1, 'CHANGE', $2, $3, $4, $5, $6, $7, ARRAY[$8], $9) RETURNING *`,
    [newPaymentId(), req.reservationId, req.changeId, req.passengerId, req.amount, req.now, providerOf(gateway), result.hash, req.payWith],
  )
  return { payment: payment!, resultToken: result.token }
}

/** Opens a card payment that tops up the passenger's balance by `amount`, with the result token of the tab that opens it. */
export async function openTopUp(
  q: Queryable,
  gateway: PaymentGateway,
  req: { passengerId: number; amount: number; now: Date },
): Promise<{ payment: PaymentRow; resultToken: string }> {
  const result = newResultToken()
  const [payment] = await q.query<PaymentRow>(
    "INSERT INTO payments (id, purpose, passenger_id, amount, created_at, provider, result_token_hashes) VALUES ($1, 'TOP_UP', $2, $3, $4, $5, ARRAY[$6]) RETURNING *",
    [newPaymentId(), req.passengerId, req.amount, req.now, providerOf(gateway), result.hash],
  )
  return { payment: payment!, resultToken: result.token }
}

function providerOf(gateway: PaymentGateway): PaymentRow['provider'] {
  if (!gateway.provider) throw new AppError('PAYMENT_GATEWAY_UNAVAILABLE')
  return gateway.provider
}

/**
 * Pays the caller's live booking from their balance and sells it, with its ticket
 * messages, in one transaction: INSUFFICIENT_BALANCE, or the booking's errors. A round
 * trip's outbound is sold with its return leg, two tickets (lockPayableLegs: RETURN_SEATS_LOST).
 */
export async function payFromBalance(
  deps: Deps,
  req: { reservationId: number; passengerId: number; now: Date; outboundOnly?: boolean },
): Promise<void> {
  const { reservationId: id, passengerId, now } = req
  await expireBookings(deps.db, now, { reservationId: id })
  await deps.db.transaction(async (tx) => {
    // A card payment held for review may still be accepted: the ticket must not be paid twice.
    const r = await lockChangeableBooking(tx, id, passengerId, now)
    const legs = await lockPayableLegs(tx, r, now, req.outboundOnly ?? false)
    const total = legs.reduce((a, leg) => a + leg.total, 0)
    // A fully discounted booking has nothing to debit (the ledger takes positive amounts only).
    if (total > 0) {
      const balance = await debit(tx, {
        passengerId,
        amount: total,
        kind: 'TICKET_PAYMENT',
        description: `Ticket payment, booking ${legs.map((leg) => leg.id).join(' and ')}`,
        reservationId: r.id,
        at: now,
      })
      if (balance === null) throw new AppError('INSUFFICIENT_BALANCE')
    }
    for (const leg of legs) {
      if (!(await markSold(tx, leg.id, 'BALANCE', now))) throw new AppError('BOOKING_NOT_FOUND')
      // A card payment left open in another tab must not charge for a ticket already paid.
      await declinePending(tx, leg.id, now)
      await enqueueTicket(tx, deps, leg.id)
    }
  })
}

/**
 * Records the gateway's decision, only from PENDING. An approval for a booking that
 * is no longer payable is recorded as declined (the card is never charged).
 * Answers the payment after the decision.
 */
export async function decide(db: Db, id: string, approve: boolean, now: Date): Promise<PaymentRow> {
  const p = await findPayment(db, id)
  if (p.status !== 'PENDING') return p
  return db.transaction(async (tx) => {
    let ok = approve
    // A change's payment is checked when it is applied (applyChangePayment), which refunds it if the change ended.
    if (ok && p.reservation_id != null && p.purpose === 'RESERVATION') {
      const legs = await lockLegs(tx, p)
      ok = legsPayable(legs, p, now)
    }
    const rows = await tx.query<PaymentRow>("UPDATE payments SET status = $2, decided_at = $3 WHERE id = $1 AND status = 'PENDING' RETURNING *", [
      id,
      ok ? 'APPROVED' : 'DECLINED',
      now,
    ])
    return rows[0] ?? (await findPayment(tx, id))
  })
}

/** A reservation row as a payment's decision and confirmation read it. */
interface PaidLeg {
  id: number
  status: number
  total: number
  expiration_time: Date | null
  cancel_reason: string | null
  operator_reason: string | null
  operator_reason_bn: string | null
}

/** Row-locks the bookings payment `p` pays (outbound first, then a round trip's return leg); null when one is missing. */
async function lockLegs(tx: Queryable, p: PaymentRow): Promise<PaidLeg[] | null> {
  const ids = [p.reservation_id, p.return_reservation_id].filter((x): x is number => x != null)
  const rows: PaidLeg[] = []
  for (const id of ids) {
    const [r] = await tx.query<PaidLeg>(
      'SELECT id, status, total, expiration_time, cancel_reason, operator_reason, operator_reason_bn FROM reservations WHERE id = $1 FOR UPDATE',
      [id],
    )
    if (!r) return null
    rows.push(r)
  }
  return rows
}

/** Whether payment `p` may sell `legs`: every one still a live booking, and together what it charged. */
function legsPayable(legs: PaidLeg[] | null, p: PaymentRow, now: Date): boolean {
  if (!legs?.length) return false
  return legs.every((x) => bookingLive(x, now)) && legs.reduce((a, x) => a + x.total, 0) === p.amount
}

/**
 * Applies an approved payment exactly once: sells the booking (status `sold`, PNR, PIN) and
 * writes its ticket messages, or credits the top-up. If the booking was settled or
 * ended meanwhile (cancelled, expired), or its coupon can no longer be used (a once-only
 * coupon spent by another sale meanwhile), the amount goes back to the card (refunds.ts;
 * to the passenger's balance under REFUND_TO=balance): the card was charged, so the money
 * is never lost.
 */
export async function confirmPayment(deps: Deps, id: string): Promise<void> {
  const now = deps.now()
  const p = await findPayment(deps.db, id)
  if (p.status !== 'APPROVED' || p.confirmed_at) return
  await deps.db.transaction(async (tx) => {
    // Reservation rows first, then the payment: the order payFromBalance uses too.
    const legs = p.reservation_id != null ? await lockLegs(tx, p) : []
    const r = legs?.[0]
    const won = await tx.query<PaymentRow>(
      "UPDATE payments SET confirmed_at = $2 WHERE id = $1 AND confirmed_at IS NULL AND status = 'APPROVED' RETURNING *",
      [id, now],
    )
    if (won.length === 0) return null
    if (p.purpose === 'CHANGE') {
      await applyChangePayment(tx, deps, won[0]!, now)
      return null
    }
    if (p.purpose === 'TOP_UP') {
      await credit(tx, {
        passengerId: p.passenger_id,
        amount: p.amount,
        kind: 'TOP_UP',
        description: 'Balance top-up by card',
        reservationId: null,
        at: now,
      })
      return null
    }
    // Only a live booking is sold: past its time its seats may already be held by someone else. A charge
    // for another amount (the fare changed while the passenger was at the gateway) does not pay it either.
    // A round trip is sold whole or not at all: a return leg lost at the gateway refunds both.
    const live = legsPayable(legs, p, now)
    let why: { reason: LedgerReason; description: string } = { reason: 'BOOKING_ENDED', description: 'Card payment received after the booking ended' }
    if (live && legs) {
      // A coupon refused at sale time undoes the sale only, not the refund below.
      await tx.query('SAVEPOINT sale')
      try {
        let sold = 0
        for (const leg of legs) if (await markSold(tx, leg.id, 'CARD', now)) sold++
        if (sold === legs.length) {
          for (const leg of legs) {
            // Another card payment left open in another tab must not charge for this ticket too.
            await declinePending(tx, leg.id, now)
            await enqueueTicket(tx, deps, leg.id)
          }
          return legs[0]!.id
        }
        await tx.query('ROLLBACK TO SAVEPOINT sale')
      } catch (err) {
        if (!(err instanceof AppError && err.code.startsWith('COUPON_'))) throw err
        await tx.query('ROLLBACK TO SAVEPOINT sale')
        // The booking stays payable at its full fare; the refund pays most of it.
        for (const leg of legs) await setCoupon(tx, leg.id, null)
        why = { reason: 'COUPON_REFUSED', description: 'Card payment refunded: the coupon could no longer be used' }
      }
    }
    const toCard = refundsToCard(deps)
    if (toCard) {
      await queueCardRefund(tx, won[0]!, { amount: p.amount, reason: why.reason, reservationId: p.reservation_id, now })
    } else {
      await credit(tx, {
        passengerId: p.passenger_id,
        amount: p.amount,
        kind: 'REFUND',
        ...why,
        reservationId: p.reservation_id,
        at: now,
      })
      await tx.query('UPDATE payments SET refunded = true WHERE id = $1', [id])
    }
    // The passenger paid for a trip the operator had cancelled meanwhile: told once, in the transaction that won the payment.
    if (r && r.status === reservationStatus.canceled && r.cancel_reason === 'TRIP_CANCELED') {
      await enqueueTripChangeNotice(tx, deps, r.id, {
        kind: 'latePayment',
        reason: { en: r.operator_reason ?? '', bn: r.operator_reason_bn },
        refund: p.amount,
        refundTo: toCard ? 'CARD' : 'BALANCE',
      })
    }
    return null
  })
  nudgeRefunds(deps)
}

/**
 * The payment as the success and failure pages read it: in full (the booking with its PNR,
 * PIN and mobile, the balance) only for `who` allowed by mayReadResult; anyone else who
 * knows the payment id gets its status alone (`reservation` and `balance` null, `full` false).
 */
export async function paymentResult(q: Queryable, id: string, who: ResultAsker): Promise<PaymentResult> {
  const p = await findPayment(q, id)
  const status = { paymentId: p.id, status: p.status, purpose: p.purpose, amount: p.amount }
  if (!mayReadResult(p, who)) return { ...status, full: false, reservation: null, balance: null }
  const reservation = p.reservation_id != null ? await loadReservation(q, p.reservation_id) : null
  const [bal] = await q.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [p.passenger_id])
  return { ...status, full: true, reservation, balance: bal ? Number(bal.balance) : null }
}

/**
 * Where the gateway sends the browser after a decision, on the app's origin `base`
 * ('' for the same origin). Pending and review go to the success page, which says
 * the payment is being confirmed or reviewed.
 */
export function resultUrl(p: PaymentRow, base = ''): string {
  const id = encodeURIComponent(p.id)
  const ok = p.status !== 'DECLINED'
  if (p.purpose === 'TOP_UP') return `${base}/profile?topUp=${id}&result=${ok ? 'success' : 'failure'}`
  // a change's payment goes back to the ticket, which shows the trip it is on now
  if (p.purpose === 'CHANGE') return `${base}/ticket-operation?reservationId=${p.reservation_id}&change=${ok ? 'success' : 'failure'}`
  return `${base}/reservation/${ok ? 'success' : 'failure'}?paymentId=${id}`
}

/** What a real gateway established about a payment, after checking its answer against our row. */
export type GatewayFinding =
  | {
      outcome: 'paid'
      valId: string
      gatewayStatus: string
      riskLevel: number
      /** What a refund to the card will need (SSLCommerz: bank_tran_id, amount, store_amount). */
      bankTranId?: string | null
      gatewayAmount?: string | null
      storeAmount?: string | null
      /** Where the money came from, from the gateway's own answer (SSLCommerz: card_brand, card_type), and its card_issuer. */
      paidWith?: PaySource | null
      paidIssuer?: string | null
    }
  | { outcome: 'declined'; reason: string; valId?: string | null; gatewayStatus?: string | null }

// A finding may still change a payment that is pending, or one we declined (a stale amount,
// the booking paid another way, the passenger gave up) that no operator reviewed and nothing applied:
// money the gateway took for it must reach the passenger.
const OPEN_TO_FINDINGS = "(status = 'PENDING' OR (status = 'DECLINED' AND reviewed_at IS NULL AND confirmed_at IS NULL))"

/**
 * Records what the gateway said, exactly once whatever the number of callbacks and
 * processes: paid and safe → APPROVED, then sold or credited by confirmPayment; paid
 * but risky (risk_level 1) → REVIEW, nothing sold or credited, a booking's seats held
 * until departure; declined → DECLINED with the reason (only from PENDING).
 */
export async function applyFinding(deps: Deps, id: string, f: GatewayFinding): Promise<PaymentRow> {
  const now = deps.now()
  if (f.outcome === 'declined') {
    await deps.db.query(
      `UPDATE payments SET status = 'DECLINED', decided_at = $2, decline_reason = $3,
              gateway_val_id = coalesce($4, gateway_val_id), gateway_status = coalesce($5, gateway_status)
        WHERE id = $1 AND status = 'PENDING'`,
      [id, now, f.reason.slice(0, 500), f.valId ?? null, f.gatewayStatus ?? null],
    )
    return findPayment(deps.db, id)
  }
  if (f.riskLevel === 1) {
    await deps.db.transaction(async (tx) => {
      const [p] = await tx.query<{ reservation_id: number | null }>('SELECT reservation_id FROM payments WHERE id = $1', [id])
      // Reservation row first, then the payment: the order confirmPayment uses too.
      const [r] =
        p?.reservation_id != null
          ? await tx.query<{ id: number; status: number; expiration_time: Date | null; trip_id: number }>(
              'SELECT id, status, expiration_time, trip_id FROM reservations WHERE id = $1 FOR UPDATE',
              [p.reservation_id],
            )
          : []
      const won = await tx.query(
        `UPDATE payments SET status = 'REVIEW', decided_at = $2, gateway_val_id = $3, gateway_status = $4, risk_level = 1, decline_reason = NULL,
                bank_tran_id = $5, gateway_amount = $6, store_amount = $7, paid_with = $8, paid_issuer = $9
          WHERE id = $1 AND ${OPEN_TO_FINDINGS} RETURNING id`,
        [
          id,
          now,
          f.valId,
          f.gatewayStatus,
          f.bankTranId ?? null,
          f.gatewayAmount ?? null,
          f.storeAmount ?? null,
          f.paidWith ?? null,
          f.paidIssuer ?? null,
        ],
      )
      if (won.length === 1 && r && bookingLive(r, now)) {
        // The seats stay with the booking while an operator decides, at the latest until departure.
        await tx.query(
          'UPDATE reservations SET expiration_time = greatest(expiration_time, (SELECT departure_at FROM trips WHERE id = $2)) WHERE id = $1',
          [r.id, r.trip_id],
        )
      }
    })
    return findPayment(deps.db, id)
  }
  await deps.db.query(
    `UPDATE payments SET status = 'APPROVED', decided_at = $2, gateway_val_id = $3, gateway_status = $4, risk_level = $5, decline_reason = NULL,
            bank_tran_id = $6, gateway_amount = $7, store_amount = $8, paid_with = $9, paid_issuer = $10
      WHERE id = $1 AND ${OPEN_TO_FINDINGS}`,
    [
      id,
      now,
      f.valId,
      f.gatewayStatus,
      f.riskLevel,
      f.bankTranId ?? null,
      f.gatewayAmount ?? null,
      f.storeAmount ?? null,
      f.paidWith ?? null,
      f.paidIssuer ?? null,
    ],
  )
  await confirmPayment(deps, id)
  return findPayment(deps.db, id)
}

/** Payments held for review, oldest first (for the operator). */
export async function paymentsUnderReview(q: Queryable): Promise<PaymentRow[]> {
  return q.query<PaymentRow>("SELECT * FROM payments WHERE status = 'REVIEW' ORDER BY created_at, id")
}

/**
 * An operator accepts a payment held for review: it is applied like any approved one
 * (the booking sold, or the amount credited to the balance). Answers the payment;
 * one that is not under review is left as it is.
 */
export async function approveReviewedPayment(deps: Deps, id: string): Promise<PaymentRow> {
  await deps.db.query("UPDATE payments SET status = 'APPROVED', reviewed_at = $2 WHERE id = $1 AND status = 'REVIEW'", [id, deps.now()])
  await confirmPayment(deps, id)
  return findPayment(deps.db, id)
}

/**
 * An operator refuses a payment held for review: nothing is sold or credited and the
 * booking's seats are released now; the card is refunded through the gateway's refund API
 * (refunds.ts), or under REFUND_TO=balance by the operator from the gateway's panel.
 */
export async function declineReviewedPayment(deps: Deps, id: string, reason: string): Promise<PaymentRow> {
  const now = deps.now()
  await deps.db.transaction(async (tx) => {
    const [p] = await tx.query<{ reservation_id: number | null }>('SELECT reservation_id FROM payments WHERE id = $1', [id])
    const [r] =
      p?.reservation_id != null
        ? await tx.query<{ id: number; status: number }>('SELECT id, status FROM reservations WHERE id = $1 FOR UPDATE', [p.reservation_id])
        : []
    const won = await tx.query(
      "UPDATE payments SET status = 'DECLINED', reviewed_at = $2, decided_at = $2, decline_reason = $3 WHERE id = $1 AND status = 'REVIEW' RETURNING id",
      [id, now, `review: ${reason}`.slice(0, 500)],
    )
    if (won.length === 1 && r && r.status === reservationStatus.booked) {
      await tx.query('UPDATE reservations SET expiration_time = least(expiration_time, $2) WHERE id = $1', [r.id, now])
      await expireBookings(tx, now, { reservationId: r.id })
    }
    if (won.length === 1 && refundsToCard(deps)) {
      const declined = await findPayment(tx, id)
      await queueCardRefund(tx, declined, { amount: declined.amount, reason: 'REVIEW_DECLINED', reservationId: declined.reservation_id, now })
    }
  })
  nudgeRefunds(deps)
  return findPayment(deps.db, id)
}
