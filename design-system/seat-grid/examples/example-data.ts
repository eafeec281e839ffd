import { signal, type Signal } from '@preact/signals-react'
import type { SeatGridLabels, SeatGridLayout, SeatGridSeat, SeatGridState } from '../index.ts'

const letters = 'ABCDEFGHIJ'

/** Seats for `rows` rows at the given columns, named like the demo coaches (A1, A2 …). */
export function seatsFor(
  rows: number,
  cols: number[],
  deck: 'LOWER' | 'UPPER',
  prefix: string,
  type: (row: number, col: number) => string,
  fare: (type: string) => number,
): SeatGridSeat[] {
  const seats: SeatGridSeat[] = []
  for (let row = 0; row < rows; row++) {
    cols.forEach((column, i) => {
      const seatType = type(row, column)
      seats.push({ name: `${prefix}${letters[row]}${i + 1}`, row, column, deck, seatType, fare: fare(seatType) })
    })
  }
  return seats
}

/** A state signal per seat, with a few seats taken. */
export function statesFor(layout: SeatGridLayout, taken: Record<string, SeatGridState> = {}): (name: string) => Signal<SeatGridState> {
  const map = new Map(layout.seats.map((s) => [s.name, signal<SeatGridState>(taken[s.name] ?? 'available')]))
  return (name) => map.get(name)!
}

/** Toggles available ↔ selected (the app's store also locks on the server). */
export function toggler(get: (name: string) => Signal<SeatGridState>) {
  return (name: string) => {
    const s = get(name)
    s.value = s.value === 'selected' ? 'available' : 'selected'
  }
}

const stateText: Record<SeatGridState, string> = {
  available: 'available',
  selected: 'selected',
  sold: 'sold, unavailable',
  booked: 'booked, unavailable',
  adminBooked: 'admin booked, unavailable',
  linked: 'linked, unavailable',
  held: 'held by another passenger, unavailable',
}

/** English labels as the app formats them. */
export const labels: SeatGridLabels = {
  seat: (s, st) =>
    `Seat ${s.name}, ${s.deck === 'UPPER' ? 'upper' : 'lower'} deck, ${s.seatType}, ${s.fare.toLocaleString('en-US')} Tk, ${stateText[st]}`,
  deck: (d) => (d === 'UPPER' ? 'Upper deck' : 'Lower deck'),
  grid: (d) => (d === 'UPPER' ? 'Upper deck seats' : 'Lower deck seats'),
  decks: 'Decks',
  front: 'Front of the coach',
}
