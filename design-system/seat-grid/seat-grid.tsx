import { memo, useCallback, useId, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode, type Ref } from 'react'
import { useComputed, useSignal, useSignalEffect, type ReadonlySignal, type Signal } from '@preact/signals-react'
import { useSignals } from '@preact/signals-react/runtime'
import { seatGrid } from '../../styled-system/recipes'

/** Decks of a coach, lower first. */
export type Deck = 'LOWER' | 'UPPER'

/** What a seat looks like to the passenger right now. */
export type SeatGridState = 'available' | 'selected' | 'sold' | 'booked' | 'adminBooked' | 'linked' | 'held'

/** The static data of one seat. */
export interface SeatGridSeat {
  name: string
  row: number
  column: number
  deck: Deck
  seatType: string
  fare: number
}

/** A layout: grid size, aisle columns (0-based), decks and seats. */
export interface SeatGridLayout {
  rows: number
  columns: number
  aisleColumns: number[]
  decks: Deck[]
  seats: SeatGridSeat[]
}

/** Texts the grid needs; the app passes them from its message catalogue. */
export interface SeatGridLabels {
  /** Accessible name of a seat, e.g. `Seat B3, lower deck, Business, 1,200 Tk, available`. */
  seat: (seat: SeatGridSeat, state: SeatGridState) => string
  /** Deck name, e.g. `Lower deck` (tab text). */
  deck: (deck: Deck) => string
  /** Name of a deck's grid, e.g. `Lower deck seats`. */
  grid: (deck: Deck) => string
  /** Name of the deck switch. */
  decks: string
  /** Orientation hint above each deck, e.g. `Front`. */
  front: string
}

/** Props for SeatGrid.Root. */
export interface RootProps {
  layout: SeatGridLayout
  /** The state signal of a seat; each seat subscribes to its own, so one toggle re-renders one seat. */
  getState: (name: string) => ReadonlySignal<SeatGridState>
  /** Called on click, Enter or Space on an available or selected seat. */
  onToggle: (name: string) => void
  /** Called on click, Enter or Space on a seat that cannot be chosen, so the page can say why (optional). */
  onUnavailable?: (name: string) => void
  labels: SeatGridLabels
  /** Seats can be seen but not chosen (e.g. before the trip goes on sale): the grids are `aria-readonly` and no seat calls back. */
  readOnly?: boolean
  /** Id of the text that says why the seats are read-only, the grids' `aria-describedby`. */
  describedBy?: string
  /** Controlled deck (optional). */
  deck?: Deck
  onDeckChange?: (deck: Deck) => void
  className?: string
}

const ENABLED: ReadonlySet<SeatGridState> = new Set(['available', 'selected'])

/**
 * A coach layout: one ARIA grid per deck (a tab per deck when there are two),
 * one tab stop per grid, arrow keys between seats, Enter or Space to toggle.
 */
export function Root({ layout, getState, onToggle, onUnavailable, labels, readOnly, describedBy, deck, onDeckChange, className }: RootProps) {
  const s = seatGrid()
  const decks = layout.decks.length ? layout.decks : (['LOWER'] as Deck[])
  const grid = {
    layout,
    getState,
    onToggle: readOnly ? ignore : onToggle,
    onUnavailable: readOnly ? undefined : onUnavailable,
    labels,
    readOnly,
    describedBy,
  }
  if (decks.length === 1) {
    return (
      <div className={[s.root, className].filter(Boolean).join(' ')}>
        <DeckGrid deck={decks[0]!} {...grid} />
      </div>
    )
  }
  return (
    <DeckTabs decks={decks} deck={deck} onDeckChange={onDeckChange} label={labels.decks} name={labels.deck} className={className}>
      {(d) => <DeckGrid deck={d} {...grid} bare />}
    </DeckTabs>
  )
}

interface DeckTabsProps {
  decks: Deck[]
  deck?: Deck
  onDeckChange?: (deck: Deck) => void
  label: string
  name: (deck: Deck) => string
  className?: string
  children: (deck: Deck) => ReactNode
}

/**
 * The deck switch (WAI-ARIA tabs, automatic activation: ← → Home End select and focus a tab).
 * Its own few lines, not a tabs library: Ark's looked for focusable elements in the panel on
 * every mount, a forced layout of the whole seat map in the frame that first shows it.
 */
