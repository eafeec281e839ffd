/**
 * The seat-choice store tests' fake server and setup (seat-choice, seat-locks, seat-reload, seat-hold and
 * seat-booking-link .test.ts): seat locks per holder, like the real server, on a fake clock; each test on a
 * trip of its own. Its `let`s are read by the tests as live bindings and written only here.
 */
import type { SeatLockResponse, TripDetails } from '../../contract/schemas.ts'
import type { SeatLockRequest } from '../../contract/schemas.ts'
import { type CallOptions, type FakeCall, type FakeRoutes, fakeApi } from '../api/index.ts'
import { type FakeClock, fakeClock } from '../lib/clock.ts'
import type { TripRef } from '../lib/trip-ref.ts'
import * as seatChoice from './seat-choice.ts'
import { testSeat, testTripDetails } from './test-trip.ts'
import * as ui from './ui.ts'

export const NOW = Date.parse('2026-11-22T10:00:00+06:00')
export const seat = testSeat
export const details = testTripDetails

export const layout = [
  seat('A1', 0, 0),
  seat('A2', 0, 1),
  seat('A3', 0, 3, { seatType: 'Business', fare: 1200 }),
  seat('A4', 0, 4, { seatType: 'Business', fare: 1200 }),
  seat('B1', 1, 0),
  seat('B2', 1, 1),
  seat('B3', 1, 3, { status: 1 }),
  seat('B4', 1, 4, { status: 2 }),
  seat('OPEN', 2, 0),
]

export let clock: FakeClock
/**
 * The trip the running test shows. Each test starts on another trip than the one on screen: loading it
 * takes the store's path for another trip, which leaves nothing of the previous one (as the page does).
 */
export let trip: TripRef
/** Seat name → holder. */
export let locks: Map<string, string>
/** The requests sent since the test's trip loaded. */
export let log: FakeCall[]
/** The fake server's routes (a test may replace one). */
export let routes: FakeRoutes
/** What the fake server answers for trip details (for the trip asked). */
export let currentDetails: TripDetails
let failNext: Error | null

function newTrip(): TripRef {
  return { tripId: (seatChoice.tripRef.value?.tripId ?? 0) + 1, originCode: 'DHK', destinationCode: 'CTG' }
}

/** The next seat-lock request fails with `err`. */
export function failNextLock(err: Error): void {
  failNext = err
}

/** Loads another trip than the one on screen, as the page does; `withDetails` is what the server answers for it. */
export function loadNewTrip(withDetails?: TripDetails): Promise<seatChoice.LoadStatus> {
  if (withDetails) currentDetails = withDetails
  trip = newTrip()
  return seatChoice.loadTrip(trip)
}

/** The seat-lock requests sent, in order. */
export const calls = () =>
  log.filter((c) => c.name === 'seatLock').map((c) => ({ body: c.opts.body as SeatLockRequest, keepalive: c.opts.keepalive }))
/** The error dialog on screen, if any. */
export const dialog = () => (ui.errorModalVisible.value ? ui.errorMessage.value : null)
/** The toasts of one type shown, as their messages. */
export const toasts = (type: ui.ToastType) => ui.toasts.value.filter((t) => t.type === type).map((t) => t.message)

export function fakeSeatLock(holder: string) {
  return ({ body }: CallOptions<'seatLock'>): SeatLockResponse => {
    if (!body) throw new Error('seatLock without a body')
    if (failNext) {
      const e = failNext
      failNext = null
      throw e
    }
    if (body.locked) {
      if (body.seatNames.some((n) => locks.has(n) && locks.get(n) !== holder)) return false
      for (const n of body.seatNames) locks.set(n, holder)
    } else {
      for (const n of body.seatNames) if (locks.get(n) === holder) locks.delete(n)
    }
    const mine = [...locks].filter(([, h]) => h === holder).map(([n]) => n)
    return { seatNames: mine, expirationTime: mine.length ? new Date(clock.now + 15 * 60_000).toISOString() : null }
  }
}

export const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

/**
 * Each test's start: a fresh clock, server and notifications, the previous test's seats given back, and
 * the test's own trip loaded. `more`: further routes the fake server answers (another store's).
 */
export async function startSeatTest(more: FakeRoutes = {}): Promise<void> {
  clock = fakeClock(NOW)
  locks = new Map()
  failNext = null
  currentDetails = details(layout.map((s) => ({ ...s })))
  ui.resetUi()
  routes = {
    ...more,
    // the fake server answers for the trip asked
    tripDetails: ({ body }) => ({ ...currentDetails, tripId: body!.tripId }),
    busStations: () => ({ boarding: [], dropping: [] }),
    seatLock: fakeSeatLock('me'),
  }
  // the previous test's seats are given back, as when its page went away, before this test's log starts
  fakeApi(routes)
  await seatChoice.releaseSeats()
  log = fakeApi(routes)
  await loadNewTrip()
}
