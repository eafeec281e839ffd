/**
 * Refunds to the card. Money paid by card goes back to the card through the gateway that
 * took it (SSLCommerz's refund API, or the sandbox in development), balance payments go
 * back to the balance; REFUND_TO=balance keeps every refund on the balance.
 *
 * A refund is a `refunds` row, written in the transaction that cancels the ticket (or
 * declines the payment), with a unique payment_id: a payment is refunded once, to the card
 * or to the balance, never both. The row's id is the refund_trans_id sent to the gateway,
 * the same on every retry from any process, so the gateway refunds once as well.
 * PENDING → SENT (accepted, refund_ref_id) → DONE | FAILED. The worker (`refundPass`,
 * started by startGatewayJobs) claims due rows with FOR UPDATE SKIP LOCKED and a lease, so
 * processes sharing the database split them; a refusal or an outage is tried again after
 * REFUND_RETRY_SECONDS, doubling, and after REFUND_MAX_ATTEMPTS the refund is FAILED and
 * listed for the operator (`npm run trip -- refunds`), who sends it back to the worker
 * (`retryRefund`) or records it as refunded by hand (`recordManualRefund`).
 */
import crypto from 'node:crypto'
import type { LedgerReason, RefundInfo } from '../../contract/schemas.ts'
import { credit } from '../account/ledger.ts'
import type { Queryable } from '../db/db.ts'
import type { Deps } from '../core.ts'
import { redactPaymentId as ref } from '../http/redact.ts'
import { addTime, dhakaIsoOrNull } from '../lib/time.ts'
import type { Refunder, RefundOutcome } from './gateways/gateway.ts'
import { GatewayUnavailableError } from './gateways/sslcommerz-api.ts'
import type { PaymentRow } from './payment-row.ts'
import type { RefundTo } from '../delivery/ticket-messages.ts'

/** Why money is refunded. */
export type RefundReason = 'TICKET_CANCELED' | 'TRIP_CANCELED' | 'REVIEW_DECLINED' | 'BOOKING_ENDED' | 'COUPON_REFUSED' | 'TICKET_CHANGED'

/** A refunds row. */
export interface RefundRow {
  id: string
  payment_id: string
  reservation_id: number | null
  passenger_id: number | null
  provider: PaymentRow['provider']
  amount: number
  reason: RefundReason
  status: 'PENDING' | 'SENT' | 'DONE' | 'FAILED'
  refund_ref_id: string | null
  attempts: number
  next_attempt_at: Date
  lease_until: Date | null
  last_error: string | null
  created_at: Date
  sent_at: Date | null
  done_at: Date | null
  /** The operator's reference of a refund done by hand (npm run trip -- refund-done), and who did it. */
  manual_ref: string | null
  manual_by: string | null
  /** Retries after the gateway had accepted and then cancelled it: each needs a new refund_trans_id there. */
  retry_round: number
  /** Who last sent a FAILED refund back to the worker (npm run trip -- refund-retry). */
  retried_by: string | null
  /** Which refund of the payment this is (migration 052): one cancel split over payments writes the same part to each. */
  part: number
}

/** Where a refund went. */
export type RefundDestination = 'CARD' | 'BALANCE'

const newRefundId = () => 'rf_' + crypto.randomBytes(12).toString('base64url')

/** Whether refunds go to the card (REFUND_TO, default card). */
export const refundsToCard = (deps: Deps) => (deps.config.refundTo ?? 'card') === 'card'

/**
 * Writes, in `tx`, the refund of `amount` of card payment `payment` to its card. Answers false
 * when the payment already has its refund (a second cancel, another process): nothing is written.
 */
