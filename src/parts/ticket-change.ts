/** What the operator did to a reservation (npm run trip: cancel or move), as the passenger's pages say it. */
import type { Reservation } from '../../contract/schemas.ts'
import { reservationStatus } from '../../contract/values.ts'

/**
 * Where the refund of a changed ticket stands: on the balance (done at once), on its way to the card
 * (processing or refunded: the ticket's refund line says which), or refused by the gateway (the operator finishes it).
 */
export type ChangeRefund = 'BALANCE' | 'CARD' | 'CARD_FAILED'

/** What the operator did to a reservation, as the ticket and My tickets say it; null when nothing. */
export type TicketChange =
  | { kind: 'tripCanceled'; reason: string; reasonBn: string | null; refund: number | null; to: ChangeRefund }
  | { kind: 'moved'; coach: string; seats: string; departure: string; from: Reservation['movedFrom'] }
  | { kind: 'moveRefused'; refund: number; to: ChangeRefund }

const refundOf = (r: Reservation): ChangeRefund => (r.refund?.to !== 'CARD' ? 'BALANCE' : r.refund.status === 'FAILED' ? 'CARD_FAILED' : 'CARD')

/**
 * The operator's change to `r`: the trip cancelled (status 5, TRIP_CANCELED, with the operator's
 * words, in Bengali too when it gave them, and the refund of a paid ticket), the ticket moved to another coach (10), or a moved
 * ticket the passenger cancelled (14). A copy saved before these fields existed reads as
 * nothing for a cancel (it says Cancelled as before).
 */
export function ticketChange(r: Reservation): TicketChange | null {
  if (r.status === reservationStatus.canceled && r.cancelReason === 'TRIP_CANCELED')
    // the refund goes back where the ticket was paid from: the card (processing until SSLCommerz has it) or the balance
    return {
      kind: 'tripCanceled',
      reason: r.operatorReason ?? '',
      reasonBn: r.operatorReasonBn ?? null,
      refund: r.refundAmount ? r.refundAmount : null,
      to: refundOf(r),
    }
  if (r.status === reservationStatus.tripMigrated)
    return {
      kind: 'moved',
      coach: r.coach.code,
      seats: r.seats.map((s) => s.name).join(', '),
      departure: r.departureTime,
      from: r.movedFrom ?? null,
    }
  if (r.status === reservationStatus.tripMigratedCanceled) return { kind: 'moveRefused', refund: r.refundAmount ?? 0, to: refundOf(r) }
  return null
}

// Every id written out: the build puts in a page's chunk only the message ids its code names (scripts/message-usage.ts).
const refundMessages = {
  tripCanceled: {
    BALANCE: 'ticketChange.tripCanceledRefund',
    CARD: 'ticketChange.tripCanceledRefundCard',
    CARD_FAILED: 'ticketChange.tripCanceledRefundCardFailed',
  },
  moveRefused: { BALANCE: 'ticketChange.moveRefused', CARD: 'ticketChange.moveRefusedCard', CARD_FAILED: 'ticketChange.moveRefusedCardFailed' },
} as const

/** The message saying a cancelled trip's or a refused move's refund, by where it stands: never "refunded" for a refund that failed. */
export function refundMessageId(c: Extract<TicketChange, { kind: 'tripCanceled' | 'moveRefused' }>): string {
  return refundMessages[c.kind][c.to]
}
