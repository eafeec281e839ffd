/**
 * The seat map of one seat-page visit: the trip on the page, one state signal per seat, the passenger's
 * selection, the hold's expiry and what the live region says. Its actions are the only writers and do
 * no I/O: the lock queue, the hold, the live feed and the seat page (which loads the trip) call them.
 */
import { computed, createModel, type ModelConstructor, type ReadonlySignal, type Signal, signal } from '@preact/signals-core'
import type { BusStation, ExtendSeatLockRequest, Seat, SeatLockRequest, SeatType, TripDetails } from '../../contract/schemas.ts'
import { INFINITE_SEAT_LIMIT, MAX_SEATS, OPEN_SEAT_NAME, seatStatus } from '../../contract/values.ts'
import { now } from '../lib/clock.ts'
import type { TripRef } from '../lib/trip-ref.ts'

/** What a seat looks like to the passenger right now. */
export type SeatState =
  | 'available'
  | 'selected'
  | 'sold'
  | 'booked'
  | 'adminBooked'
  | 'linked'
  /** Held by another passenger's lock. */
  | 'held'

/** The trip the seat page shows: from the URL. */
export type { TripRef }

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error'

/** Last change, for the live region. */
export interface SeatEvent {
  /** `unavailable`: a seat that cannot be chosen was chosen (`state` says why); `others`: the summary of other passengers' changes. */
  kind: 'selected' | 'deselected' | 'lockLost' | 'failed' | 'rejected' | 'unavailable' | 'reset' | 'expired' | 'extended' | 'extendRefused' | 'others'
  seatName?: string
  /** `extended`: the hold's new end; `extendRefused`: its end as it is. */
  until?: string
  state?: SeatState
  /** `others`: seats other passengers took, and seats that became available, since the last summary (`seatName`: the seat the passenger is on, taken). */
  taken?: number
  freed?: number
  seq: number
}

/**
 * Whether the seat map follows other passengers' changes: `off` (no live stream: the server has
 * none or the browser cannot; each seat is checked by the server when chosen), `connecting`, `live`, or
 * `stale` (the stream dropped or the network is down: seats may be out of date).
 */
export type LiveStatus = 'off' | 'connecting' | 'live' | 'stale'

/** A seat another passenger's change moved on screen. */
export interface SeatChange {
  name: string
  from: SeatState
  to: SeatState
}

/** What the server said of extending the hold before booking: its maximum and the extensions left. */
export interface HoldLimit {
  max: string
  left: number
}

/** A trip-details answer as the seat map shows it (the seat page works out each seat's state). */
export interface ShownDetails {
  details: TripDetails
  states: Map<string, SeatState>
  selection: string[]
  expirationTime: string | null
  limitBase: number
}

/** The seat map's state, read-only. */
export interface SeatMapView {
  tripRef: ReadonlySignal<TripRef | null>
  tripDetails: ReadonlySignal<TripDetails | null>
  loadStatus: ReadonlySignal<LoadStatus>
  boardingStations: ReadonlySignal<BusStation[]>
  droppingStations: ReadonlySignal<BusStation[]>
  /** Selected seat names, in the order chosen (SPEC "seats"). */
  seatNames: ReadonlySignal<string[]>
  expirationTime: ReadonlySignal<string | null>
  /** Chosen boarding counter id. */
  departureScheduleId: ReadonlySignal<number | null>
  /** Chosen dropping counter id. */
  arrivalScheduleId: ReadonlySignal<number | null>
  availableSeats: ReadonlySignal<number>
  lastEvent: ReadonlySignal<SeatEvent | null>
  /** Epoch ms, ticking every second while a hold runs (the hold's clock). */
  clockNow: ReadonlySignal<number>
  liveStatus: ReadonlySignal<LiveStatus>
  /** What the server said of extending the hold before booking (null: not asked yet). */
  holdLimit: ReadonlySignal<HoldLimit | null>
  /** The hold is a booking's: its time is the booking's, extended by Extend booking time; its seats are frozen. */
  heldForBooking: ReadonlySignal<boolean>
  /**
   * The trip on the page was cancelled by the operator (the server answers TRIP_OMITTED, on the
   * first load, on a reload from the live seat map, or on a seat lock): the seat map is taken down,
   * the held seats are given back and the page says so, with a way back to search.
   */
  tripCanceled: ReadonlySignal<boolean>
  /** The trip's seats by name (static data: type, fare, position). */
  seatsByName: ReadonlySignal<Map<string, Seat>>
  /** The selected seats (SPEC "seats": seat objects with a name), in the order chosen. */
  seats: ReadonlySignal<Seat[]>
  /** Selected seats that count (OPEN placeholders excluded). */
  countedSeats: ReadonlySignal<Seat[]>
  totalFare: ReadonlySignal<number>
  /** Selected seats grouped by seat type: count, fare per seat and subtotal. */
  fareByType: ReadonlySignal<{ seatType: SeatType; count: number; fare: number; subtotal: number }[]>
  /** Seats the passenger may still add: the smaller of MAX_SEATS and the server's remaining limit. */
  seatLimit: ReadonlySignal<number>
}

