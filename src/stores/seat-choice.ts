/**
 * Seat choice: the reservation data of docs/spec.md section 3 (seats, expirationTime,
 * departureScheduleId, arrivalScheduleId), the trip details and the selection
 * rules of docs/spec.md sections 4 and 5.
 *
 * Speed: every seat has its own state signal (`seatState(name)`), so toggling
 * a seat re-renders only that seat. A toggle shows at once (optimistic); a
 * per-seat loop then brings the server lock in line with what the passenger
 * wants, and reverts the seat when the server says no.
 */
import { batch, computed, signal, type ReadonlySignal, type Signal } from '@preact/signals-react'
import type { BusStation, ExtendSeatLockRequest, Seat, SeatLockRequest, SeatLockResponse, SeatType, TripDetails } from '../../contract/schemas.ts'
import type { LiveSeat } from '../../contract/streams.ts'
import { HOLD_MINUTES, INFINITE_SEAT_LIMIT, MAX_HOLD_MINUTES, MAX_SEATS, OPEN_SEAT_NAME, seatStatus } from '../../contract/values.ts'
import { call } from '../api/index.ts'
import { defer, every, now } from '../lib/clock.ts'
import { type BookingHold, linkSeatPage } from './seat-page-link.ts'
import * as ui from './ui.ts'

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
import { type TripRef, tripDetailsBody } from '../lib/trip-ref.ts'
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

// ---------- state ----------

const tripRefState = signal<TripRef | null>(null)
const tripDetailsState = signal<TripDetails | null>(null)
const loadStatusState = signal<LoadStatus>('idle')
const boardingStationsState = signal<BusStation[]>([])
const droppingStationsState = signal<BusStation[]>([])
/** Selected seat names, in the order chosen (SPEC "seats"). */
const seatNamesState = signal<string[]>([])
const expirationTimeState = signal<string | null>(null)
const departureScheduleIdState = signal<number | null>(null)
const arrivalScheduleIdState = signal<number | null>(null)
const availableSeatsState = signal(0)
const lastEventState = signal<SeatEvent | null>(null)
/** Epoch ms, ticking every second while a hold runs (see startHoldClock). */
const nowState = signal(now())
/** The selection size the server allows: its remaining limit plus the seats we already held when it answered. */
const limitBaseState = signal(MAX_SEATS)
const liveStatusState = signal<LiveStatus>('off')
/** What the server said of extending the hold before booking (null: not asked yet): its maximum and the extensions left. */
const holdLimitState = signal<{ max: string; left: number } | null>(null)
/** The hold is a booking's (holdForBooking): its time is the booking's, extended by Extend booking time. */
const bookedHoldState = signal(false)
/** The operator cancelled (or vacated) the trip: the server answers TRIP_OMITTED for it. */
const tripCanceledState = signal(false)

/** Per-seat state signals: the grid subscribes to one each. */
let seatSignals = new Map<string, Signal<SeatState>>()

// Request bookkeeping below: what lock requests are running and which answers are
// stale. Nothing on screen derives from it, so it is plain data, not signals.

/** Per-seat server sync: what the server holds for us and whether a request is running. */
interface SeatSync {
  held: boolean
  busy: boolean
}
let sync = new Map<string, SeatSync>()
/** Bumped on every trip change, reset and release: lock answers from before are ignored (and their locks given back). */
let generation = 0
/** Bumped on every load: an older load's answer is ignored. */
let loadSeq = 0
/**
 * Seats the passenger toggled, or whose lock request answered, since the running load
 * started: the trip-details answer may predate them, so it does not overrule them.
 */
let touched = new Set<string>()
let eventSeq = 0
/** Says why a seat that cannot be chosen was chosen (the live seat map); answers whether it did. */
let explainUnavailable: ((name: string) => boolean) | null = null

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
const seatsByName = computed(() => new Map(tripDetailsState.value?.seatLayout.seats.map((s) => [s.name, s]) ?? []))
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
/** Milliseconds left on the hold, or null when nothing is held. */
export const holdMsLeft = computed(() => {
  const exp = expirationTimeState.value
  if (!exp || countedSeats.value.length === 0) return null
  return Math.max(0, Date.parse(exp) - nowState.value)
})
/** True in the last two minutes of a hold (WCAG 2.2.1 warning). */
export const holdEndingSoon = computed(() => {
  const left = holdMsLeft.value
  return left !== null && left > 0 && left <= 120_000
})

