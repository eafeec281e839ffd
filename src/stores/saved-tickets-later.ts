/**
 * The saved-tickets store (saved-tickets.ts), fetched when first used: a copy is
 * kept after the server's answer has shown and read only when the server cannot
 * answer, so no page's first render carries it (the service worker has it cached
 * for offline use).
 */
import type { Reservation } from '../../contract/schemas.ts'

import { savedTicketsSwept } from './session.ts'

/** The saved-tickets store, once the copies of no session any more are gone (src/stores/session.ts). */
export const savedTickets = () => savedTicketsSwept().then(() => import('./saved-tickets.ts'))

/** Keeps copies of `tickets` (saved-tickets.ts keepTickets); a store that cannot be fetched leaves them unsaved, like full storage. */
export function keepTicketsLater(passengerId: number | null, tickets: readonly Reservation[], paymentId?: string): Promise<void> {
  return savedTickets().then(
    (m) => m.keepTickets(passengerId, tickets, paymentId),
    () => undefined,
  )
}
