/**
 * Seat choice, the seats: choosing and un-choosing one, and the per-seat lock queue that brings the
 * server's lock in line with what the passenger chose. A toggle shows at once (optimistic); a per-seat
 * loop then asks the server, one request at a time, and reverts the seat when the server says no.
 */
import { batch } from '@preact/signals-react'
import type { SeatLockResponse } from '../../contract/schemas.ts'
import { MAX_SEATS, OPEN_SEAT_NAME } from '../../contract/values.ts'
import { call } from '../api/index.ts'
import { defer, now } from '../lib/clock.ts'
import {
  availableSeatsState,
  boardingStationsState,
  bookedHoldState,
  countedSeats,
  droppingStationsState,
  emit,
  expirationTimeState,
  holdLimitState,
  isTripOmitted,
  loadStatusState,
  lockBody,
  nowState,
  seatLimit,
  seatNamesState,
  seatSignal,
  seatsByName,
  tripCanceledState,
  tripDetailsState,
  tripRefState,
} from './seat-map.ts'
import * as ui from './ui.ts'

// Request bookkeeping: what lock requests are running and which answers are stale. Nothing on
// screen derives from it, so it is plain data, not signals (a non-reactive handle).

/** Per-seat server sync: what the server holds for us and whether a request is running. */
export interface SeatSync {
  held: boolean
  busy: boolean
}

export const lockBook = {
  sync: new Map<string, SeatSync>(),
  /** Bumped on every trip change, reset and release: lock answers from before are ignored (and their locks given back). */
  generation: 0,
  /**
   * Seats the passenger toggled, or whose lock request answered, since the running load
   * started: the trip-details answer may predate them, so it does not overrule them.
   */
  touched: new Set<string>(),
}

/** Lock requests are over (reset, release, a booking took the seats): nothing is held or running. */
export function forgetLocks(): void {
  for (const e of lockBook.sync.values()) {
    e.held = false
    e.busy = false
  }
}

/** Says why a seat that cannot be chosen was chosen (the live seat map); answers whether it did (a registered callback). */
let explainUnavailable: ((name: string) => boolean) | null = null

/**
 * Lets the live seat map say why a seat it saw taken cannot be chosen: `fn` answers true when
 * it said so (null: the live region says the seat's state, as without it).
 */
export function setUnavailableExplainer(fn: ((name: string) => boolean) | null): void {
  explainUnavailable = fn
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
  const sig = seatSignal(name)
  if (!seat || !sig) return 'unknown'
  const state = sig.value
  // a booking owns these seats now: the selection is frozen until it ends
  if (bookedHoldState.peek()) {
    emit('rejected', name)
    return 'unavailable'
  }
  if (state === 'selected') {
    lockBook.touched.add(name)
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
  lockBook.touched.add(name)
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

export function schedule(name: string): void {
  const gen = lockBook.generation
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
  const entry = lockBook.sync.get(name)
  if (!entry || entry.busy) return
  const ref = tripRefState.value
  const details = tripDetailsState.value
  if (!ref || !details) return
  entry.busy = true
  try {
    for (;;) {
      if (gen !== lockBook.generation) return
      const want = seatSignal(name)?.value === 'selected'
      if (want === entry.held) return
      const body = lockBody(details, [name], want)
      let res: SeatLockResponse
      try {
        res = await call('seatLock', { body })
      } catch (err) {
        if (gen !== lockBook.generation) return
        if (isTripOmitted(err)) return tripGone()
        // revert the seat to what the server holds and show the reason
        revert(name, entry.held)
        ui.toastError(ui.messageForError(err))
        emit('failed', name)
        return
      }
      if (gen !== lockBook.generation) {
        // reset or another trip while this lock was in flight: give it back, unless the seat was chosen again
        const now = tripDetailsState.value
        const sameTrip =
          !!now && now.tripId === details.tripId && now.originCode === details.originCode && now.destinationCode === details.destinationCode
        const chosenAgain = sameTrip && seatSignal(name)?.value === 'selected'
        if (want && res && !chosenAgain) void call('seatLock', { body: { ...body, locked: false } }).catch(() => undefined)
        return
      }
      if (!res) {
        if (want) lockLost(name)
        return
      }
      entry.held = want
      lockBook.touched.add(name)
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
  const sig = seatSignal(name)
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
    const sig = seatSignal(name)
    if (sig) sig.value = 'held'
    seatNamesState.value = seatNamesState.value.filter((n) => n !== name)
    availableSeatsState.value = Math.max(0, availableSeatsState.value - 1)
    emit('lockLost', name)
  })
  ui.showError({ id: 'seat.lockLost', values: { names: name } })
}

/** Names of seats the server holds for us or may be about to (a lock in flight). */
export function heldOrPending(): string[] {
  const names: string[] = []
  for (const [name, e] of lockBook.sync) if (name !== OPEN_SEAT_NAME && (e.held || e.busy)) names.push(name)
  return names
}

/**
 * Gives back every held seat without touching the screen more than needed:
 * leaving the page, choosing another trip, closing the tab (`keepalive` lets
 * the request outlive the page).
 */
export async function releaseSeats(opts: { keepalive?: boolean } = {}): Promise<void> {
  const details = tripDetailsState.value
  const names = heldOrPending()
  lockBook.generation++
  forgetLocks()
  batch(() => {
    bookedHoldState.value = false
    holdLimitState.value = null
    for (const n of seatNamesState.value) {
      const sig = seatSignal(n)
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

/**
 * The operator cancelled the trip: its seats are given back (the server dropped the holds when
 * it closed the trip; the unlock is for a server that did not), lock requests still running are
 * ignored, and the seat map goes, so nothing more can be chosen on it. The page says why.
 */
export function tripGone(): void {
  void releaseSeats()
  batch(() => {
    tripCanceledState.value = true
    loadStatusState.value = 'error'
    tripDetailsState.value = null
    availableSeatsState.value = 0
    boardingStationsState.value = []
    droppingStationsState.value = []
  })
  lockBook.sync = new Map()
  lockBook.touched = new Set()
}