function DeckTabs({ decks, deck, onDeckChange, label, name, className, children }: DeckTabsProps) {
  const s = seatGrid()
  const id = useId()
  const [own, setOwn] = useState(decks[0]!)
  const current = deck ?? own
  const tabs = useRef<HTMLDivElement>(null)
  const select = (d: Deck) => {
    if (deck === undefined) setOwn(d)
    onDeckChange?.(d)
  }
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = decks.indexOf(current)
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1 + decks.length, Home: 0, End: decks.length - 1 }[e.key]
    if (to === undefined) return
    e.preventDefault()
    const d = decks[to % decks.length]!
    select(d)
    tabs.current?.querySelector<HTMLElement>(`[data-deck="${d}"]`)?.focus()
  }
  return (
    <div className={[s.root, className].filter(Boolean).join(' ')}>
      <div ref={tabs} role="tablist" aria-label={label} aria-orientation="horizontal" className={s.tabs} onKeyDown={onKeyDown}>
        {decks.map((d) => (
          <button
            key={d}
            type="button"
            role="tab"
            id={`${id}-tab-${d}`}
            aria-controls={`${id}-panel-${d}`}
            aria-selected={d === current}
            data-selected={d === current ? '' : undefined}
            data-deck={d}
            tabIndex={d === current ? 0 : -1}
            className={s.tab}
            onClick={() => select(d)}
          >
            {name(d)}
          </button>
        ))}
      </div>
      {decks.map((d) => (
        <div key={d} role="tabpanel" id={`${id}-panel-${d}`} aria-labelledby={`${id}-tab-${d}`} hidden={d !== current} className={s.deck}>
          {children(d)}
        </div>
      ))}
    </div>
  )
}

interface DeckGridProps {
  deck: Deck
  layout: SeatGridLayout
  getState: RootProps['getState']
  onToggle: RootProps['onToggle']
  onUnavailable?: RootProps['onUnavailable']
  labels: SeatGridLabels
  readOnly?: boolean
  describedBy?: string
  /** Inside a tab panel (which already draws the deck frame). */
  bare?: boolean
}

const ignore = () => undefined

/** One deck: rows of cells, aisles as empty cells, a roving tab stop. */
function DeckGrid({ deck, layout, getState, onToggle, onUnavailable, labels, readOnly, describedBy, bare }: DeckGridProps) {
  useSignals()
  const s = seatGrid()
  const gridRef = useRef<HTMLDivElement>(null)
  const seats = useMemo(() => layout.seats.filter((x) => x.deck === deck), [layout, deck])
  // row → column → seat
  const byPos = useMemo(() => {
    const m = new Map<number, Map<number, SeatGridSeat>>()
    for (const seat of seats) {
      let r = m.get(seat.row)
      if (!r) m.set(seat.row, (r = new Map()))
      r.set(seat.column, seat)
    }
    return m
  }, [seats])
  const rows = useMemo(() => {
    const maxRow = Math.max(layout.rows - 1, ...seats.map((x) => x.row))
    return Array.from({ length: maxRow + 1 }, (_, i) => i).filter((r) => byPos.has(r))
  }, [layout.rows, seats, byPos])
  const columns = Math.max(layout.columns, ...seats.map((x) => x.column + 1))
  const colTemplate = useMemo(
    () =>
      Array.from({ length: columns }, (_, c) => {
        if (layout.aisleColumns.includes(c) && !seats.some((x) => x.column === c)) return '1.25rem'
        return seats.some((x) => x.column === c && x.seatType === 'Sleeper Horizontal') ? '4.5rem' : '3rem'
      }).join(' '),
    [columns, layout.aisleColumns, seats],
  )
  // the one seat with tabindex=0: the first selected, else the first available, else the first
  const focused: Signal<string> = useSignal(
    (seats.find((x) => getState(x.name).peek() === 'selected') ?? seats.find((x) => getState(x.name).peek() === 'available') ?? seats[0])?.name ?? '',
  )

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLDivElement>) => {
      const current = seats.find((x) => x.name === focused.peek())
      if (!current) return
      const next = move(current, e.key, e.ctrlKey || e.metaKey, byPos, rows)
      if (next === undefined) return
      e.preventDefault()
      if (!next || next === current) return
      focused.value = next.name
      gridRef.current?.querySelector<HTMLElement>(`[data-seat="${cssEscape(next.name)}"]`)?.focus()
    },
    [seats, byPos, rows, focused],
  )

  const grid = (
    // biome-ignore lint/a11y/useSemanticElements: an ARIA grid with roving focus (README: keyboard), not a data table
    <div
      ref={gridRef}
      role="grid"
      aria-label={labels.grid(deck)}
      aria-readonly={readOnly || undefined}
      aria-describedby={describedBy}
      className={s.grid}
      style={{ '--seat-cols': colTemplate } as CSSProperties}
      onKeyDown={onKeyDown}
    >
      {rows.map((r) => (
        // biome-ignore lint/a11y/useSemanticElements: rows of the ARIA grid above
        // biome-ignore lint/a11y/useFocusableInteractive: the seat button inside the cell takes focus (roving tabindex)
        <div role="row" key={r} className={s.row}>
          {Array.from({ length: columns }, (_, c) => {
            const seat = byPos.get(r)?.get(c)
            return (
              // biome-ignore lint/a11y/useSemanticElements: cells of the ARIA grid above
              // biome-ignore lint/a11y/useFocusableInteractive: the seat button inside the cell takes focus (roving tabindex)
              <div role="gridcell" key={c} className={s.cell}>
                {seat ? (
                  <SeatButton
                    seat={seat}
                    state={getState(seat.name)}
                    focused={focused}
                    onToggle={onToggle}
                    onUnavailable={onUnavailable}
                    label={labels.seat}
                  />
                ) : null}
              </div>
            )
          })}
        </div>
      ))}
    </div>
  )
  if (bare) {
    return (
      <>
        <span className={s.front}>{labels.front}</span>
        {grid}
      </>
    )
  }
  return (
    <div className={s.deck}>
      <span className={s.front}>{labels.front}</span>
      {grid}
    </div>
  )
}