export async function queueCardRefund(
  tx: Queryable,
  payment: PaymentRow,
  req: { amount: number; reason: RefundReason; reservationId: number | null; now: Date; part?: number },
): Promise<boolean> {
  if (req.amount <= 0 || req.amount > payment.amount) return false
  // Parts of one payment (partial cancels) are written one at a time, and never sum past what it took.
  await tx.query('SELECT id FROM payments WHERE id = $1 FOR UPDATE', [payment.id])
  const [sum] = await tx.query<{ refunded: number }>('SELECT coalesce(sum(amount), 0)::int AS refunded FROM refunds WHERE payment_id = $1', [
    payment.id,
  ])
  if ((sum?.refunded ?? 0) + req.amount > payment.amount) return false
  const rows = await tx.query(
    `INSERT INTO refunds (id, payment_id, reservation_id, passenger_id, provider, amount, reason, next_attempt_at, created_at, part)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9) ON CONFLICT (payment_id, part) DO NOTHING RETURNING id`,
    [newRefundId(), payment.id, req.reservationId, payment.passenger_id, payment.provider, req.amount, req.reason, req.now, req.part ?? 0],
  )
  if (rows.length === 1) await tx.query('UPDATE payments SET refunded = true WHERE id = $1', [payment.id])
  return rows.length === 1
}

/** Where the money of reservation `id`'s gateway payment came from (validation's answer; 'card' for payments from before), or null. */
export async function paidWithOf(q: Queryable, id: number): Promise<PaymentRow['paid_with']> {
  const [p] = await q.query<{ paid_with: PaymentRow['paid_with'] }>(
    `SELECT coalesce(paid_with, 'card') AS paid_with FROM payments
      WHERE (reservation_id = $1 OR return_reservation_id = $1) AND status = 'APPROVED' AND confirmed_at IS NOT NULL ORDER BY confirmed_at DESC LIMIT 1`,
    [id],
  )
  return p?.paid_with ?? null
}

/** Where cancelling `r` would send its refund: the card it was paid with (REFUND_TO=card), else the balance. */
export function refundDestination(deps: Deps, r: { payment_method: 'CARD' | 'BALANCE' | null }): RefundDestination {
  return r.payment_method === 'CARD' && refundsToCard(deps) ? 'CARD' : 'BALANCE'
}

/** One part of a ticket's refund: `amount` back to a gateway payment (`payment`), or to the balance (`payment` null). */
export interface RefundPart {
  payment: PaymentRow | null
  amount: number
}

/**
 * How `amount` of ticket `r`'s refund splits (REFUND_TO=card): back to its gateway payments (its date changes'
 * differences, latest first, then the ticket's own), never more than each took less its refunds; the rest (a
 * difference paid from the balance, or REFUND_TO=balance) to the account holder's balance (none for a guest).
 * `lock`: the payments are locked FOR UPDATE (inside the transaction that refunds).
 */
export async function refundSplit(
  q: Queryable,
  deps: Deps,
  r: { id: number; passenger_id: number | null },
  amount: number,
  lock = false,
): Promise<RefundPart[]> {
  const parts: RefundPart[] = []
  if (amount <= 0) return parts
  let left = amount
  if (refundsToCard(deps)) {
    const payments = await q.query<PaymentRow>(
      `SELECT * FROM payments WHERE (reservation_id = $1 OR return_reservation_id = $1) AND purpose IN ('RESERVATION', 'CHANGE')
          AND status = 'APPROVED' AND confirmed_at IS NOT NULL
          -- refunded to the balance in full (REFUND_TO=balance then): nothing of it left for the card
          AND NOT (refunded AND NOT EXISTS (SELECT 1 FROM refunds f WHERE f.payment_id = payments.id))
        ORDER BY purpose = 'RESERVATION', confirmed_at DESC, id${lock ? ' FOR UPDATE' : ''}`,
      [r.id],
    )
    for (const payment of payments) {
      if (left <= 0) break
      // read after the payment's lock: another cancel's refund of it is counted
      const [sum] = await q.query<{ refunded: number }>('SELECT coalesce(sum(amount), 0)::int AS refunded FROM refunds WHERE payment_id = $1', [
        payment.id,
      ])
      const part = Math.min(left, payment.amount - (sum?.refunded ?? 0))
      if (part <= 0) continue
      parts.push({ payment, amount: part })
      left -= part
    }
  }
  if (left > 0 && r.passenger_id != null) parts.push({ payment: null, amount: left })
  return parts
}

