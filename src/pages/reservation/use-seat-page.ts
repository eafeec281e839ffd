import type { Model } from '@preact/signals-react'
import { createContext, useContext } from 'react'
import type { SeatPage } from '../../models/seat-page.ts'

/** The seat page model of this visit, for the page's parts (lazy ones included). */
export const SeatPageContext = createContext<Model<SeatPage> | null>(null)

/** The seat page model of this visit (inside the reservation page). */
export function useSeatPage(): Model<SeatPage> {
  const page = useContext(SeatPageContext)
  if (!page) throw new Error('useSeatPage outside the reservation page')
  return page
}
