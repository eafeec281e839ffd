/**
 * The shape of a `payments` row, on its own so the payment logic (payments.ts), the gateways (gateways/)
 * and the refunds (refunds.ts) share it without importing one another.
 */

/** A payments row. */
export interface PaymentRow {
  id: string
  purpose: 'RESERVATION' | 'TOP_UP' | 'CHANGE'
  reservation_id: number | null
  /** A round trip's return booking this payment pays too (its amount is both legs' totals); else null. */
  return_reservation_id: number | null
  passenger_id: number
  amount: number
  status: 'PENDING' | 'APPROVED' | 'DECLINED' | 'REVIEW'
  refunded: boolean
  created_at: Date
  decided_at: Date | null
  confirmed_at: Date | null
  provider: 'sandbox' | 'sslcommerz'
  gateway_url: string | null
  gateway_session: string | null
  gateway_val_id: string | null
  gateway_status: string | null
  risk_level: number | null
  decline_reason: string | null
  checked_at: Date | null
  reviewed_at: Date | null
  /** SHA-256 (hex) of the result tokens handed to the tabs that opened this payment. */
  result_token_hashes: string[]
  /** When a request last asked the gateway about this payment (SSLCommerz: at most once per few seconds). */
  gateway_asked_at: Date | null
  /** When the gateway's own signed notice (IPN, browser return) last asked it: notices wait only for each other. */
  gateway_notice_asked_at: Date | null
  /** The bank's transaction id SSLCommerz reported when it validated the payment (its refund API needs it). */
  bank_tran_id: string | null
  /** amount and store_amount as SSLCommerz's validation wrote them ("720.00"). */
  gateway_amount: string | null
  store_amount: string | null
  /** The passenger's choice on our page (the wallet asked of the gateway), null for payments from before. */
  asked_with: 'card' | 'bkash' | 'nagad' | 'rocket' | null
  /** Where the money came from, as the gateway's validation said; null before validation (and for payments from before). */
  paid_with: 'card' | 'bkash' | 'nagad' | 'rocket' | 'wallet' | 'bank' | null
  /** SSLCommerz's card_issuer as written ("BKash Mobile Banking"). */
  paid_issuer: string | null
  /** A CHANGE payment's ticket change (ticket-change.ts), else null. */
  change_id: number | null
}
