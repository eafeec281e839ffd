/**
 * The lock queue of one seat-page visit: choosing and un-choosing a seat, and the per-seat queue that
 * brings the server's lock in line with what the passenger chose. A toggle shows at once (optimistic);
 * a per-seat loop then asks the server, one request at a time, and reverts the seat when the server
 * says no. It receives the visit's seat map and writes it through the map's actions.
 */
import { createModel, type ModelConstructor, type ReadonlySignal, signal } from '@preact/signals-core'
import type { SeatLockResponse } from '../../contract/schemas.ts'
import { MAX_SEATS, OPEN_SEAT_NAME } from '../../contract/values.ts'
import { call } from '../api/index.ts'
import { defer, now } from '../lib/clock.ts'
import { messageForError, type Notices } from './ui.ts'
import { isTripOmitted, lockBody, type SeatEvent, type SeatMap } from './seat-map.ts'

/** Per-seat server sync: what the server holds for us and whether a request is running. */
export interface SeatSync {
  held: boolean
  busy: boolean
}

/** Why a toggle did or did not happen. */
export type ToggleResult = 'selected' | 'deselected' | 'unavailable' | 'maxSeats' | 'seatLimit' | 'unknown'

/** The lock queue's actions; the seat page reads its bookkeeping to merge a trip-details answer. */
export interface LockQueue {
  /** Lock requests scheduled or running. */
  pending: ReadonlySignal<number>
  /**
   * Chooses or un-chooses a seat (docs/spec.md sections 4 and 5). The selected state shows at once;
   * the lock (or unlock) request follows, and a falsy lock answer takes the seat away again with the
   * lock-lost dialog. A seat chosen is said chosen (the live region) once the server holds it. `explain`: says why a seat that cannot be chosen was chosen, answering whether it did.
   */
  toggleSeat(name: string, explain?: (name: string) => boolean): ToggleResult
  /**
   * Resolves once every lock and unlock the passenger's clicks started has been answered, so a
   * booking sent now names seats the server already holds for them.
   */
  locksSettled(): Promise<void>
  /** Names of seats the server holds for us or may be about to (a lock in flight). */
  heldOrPending(): string[]
  /**
   * Gives back every held seat without touching the screen more than needed: leaving the page,
   * choosing another trip, closing the tab (`keepalive` lets the request outlive the page).
   */
  releaseSeats(opts?: { keepalive?: boolean }): Promise<void>
  /**
   * The operator cancelled the trip: its seats are given back, lock requests still running are
   * ignored, and the seat map goes, so nothing more can be chosen on it. The page says why.
   */
  tripGone(): void
  /**
   * docs/spec.md section 4 reset: unlocks all held seats, clears the seats and sets expirationTime
   * to now (`event`: what the live region says, `reset` by default). Not a booking's seats: they go
   * back when the booking ends, and until then they stay frozen.
   */
  resetSeats(event?: SeatEvent['kind']): Promise<void>
  /** The selection is `names` (a booking's, frozen, when `booked`), ending at `expiration`; lock requests are over. */
  holdSeats(names: string[], expiration: string | null, booked: boolean): void
  /** Lock answers from before now are ignored (and their locks given back); answers the new generation. */
  newGeneration(): number
  /** The generation now: an answer of an older one is stale. */
  generation(): number
  /** Lock requests are over (reset, release, a booking took the seats): nothing is held or running. */
  forgetLocks(): void
  /** The per-seat sync of a seat. */
  sync(name: string): SeatSync | undefined
  /** Another trip-details answer's sync replaces the bookkeeping (`touched` starts again when `fresh`). */
  replaceSync(next: Map<string, SeatSync>): void
  /** A load starts: seats touched from now on are not overruled by its answer; `fresh`: another trip. */
  startLoad(fresh: boolean): void
  /** Whether the passenger toggled `name`, or its lock request answered, since the running load started. */
  touched(name: string): boolean
  /** Brings the server's lock of `name` in line with its on-screen state, after the current task. */
  schedule(name: string): void
}

