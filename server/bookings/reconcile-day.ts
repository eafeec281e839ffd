/**
 * The daily reconciliation (`npm run trip -- reconcile`): one Asia/Dhaka day's SSLCommerz card
 * payments and refunds, compared with what SSLCommerz's own APIs say about each. SSLCommerz has
 * no API that lists a day's transactions, so every payment started, decided or confirmed that
 * day is asked by its tran_id (the transaction query), and every refund created, accepted or
 * finished that day by its refund_ref_id (the refund query). Each disagreement is a difference;
 * a question SSLCommerz did not answer is one too (it cannot be said to agree).
 */
import type { Queryable } from '../db/db.ts'
import { addDays, dhakaDayStart } from '../lib/time.ts'
import { GatewayUnavailableError, type SslcommerzApi, type SslTransaction } from './gateways/sslcommerz-api.ts'
import type { PaymentRow } from './payment-row.ts'
import type { RefundRow } from './refunds.ts'

/** One disagreement between our records and SSLCommerz's. */
export interface Difference {
  kind: 'payment' | 'refund'
  /** Our payment id (the tran_id sent to SSLCommerz) or refund id. */
  id: string
  amount: number
  /** Our state. */
  ours: string
  /** What SSLCommerz answered. */
  gateway: string
  /** What it means for the operator. */
  note: string
}

/** What a reconciliation found. */
export interface Reconciliation {
  date: string
  payments: number
  refunds: number
  differences: Difference[]
}

const PAID = new Set(['VALID', 'VALIDATED'])

/** Compares Dhaka day `date`'s SSLCommerz payments and refunds in `q` with what `api` answers about each. */
export async function reconcileDay(q: Queryable, api: Pick<SslcommerzApi, 'queryByTranId' | 'refundQuery'>, date: string): Promise<Reconciliation> {
  const from = dhakaDayStart(date)
  const to = dhakaDayStart(addDays(date, 1))
  const inDay = (col: string) => `(${col} >= $1 AND ${col} < $2)`
  const payments = await q.query<PaymentRow & { has_refund: boolean }>(
    `SELECT p.*, EXISTS (SELECT 1 FROM refunds f WHERE f.payment_id = p.id) AS has_refund FROM payments p
      WHERE p.provider = 'sslcommerz' AND (${inDay('p.created_at')} OR ${inDay('p.decided_at')} OR ${inDay('p.confirmed_at')})
      ORDER BY p.created_at, p.id`,
    [from, to],
  )
  const refunds = await q.query<RefundRow>(
    `SELECT * FROM refunds WHERE provider = 'sslcommerz' AND (${inDay('created_at')} OR ${inDay('sent_at')} OR ${inDay('done_at')})
      ORDER BY created_at, id`,
    [from, to],
  )
  const differences: Difference[] = []
  for (const p of payments) {
    let txs: SslTransaction[]
    try {
      txs = await api.queryByTranId(p.id)
    } catch (err) {
      if (!(err instanceof GatewayUnavailableError)) throw err
      differences.push({
        kind: 'payment',
        id: p.id,
        amount: p.amount,
        ours: p.status,
        gateway: 'no answer',
        note: `run again later (${err.message})`,
      })
      continue
    }
    const d = paymentDifference(
      p,
      txs.filter((t) => t.tran_id === p.id && PAID.has(t.status ?? '')),
    )
    if (d) differences.push({ kind: 'payment', id: p.id, amount: p.amount, ...d })
  }
  for (const f of refunds) {
    if (!f.refund_ref_id) continue
    let status: string
    let on: string | null
    try {
      const answer = await api.refundQuery(f.refund_ref_id)
      status = answer.status || 'no status'
      on = answer.refundedOn
    } catch (err) {
      if (!(err instanceof GatewayUnavailableError)) throw err
      differences.push({ kind: 'refund', id: f.id, amount: f.amount, ours: f.status, gateway: 'no answer', note: `run again later (${err.message})` })
      continue
    }
    const note = refundDifference(f, status)
    if (note) differences.push({ kind: 'refund', id: f.id, amount: f.amount, ours: ourRefund(f), gateway: on ? `${status} on ${on}` : status, note })
  }
  return { date, payments: payments.length, refunds: refunds.filter((f) => f.refund_ref_id).length, differences }
}

function paymentDifference(p: PaymentRow & { has_refund: boolean }, paid: SslTransaction[]): Pick<Difference, 'ours' | 'gateway' | 'note'> | null {
  const gateway = paid.length ? paid.map((t) => `${t.status} ${t.amount ?? '?'} ${t.currency ?? ''}`.trim()).join('; ') : 'not paid'
  const ours = `${p.status}${p.refunded ? ' (refunded)' : ''}`
  if (paid.length > 1) return { ours, gateway, note: 'paid more than once at SSLCommerz: refund the extra payment in its panel' }
  const tx = paid[0]
  if (p.status === 'APPROVED' || p.status === 'REVIEW') {
    if (!tx) return { ours, gateway, note: 'approved here, but SSLCommerz has no paid transaction' }
    if (Number(tx.amount) !== p.amount || (tx.currency && tx.currency !== 'BDT'))
      return { ours, gateway, note: `amounts differ: Tk ${p.amount} here` }
    return null
  }
  if (!tx) return null
  // A payment declined here after SSLCommerz took it is refunded (review declined): that agrees.
  if (p.status === 'DECLINED' && p.has_refund) return null
  return { ours, gateway, note: 'paid at SSLCommerz, not approved here: the money is held without a ticket or refund' }
}

function ourRefund(f: RefundRow): string {
  return f.manual_ref ? `${f.status} by hand (ref ${f.manual_ref}, by ${f.manual_by})` : f.status
}

/** What disagrees between refund `f` and SSLCommerz's `status` of it (refunded, processing, cancelled, or failed: unknown there). */
function refundDifference(f: RefundRow, status: string): string | null {
  if (status === 'refunded') {
    if (f.status === 'DONE' && !f.manual_ref) return null
    if (f.status === 'DONE') return 'refunded at SSLCommerz and by hand: the passenger got it twice'
    if (f.status === 'SENT') return 'refunded at SSLCommerz, not yet recorded here: the refund worker records it on its next poll'
    return 'refunded at SSLCommerz, but FAILED here: do not refund it by hand'
  }
  if (status === 'processing') {
    if (f.status === 'SENT') return null
    return f.status === 'DONE' ? 'DONE here, still processing at SSLCommerz' : 'FAILED here, still processing at SSLCommerz'
  }
  // cancelled or unknown at SSLCommerz: nothing was refunded there
  if (f.status === 'FAILED' || (f.status === 'DONE' && f.manual_ref)) return null
  return f.status === 'DONE'
    ? 'DONE here, but SSLCommerz did not refund it'
    : 'not refunded at SSLCommerz: the worker marks it FAILED on its next poll'
}
