/** A sold ticket for the store tests (ticket.test.ts, saved-tickets.test.ts; src/models/booking-fixture.ts books one like it): Dhaka to Chattogram, one seat, paid by card. */
import type { Reservation } from '../../contract/schemas.ts'

/** The tests' "now": 22 Nov 2026, 10:00 in Dhaka. */
export const NOW = Date.parse('2026-11-22T10:00:00+06:00')

/** An instant as the server writes it. */
export const iso = (ms: number) => new Date(ms).toISOString()

const station = (id: number) => ({ id, name: `S${id}`, cityCode: 'DHK', address: '', phone: '', time: null })

export const sold: Reservation = {
  id: 41,
  status: 1,
  pnr: 'ABCDEFGHJK',
  pin: '1234',
  tripId: 7,
  tripDate: '2026-11-25',
  coach: { code: 'NX-101', type: 'AC_BUSINESS', name: 'Business' },
  origin: { code: 'DHK', name: 'Dhaka', nameBn: 'ঢাকা' },
  destination: { code: 'CTG', name: 'Chattogram', nameBn: 'চট্টগ্রাম' },
  departureTime: '2026-11-25T22:00:00+06:00',
  arrivalTime: '2026-11-26T04:00:00+06:00',
  boardingStation: station(1),
  droppingStation: station(9),
  seats: [{ name: 'A1', seatType: 'Standard', fare: 1000 }],
  passengerName: 'Rahim',
  passengerMobile: '01712345678',
  passengerEmail: null,
  fare: { subtotal: 1000, discount: 0, total: 1000, couponCode: null },
  expirationTime: null,
  maxExpirationTime: null,
  paymentMethod: 'CARD',
  paidAt: iso(NOW),
  canceledAt: null,
  refundAmount: null,
  cancelReason: null,
  operatorReason: null,
  movedFrom: null,
  createdAt: iso(NOW),
}

/** Another ticket like `sold`: its own id, PNR and departure `days` after sold's. */
export function anotherTicket(id: number, pnr: string, days = 0): Reservation {
  return { ...sold, id, pnr, departureTime: iso(Date.parse(sold.departureTime) + days * 86_400_000) }
}