/** The seat map's state (read-only, `view`) and the verbs that write it. */
export interface SeatMap {
  view: SeatMapView
  /** The state signal of one seat (read it inside the seat's own component); an unknown seat reads as sold. */
  seatState(name: string): ReadonlySignal<SeatState>
  /** The state of one seat, if the seat map has it (not subscribed). */
  stateNow(name: string): SeatState | undefined
  /** Says `event` in the live region. */
  say(event: Omit<SeatEvent, 'seq'>): void
  /** A load starts: another trip (`fresh`) takes the first trip's seat map down at once. */
  beginLoad(ref: TripRef, fresh: boolean): void
  /** Shows a trip-details answer. */
  show(shown: ShownDetails): void
  /** The load failed: the page says why. */
  loadFailed(): void
  /** The trip's counters; a single one is chosen. */
  showStations(boarding: BusStation[], dropping: BusStation[]): void
  chooseBoarding(id: number | null): void
  chooseDropping(id: number | null): void
  /** The passenger chose `name`; a first seat starts a new hold (the old one's end and extensions go). Said once the server holds it (`say`). */
  select(name: string): void
  /** The passenger un-chose `name`. */
  deselect(name: string): void
  /** Puts `name` back as the server holds it (`held`) after a failed request. */
  revert(name: string, held: boolean): void
  /** Another passenger won `name`: out of the selection and of the available seats. */
  loseSeat(name: string): void
  /** Nothing is chosen any more; the hold ends at `expirationTime`. */
  clearSelection(expirationTime: string | null, event?: SeatEvent['kind']): void
  /** The selection is `names` (the seats of a booking when `booked`), ending at `expirationTime`. */
  holdSeats(names: string[], expirationTime: string | null, booked: boolean): void
  /** The hold's end as the server says it (a lock answer); `keep`: only a new end replaces it. */
  setExpiry(expirationTime: string | null, keep: boolean): void
  /** The server answered an extension: the hold's end and what is left of its extensions. */
  extended(expirationTime: string, limit: HoldLimit, event: SeatEvent['kind'] | null): void
  /** A booking's hold ran out: its seats are no longer the booking's. */
  unbook(): void
  /** The hold's clock moves to the time now. */
  tick(): void
  /** The operator cancelled the trip: the seat map goes. */
  takeDown(): void
  /** Shows other passengers' changes; answers the seats that changed on screen. */
  applyLive(seats: { name: string; state: SeatState }[], skip: (name: string) => boolean): SeatChange[]
  setLiveStatus(status: LiveStatus): void
}

