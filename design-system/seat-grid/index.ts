export * as SeatGrid from './seat-grid.tsx'
export type { Deck, SeatGridLabels, SeatGridLayout, SeatGridSeat, SeatGridState } from './seat-grid.tsx'
