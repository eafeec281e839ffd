/**
 * Seat choice, the trip: loading the trip's details and counters (docs/spec.md section 3), choosing
 * the counters, and merging other passengers' changes from the live seat map.
 */
import { batch } from '@preact/signals-react'
import type { TripDetails } from '../../contract/schemas.ts'
import type { LiveSeat } from '../../contract/streams.ts'
import { MAX_SEATS, OPEN_SEAT_NAME, seatStatus } from '../../contract/values.ts'
import { call } from '../api/index.ts'
import { now } from '../lib/clock.ts'
import { type TripRef, tripDetailsBody } from '../lib/trip-ref.ts'
import { lockBook, releaseSeats, schedule, type SeatSync, tripGone } from './seat-locks.ts'
import {
  arrivalScheduleIdState,
  availableSeatsState,
  boardingStationsState,
  bookedHoldState,
  clearSeatSignals,
  departureScheduleIdState,
  droppingStationsState,
  emitEvent,
  expirationTimeState,
  holdLimitState,
  isTripOmitted,
  lastEventState,
  limitBaseState,
  type LiveStatus,
  liveStatusState,
  type LoadStatus,
  loadStatusState,
  nowState,
  putSeatState,
  type SeatChange,
  seatNamesState,
  seatSignal,
  type SeatState,
  stateOf,
  tripCanceledState,
  tripDetailsState,
  tripRefState,
} from './seat-map.ts'
import * as ui from './ui.ts'

/** Bumped on every load: an older load's answer is ignored (non-reactive). */
let loadSeq = 0

/**
 * Loads trip details and the boarding and dropping counters. When another trip
 * was on screen, its held seats are released first. Failures set the error
 * dialog to the server's reason (docs/spec.md section 7).
 */
export async function loadTrip(ref: TripRef): Promise<LoadStatus> {
  const prev = tripRefState.value
  const sameTrip = prev && prev.tripId === ref.tripId && prev.originCode === ref.originCode && prev.destinationCode === ref.destinationCode
  // the first trip's seats are given back; its seat map goes at once (below), not when that is done
  const released = prev && !sameTrip ? releaseSeats() : null
  // A reload of the same trip (back from login, after a refused booking) keeps its seat map on
  // screen and its lock requests running: seats chosen meanwhile stay chosen (applyDetails).
  // Another trip's seat map is taken down at once: a click on it would lock a seat of that trip.
  if (!sameTrip) lockBook.generation++
  const gen = lockBook.generation
  const seq = ++loadSeq
  lockBook.touched = new Set()
  batch(() => {
    tripRefState.value = ref
    loadStatusState.value = 'loading'
    tripCanceledState.value = false
    if (!sameTrip) {
      departureScheduleIdState.value = null
      arrivalScheduleIdState.value = null
      tripDetailsState.value = null
      seatNamesState.value = []
      expirationTimeState.value = null
      holdLimitState.value = null
      boardingStationsState.value = []
      droppingStationsState.value = []
      lastEventState.value = null
    }
  })
  if (!sameTrip) {
    // nothing of the first trip stays: its seats' states and its lock bookkeeping
    lockBook.sync = new Map()
    clearSeatSignals()
  }
  if (released) await released
  const stale = () => seq !== loadSeq || gen !== lockBook.generation
  try {
    const body = tripDetailsBody(ref, departureScheduleIdState.value, arrivalScheduleIdState.value)
    const details = await call('tripDetails', { body })
    if (stale()) return loadStatusState.value
    applyDetails(details, !!sameTrip)
  } catch (err) {
    if (stale()) return loadStatusState.value
    if (isTripOmitted(err)) {
      tripGone()
      return 'error'
    }
    loadStatusState.value = 'error'
    ui.showError(ui.messageForError(err))
    return 'error'
  }
  const details = tripDetailsState.value!
  try {
    const stations = await call('busStations', {
      body: { originCode: ref.originCode, destinationCode: ref.destinationCode, tripDate: details.tripDate, tripId: ref.tripId },
    })
    if (stale()) return loadStatusState.value
    batch(() => {
      boardingStationsState.value = stations.boarding
      droppingStationsState.value = stations.dropping
      if (departureScheduleIdState.value === null && stations.boarding.length === 1) departureScheduleIdState.value = stations.boarding[0]!.id
      if (arrivalScheduleIdState.value === null && stations.dropping.length === 1) arrivalScheduleIdState.value = stations.dropping[0]!.id
    })
  } catch (err) {
    if (stale()) return loadStatusState.value
    ui.toastError(ui.messageForError(err))
  }
  return loadStatusState.value
}

/**
 * Shows a trip-details answer. On a reload of the same trip (`sameTrip`), a seat the passenger
 * toggled during the load, or whose lock request is still running or about to run, keeps what
 * the passenger chose (the answer may have been taken before that lock or unlock reached the
 * server) unless the seat has been sold or booked meanwhile; its lock request carries on.
 */
