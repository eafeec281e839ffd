import { SeatGrid, type SeatGridLayout, type SeatGridState } from '../index.ts'
import { labels, seatsFor, statesFor, toggler } from './example-data.ts'

const states: SeatGridState[] = ['available', 'selected', 'sold', 'booked', 'adminBooked', 'linked', 'held']

const layout: SeatGridLayout = {
  rows: 1,
  columns: states.length,
  aisleColumns: [],
  decks: ['LOWER'],
  seats: seatsFor(
    1,
    states.map((_, i) => i),
    'LOWER',
    '',
    () => 'Standard',
    () => 800,
  ),
}
const getState = statesFor(layout, Object.fromEntries(states.map((state, i) => [`A${i + 1}`, state])))

/** One Standard seat in each state, in legend order, with the legend: what tells the states apart, side by side (also in forced colours). */
export default function EveryState() {
  return (
    <>
      <SeatGrid.Root layout={layout} getState={getState} onToggle={toggler(getState)} labels={labels} />
      <SeatGrid.Legend label="Legend" states={states.map((state) => ({ state, label: state }))} />
    </>
  )
}
