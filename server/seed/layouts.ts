/** The demo seat layouts: 2+2 standard, 2+1 business, double-deck sleeper. */
import type { LayoutKey } from './core-data.ts';

export interface LayoutSeed {
  key: LayoutKey;
  name: string;
  rows: number;
  columns: number;
  aisleColumns: number[];
  decks: ('LOWER' | 'UPPER')[];
  seats: { name: string; row: number; col: number; deck: 'LOWER' | 'UPPER'; seatType: string }[];
}

const letters = 'ABCDEFGHIJKLMNOP';

function grid(
  rows: number,
  seatCols: number[],
  deck: 'LOWER' | 'UPPER',
  prefix: string,
  type: (row: number, col: number) => string,
): LayoutSeed['seats'] {
  const seats: LayoutSeed['seats'] = [];
  for (let row = 0; row < rows; row++) {
    seatCols.forEach((col, i) => seats.push({ name: `${prefix}${letters[row]}${i + 1}`, row, col, deck, seatType: type(row, col) }));
  }
  return seats;
}

/** Seat names are unique per layout and match the contract's /^[A-Z0-9]{1,6}$/. */
export const layouts: LayoutSeed[] = [
  {
    key: 'AC_STANDARD',
    name: 'AC Standard 2+2',
    rows: 10,
    columns: 5,
    aisleColumns: [2],
    decks: ['LOWER'],
    seats: grid(10, [0, 1, 3, 4], 'LOWER', '', () => 'Standard'),
  },
  {
    key: 'NON_AC',
    name: 'Non-AC Standard 2+2',
    rows: 10,
    columns: 5,
    aisleColumns: [2],
    decks: ['LOWER'],
    seats: grid(10, [0, 1, 3, 4], 'LOWER', '', () => 'Standard'),
  },
  {
    key: 'AC_BUSINESS',
    name: 'AC Business 2+1',
    rows: 10,
    columns: 4,
    aisleColumns: [2],
    decks: ['LOWER'],
    seats: grid(10, [0, 1, 3], 'LOWER', '', (row) => (row < 2 ? 'Extra' : 'Business')),
  },
  {
    key: 'SLEEPER',
    name: 'AC Sleeper Double Deck',
    rows: 6,
    columns: 4,
    aisleColumns: [1],
    decks: ['LOWER', 'UPPER'],
    seats: [
      ...grid(6, [0, 2, 3], 'LOWER', 'L', () => 'Sleeper'),
      ...grid(6, [0, 2, 3], 'UPPER', 'U', (_row, col) => (col === 0 ? 'Sleeper Horizontal' : 'Sleeper')),
    ],
  },
];
