/**
 * Seats and trip details in the shapes of contract/schemas.ts, for the store tests (trip 7,
 * Dhaka to Chattogram on 2026-11-22): `testSeat('A1', 0, 0, { status: 1 })`, `testTripDetails(seats)`.
 */
import type { Seat, TripDetails } from '../../contract/schemas.ts'

/** An available Standard seat on the lower deck at `row`, `column`; `extra` overrides any field. */
export function testSeat(name: string, row: number, column: number, extra: Partial<Seat> = {}): Seat {
  return {
    name,
    row,
    column,
    deck: 'LOWER',
    seatType: 'Standard',
    fare: 800,
    status: 0,
    lockedByOther: false,
    lockedByMe: false,
    ...extra,
  }
}

/** Trip 7's details with `seats` (available seats counted from them); `extra` overrides any field. */
export function testTripDetails(seats: Seat[], extra: Partial<TripDetails> = {}): TripDetails {
  return {
    tripId: 7,
    tripDate: '2026-11-22',
    originCode: 'DHK',
    destinationCode: 'CTG',
    departureTime: '2026-11-22T22:00:00+06:00',
    arrivalTime: '2026-11-23T04:00:00+06:00',
    coach: { code: 'NX-101', type: 'AC_BUSINESS', name: 'Business' },
    availableSeats: seats.filter((s) => s.status === 0).length,
    seatLayout: { rows: 10, columns: 5, aisleColumns: [2], decks: ['LOWER'], seats },
    remainingSeatLimit: 5,
    expirationTime: null,
    ...extra,
  }
}
