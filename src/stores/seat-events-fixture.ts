/**
 * The live seat map's tests' setup (seat-events and seat-events-changes .test.ts): a fake clock, server and
 * event streams, and each test on a trip of its own with the live seat map started. Its `let`s are read by
 * the tests as live bindings and written only here; `env` is what the page and the network say, which a
 * test changes.
 */
import * as assert from 'uvu/assert'
import type { LiveSeat } from '../../contract/streams.ts'
import { type FakeCall, type FakeRoutes, fakeApi } from '../api/index.ts'
import { type FakeStream, fakeStreams } from '../api/streams.ts'
import { type FakeClock, fakeClock } from '../lib/clock.ts'
import * as seatChoice from './seat-choice.ts'
import { type Network, startSeatEvents } from './seat-events.ts'
import { testSeat, testTripDetails } from './test-trip.ts'
import * as ui from './ui.ts'

const NOW = Date.parse('2026-11-22T10:00:00+06:00')
export let clock: FakeClock
/** The requests sent since the test's trip loaded. */
export let log: FakeCall[]
/** The event streams opened, oldest first. */
export let opened: FakeStream[]
/** Stops the live seat map (the page going away). */
export let stop: () => void
/** Called when the browser goes online or offline. */
export let onNetwork: ((online: boolean) => void) | null
/**
 * The trip the running test shows: another than the one on screen when the test starts, so loading it leaves
 * nothing of the previous test's trip (as the page does for another trip).
 */
export let trip: number

export const env = {
  online: true,
  /** The passenger is moving through the seat grid. */
  busy: false,
  /** The seat the passenger is on. */
  focused: null as string | null,
  lockAnswer: (() => null) as () => Promise<unknown> | unknown,
}

const tripRef = (tripId: number) => ({ tripId, originCode: 'DHK', destinationCode: 'CTG' })
export const details = () =>
  testTripDetails([testSeat('A1', 0, 0), testSeat('A2', 0, 1), testSeat('A3', 0, 2), testSeat('A4', 0, 3), testSeat('B1', 0, 4, { status: 1 })], {
    tripId: trip,
  })

export const network: Network = {
  online: () => env.online,
  watch(fn) {
    onNetwork = fn
    return () => {
      onNetwork = null
    }
  },
}

export const flush = async () => {
  for (let i = 0; i < 30; i++) await Promise.resolve()
}
export const live = (name: string, state: LiveSeat['state'], expiresAt: string | null = null): LiveSeat => ({ name, state, expiresAt })
/** The newest stream opened, and that it is still open. */
export const current = () => {
  const s = opened[opened.length - 1]!
  assert.is(s.closed, false, 'the newest stream is open')
  return s
}
export const detailsLoads = () => log.filter((c) => c.name === 'tripDetails').length
export const lockRequests = () => log.filter((c) => c.name === 'seatLock').length

/** The fake server answers with `routes` from now on. */
export function serve(routes: FakeRoutes): void {
  log = fakeApi(routes)
}

/** The trip's details, its stations, and seat locks answered with `env.lockAnswer`. */
export const tripRoutes = (): FakeRoutes => ({
  tripDetails: () => details(),
  busStations: () => ({ boarding: [], dropping: [] }),
  seatLock: () => env.lockAnswer() as never,
})

/** Loads the next trip, as choosing it on the page does. */
export async function loadNextTrip(): Promise<void> {
  trip += 1
  await seatChoice.loadTrip(tripRef(trip))
}

/** Starts the live seat map again (the page mounted twice), without the page's busy and focus. */
export function startSeatEventsAgain(): void {
  stop = startSeatEvents(trip, { network, random: () => 0.5 })
}

/** This browser has no EventSource from now on. */
export function withoutEventSource(): void {
  opened = fakeStreams({ unsupported: true })
}

/** Each test's start: the previous test's seats given back, the test's own trip loaded, its live seat map started. */
export async function startSeatEventsTest(): Promise<void> {
  clock = fakeClock(NOW)
  env.online = true
  onNetwork = null
  env.busy = false
  trip = (seatChoice.tripRef.value?.tripId ?? 0) + 1
  env.focused = null
  ui.resetUi()
  env.lockAnswer = () => ({ seatNames: ['A1'], expirationTime: new Date(clock.now + 900_000).toISOString() })
  const routes = tripRoutes()
  // the previous test's seats are given back, as when its page went away, before this test's log starts
  fakeApi(routes)
  await seatChoice.releaseSeats()
  log = fakeApi(routes)
  opened = fakeStreams()
  await seatChoice.loadTrip(tripRef(trip))
  stop = startSeatEvents(trip, { network, busy: () => env.busy, focused: () => env.focused, random: () => 0.5 })
}