/**
 * Refunds `amount` of a paid ticket, in `tx` (the transaction that cancels it), as refundSplit splits it.
 * Answers where the money goes, for the passenger's messages: the card or the balance, each place and its part
 * when it is split between places, or null when nothing is refunded (nothing to refund, or a guest's ticket under
 * REFUND_TO=balance).
 */
export async function refundTicket(
  tx: Queryable,
  deps: Deps,
  r: { id: number; passenger_id: number | null; pnr: string | null; payment_method: 'CARD' | 'BALANCE' | null },
  req: { amount: number; reason: 'TICKET_CANCELED' | 'TRIP_CANCELED' | 'TICKET_CHANGED'; description: string; now: Date; part?: number },
): Promise<RefundTo> {
  const parts = await refundSplit(tx, deps, r, req.amount, true)
  const cards = parts.filter((x) => x.payment)
  // A round trip's return ticket refunds through the payment of both legs: its refunds are a part of their own.
  const part = req.part ?? (cards.some((x) => x.payment!.reservation_id !== r.id) ? -r.id : 0)
  for (const x of cards) await queueCardRefund(tx, x.payment!, { amount: x.amount, reason: req.reason, reservationId: r.id, now: req.now, part })
  const toBalance = parts.find((x) => !x.payment)
  if (toBalance) {
    await credit(tx, {
      passengerId: r.passenger_id!,
      amount: toBalance.amount,
      kind: 'REFUND',
      reason: req.reason satisfies LedgerReason,
      description: req.description,
      reservationId: r.id,
      at: req.now,
    })
  }
  const places = refundPartsView(parts)
  if (places.length > 1) return places.map((x) => ({ place: x.paidWith ?? 'BALANCE', amount: x.amount }))
  return cards.length > 0 ? 'CARD' : toBalance ? 'BALANCE' : null
}

/**
 * Where a quoted refund of `amount` of ticket `r` would go, as a quote answers it (cancelInitialize, changeQuote): each
 * place and its part, the card when any part goes back to one (with what paid it), else the balance; with nothing to
 * refund, where a refund of this ticket would go.
 */
export async function quotedRefundPlaces(
  q: Queryable,
  deps: Deps,
  r: { id: number; passenger_id: number | null; payment_method: 'CARD' | 'BALANCE' | null },
  amount: number,
) {
  const parts = refundPartsView(await refundSplit(q, deps, r, amount))
  const card = parts.find((x) => x.to === 'CARD')
  if (parts.length === 0) {
    const refundTo = refundDestination(deps, r)
    return { refundTo, paidWith: refundTo === 'CARD' ? await paidWithOf(q, r.id) : null, refundParts: parts }
  }
  return { refundTo: card ? ('CARD' as const) : ('BALANCE' as const), paidWith: card?.paidWith ?? null, refundParts: parts }
}

/** The parts of a refund as the contract names them (cancelInitializeResponse.refundParts): the same place's parts together. */
export function refundPartsView(parts: RefundPart[]): { to: RefundDestination; amount: number; paidWith: PaymentRow['paid_with'] }[] {
  const out: { to: RefundDestination; amount: number; paidWith: PaymentRow['paid_with'] }[] = []
  for (const x of parts) {
    const to: RefundDestination = x.payment ? 'CARD' : 'BALANCE'
    const paidWith = x.payment ? (x.payment.paid_with ?? 'card') : null
    const same = out.find((o) => o.to === to && o.paidWith === paidWith)
    if (same) same.amount += x.amount
    else out.push({ to, amount: x.amount, paidWith })
  }
  return out
}

