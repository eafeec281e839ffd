/** What the operator did to a reservation (npm run trip: cancel or move), as the passenger's pages say it. */
import type { Reservation } from '../../contract/schemas.ts'
import { reservationStatus } from '../../contract/values.ts'

/** What the operator did to a reservation, as the ticket and My tickets say it; null when nothing. */
export type TicketChange =
  | { kind: 'tripCanceled'; reason: string; reasonBn: string | null; refund: number | null; toCard: boolean }
  | { kind: 'moved'; coach: string; seats: string; departure: string; from: Reservation['movedFrom'] }
  | { kind: 'moveRefused'; refund: number }

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
      toCard: r.refund?.to === 'CARD',
    }
  if (r.status === reservationStatus.tripMigrated)
    return {
      kind: 'moved',
      coach: r.coach.code,
      seats: r.seats.map((s) => s.name).join(', '),
      departure: r.departureTime,
      from: r.movedFrom ?? null,
    }
  if (r.status === reservationStatus.tripMigratedCanceled) return { kind: 'moveRefused', refund: r.refundAmount ?? 0 }
  return null
}
