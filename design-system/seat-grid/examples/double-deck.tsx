import { computed } from '@preact/signals-react'
import { SeatGrid, type SeatGridLayout } from '../index.ts'
import { labels, seatsFor, statesFor, toggler } from './example-data.ts'

const fare = (t: string) => (t === 'Sleeper Horizontal' ? 2200 : 2000)
const layout: SeatGridLayout = {
  rows: 6,
  columns: 4,
  aisleColumns: [1],
  decks: ['LOWER', 'UPPER'],
  seats: [
    ...seatsFor(6, [0, 2, 3], 'LOWER', 'L', () => 'Sleeper', fare),
    ...seatsFor(6, [0, 2, 3], 'UPPER', 'U', (_r, c) => (c === 0 ? 'Sleeper Horizontal' : 'Sleeper'), fare),
  ],
}
const getState = statesFor(layout, { LB2: 'sold', UC1: 'held' })
const selected = computed(() => layout.seats.filter((s) => getState(s.name).value === 'selected').length)
const message = computed(() => `${selected.value} seats selected.`)

/** The double-deck sleeper: a tab per deck, one grid each, and the live region. */
export default function DoubleDeck() {
  return (
    <>
      <SeatGrid.Root layout={layout} getState={getState} onToggle={toggler(getState)} labels={labels} />
      <SeatGrid.LiveRegion message={message} />
    </>
  )
}