/** The refund of each reservation as the passenger sees it (its latest refund to the card, all its payments' parts summed; else a balance refund). */
export async function refundInfos(
  q: Queryable,
  rows: { id: number; status: number; passenger_id: number | null; refund_amount: number | null; canceled_at: Date | null }[],
): Promise<Map<number, RefundInfo>> {
  const out = new Map<number, RefundInfo>()
  if (rows.length === 0) return out
  const refunds = await q.query<RefundRow>('SELECT * FROM refunds WHERE reservation_id = ANY($1::int[]) ORDER BY created_at, id', [
    rows.map((r) => r.id),
  ])
  const rank = { REFUNDED: 0, PROCESSING: 1, FAILED: 2 } as const
  const writtenAt = new Map<number, string>()
  for (const f of refunds) {
    const id = f.reservation_id!
    const own = f.status === 'DONE' ? 'REFUNDED' : f.status === 'FAILED' ? 'FAILED' : 'PROCESSING'
    const doneAt = dhakaIsoOrNull(f.done_at)
    // One cancel's refund split over two payments (a date change's and the ticket's) is one refund to the passenger.
    const prev = writtenAt.get(id) === `${f.created_at.getTime()}:${f.part}` ? out.get(id) : undefined
    const status = prev && rank[prev.status] > rank[own] ? prev.status : own
    const later = prev?.refundedAt && doneAt && prev.refundedAt > doneAt ? prev.refundedAt : doneAt
    out.set(id, { to: 'CARD', amount: f.amount + (prev?.amount ?? 0), status, refundedAt: status === 'REFUNDED' ? later : null })
    writtenAt.set(id, `${f.created_at.getTime()}:${f.part}`)
  }
  for (const r of rows) {
    if (out.has(r.id) || !r.refund_amount || r.refund_amount <= 0 || r.passenger_id == null || !r.canceled_at) continue
    out.set(r.id, { to: 'BALANCE', amount: r.refund_amount, status: 'REFUNDED', refundedAt: dhakaIsoOrNull(r.canceled_at) })
  }
  return out
}

/** Every refund with its ticket's PNR: FAILED first, then PENDING, SENT (processing at the gateway) and DONE; oldest first in each. */
export async function allRefunds(
  q: Queryable,
): Promise<(RefundRow & { pnr: string | null; paid_with: PaymentRow['paid_with']; paid_issuer: string | null })[]> {
  return q.query<RefundRow & { pnr: string | null; paid_with: PaymentRow['paid_with']; paid_issuer: string | null }>(
    `SELECT f.*, x.pnr, p.paid_with, p.paid_issuer FROM refunds f LEFT JOIN reservations x ON x.id = f.reservation_id
       LEFT JOIN payments p ON p.id = f.payment_id
      ORDER BY array_position(ARRAY['FAILED', 'PENDING', 'SENT', 'DONE'], f.status), f.created_at, f.id`,
  )
}

/** The refund_trans_id sent to the gateway: the refund's id, with its retry round once the gateway had cancelled it. */
export const refundTransId = (f: Pick<RefundRow, 'id' | 'retry_round'>) => (f.retry_round > 0 ? `${f.id}-${f.retry_round}` : f.id)

/** Why the operator's change to a refund was not made. */
export type RefundChangeRefusal = 'NOT_FOUND' | 'NOT_FAILED'

/**
 * Sends FAILED refund `id` back to the worker: tried again from its first attempt (a refund the
 * gateway had accepted and then cancelled goes with a new refund_trans_id). Answers the row, or why not.
 */
export async function retryRefund(q: Queryable, id: string, by: string, now: Date): Promise<RefundRow | RefundChangeRefusal> {
  const [row] = await q.query<RefundRow>(
    `UPDATE refunds SET status = 'PENDING', attempts = 0, next_attempt_at = $2, lease_until = NULL, retried_by = $3,
            retry_round = retry_round + (refund_ref_id IS NOT NULL)::int, refund_ref_id = NULL, sent_at = NULL
      WHERE id = $1 AND status = 'FAILED' RETURNING *`,
    [id, now, by],
  )
  return row ?? (await refusal(q, id))
}