/** Creates the seat map of one visit. */
export const SeatMapModel: ModelConstructor<SeatMap> = createModel((): SeatMap => {
  const tripRef = signal<TripRef | null>(null)
  const tripDetails = signal<TripDetails | null>(null)
  const loadStatus = signal<LoadStatus>('idle')
  const boardingStations = signal<BusStation[]>([])
  const droppingStations = signal<BusStation[]>([])
  const seatNames = signal<string[]>([])
  const expirationTime = signal<string | null>(null)
  const departureScheduleId = signal<number | null>(null)
  const arrivalScheduleId = signal<number | null>(null)
  const availableSeats = signal(0)
  const lastEvent = signal<SeatEvent | null>(null)
  const clockNow = signal(now())
  /** The selection size the server allows: its remaining limit plus the seats we already held when it answered. */
  const limitBase = signal(MAX_SEATS)
  const liveStatus = signal<LiveStatus>('off')
  const holdLimit = signal<HoldLimit | null>(null)
  const bookedHold = signal(false)
  const tripCanceled = signal(false)
  /** Per-seat state signals: the grid subscribes to one each. Replaced, not emptied, when another trip loads. */
  const seatSignals = signal(new Map<string, Signal<SeatState>>())

  const seatsByName = computed(() => new Map(tripDetails.value?.seatLayout.seats.map((s) => [s.name, s]) ?? []))
  const seats = computed(() => seatNames.value.map((n) => seatsByName.value.get(n)).filter((s): s is Seat => !!s))
  const countedSeats = computed(() => seats.value.filter((s) => s.name !== OPEN_SEAT_NAME))
  const totalFare = computed(() => countedSeats.value.reduce((sum, s) => sum + s.fare, 0))
  const fareByType = computed(() => {
    const groups = new Map<SeatType, { seatType: SeatType; count: number; fare: number; subtotal: number }>()
    for (const s of countedSeats.value) {
      const g = groups.get(s.seatType) ?? { seatType: s.seatType, count: 0, fare: s.fare, subtotal: 0 }
      g.count += 1
      g.subtotal += s.fare
      g.fare = Math.max(g.fare, s.fare)
      groups.set(s.seatType, g)
    }
    return [...groups.values()]
  })
  const seatLimit = computed(() => {
    const remaining = tripDetails.value?.remainingSeatLimit ?? MAX_SEATS
    return remaining === INFINITE_SEAT_LIMIT ? MAX_SEATS : Math.min(MAX_SEATS, Math.max(0, limitBase.value))
  })

  const seatSignal = (name: string) => seatSignals.peek().get(name)
  const put = (name: string, state: SeatState) => {
    const sig = seatSignal(name)
    if (sig) sig.value = state
    else seatSignals.peek().set(name, signal(state))
  }
  const say = (event: Omit<SeatEvent, 'seq'>) => {
    // numbered, so the same event twice is said twice
    lastEvent.value = { ...event, seq: (lastEvent.peek()?.seq ?? 0) + 1 }
  }
  const unselectAll = (keep: string[] = []) => {
    for (const n of seatNames.peek()) {
      const sig = seatSignal(n)
      if (sig && sig.peek() === 'selected' && !keep.includes(n)) sig.value = 'available'
    }
  }

  return {
    view: {
      tripRef,
      tripDetails,
      loadStatus,
      boardingStations,
      droppingStations,
      seatNames,
      expirationTime,
      departureScheduleId,
      arrivalScheduleId,
      availableSeats,
      lastEvent,
      clockNow,
      liveStatus,
      holdLimit,
      heldForBooking: bookedHold,
      tripCanceled,
      seatsByName,
      seats,
      countedSeats,
      totalFare,
      fareByType,
      seatLimit,
    },
    seatState(name) {
      const s = seatSignal(name)
      if (s) return s
      const sold = signal<SeatState>('sold')
      seatSignals.peek().set(name, sold)
      return sold
    },
    stateNow: (name) => seatSignal(name)?.peek(),
    say,
    beginLoad(ref, fresh) {
      tripRef.value = ref
      loadStatus.value = 'loading'
      tripCanceled.value = false
      if (!fresh) return
      departureScheduleId.value = null
      arrivalScheduleId.value = null
      tripDetails.value = null
      seatNames.value = []
      expirationTime.value = null
      holdLimit.value = null
      boardingStations.value = []
      droppingStations.value = []
      lastEvent.value = null
      // nothing of the first trip's seat states stays
      seatSignals.value = new Map()
    },
    show({ details, states, selection, expirationTime: exp, limitBase: base }) {
      limitBase.value = base
      for (const [name, state] of states) put(name, state)
      seatNames.value = selection
      expirationTime.value = exp
      availableSeats.value = details.availableSeats
      tripDetails.value = details
      loadStatus.value = 'ready'
      clockNow.value = now()
    },
    loadFailed() {
      loadStatus.value = 'error'
    },
    showStations(boarding, dropping) {
      boardingStations.value = boarding
      droppingStations.value = dropping
      if (departureScheduleId.peek() === null && boarding.length === 1) departureScheduleId.value = boarding[0]!.id
      if (arrivalScheduleId.peek() === null && dropping.length === 1) arrivalScheduleId.value = dropping[0]!.id
    },
    chooseBoarding(id) {
      departureScheduleId.value = id
    },
    chooseDropping(id) {
      arrivalScheduleId.value = id
    },
    select(name) {
      // a new hold after a reset (expirationTime now) or an expired one: its expiry comes with the lock
      // answer; the old one would end the new hold at the hold clock's next tick
      const exp = expirationTime.peek()
      if (countedSeats.peek().length === 0 && exp && Date.parse(exp) <= now()) expirationTime.value = null
      // a first seat starts a new hold on the server: its extensions start again
      if (countedSeats.peek().length === 0) holdLimit.value = null
      put(name, 'selected')
      seatNames.value = [...seatNames.peek(), name]
    },
    deselect(name) {
      put(name, 'available')
      seatNames.value = seatNames.peek().filter((n) => n !== name)
      say({ kind: 'deselected', seatName: name })
    },
    revert(name, held) {
      const sig = seatSignal(name)
      if (!sig) return
      sig.value = held ? 'selected' : 'available'
      const names = seatNames.peek().filter((n) => n !== name)
      seatNames.value = held ? [...names, name] : names
    },
    loseSeat(name) {
      const sig = seatSignal(name)
      if (sig) sig.value = 'held'
      seatNames.value = seatNames.peek().filter((n) => n !== name)
      availableSeats.value = Math.max(0, availableSeats.peek() - 1)
      say({ kind: 'lockLost', seatName: name })
    },
    clearSelection(exp, event) {
      bookedHold.value = false
      if (!event) holdLimit.value = null
      unselectAll()
      seatNames.value = []
      expirationTime.value = exp
      if (!event) return
      clockNow.value = now()
      say({ kind: event })
    },
    holdSeats(names, exp, booked) {
      const keep = names.filter((n) => !!seatSignal(n))
      unselectAll(keep)
      for (const n of keep) seatSignal(n)!.value = 'selected'
      seatNames.value = keep
      bookedHold.value = booked
      holdLimit.value = null
      expirationTime.value = exp
      clockNow.value = now()
    },
    setExpiry(exp, keep) {
      if (!keep || exp) expirationTime.value = exp
      clockNow.value = now()
    },
    extended(exp, limit, event) {
      holdLimit.value = limit
      expirationTime.value = exp
      clockNow.value = now()
      if (event) say({ kind: event, until: exp })
    },
    unbook() {
      bookedHold.value = false
    },
    tick() {
      clockNow.value = now()
    },
    takeDown() {
      tripCanceled.value = true
      loadStatus.value = 'error'
      tripDetails.value = null
      availableSeats.value = 0
      boardingStations.value = []
      droppingStations.value = []
    },
    applyLive(live, skip) {
      const details = tripDetails.peek()
      const changes: SeatChange[] = []
      if (!details) return changes
      for (const s of live) {
        const sig = seatSignal(s.name)
        if (!sig || s.name === OPEN_SEAT_NAME || skip(s.name)) continue
        const from = sig.peek()
        if (from === 'selected' || from === s.state) continue
        sig.value = s.state
        changes.push({ name: s.name, from, to: s.state })
      }
      if (changes.length === 0) return changes
      availableSeats.value = details.seatLayout.seats.filter((s) => s.name !== OPEN_SEAT_NAME && seatSignal(s.name)?.peek() === 'available').length
      return changes
    },
    setLiveStatus(status) {
      liveStatus.value = status
    },
  }
})