/** Where an arrow, Home or End key moves from `from`; undefined when the key is not ours. */
function move(
  from: SeatGridSeat,
  key: string,
  ctrl: boolean,
  byPos: Map<number, Map<number, SeatGridSeat>>,
  rows: number[],
): SeatGridSeat | null | undefined {
  const inRow = (r: number) => [...(byPos.get(r)?.values() ?? [])].sort((a, b) => a.column - b.column)
  const row = inRow(from.row)
  const i = row.indexOf(from)
  const nearestIn = (r: number) =>
    inRow(r).reduce<SeatGridSeat | null>(
      (best, x) => (!best || Math.abs(x.column - from.column) < Math.abs(best.column - from.column) ? x : best),
      null,
    )
  const ri = rows.indexOf(from.row)
  switch (key) {
    case 'ArrowRight':
      return row[i + 1] ?? from
    case 'ArrowLeft':
      return row[i - 1] ?? from
    case 'ArrowDown':
      return ri + 1 < rows.length ? nearestIn(rows[ri + 1]!) : from
    case 'ArrowUp':
      return ri > 0 ? nearestIn(rows[ri - 1]!) : from
    case 'Home':
      return ctrl ? (inRow(rows[0]!)[0] ?? from) : (row[0] ?? from)
    case 'End': {
      if (!ctrl) return row[row.length - 1] ?? from
      const last = inRow(rows[rows.length - 1]!)
      return last[last.length - 1] ?? from
    }
    case 'PageDown':
      return nearestIn(rows[rows.length - 1]!) ?? from
    case 'PageUp':
      return nearestIn(rows[0]!) ?? from
    default:
      return undefined
  }
}