/**
 * Records FAILED refund `id` as done by hand (a bank transfer, the gateway's own panel): DONE, with
 * the operator's reference and name, so neither the worker nor a retry sends it again.
 */
export async function recordManualRefund(
  q: Queryable,
  id: string,
  req: { reference: string; by: string; now: Date },
): Promise<RefundRow | RefundChangeRefusal> {
  const [row] = await q.query<RefundRow>(
    `UPDATE refunds SET status = 'DONE', done_at = $2, manual_ref = $3, manual_by = $4, lease_until = NULL
      WHERE id = $1 AND status = 'FAILED' RETURNING *`,
    [id, req.now, req.reference, req.by],
  )
  return row ?? (await refusal(q, id))
}

async function refusal(q: Queryable, id: string): Promise<RefundChangeRefusal> {
  const [known] = await q.query('SELECT 1 FROM refunds WHERE id = $1', [id])
  return known ? 'NOT_FAILED' : 'NOT_FOUND'
}

/** How long a claimed refund is reserved for the process working on it. */
const LEASE_MS = 120_000
/** Refunds claimed per pass. */
const BATCH = 20

/** The gateway that refunds payments of `provider`, or null when it is not configured here. */
export type RefunderFor = (provider: PaymentRow['provider']) => Refunder | null

/**
 * One pass over the refunds due: each is sent to its gateway, or its state asked. Answers how
 * many were looked at. Safe in any number of processes (claimed rows are leased).
 */
export async function refundPass(deps: Deps, refunderFor: RefunderFor, log: (line: string) => void = (l) => console.warn(l)): Promise<number> {
  const now = deps.now()
  const claimed = await deps.db.query<RefundRow>(
    `UPDATE refunds SET lease_until = $2 WHERE id IN (
       SELECT id FROM refunds
        WHERE status IN ('PENDING', 'SENT') AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
        ORDER BY next_attempt_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
     RETURNING *`,
    [now, addTime(now, { milliseconds: LEASE_MS })],
  )
  for (const f of claimed) {
    try {
      await work(deps, f, refunderFor, log)
    } catch (err) {
      log(`[refunds] refund ${f.id}: ${(err as Error).message}`)
      await retryLater(deps, f, (err as Error).message.slice(0, 300), log)
    }
  }
  return claimed.length
}

async function work(deps: Deps, f: RefundRow, refunderFor: RefunderFor, log: (line: string) => void): Promise<void> {
  const refunder = refunderFor(f.provider)
  if (!refunder) {
    await retryLater(deps, f, `the ${f.provider} gateway is not configured on this server`, log)
    return
  }
  let outcome: RefundOutcome
  try {
    if (f.status === 'SENT' && f.refund_ref_id) outcome = await refunder.status(f.refund_ref_id)
    else {
      const [payment] = await deps.db.query<PaymentRow>('SELECT * FROM payments WHERE id = $1', [f.payment_id])
      if (!payment) throw new Error('its payment is gone')
      outcome = await refunder.refund({ refundId: refundTransId(f), payment, amount: f.amount, remarks: remarks(f) })
    }
  } catch (err) {
    if (!(err instanceof GatewayUnavailableError)) throw err
    if (f.status === 'SENT') await pollLater(deps, f)
    else await retryLater(deps, f, err.message, log)
    return
  }
  const now = deps.now()
  if (outcome.state === 'done') {
    await deps.db.query(
      `UPDATE refunds SET status = 'DONE', done_at = $2, refund_ref_id = coalesce($3, refund_ref_id), lease_until = NULL, last_error = NULL
        WHERE id = $1 AND status IN ('PENDING', 'SENT')`,
      [f.id, outcome.at ?? now, outcome.refundRefId],
    )
    log(`[refunds] refund ${f.id} of payment ${ref(f.payment_id)}: ${f.amount} Tk refunded`)
  } else if (outcome.state === 'sent') {
    await deps.db.query(
      `UPDATE refunds SET status = 'SENT', refund_ref_id = $2, sent_at = coalesce(sent_at, $3), next_attempt_at = $4, lease_until = NULL, last_error = NULL
        WHERE id = $1 AND status IN ('PENDING', 'SENT')`,
      [f.id, outcome.refundRefId, now, addTime(now, { milliseconds: retryMs(deps, 0) })],
    )
  } else if (outcome.state === 'processing') {
    await pollLater(deps, f)
  } else if (outcome.final) {
    await fail(deps, f, outcome.reason, log)
  } else {
    await retryLater(deps, f, outcome.reason, log)
  }
}

