import type { Model } from '@preact/signals-core'
import { createContext, useContext } from 'react'
import type { Booking } from '../models/booking.ts'

/** The booking model of this page visit (the seat page's booking step, the success and failure pages). */
export const BookingContext = createContext<Model<Booking> | null>(null)

/** The booking model of this page visit (inside a page that provides one). */
export function useBooking(): Model<Booking> {
  const booking = useContext(BookingContext)
  if (!booking) throw new Error('useBooking outside a page with a booking')
  return booking
}
