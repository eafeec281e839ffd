/**
 * The seat page of one visit (docs/spec.md sections 3 to 5): the seat map and the lock queue,
 * composed; loading the trip's details and counters and merging each answer with the passenger's own
 * choices; and the verbs the hold and the live feed (which the page makes with the seat map, over this
 * model) act through. Calls go one way: this model calls the smaller ones, never the other way round.
 */
import { createModel, type ModelConstructor, type ReadonlySignal, signal } from '@preact/signals-core'
import type { TripDetails } from '../../contract/schemas.ts'
import { MAX_SEATS, OPEN_SEAT_NAME, seatStatus } from '../../contract/values.ts'
import { call } from '../api/index.ts'
import { type TripRef, tripDetailsBody } from '../lib/trip-ref.ts'
import { messageForError, type Notices } from './ui.ts'
import { LockQueueModel, type SeatSync, type ToggleResult } from './lock-queue.ts'
import {
  type HoldLimit,
  isTripOmitted,
  type LiveStatus,
  type LoadStatus,
  type SeatChange,
  type SeatEvent,
  SeatMapModel,
  type SeatMapView,
  type SeatState,
  stateOf,
} from './seat-map.ts'

/** The seat page's state (the seat map's, read-only) and actions. */
export interface SeatPage extends SeatMapView {
  /** The next leave keeps the held seats (e.g. the login handoff of the booking step). */
  keepOnLeave: ReadonlySignal<boolean>
  /** The state signal of one seat (read it inside the seat's own component). */
  seatState(name: string): ReadonlySignal<SeatState>
  /**
   * Loads trip details and the boarding and dropping counters. When another trip was on screen,
   * its held seats are released first. Failures set the error dialog to the server's reason
   * (docs/spec.md section 7).
   */
  loadTrip(ref: TripRef): Promise<LoadStatus>
  /**
   * Reads trip `tripId`'s seats again (the live seat map after a gap or a change to the trip). Not
   * while a booking holds the seats: its answer shows the booking's own seats as booked.
   */
  reloadSeats(tripId: number): Promise<void>
  /** Chooses the boarding counter (SPEC departureScheduleId). */
  chooseBoarding(id: number | null): void
  /** Chooses the dropping counter (SPEC arrivalScheduleId). */
  chooseDropping(id: number | null): void
  /** Chooses or un-chooses a seat; `explain` says why a seat taken meanwhile cannot be chosen (the live feed), answering whether it did. */
  toggleSeat(name: string, explain?: (name: string) => boolean): ToggleResult
  /** Resolves once every lock and unlock the passenger's clicks started has been answered (Book waits for it). */
  locksSettled(): Promise<void>
  /** Gives back every held seat (leaving, another trip; `keepalive`: the tab is closing). */
  releaseSeats(opts?: { keepalive?: boolean }): Promise<void>
  /** The seat choice's own reset (docs/spec.md section 4; not a booking's seats); `event`: what the live region says. */
  resetSeats(event?: SeatEvent['kind']): Promise<void>
  /** The selection is `names` (a booking's, frozen, when `booked`), ending at `expiration`. */
  holdSeats(names: string[], expiration: string | null, booked: boolean): void
  /** The server answered an extension of the hold: its end and what is left of its extensions (`event`: said in the live region). */
  extended(expirationTime: string, limit: HoldLimit, event: SeatEvent['kind'] | null): void
  /** A booking's hold ran out: its seats are no longer the booking's. */
  unbook(): void
  /** The hold's clock moves to the time now. */
  tickClock(): void
  /** Says `event` in the live region. */
  say(event: Omit<SeatEvent, 'seq'>): void
  /** The lock generation now: an answer asked for in an older one is stale. */
  generation(): number
  /** The operator cancelled the trip: the seats are given back and the seat map goes. */
  tripGone(): void
  /** The next navigation away keeps the held seats. */
  keepSeatsOnLeave(): void
  /** The seat page is going away: release the held seats unless keepSeatsOnLeave was called; answers whether the visit goes on (it was). */
  leavePage(): boolean
  /**
   * Shows other passengers' changes from the live seat map: each seat of trip `tripId` takes its new
   * state at once, silently. The passenger's own seats (chosen, or with a lock request running or about
   * to) are left alone: an event cannot say whose a hold is. Answers the seats that changed on screen.
   */
  applyLive(tripId: number, seats: { name: string; state: SeatState }[]): SeatChange[]
  /** Says, politely, how many seats other passengers took and how many became available (`focused`: the seat the passenger is on, taken). */
  announceOthers(taken: number, freed: number, focused: string | null): void
  /** Records whether the seat map is live (the live feed's state). */
  setLiveStatus(status: LiveStatus): void
}

