/**
 * The saved-tickets store (saved-tickets.ts), fetched when first used: a copy is
 * kept after the server's answer has shown and read only when the server cannot
 * answer, so no page's first render carries it (the service worker has it cached
 * for offline use).
 */
import type { Reservation } from '../../contract/schemas.ts'
import type { Session } from '../models/session.ts'

/** Whose sweep of saved tickets of no session any more goes first (src/models/session.ts). */
type Swept = Pick<Session, 'savedTicketsSwept'>

/** The saved-tickets store, once the copies of no session any more are gone. */
export const savedTickets = (session: Swept) => session.savedTicketsSwept().then(() => import('./saved-tickets.ts'))

/** Keeps copies of `tickets` (saved-tickets.ts keepTickets); a store that cannot be fetched leaves them unsaved, like full storage. */
export function keepTicketsLater(session: Swept, passengerId: number | null, tickets: readonly Reservation[], paymentId?: string): Promise<void> {
  return savedTickets(session).then(
    (m) => m.keepTickets(passengerId, tickets, paymentId),
    () => undefined,
  )
}
