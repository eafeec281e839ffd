/**
 * Seat choice, its state: the trip on the seat page, its seat map (one state signal per seat), the
 * passenger's selection, the hold's expiry and what the live region says. The actions that write it
 * are in seat-trip.ts (loading, live changes), seat-locks.ts (choosing seats, the lock queue) and
 * seat-hold.ts (the hold: keep, reset, expiry, clock); seat-choice.ts is the public face.
 */
import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals-react'
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

// Written only by the actions of seat-trip.ts, seat-locks.ts and seat-hold.ts (seat-choice.ts
// re-exports the read-only computeds below, never these).

export const tripRefState = signal<TripRef | null>(null)
export const tripDetailsState = signal<TripDetails | null>(null)
export const loadStatusState = signal<LoadStatus>('idle')
export const boardingStationsState = signal<BusStation[]>([])
export const droppingStationsState = signal<BusStation[]>([])
/** Selected seat names, in the order chosen (SPEC "seats"). */
export const seatNamesState = signal<string[]>([])
export const expirationTimeState = signal<string | null>(null)
export const departureScheduleIdState = signal<number | null>(null)
export const arrivalScheduleIdState = signal<number | null>(null)
export const availableSeatsState = signal(0)
export const lastEventState = signal<SeatEvent | null>(null)
/** Epoch ms, ticking every second while a hold runs (see startHoldClock). */
export const nowState = signal(now())
/** The selection size the server allows: its remaining limit plus the seats we already held when it answered. */
export const limitBaseState = signal(MAX_SEATS)
export const liveStatusState = signal<LiveStatus>('off')
/** What the server said of extending the hold before booking (null: not asked yet): its maximum and the extensions left. */
export const holdLimitState = signal<{ max: string; left: number } | null>(null)
/** The hold is a booking's (holdForBooking): its time is the booking's, extended by Extend booking time; its seats are frozen. */
export const bookedHoldState = signal(false)
/** The operator cancelled (or vacated) the trip: the server answers TRIP_OMITTED for it. */
export const tripCanceledState = signal(false)

/** Per-seat state signals: the grid subscribes to one each. Replaced, not emptied, when another trip loads. */
let seatSignals = new Map<string, Signal<SeatState>>()

/** The state signal of one seat, if the seat map has it. */
export function seatSignal(name: string): Signal<SeatState> | undefined {
  return seatSignals.get(name)
}

/** Sets one seat's state, adding the seat to the seat map when it is new. */
export function putSeatState(name: string, state: SeatState): void {
  const sig = seatSignals.get(name)
  if (sig) sig.value = state
  else seatSignals.set(name, signal(state))
}

/** Another trip: none of the first trip's seat states stays. */
export function clearSeatSignals(): void {
  seatSignals = new Map()
}

/** The state signal of one seat (read it inside the seat's own component). */
export function seatState(name: string): ReadonlySignal<SeatState> {
  let s = seatSignals.get(name)
  if (!s) {
    s = signal<SeatState>('sold')
    seatSignals.set(name, s)
  }
  return s
}

/** Numbers the live region's events, so the same event twice is said twice. */
let eventSeq = 0

export function emit(kind: SeatEvent['kind'], seatName?: string, state?: SeatState, until?: string): void {
  emitEvent({ kind, seatName, state, until })
}

/** Says `event` in the live region. */
export function emitEvent(event: Omit<SeatEvent, 'seq'>): void {
  lastEventState.value = { ...event, seq: ++eventSeq }
}

export const tripRef = computed(() => tripRefState.value)
export const tripDetails = computed(() => tripDetailsState.value)
export const loadStatus = computed(() => loadStatusState.value)
export const boardingStations = computed(() => boardingStationsState.value)
export const droppingStations = computed(() => droppingStationsState.value)
export const expirationTime = computed(() => expirationTimeState.value)
/** Chosen boarding counter id. */
export const departureScheduleId = computed(() => departureScheduleIdState.value)
/** Chosen dropping counter id. */
export const arrivalScheduleId = computed(() => arrivalScheduleIdState.value)
export const availableSeats = computed(() => availableSeatsState.value)
export const lastEvent = computed(() => lastEventState.value)
export const liveStatus = computed(() => liveStatusState.value)
/**
 * The trip on the page was cancelled by the operator (the server answers TRIP_OMITTED, on the
 * first load, on a reload from the live seat map, or on a seat lock): the seat map is taken down,
 * the held seats are given back and the page says so, with a way back to search.
 */
export const tripCanceled = computed(() => tripCanceledState.value)

/** The trip's seats by name (static data: type, fare, position). */
export const seatsByName = computed(() => new Map(tripDetailsState.value?.seatLayout.seats.map((s) => [s.name, s]) ?? []))
/** The selected seats (SPEC "seats": seat objects with a name), in the order chosen. */
export const seats = computed(() => seatNamesState.value.map((n) => seatsByName.value.get(n)).filter((s): s is Seat => !!s))
/** Selected seats that count (OPEN placeholders excluded). */
export const countedSeats = computed(() => seats.value.filter((s) => s.name !== OPEN_SEAT_NAME))
export const totalFare = computed(() => countedSeats.value.reduce((sum, s) => sum + s.fare, 0))
/** Selected seats grouped by seat type: count, fare per seat and subtotal. */
export const fareByType = computed(() => {
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
/** Seats the passenger may still add: the smaller of MAX_SEATS and the server's remaining limit. */
export const seatLimit = computed(() => {
  const remaining = tripDetailsState.value?.remainingSeatLimit ?? MAX_SEATS
  return remaining === INFINITE_SEAT_LIMIT ? MAX_SEATS : Math.min(MAX_SEATS, Math.max(0, limitBaseState.value))
})
/** The hold is a booking's: only the booking's Extend booking time moves it. */
export const heldForBooking = computed(() => bookedHoldState.value)

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

export function isTripOmitted(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'TRIP_OMITTED'
}

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

export function extendBody(details: TripDetails, seatNames: string[], expirationTime: string): ExtendSeatLockRequest {
  const { locked: _, ...trip } = lockBody(details, seatNames, true)
  return { ...trip, expirationTime }
}