function cssEscape(v: string): string {
  return v.replace(/["\\]/g, '\\$&')
}

interface SeatButtonProps {
  seat: SeatGridSeat
  state: ReadonlySignal<SeatGridState>
  focused: Signal<string>
  onToggle: (name: string) => void
  onUnavailable?: (name: string) => void
  label: SeatGridLabels['seat']
}

/** Each status's icon (a 16 × 16 path, stroked): shape as well as colour tells the states apart; available has none. */
export const ICON_PATHS: Record<SeatGridState, string> = {
  available: '',
  selected: 'M3 8.5l3.2 3.2L13 5',
  sold: 'M4 4l8 8M12 4l-8 8',
  booked: 'M8 4v4l3 2M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13',
  adminBooked: 'M8 1.5l5.5 2v4c0 3.5-2.5 6-5.5 7c-3-1-5.5-3.5-5.5-7v-4z',
  linked: 'M6.5 9.5l3-3M5 7.5l-1.5 1.5a2.5 2.5 0 0 0 3.5 3.5L8.5 11M11 8.5l1.5-1.5a2.5 2.5 0 0 0-3.5-3.5L7.5 5',
  held: 'M4.5 7.5h7v6h-7zM6 7.5V5.5a2 2 0 0 1 4 0v2',
}

/** A status icon: shown by the recipe for every state but available. */
function StateIcon({ className, state, path }: { className: string; state: SeatGridState; path?: Ref<SVGPathElement> }) {
  return (
    <svg className={className} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path ref={path} d={ICON_PATHS[state]} />
    </svg>
  )
}

/**
 * One seat. Its state is written straight to the button's attributes by a
 * signal effect (no React render), so a toggle touches this one element at once.
 */
const SeatButton = memo(function SeatButton({ seat, state, focused, onToggle, onUnavailable, label }: SeatButtonProps) {
  const s = seatGrid()
  const ref = useRef<HTMLButtonElement>(null)
  const icon = useRef<SVGPathElement>(null)
  const isFocused = useComputed(() => focused.value === seat.name)
  // the roving tab stop moves by attribute too: focusing a seat re-renders nothing
  useSignalEffect(() => {
    const el = ref.current
    if (el) el.tabIndex = isFocused.value ? 0 : -1
  })
  useSignalEffect(() => {
    const st = state.value
    const el = ref.current
    if (!el || el.dataset.state === st) return
    el.dataset.state = st
    icon.current?.setAttribute('d', ICON_PATHS[st])
    el.setAttribute('aria-pressed', String(st === 'selected'))
    el.setAttribute('aria-label', label(seat, st))
    if (ENABLED.has(st)) el.removeAttribute('aria-disabled')
    else el.setAttribute('aria-disabled', 'true')
  })
  // every render starts from the current value without subscribing to it
  const st = state.peek()
  return (
    <button
      ref={ref}
      type="button"
      className={s.seat}
      data-seat={seat.name}
      data-state={st}
      data-type={seat.seatType}
      tabIndex={isFocused.peek() ? 0 : -1}
      aria-label={label(seat, st)}
      aria-pressed={st === 'selected'}
      aria-disabled={ENABLED.has(st) ? undefined : true}
      onFocus={(e) => {
        if (focused.peek() !== seat.name) focused.value = seat.name
        // the browser leaves a seat its deck shows in part where it is: scrolled into full view (large text on a phone)
        e.currentTarget.scrollIntoView({ block: 'nearest', inline: 'nearest' })
      }}
      onClick={() => {
        if (ENABLED.has(state.peek())) onToggle(seat.name)
        else onUnavailable?.(seat.name)
      }}
    >
      <StateIcon className={s.icon} state={st} path={icon} />
      <span className={s.seatName} aria-hidden="true">
        {seat.name}
      </span>
    </button>
  )
})

/** Props for SeatGrid.Legend. */
export interface LegendProps {
  /** Statuses to explain, with their texts. */
  states: { state: SeatGridState; label: string }[]
  /** Seat types to explain, with their texts. */
  types?: { seatType: string; label: string }[]
  /** Accessible name of the legend list. */
  label: string
  className?: string
}

/** What each seat shape, colour and icon means. */
export function Legend({ states, types = [], label, className }: LegendProps) {
  const s = seatGrid()
  return (
    <ul className={[s.legend, className].filter(Boolean).join(' ')} aria-label={label}>
      {states.map((x) => (
        <li key={x.state} className={s.legendItem}>
          <span className={[s.seat, s.swatch].join(' ')} data-state={x.state} data-type="Standard" aria-hidden="true">
            <StateIcon className={s.icon} state={x.state} />
          </span>
          {x.label}
        </li>
      ))}
      {types.map((x) => (
        <li key={x.seatType} className={s.legendItem}>
          <span className={[s.seat, s.swatch].join(' ')} data-state="available" data-type={x.seatType} aria-hidden="true" />
          {x.label}
        </li>
      ))}
    </ul>
  )
}

/** Props for SeatGrid.LiveRegion. */
export interface LiveRegionProps {
  /** The latest announcement; passed as a signal so only the text node updates. */
  message: ReadonlySignal<string>
  children?: ReactNode
}

/** A polite live region for seat changes and the running total. */
export function LiveRegion({ message }: LiveRegionProps) {
  const s = seatGrid()
  return (
    <div className={s.live} aria-live="polite" aria-atomic="true" role="status">
      {message}
    </div>
  )
}
