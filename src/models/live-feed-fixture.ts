/**
 * The live seat map's tests' setup (live-feed and live-feed-changes .test.ts): a fake clock, stand-in server and
 * event streams, and each test a fresh seat page model on trip 1 with the live seat map followed. `env` is what
 * the page and the network say, which a test changes.
 */
import type { Model } from '@preact/signals-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { LiveSeat } from '../../contract/streams.ts'
import { type FakeCall, type FakeRoutes, fakeApi } from '../api/index.ts'
import { type FakeStream, fakeStreams, openStream } from '../api/streams.ts'
import { type FakeClock, fakeClock } from '../lib/clock.ts'
import { testSeat, testTripDetails } from '../stores/test-trip.ts'
import { type Hold, HoldModel } from './hold.ts'
import { type LiveFeed, LiveFeedModel, type Network } from './live-feed.ts'
import { type SeatPage, SeatPageModel } from './seat-page.ts'
import { type Ui, UiModel } from './ui.ts'

const NOW = Date.parse('2026-11-22T10:00:00+06:00')

/** What the page and the network say (a test changes them). */
export interface FeedEnv {
  online: boolean
  /** The passenger is moving through the seat grid. */
  busy: boolean
  /** The seat the passenger is on. */
  focused: string | null
  lockAnswer: () => Promise<unknown> | unknown
}

/** One test's visit with the live seat map followed. */
export interface FeedTest {
  m: Model<SeatPage>
  /** The notifications (dialog and toasts) the models give. */
  ui: Ui
  /** The live seat map and the hold, made by the page with the seat map. */
  feed: Model<LiveFeed>
  hold: Model<Hold>
  /** Chooses or un-chooses a seat as the seat map does (the live feed says why a seat taken meanwhile cannot be chosen). */
  toggle(name: string): ReturnType<SeatPage['toggleSeat']>
  clock: FakeClock
  env: FeedEnv
  /** The trip the test shows (loadNextTrip moves it on). */
  trip: number
  /** The requests sent since the test's trip loaded. */
  log: FakeCall[]
  /** The event streams opened, oldest first. */
  opened: FakeStream[]
  /** Called when the browser goes online or offline (the page's network watch), while one is watched. */
  onNetwork: ((online: boolean) => void) | null
  /** Stops the live seat map (the seat map going away). */
  stop: () => void
  /** The newest stream opened, and that it is still open. */
  current(): FakeStream
  detailsLoads(): number
  lockRequests(): number
  /** The stand-in server answers with `routes` from now on. */
  serve(routes: FakeRoutes): void
  /** The trip's details, its stations, and seat locks answered with `env.lockAnswer`. */
  tripRoutes(): FakeRoutes
  /** The trip's details as the server has them. */
  details(): ReturnType<typeof testTripDetails>
  /** Loads the next trip, as choosing it on the page does. */
  loadNextTrip(): Promise<void>
  /** Follows the live seat map again (the page mounted twice), without the page's busy and focus. */
  followAgain(): void
  /** This browser has no EventSource from now on. */
  withoutEventSource(): void
}

export const live = (name: string, state: LiveSeat['state'], expiresAt: string | null = null): LiveSeat => ({ name, state, expiresAt })

const tripRef = (tripId: number) => ({ tripId, originCode: 'DHK', destinationCode: 'CTG' })

/** A test's start: a fresh clock, stand-in server and seat page model, trip 1 loaded and followed live. */
export async function feedTest(): Promise<FeedTest> {
  const clock = fakeClock(NOW)
  const ui = new UiModel()
  const env: FeedEnv = {
    online: true,
    busy: false,
    focused: null,
    lockAnswer: () => ({ seatNames: ['A1'], expirationTime: new Date(clock.now + 900_000).toISOString() }),
  }
  const network: Network = {
    online: () => env.online,
    watch(fn) {
      t.onNetwork = fn
      return () => {
        t.onNetwork = null
      }
    },
  }
  const m = new SeatPageModel(ui)
  const t: FeedTest = {
    m,
    ui,
    feed: new LiveFeedModel(m, ui),
    hold: new HoldModel(m, ui),
    toggle: (name) => m.toggleSeat(name, t.feed.explainUnavailable),
    clock,
    env,
    trip: 1,
    log: [],
    opened: fakeStreams(),
    onNetwork: null,
    stop: () => {},
    current() {
      const s = t.opened[t.opened.length - 1]!
      assert.is(s.closed, false, 'the newest stream is open')
      return s
    },
    detailsLoads: () => t.log.filter((c) => c.name === 'tripDetails').length,
    lockRequests: () => t.log.filter((c) => c.name === 'seatLock').length,
    serve(routes) {
      t.log = fakeApi(routes)
    },
    tripRoutes: () => ({
      tripDetails: () => t.details(),
      busStations: () => ({ boarding: [], dropping: [] }),
      seatLock: () => env.lockAnswer() as never,
    }),
    details: () =>
      testTripDetails([testSeat('A1', 0, 0), testSeat('A2', 0, 1), testSeat('A3', 0, 2), testSeat('A4', 0, 3), testSeat('B1', 0, 4, { status: 1 })], {
        tripId: t.trip,
      }),
    async loadNextTrip() {
      t.trip += 1
      await t.m.loadTrip(tripRef(t.trip))
    },
    followAgain() {
      t.stop = t.feed.follow(t.trip, { network, open: openStream, random: () => 0.5 })
    },
    withoutEventSource() {
      t.opened = fakeStreams({ unsupported: true })
    },
  }
  t.serve(t.tripRoutes())
  await t.m.loadTrip(tripRef(t.trip))
  t.stop = t.feed.follow(t.trip, { network, open: openStream, busy: () => env.busy, focused: () => env.focused, random: () => 0.5 })
  return t
}

/** A suite whose every test starts on a fresh visit followed live (`t`) and disposes it after. */
export function feedSuite(title: string) {
  const test = suite<{ t: FeedTest }>(title)
  test.before.each(async (ctx) => {
    ctx.t = await feedTest()
  })
  test.after.each(({ t }) => {
    t.feed[Symbol.dispose]()
    t.hold[Symbol.dispose]()
    t.m[Symbol.dispose]()
  })
  return test
}
