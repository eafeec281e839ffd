import { SeatGrid, type SeatGridLayout } from '../index.ts'
import { labels, seatsFor, statesFor, toggler } from './example-data.ts'

const layout: SeatGridLayout = {
  rows: 6,
  columns: 4,
  aisleColumns: [2],
  decks: ['LOWER'],
  seats: seatsFor(
    6,
    [0, 1, 3],
    'LOWER',
    '',
    (row) => (row < 2 ? 'Extra' : 'Business'),
    (t) => (t === 'Extra' ? 1400 : 1200),
  ),
}
const getState = statesFor(layout, { B2: 'sold', C1: 'booked', D3: 'adminBooked', E2: 'linked', F1: 'held', A3: 'selected' })

/** A single-deck 2+1 business coach with every seat state and the legend. */
export default function Business21() {
  return (
    <>
      <SeatGrid.Root layout={layout} getState={getState} onToggle={toggler(getState)} labels={labels} />
      <SeatGrid.Legend
        label="Legend"
        states={(['available', 'selected', 'sold', 'booked', 'adminBooked', 'linked', 'held'] as const).map((state) => ({ state, label: state }))}
        types={[
          { seatType: 'Business', label: 'Business' },
          { seatType: 'Extra', label: 'Extra' },
        ]}
      />
    </>
  )
}