function remarks(f: RefundRow): string {
  const why: Record<RefundReason, string> = {
    TICKET_CANCELED: 'Ticket cancelled',
    TRIP_CANCELED: 'Trip cancelled by the operator',
    REVIEW_DECLINED: 'Payment declined under review',
    BOOKING_ENDED: 'Payment received after the booking ended',
    COUPON_REFUSED: 'Coupon could no longer be used',
    TICKET_CHANGED: 'Ticket changed to a cheaper trip',
  }
  return `${why[f.reason]}${f.reservation_id != null ? `, booking ${f.reservation_id}` : ''}`
}

const retryMs = (deps: Deps, attempt: number) => (deps.config.refundRetrySeconds ?? 60) * 1000 * 2 ** Math.min(attempt, 10)

/** The refund was refused or could not be sent: tried again later, FAILED after REFUND_MAX_ATTEMPTS. */
async function retryLater(deps: Deps, f: RefundRow, why: string, log: (line: string) => void): Promise<void> {
  const attempts = f.attempts + 1
  if (attempts >= (deps.config.refundMaxAttempts ?? 5)) {
    await fail(deps, f, why, log, attempts)
    return
  }
  const now = deps.now()
  await deps.db.query(
    `UPDATE refunds SET attempts = $2, last_error = $3, next_attempt_at = $4, lease_until = NULL WHERE id = $1 AND status IN ('PENDING', 'SENT')`,
    [f.id, attempts, why.slice(0, 500), addTime(now, { milliseconds: retryMs(deps, attempts - 1) })],
  )
}

async function pollLater(deps: Deps, f: RefundRow): Promise<void> {
  await deps.db.query(`UPDATE refunds SET next_attempt_at = $2, lease_until = NULL WHERE id = $1 AND status = 'SENT'`, [
    f.id,
    addTime(deps.now(), { milliseconds: retryMs(deps, 0) }),
  ])
}

async function fail(deps: Deps, f: RefundRow, why: string, log: (line: string) => void, attempts = f.attempts + 1): Promise<void> {
  await deps.db.query(
    `UPDATE refunds SET status = 'FAILED', attempts = $2, last_error = $3, done_at = NULL, lease_until = NULL WHERE id = $1 AND status IN ('PENDING', 'SENT')`,
    [f.id, attempts, why.slice(0, 500)],
  )
  log(`[refunds] refund ${f.id} of payment ${ref(f.payment_id)} (${f.amount} Tk) FAILED: ${why}; the operator refunds it by hand`)
}

const nudges = new WeakMap<Deps, () => void>()

/** Registers the worker of `deps` so a cancel can start a pass at once (startRefundWorker). */
export function onRefundQueued(deps: Deps, run: () => void): () => void {
  nudges.set(deps, run)
  return () => nudges.delete(deps)
}

/** Starts a refund pass now in this process, if a worker runs here (after a cancel commits). */
export function nudgeRefunds(deps: Deps): void {
  nudges.get(deps)?.()
}