/** A seat's state from the server's data. */
export function stateOf(s: Seat): SeatState {
  switch (s.status) {
    case seatStatus.sold:
      return 'sold'
    case seatStatus.booked:
      return 'booked'
    case seatStatus.adminBooked:
      return 'adminBooked'
    case seatStatus.linked:
      return 'linked'
    default:
      return s.lockedByOther ? 'held' : s.lockedByMe ? 'selected' : 'available'
  }
}

/** True when the server answered TRIP_OMITTED: the operator cancelled the trip. */
export function isTripOmitted(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'TRIP_OMITTED'
}

/** The seat-lock request for `seatNames` of the trip. */
export function lockBody(details: TripDetails, seatNames: string[], locked: boolean): SeatLockRequest {
  return {
    tripId: details.tripId,
    tripDate: details.tripDate,
    coachCode: details.coach.code,
    originCode: details.originCode,
    destinationCode: details.destinationCode,
    seatNames,
    locked,
  }
}

/** The extend-seat-lock request for `seatNames` of the trip, to `expirationTime` (a return leg's: its booked `outbound` too). */
export function extendBody(details: TripDetails, seatNames: string[], expirationTime: string, outbound?: number): ExtendSeatLockRequest {
  const { locked: _, ...trip } = lockBody(details, seatNames, true)
  return { ...trip, expirationTime, ...(outbound ? { outboundReservationId: outbound } : {}) }
}
