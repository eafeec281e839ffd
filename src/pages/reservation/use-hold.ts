import { createContext, useContext } from 'react'
import type { Hold } from '../../models/hold.ts'

/** The hold of this visit's seat map, for the parts beside it (hold timer, fare summary, seat bar, booking step). */
export const HoldContext = createContext<Hold | null>(null)

/** The hold of this visit's seat map (inside the seat layout). */
export function useHold(): Hold {
  const hold = useContext(HoldContext)
  if (!hold) throw new Error('useHold outside the seat layout')
  return hold
}