/** The hold is a booking's: only the booking's Extend booking time moves it. */
export const heldForBooking = computed(() => bookedHoldState.value)
/** "Keep my seats" may ask for more time: a hold before booking that has extensions and time left before its maximum. */
export const canKeepSeats = computed(() => {
  if (bookedHoldState.value) return false
  const l = holdLimitState.value
  const exp = expirationTimeState.value
  if (!l || !exp) return true
  return l.left > 0 && Date.parse(l.max) - Date.parse(exp) >= 1000
})

/** The state signal of one seat (read it inside the seat's own component). */
export function seatState(name: string): ReadonlySignal<SeatState> {
  let s = seatSignals.get(name)
  if (!s) {
    s = signal<SeatState>('sold')
    seatSignals.set(name, s)
  }
  return s
}

// ---------- actions ----------

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
  if (!sameTrip) generation++
  const gen = generation
  const seq = ++loadSeq
  touched = new Set()
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
    sync = new Map()
    seatSignals = new Map()
  }
  if (released) await released
  const stale = () => seq !== loadSeq || gen !== generation
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
    const entry = sync.get(s.name)
    const chosen = seatSignals.get(s.name)?.peek() === 'selected'
    const pending = !!entry && (entry.busy || touched.has(s.name) || chosen !== entry.held)
    if (sameTrip && !bookingHold && pending && s.name !== OPEN_SEAT_NAME && s.status === seatStatus.available) {
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
  sync = nextSync
  batch(() => {
    // the server's remaining limit already subtracts the seats it holds for us
    limitBaseState.value = details.remainingSeatLimit + Math.min(serverMine.length, MAX_SEATS)
    for (const s of details.seatLayout.seats) {
      const state: SeatState = kept.has(s.name)
        ? kept.get(s.name)
          ? 'selected'
          : s.lockedByOther || seatSignals.get(s.name)?.peek() === 'held'
            ? 'held'
            : 'available'
        : serverMine.includes(s.name)
          ? 'selected'
          : stateOf(s)
      const sig = seatSignals.get(s.name)
      if (sig) sig.value = state
      else seatSignals.set(s.name, signal(state))
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

/** Why a toggle did or did not happen. */
export type ToggleResult = 'selected' | 'deselected' | 'unavailable' | 'maxSeats' | 'seatLimit' | 'unknown'

/**
 * Chooses or un-chooses a seat (docs/spec.md sections 4 and 5). The selected state
 * shows at once; the lock (or unlock) request follows, and a falsy lock answer
 * takes the seat away again with the lock-lost dialog.
 */
export function toggleSeat(name: string): ToggleResult {
  const seat = seatsByName.value.get(name)
  const sig = seatSignals.get(name)
  if (!seat || !sig) return 'unknown'
  const state = sig.value
  // a booking owns these seats now: the selection is frozen until it ends
  if (bookingHold) {
    emit('rejected', name)
    return 'unavailable'
  }
  if (state === 'selected') {
    touched.add(name)
    batch(() => {
      sig.value = 'available'
      seatNamesState.value = seatNamesState.value.filter((n) => n !== name)
      emit('deselected', name)
    })
    if (name !== OPEN_SEAT_NAME) schedule(name)
    return 'deselected'
  }
  if (state !== 'available') {
    // taken by another passenger while the page was open: the live seat map says so, without a lock request or the lock-lost dialog
    if (!explainUnavailable?.(name)) emit('unavailable', name, state)
    return 'unavailable'
  }
  if (name !== OPEN_SEAT_NAME) {
    const count = countedSeats.value.length
    if (count >= MAX_SEATS) {
      ui.toastWarning({ id: 'error.MAX_SEAT_WARNING', values: { count: MAX_SEATS } })
      emit('rejected', name)
      return 'maxSeats'
    }
    if (count >= seatLimit.value) {
      ui.toastWarning({ id: 'seatChoice.seatLimit', values: { count: seatLimit.value } })
      emit('rejected', name)
      return 'seatLimit'
    }
  }
  touched.add(name)
  batch(() => {
    // a new hold after a reset (expirationTime now) or an expired one: its expiry comes with the lock
    // answer; the old one would end the new hold at the hold clock's next tick
    const exp = expirationTimeState.peek()
    if (countedSeats.peek().length === 0 && exp && Date.parse(exp) <= now()) expirationTimeState.value = null
    // a first seat starts a new hold on the server: its extensions start again
    if (countedSeats.peek().length === 0) holdLimitState.value = null
    sig.value = 'selected'
    seatNamesState.value = [...seatNamesState.value, name]
    emit('selected', name)
  })
  if (name !== OPEN_SEAT_NAME) schedule(name)
  return 'selected'
}

/** Lock requests scheduled or running, and who waits for them all to answer. */
let locksPending = 0
let settledWaiters: (() => void)[] = []

function schedule(name: string): void {
  const gen = generation
  locksPending++
  defer(
    () =>
      void reconcile(name, gen).finally(() => {
        if (--locksPending > 0) return
        const waiters = settledWaiters
        settledWaiters = []
        for (const w of waiters) w()
      }),
  )
}

/**
 * Resolves once every lock and unlock the passenger's clicks started has been answered, so a
 * booking sent now names seats the server already holds for them (Book pressed right after a
 * seat was chosen would otherwise reach the server before that seat's lock).
 */
export function locksSettled(): Promise<void> {
  return locksPending === 0 ? Promise.resolve() : new Promise((resolve) => settledWaiters.push(resolve))
}

/** Brings the server lock of one seat in line with its on-screen state, one request at a time. */
async function reconcile(name: string, gen: number): Promise<void> {
  const entry = sync.get(name)
  if (!entry || entry.busy) return
  const ref = tripRefState.value
  const details = tripDetailsState.value
  if (!ref || !details) return
  entry.busy = true
  try {
    for (;;) {
      if (gen !== generation) return
      const want = seatSignals.get(name)?.value === 'selected'
      if (want === entry.held) return
      const body = lockBody(details, [name], want)
      let res: SeatLockResponse
      try {
        res = await call('seatLock', { body })
      } catch (err) {
        if (gen !== generation) return
        if (isTripOmitted(err)) return tripGone()
        // revert the seat to what the server holds and show the reason
        revert(name, entry.held)
        ui.toastError(ui.messageForError(err))
        emit('failed', name)
        return
      }
      if (gen !== generation) {
        // reset or another trip while this lock was in flight: give it back, unless the seat was chosen again
        const now = tripDetailsState.value
        const sameTrip =
          !!now && now.tripId === details.tripId && now.originCode === details.originCode && now.destinationCode === details.destinationCode
        const chosenAgain = sameTrip && seatSignals.get(name)?.value === 'selected'
        if (want && res && !chosenAgain) void call('seatLock', { body: { ...body, locked: false } }).catch(() => undefined)
        return
      }
      if (!res) {
        if (want) lockLost(name)
        return
      }
      entry.held = want
      touched.add(name)
      if (want || countedSeats.value.length > 0) {
        if (res.expirationTime) expirationTimeState.value = res.expirationTime
      } else {
        expirationTimeState.value = res.expirationTime
      }
      nowState.value = now()
    }
  } finally {
    entry.busy = false
  }
}

function revert(name: string, held: boolean): void {
  const sig = seatSignals.get(name)
  if (!sig) return
  batch(() => {
    sig.value = held ? 'selected' : 'available'
    const names = seatNamesState.value.filter((n) => n !== name)
    seatNamesState.value = held ? [...names, name] : names
  })
}

/** docs/spec.md section 4: a falsy lock answer removes the seat from the selection and from available seats. */
function lockLost(name: string): void {
  batch(() => {
    const sig = seatSignals.get(name)
    if (sig) sig.value = 'held'
    seatNamesState.value = seatNamesState.value.filter((n) => n !== name)
    availableSeatsState.value = Math.max(0, availableSeatsState.value - 1)
    emit('lockLost', name)
  })
  ui.showError({ id: 'seat.lockLost', values: { names: name } })
}

function lockBody(details: TripDetails, seatNames: string[], locked: boolean): SeatLockRequest {
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

function extendBody(details: TripDetails, seatNames: string[], expirationTime: string): ExtendSeatLockRequest {
  const { locked: _, ...trip } = lockBody(details, seatNames, true)
  return { ...trip, expirationTime }
}

/** Names of seats the server holds for us or may be about to (a lock in flight). */
function heldOrPending(): string[] {
  const names: string[] = []
  for (const [name, e] of sync) if (name !== OPEN_SEAT_NAME && (e.held || e.busy)) names.push(name)
  return names
}

/**
 * docs/spec.md section 4 reset: unlocks all held seats, clears the seats and sets
 * expirationTime to now.
 */
export async function resetSeats(opts: { event?: SeatEvent['kind'] } = {}): Promise<void> {
  if (bookingHold && opts.event !== 'expired') return bookingHold.cancel()
  const details = tripDetailsState.value
  const names = heldOrPending()
  const gen = ++generation
  batch(() => {
    for (const n of seatNamesState.value) {
      const sig = seatSignals.get(n)
      if (sig && sig.value === 'selected') sig.value = 'available'
    }
    seatNamesState.value = []
    expirationTimeState.value = new Date(now()).toISOString()
    nowState.value = now()
    emit(opts.event ?? 'reset')
  })
  for (const e of sync.values()) {
    e.held = false
    e.busy = false
  }
  if (details && names.length) {
    try {
      await call('seatLock', { body: lockBody(details, names.slice(0, MAX_SEATS), false) })
    } catch (err) {
      if (gen === generation) ui.toastError(ui.messageForError(err))
    }
  }
}

/**
 * Gives back every held seat without touching the screen more than needed:
 * leaving the page, choosing another trip, closing the tab (`keepalive` lets
 * the request outlive the page).
 */
export async function releaseSeats(opts: { keepalive?: boolean } = {}): Promise<void> {
  const details = tripDetailsState.value
  const names = heldOrPending()
  generation++
  bookingHold = null
  for (const e of sync.values()) {
    e.held = false
    e.busy = false
  }
  batch(() => {
    bookedHoldState.value = false
    holdLimitState.value = null
    for (const n of seatNamesState.value) {
      const sig = seatSignals.get(n)
      if (sig && sig.value === 'selected') sig.value = 'available'
    }
    seatNamesState.value = []
    expirationTimeState.value = null
  })
  if (!details || !names.length) return
  try {
    await call('seatLock', { body: lockBody(details, names.slice(0, MAX_SEATS), false), keepalive: opts.keepalive })
  } catch {
    // the page is going away or another trip is loading; the server lets the lock expire
  }
}

/** Each "Keep my seats" asks for this much more time (capped at the hold's maximum), as a booking's Extend does. */
export const KEEP_MINUTES = 10

/**
 * Keeps the seats for longer (WCAG 2.2.1): asks the server to extend the hold
 * (POST /reservation/extendSeatLock: at most MAX_HOLD_EXTENSIONS times, never past
 * MAX_HOLD_MINUTES from when it was won) and says what it answered: the new end of
 * the hold, or that the seats cannot be held longer. A booked hold asks the booking.
 */
export async function extendHold(): Promise<void> {
  if (bookingHold) {
    const until = await bookingHold.extend()
    if (until) {
      batch(() => {
        expirationTimeState.value = until
        nowState.value = now()
        emit('extended', undefined, undefined, until)
      })
    }
    return
  }
  const details = tripDetailsState.value
  const names = countedSeats.value.map((s) => s.name)
  const exp = expirationTimeState.value
  if (!details || names.length === 0 || !exp || !canKeepSeats.value) return
  const limit = holdLimitState.value
  // before the first answer the maximum is counted from the hold as the server gave it
  const max = limit ? Date.parse(limit.max) : Date.parse(exp) + (MAX_HOLD_MINUTES - HOLD_MINUTES) * 60_000
  const wanted = Math.min(max, Math.max(now(), Date.parse(exp)) + KEEP_MINUTES * 60_000)
  const gen = generation
  try {
    const res = await call('extendSeatLock', { body: extendBody(details, names, new Date(wanted).toISOString()) })
    if (gen !== generation) return
    batch(() => {
      expirationTimeState.value = res.expirationTime
      holdLimitState.value = { max: res.maxExpirationTime, left: res.extensionsLeft }
      nowState.value = now()
      emit('extended', undefined, undefined, res.expirationTime)
    })
  } catch (err) {
    if (gen !== generation) return
    const code = (err as { code?: unknown }).code
    if (isTripOmitted(err)) {
      tripGone()
      return
    }
    if (code === 'HOLD_EXTENSION_REFUSED' || code === 'INVALID_EXPIRATION_TIME') {
      // the hold runs to its end as it is (the server says when: another tab may have extended it); the hold
      // warning says so and offers no Keep my seats, or, when that end is further off, the live region does
      const until = (err as { values?: { until?: unknown } }).values?.until
      const end = typeof until === 'string' && Date.parse(until) > Date.parse(exp) ? until : exp
      batch(() => {
        holdLimitState.value = { max: end, left: 0 }
        expirationTimeState.value = end
        nowState.value = now()
        if (!holdEndingSoon.value) emit('extendRefused', undefined, undefined, end)
      })
    } else if (code === 'BOOKING_TIME_EXCEED') {
      // the hold is gone on the server: treat like a lost lock (its dialog says so)
      await resetSeats({ event: 'lockLost' })
      ui.showError({ id: 'seat.lockLost', values: { names: names.join(', ') } })
    } else ui.toastError(ui.messageForError(err))
  }
}

let keepOnLeave = false

/** The next navigation away keeps the held seats (e.g. the login handoff of the booking step). */
export function keepSeatsOnLeave(): void {
  keepOnLeave = true
}

/** The seat page is going away: release the held seats unless keepSeatsOnLeave was called. */
export function leavePage(): void {
  if (keepOnLeave) {
    keepOnLeave = false
    return
  }
  void releaseSeats()
}

/** The hold ran out: reset and tell the passenger. */
export async function expireHold(): Promise<void> {
  if (countedSeats.value.length === 0) return
  const hold = bookingHold
  bookingHold = null
  bookedHoldState.value = false
  hold?.expired()
  await resetSeats({ event: 'expired' })
  // said once: a booking's end by the booking (its live region), a hold's by this notification
  if (!hold) ui.toastInfo({ id: 'seatChoice.holdExpired' })
}

let bookingHold: BookingHold | null = null

/**
 * The held seats became a booking: the server spent their locks, so nothing is
 * released on leave, the selection is frozen and the hold runs to the booking's
 * expiry. `hold` null hands the seats back to seat choice (booking ended).
 */
export function holdForBooking(names: string[], expiration: string | null, hold: BookingHold | null): void {
  bookingHold = hold
  generation++
  for (const e of sync.values()) {
    e.held = false
    e.busy = false
  }
  const keep = hold ? names.filter((n) => seatSignals.has(n)) : []
  batch(() => {
    for (const n of seatNamesState.value) {
      const sig = seatSignals.get(n)
      if (sig && sig.value === 'selected' && !keep.includes(n)) sig.value = 'available'
    }
    for (const n of keep) seatSignals.get(n)!.value = 'selected'
    seatNamesState.value = keep
    bookedHoldState.value = hold !== null
    holdLimitState.value = null
    expirationTimeState.value = hold ? expiration : null
    nowState.value = now()
  })
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
      const sig = seatSignals.get(s.name)
      const entry = sync.get(s.name)
      if (!sig || s.name === OPEN_SEAT_NAME || entry?.busy || entry?.held) continue
      const from = sig.peek()
      if (from === 'selected' || from === s.state) continue
      sig.value = s.state
      changes.push({ name: s.name, from, to: s.state })
    }
    if (changes.length === 0) return
    availableSeatsState.value = details.seatLayout.seats.filter(
      (s) => s.name !== OPEN_SEAT_NAME && seatSignals.get(s.name)?.peek() === 'available',
    ).length
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
  if (!ref || ref.tripId !== tripId || bookingHold) return
  await loadTrip(ref)
}

/**
 * Says, politely, how many seats other passengers took and how many became available (the live seat
 * map's summary); `focused`: the seat the passenger is on, when it was among those taken.
 */
export function announceOthers(taken: number, freed: number, focused: string | null = null): void {
  lastEventState.value = { kind: 'others', taken, freed, seatName: focused ?? undefined, seq: ++eventSeq }
}

/**
 * Lets the live seat map say why a seat it saw taken cannot be chosen: `fn` answers true when
 * it said so (null: the live region says the seat's state, as without it).
 */
export function setUnavailableExplainer(fn: ((name: string) => boolean) | null): void {
  explainUnavailable = fn
}

/** Records whether the seat map is live (the seat-events stream's state). */
export function setLiveStatus(status: LiveStatus): void {
  liveStatusState.value = status
}

/**
 * Runs the hold clock: ticks `now` every second while seats are held and
 * expires the hold when its time is up. Returns the disposer.
 */
export function startHoldClock(): () => void {
  return every(1000, () => {
    if (countedSeats.value.length === 0) return
    nowState.value = now()
    if (holdMsLeft.value === 0) void expireHold()
  })
}

/** Moves the hold clock (tests, and after the tab wakes up). */
export function tick(): void {
  nowState.value = now()
  if (holdMsLeft.value === 0 && countedSeats.value.length > 0) void expireHold()
}

// ---------- helpers ----------

function emit(kind: SeatEvent['kind'], seatName?: string, state?: SeatState, until?: string): void {
  lastEventState.value = { kind, seatName, state, until, seq: ++eventSeq }
}

function isTripOmitted(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'TRIP_OMITTED'
}

/**
 * The operator cancelled the trip: its seats are given back (the server dropped the holds when
 * it closed the trip; the unlock is for a server that did not), lock requests still running are
 * ignored, and the seat map goes, so nothing more can be chosen on it. The page says why.
 */
function tripGone(): void {
  void releaseSeats()
  batch(() => {
    tripCanceledState.value = true
    loadStatusState.value = 'error'
    tripDetailsState.value = null
    availableSeatsState.value = 0
    boardingStationsState.value = []
    droppingStationsState.value = []
  })
  sync = new Map()
  touched = new Set()
}

linkSeatPage({ tripId: () => tripDetails.value?.tripId, tripRef: () => tripRef.value, holdForBooking, loadTrip })