/** Creates the lock queue of one visit over its seat map, its notices given through `ui`. */
export const LockQueueModel: ModelConstructor<LockQueue, [SeatMap, Notices]> = createModel((map: SeatMap, ui: Notices): LockQueue => {
  // Request bookkeeping: nothing on screen derives from it, so it is plain data kept in this
  // instance (not signals): what the server holds per seat, which answers are stale, and which
  // seats the running load's answer must not overrule.
  const book = {
    sync: new Map<string, SeatSync>(),
    generation: 0,
    touched: new Set<string>(),
    // seats chosen whose choice is said once the server holds them: a seat lost meanwhile is said by the lock-lost dialog alone
    unsaid: new Set<string>(),
    waiters: [] as (() => void)[],
  }
  const pending = signal(0)

  const forgetLocks = () => {
    book.unsaid.clear()
    for (const e of book.sync.values()) {
      e.held = false
      e.busy = false
    }
  }

  const schedule = (name: string) => {
    const gen = book.generation
    pending.value++
    defer(
      () =>
        void reconcile(name, gen).finally(() => {
          if (--pending.value > 0) return
          const waiters = book.waiters
          book.waiters = []
          for (const w of waiters) w()
        }),
    )
  }

  const lockLost = (name: string) => {
    map.loseSeat(name)
    ui.showError({ id: 'seat.lockLost', values: { names: name } })
  }

  const heldOrPending = () => {
    const names: string[] = []
    for (const [name, e] of book.sync) if (name !== OPEN_SEAT_NAME && (e.held || e.busy)) names.push(name)
    return names
  }

  const releaseSeats = async (opts: { keepalive?: boolean } = {}) => {
    const details = map.view.tripDetails.peek()
    const names = heldOrPending()
    book.generation++
    forgetLocks()
    map.clearSelection(null)
    if (!details || !names.length) return
    try {
      await call('seatLock', { body: lockBody(details, names.slice(0, MAX_SEATS), false), keepalive: opts.keepalive })
    } catch {
      // the page is going away or another trip is loading; the server lets the lock expire
    }
  }

  const tripGone = () => {
    void releaseSeats()
    map.takeDown()
    book.sync = new Map()
    book.touched = new Set()
  }

  /** Brings the server lock of one seat in line with its on-screen state, one request at a time. */
  async function reconcile(name: string, gen: number): Promise<void> {
    const entry = book.sync.get(name)
    if (!entry || entry.busy) return
    const ref = map.view.tripRef.peek()
    const details = map.view.tripDetails.peek()
    if (!ref || !details) return
    entry.busy = true
    try {
      for (;;) {
        if (gen !== book.generation) return
        const want = map.stateNow(name) === 'selected'
        if (want === entry.held) return
        const body = lockBody(details, [name], want)
        let res: SeatLockResponse
        try {
          res = await call('seatLock', { body })
        } catch (err) {
          if (gen !== book.generation) return
          if (isTripOmitted(err)) return tripGone()
          // revert the seat to what the server holds and show the reason
          book.unsaid.delete(name)
          map.revert(name, entry.held)
          ui.toastError(messageForError(err))
          map.say({ kind: 'failed', seatName: name })
          return
        }
        if (gen !== book.generation) {
          // reset or another trip while this lock was in flight: give it back, unless the seat was chosen again
          const shown = map.view.tripDetails.peek()
          const sameTrip =
            !!shown && shown.tripId === details.tripId && shown.originCode === details.originCode && shown.destinationCode === details.destinationCode
          const chosenAgain = sameTrip && map.stateNow(name) === 'selected'
          if (want && res && !chosenAgain) void call('seatLock', { body: { ...body, locked: false } }).catch(() => undefined)
          return
        }
        if (!res) {
          book.unsaid.delete(name)
          if (want) lockLost(name)
          return
        }
        entry.held = want
        book.touched.add(name)
        map.setExpiry(res.expirationTime, want || map.view.countedSeats.peek().length > 0)
        if (want && book.unsaid.delete(name)) map.say({ kind: 'selected', seatName: name })
      }
    } finally {
      entry.busy = false
    }
  }

  return {
    pending,
    toggleSeat(name, explain) {
      const seat = map.view.seatsByName.peek().get(name)
      const state = map.stateNow(name)
      if (!seat || !state) return 'unknown'
      // a booking owns these seats now: the selection is frozen until it ends
      if (map.view.heldForBooking.peek()) {
        map.say({ kind: 'rejected', seatName: name })
        return 'unavailable'
      }
      if (state === 'selected') {
        book.touched.add(name)
        book.unsaid.delete(name)
        map.deselect(name)
        if (name !== OPEN_SEAT_NAME) schedule(name)
        return 'deselected'
      }
      if (state !== 'available') {
        // taken by another passenger while the page was open: the live seat map says so, without a lock request or the lock-lost dialog
        if (!explain?.(name)) map.say({ kind: 'unavailable', seatName: name, state })
        return 'unavailable'
      }
      if (name !== OPEN_SEAT_NAME) {
        const count = map.view.countedSeats.peek().length
        if (count >= MAX_SEATS) {
          ui.toastWarning({ id: 'error.MAX_SEAT_WARNING', values: { count: MAX_SEATS } })
          map.say({ kind: 'rejected', seatName: name })
          return 'maxSeats'
        }
        const limit = map.view.seatLimit.peek()
        if (count >= limit) {
          ui.toastWarning({ id: 'seatChoice.seatLimit', values: { count: limit } })
          map.say({ kind: 'rejected', seatName: name })
          return 'seatLimit'
        }
      }
      book.touched.add(name)
      map.select(name)
      if (name === OPEN_SEAT_NAME) map.say({ kind: 'selected', seatName: name })
      else {
        book.unsaid.add(name)
        schedule(name)
      }
      return 'selected'
    },
    locksSettled: () => (pending.peek() === 0 ? Promise.resolve() : new Promise((resolve) => book.waiters.push(resolve))),
    heldOrPending,
    releaseSeats,
    tripGone,
    async resetSeats(event = 'reset') {
      if (map.view.heldForBooking.peek()) return
      const details = map.view.tripDetails.peek()
      const names = heldOrPending()
      const gen = ++book.generation
      map.clearSelection(new Date(now()).toISOString(), event)
      forgetLocks()
      if (!details || !names.length) return
      try {
        await call('seatLock', { body: lockBody(details, names.slice(0, MAX_SEATS), false) })
      } catch (err) {
        if (gen === book.generation) ui.toastError(messageForError(err))
      }
    },
    holdSeats(names, expiration, booked) {
      book.generation++
      forgetLocks()
      map.holdSeats(names, expiration, booked)
    },
    newGeneration: () => ++book.generation,
    generation: () => book.generation,
    forgetLocks,
    sync: (name) => book.sync.get(name),
    replaceSync(next) {
      book.sync = next
    },
    startLoad(fresh) {
      book.touched = new Set()
      // nothing of the first trip's lock bookkeeping stays
      if (fresh) book.sync = new Map()
    },
    touched: (name) => book.touched.has(name),
    schedule,
  }
})