/** Creates the seat page of one visit, its notices (error dialog, toasts) given through `ui`. */
export const SeatPageModel: ModelConstructor<SeatPage, [Notices]> = createModel((ui: Notices): SeatPage => {
  const map = new SeatMapModel()
  const locks = new LockQueueModel(map, ui)
  const loads = signal(0)
  const keepOnLeave = signal(false)

  async function loadTrip(ref: TripRef): Promise<LoadStatus> {
    const prev = map.view.tripRef.peek()
    const sameTrip = !!prev && prev.tripId === ref.tripId && prev.originCode === ref.originCode && prev.destinationCode === ref.destinationCode
    // the first trip's seats are given back; its seat map goes at once (below), not when that is done
    const released = prev && !sameTrip ? locks.releaseSeats() : null
    // A reload of the same trip (back from login, after a refused booking) keeps its seat map on
    // screen and its lock requests running: seats chosen meanwhile stay chosen (applyDetails).
    // Another trip's seat map is taken down at once: a click on it would lock a seat of that trip.
    const gen = sameTrip ? locks.generation() : locks.newGeneration()
    const seq = ++loads.value
    locks.startLoad(!sameTrip)
    map.beginLoad(ref, !sameTrip)
    const body = tripDetailsBody(ref, map.view.departureScheduleId.peek(), map.view.arrivalScheduleId.peek())
    if (released) await released
    const stale = () => seq !== loads.peek() || gen !== locks.generation()
    try {
      const details = await call('tripDetails', { body })
      if (stale()) return map.view.loadStatus.peek()
      applyDetails(details, sameTrip)
    } catch (err) {
      if (stale()) return map.view.loadStatus.peek()
      if (isTripOmitted(err)) {
        locks.tripGone()
        return 'error'
      }
      map.loadFailed()
      ui.showError(messageForError(err))
      return 'error'
    }
    const details = map.view.tripDetails.peek()!
    try {
      const stations = await call('busStations', {
        body: { originCode: ref.originCode, destinationCode: ref.destinationCode, tripDate: details.tripDate, tripId: ref.tripId },
      })
      if (stale()) return map.view.loadStatus.peek()
      map.showStations(stations.boarding, stations.dropping)
    } catch (err) {
      if (stale()) return map.view.loadStatus.peek()
      ui.toastError(messageForError(err))
    }
    return map.view.loadStatus.peek()
  }

  /**
   * Shows a trip-details answer. On a reload of the same trip (`sameTrip`), a seat the passenger
   * toggled during the load, or whose lock request is still running or about to run, keeps what
   * the passenger chose (the answer may have been taken before that lock or unlock reached the
   * server) unless the seat has been sold or booked meanwhile; its lock request carries on.
   */
  function applyDetails(details: TripDetails, sameTrip: boolean): void {
    const nextSync = new Map<string, SeatSync>()
    /** Seats the server says it holds for us. */
    const serverMine: string[] = []
    /** Seats whose on-screen choice stands over the answer: name → chosen. */
    const kept = new Map<string, boolean>()
    for (const s of details.seatLayout.seats) {
      const held = s.lockedByMe && s.status === seatStatus.available && s.name !== OPEN_SEAT_NAME
      if (held) serverMine.push(s.name)
      const entry = locks.sync(s.name)
      const chosen = map.stateNow(s.name) === 'selected'
      const pending = !!entry && (entry.busy || locks.touched(s.name) || chosen !== entry.held)
      if (sameTrip && !map.view.heldForBooking.peek() && entry && pending && s.name !== OPEN_SEAT_NAME && s.status === seatStatus.available) {
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
    const before = map.view.seatNames.peek().filter((n) => mine.includes(n))
    const selection = [...before, ...mine.filter((n) => !before.includes(n))].slice(0, MAX_SEATS)
    const states = new Map<string, SeatState>()
    for (const s of details.seatLayout.seats) {
      const state: SeatState = kept.has(s.name)
        ? kept.get(s.name)
          ? 'selected'
          : s.lockedByOther || map.stateNow(s.name) === 'held'
            ? 'held'
            : 'available'
        : serverMine.includes(s.name)
          ? 'selected'
          : stateOf(s)
      states.set(s.name, state)
    }
    locks.replaceSync(nextSync)
    map.show({
      details,
      states,
      // the caller's own unexpired locks (reload, back) are kept as the selection
      selection,
      expirationTime: selection.length ? (details.expirationTime ?? map.view.expirationTime.peek()) : null,
      // the server's remaining limit already subtracts the seats it holds for us
      limitBase: details.remainingSeatLimit + Math.min(serverMine.length, MAX_SEATS),
    })
    // a choice made during the load whose lock request has not started yet
    for (const [name, chosen] of kept) {
      const entry = nextSync.get(name)!
      if (!entry.busy && chosen !== entry.held) locks.schedule(name)
    }
  }

  async function reloadSeats(tripId: number): Promise<void> {
    const ref = map.view.tripRef.peek()
    if (!ref || ref.tripId !== tripId || map.view.heldForBooking.peek()) return
    await loadTrip(ref)
  }

  return {
    ...map.view,
    keepOnLeave,
    seatState: map.seatState,
    loadTrip,
    reloadSeats,
    chooseBoarding: map.chooseBoarding,
    chooseDropping: map.chooseDropping,
    toggleSeat: locks.toggleSeat,
    locksSettled: locks.locksSettled,
    releaseSeats: locks.releaseSeats,
    resetSeats: locks.resetSeats,
    holdSeats: locks.holdSeats,
    extended: map.extended,
    unbook: map.unbook,
    tickClock: map.tick,
    say: map.say,
    generation: locks.generation,
    tripGone: locks.tripGone,
    keepSeatsOnLeave() {
      keepOnLeave.value = true
    },
    leavePage() {
      if (keepOnLeave.peek()) {
        keepOnLeave.value = false
        return true
      }
      void locks.releaseSeats()
      return false
    },
    applyLive(tripId, seats) {
      const shown = map.view.tripDetails.peek()
      if (!shown || shown.tripId !== tripId) return []
      return map.applyLive(seats, (name) => {
        const entry = locks.sync(name)
        return !!entry?.busy || !!entry?.held
      })
    },
    announceOthers(taken, freed, focused) {
      map.say({ kind: 'others', taken, freed, seatName: focused ?? undefined })
    },
    setLiveStatus: map.setLiveStatus,
  }
})
