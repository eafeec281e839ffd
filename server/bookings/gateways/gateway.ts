/**
 * What a card gateway gives the payment routes: where the browser goes to pay,
 * the gateway's own callback routes, and how a payment is brought up to date when
 * the passenger lands on the success or failure page. The sandbox page
 * (development only) and SSLCommerz implement it; `createGateway` picks one from
 * the configuration.
 */
import type { FastifyInstance } from 'fastify'
import type { PaymentRow } from '../payment-row.ts'

/** How a payment is being opened. */
export interface OpenContext {
  /** The pending payment already existed (double click, second tab): the same page, no new session. */
  reused: boolean
}

/** A card gateway. */
export interface PaymentGateway {
  /** The `payments.provider` this gateway writes and answers for; null when card payments are unavailable. */
  readonly provider: PaymentRow['provider'] | null
  /** The smallest amount (Tk) the gateway takes. */
  readonly minAmount: number
  /** Whether a pending payment can be handed out again (double click) rather than replaced by a new one. */
  canReuse(payment: PaymentRow, now: Date): boolean
  /** Where the browser goes to pay: a path on this server or an absolute gateway URL. */
  open(payment: PaymentRow, ctx: OpenContext): Promise<{ redirectUrl: string }>
  /** Registers the gateway's browser and server-to-server callback routes (if any). */
  register(app: FastifyInstance): void
  /**
   * Before the success or failure page shows a payment: applies it if the gateway says it is paid. Never
   * declines: only the gateway's own answer does (a page request, whoever sends it, decides nothing).
   */
  refresh(payment: PaymentRow): Promise<void>
}

/** What a gateway answered about a refund. */
export type RefundOutcome =
  /** Accepted: its state is asked again later with `refundRefId`. */
  | { state: 'sent'; refundRefId: string }
  /** Still being processed by the gateway (status query). */
  | { state: 'processing' }
  /** The money is back on the card. */
  | { state: 'done'; refundRefId: string | null; at: Date | null }
  /** Refused (tried again later, then listed for the operator), or cancelled for good by the gateway. */
  | { state: 'refused'; reason: string; final: boolean }

/** Refunds to the card of one gateway. Throws GatewayUnavailableError when the gateway cannot be asked now. */
export interface Refunder {
  /** Asks for the refund; `refundId` is ours and the same on every retry, so the gateway refunds once. */
  refund(req: { refundId: string; payment: PaymentRow; amount: number; remarks: string }): Promise<RefundOutcome>
  /** The state of a refund the gateway accepted. */
  status(refundRefId: string): Promise<RefundOutcome>
}