function applyDetails(details: TripDetails, sameTrip = false): void {
  const nextSync = new Map<string, SeatSync>()
  /** Seats the server says it holds for us. */
  const serverMine: string[] = []
  /** Seats whose on-screen choice stands over the answer: name → chosen. */
  const kept = new Map<string, boolean>()
  for (const s of details.seatLayout.seats) {
    const held = s.lockedByMe && s.status === seatStatus.available && s.name !== OPEN_SEAT_NAME
    if (held) serverMine.push(s.name)
    const entry = lockBook.sync.get(s.name)
    const chosen = seatSignal(s.name)?.peek() === 'selected'
    const pending = !!entry && (entry.busy || lockBook.touched.has(s.name) || chosen !== entry.held)
    if (sameTrip && !bookedHoldState.peek() && pending && s.name !== OPEN_SEAT_NAME && s.status === seatStatus.available) {
      // the same object: a running reconcile loop goes on updating it
      nextSync.set(s.name, entry)
      kept.set(s.name, chosen)
      // someone else holds it now: lock it again, so a falsy answer takes it away with the lock-lost dialog
      if (chosen && s.lockedByOther && !entry.busy) entry.held = false
    } else {
      nextSync.set(s.name, { held, busy: false })
    }
  }
  const mine = details.seatLayout.seats.map((s) => s.name).filter((n) => (kept.has(n) ? kept.get(n) : serverMine.includes(n)))
  // the caller's selection keeps its order; seats the server holds for it (reload, back) follow
  const before = seatNamesState.peek().filter((n) => mine.includes(n))
  const selection = [...before, ...mine.filter((n) => !before.includes(n))].slice(0, MAX_SEATS)
  lockBook.sync = nextSync
  batch(() => {
    // the server's remaining limit already subtracts the seats it holds for us
    limitBaseState.value = details.remainingSeatLimit + Math.min(serverMine.length, MAX_SEATS)
    for (const s of details.seatLayout.seats) {
      const state: SeatState = kept.has(s.name)
        ? kept.get(s.name)
          ? 'selected'
          : s.lockedByOther || seatSignal(s.name)?.peek() === 'held'
            ? 'held'
            : 'available'
        : serverMine.includes(s.name)
          ? 'selected'
          : stateOf(s)
      putSeatState(s.name, state)
    }
    // the caller's own unexpired locks (reload, back) are kept as the selection
    seatNamesState.value = selection
    expirationTimeState.value = selection.length ? (details.expirationTime ?? expirationTimeState.peek()) : null
    availableSeatsState.value = details.availableSeats
    tripDetailsState.value = details
    loadStatusState.value = 'ready'
    nowState.value = now()
  })
  // a choice made during the load whose lock request has not started yet
  for (const [name, chosen] of kept) {
    const entry = nextSync.get(name)!
    if (!entry.busy && chosen !== entry.held) schedule(name)
  }
}

/** Chooses the boarding counter (SPEC departureScheduleId). */
export function chooseBoarding(id: number | null): void {
  departureScheduleIdState.value = id
}

/** Chooses the dropping counter (SPEC arrivalScheduleId). */
export function chooseDropping(id: number | null): void {
  arrivalScheduleIdState.value = id
}

/**
 * Shows other passengers' changes from the live seat map: each seat of the trip takes its
 * new state at once (its accessible name follows), silently. The passenger's own seats (chosen,
 * or with a lock request running or about to) are left alone: an event cannot say whose a hold
 * is, and the store knows its own. Answers the seats that changed on screen.
 */
export function applyLiveSeats(tripId: number, seats: LiveSeat[]): SeatChange[] {
  const details = tripDetailsState.peek()
  if (!details || details.tripId !== tripId) return []
  const changes: SeatChange[] = []
  batch(() => {
    for (const s of seats) {
      const sig = seatSignal(s.name)
      const entry = lockBook.sync.get(s.name)
      if (!sig || s.name === OPEN_SEAT_NAME || entry?.busy || entry?.held) continue
      const from = sig.peek()
      if (from === 'selected' || from === s.state) continue
      sig.value = s.state
      changes.push({ name: s.name, from, to: s.state })
    }
    if (changes.length === 0) return
    availableSeatsState.value = details.seatLayout.seats.filter((s) => s.name !== OPEN_SEAT_NAME && seatSignal(s.name)?.peek() === 'available').length
  })
  return changes
}

/**
 * Reads trip `tripId`'s seats again (the live seat map after a gap or a change to the trip), as a
 * reload of the page would. Not while a booking holds the seats: its answer shows the booking's
 * own seats as booked and would take them out of the frozen selection; the stream's snapshot
 * brings the other passengers' seats meanwhile.
 */
export async function reloadSeats(tripId: number): Promise<void> {
  const ref = tripRefState.peek()
  if (!ref || ref.tripId !== tripId || bookedHoldState.peek()) return
  await loadTrip(ref)
}

/**
 * Says, politely, how many seats other passengers took and how many became available (the live seat
 * map's summary); `focused`: the seat the passenger is on, when it was among those taken.
 */
export function announceOthers(taken: number, freed: number, focused: string | null = null): void {
  emitEvent({ kind: 'others', taken, freed, seatName: focused ?? undefined })
}

/** Records whether the seat map is live (the seat-events stream's state). */
export function setLiveStatus(status: LiveStatus): void {
  liveStatusState.value = status
}
