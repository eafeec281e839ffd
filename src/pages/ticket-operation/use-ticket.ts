import type { Model } from '@preact/signals-core'
import { createContext, useContext } from 'react'
import type { Ticket } from '../../models/ticket.ts'

/** The ticket model of this visit of /ticket-operation, for the page's parts (lazy ones included). */
export const TicketContext = createContext<Model<Ticket> | null>(null)

/** The ticket model of this page visit (inside the ticket page). */
export function useTicket(): Model<Ticket> {
  const ticket = useContext(TicketContext)
  if (!ticket) throw new Error('useTicket outside the ticket page')
  return ticket
}
