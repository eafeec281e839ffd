/**
 * The seat page model's tests' stand-in server and setup (seat-map, lock-queue, seat-reload, hold and
 * booking-link .test.ts): seat locks per holder, like the real server, on a fake clock; each test makes
 * a fresh seat page model and loads its trip, as a visit does.
 */
import type { Model } from '@preact/signals-core'
import { suite } from 'uvu'
import type { SeatLockRequest, SeatLockResponse, TripDetails } from '../../contract/schemas.ts'
import { type CallOptions, type FakeCall, type FakeRoutes, fakeApi } from '../api/index.ts'
import { type FakeClock, fakeClock } from '../lib/clock.ts'
import type { TripRef } from '../lib/trip-ref.ts'
import { testSeat, testTripDetails } from '../stores/test-trip.ts'
import { type Hold, HoldModel } from './hold.ts'
import type { LoadStatus } from './seat-map.ts'
import { type SeatPage, SeatPageModel } from './seat-page.ts'
import { type ToastType, type Ui, UiModel } from './ui.ts'

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

/** One test's visit: its model, clock and stand-in server. */
export interface SeatTest {
  m: Model<SeatPage>
  /** The notifications (dialog and toasts) the models give. */
  ui: Ui
  /** The hold, as the page makes it with the seat map. */
  hold: Model<Hold>
  clock: FakeClock
  /** The trip on the page (loadNewTrip moves it on). */
  trip: TripRef
  /** Seat name → holder, as the server has them. */
  locks: Map<string, string>
  /** The requests sent since the test's trip loaded. */
  log: FakeCall[]
  /** The stand-in server's routes (a test may replace one). */
  routes: FakeRoutes
  /** The next seat-lock request fails with `err`. */
  failNextLock(err: Error): void
  /** Loads another trip than the one on screen, as the page does; `withDetails` is what the server answers for it. */
  loadNewTrip(withDetails?: TripDetails): Promise<LoadStatus>
  /** The seat-lock requests sent, in order. */
  calls(): { body: SeatLockRequest; keepalive: boolean | undefined }[]
  /** A seat lock as the server answers `holder`. */
  fakeSeatLock(holder: string): (opts: CallOptions<'seatLock'>) => SeatLockResponse
}

/** The error dialog of the test's notifications, if any is open. */
export const dialog = ({ ui }: Pick<SeatTest, 'ui'>) => (ui.errorModalVisible.value ? ui.errorMessage.value : null)
/** The toasts of one type the test's notifications show, as their messages. */
export const toasts = ({ ui }: Pick<SeatTest, 'ui'>, type: ToastType) => ui.toasts.value.filter((t) => t.type === type).map((t) => t.message)

/**
 * A test's start: a fresh clock, notifications, stand-in server and seat page model, with trip 1
 * loaded. `more`: further routes the server answers (another model's).
 */
export async function seatTest(more: FakeRoutes = {}): Promise<SeatTest> {
  const clock = fakeClock(NOW)
  const ui = new UiModel()
  const locks = new Map<string, string>()
  const failing: { next: Error | null } = { next: null }
  const served: { details: TripDetails } = { details: details(layout.map((s) => ({ ...s }))) }
  const fakeSeatLock =
    (holder: string) =>
    ({ body }: CallOptions<'seatLock'>): SeatLockResponse => {
      if (!body) throw new Error('seatLock without a body')
      if (failing.next) {
        const e = failing.next
        failing.next = null
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
  const routes: FakeRoutes = {
    ...more,
    // the stand-in server answers for the trip asked
    tripDetails: ({ body }) => ({ ...served.details, tripId: body!.tripId }),
    busStations: () => ({ boarding: [], dropping: [] }),
    seatLock: fakeSeatLock('me'),
  }
  const m = new SeatPageModel(ui)
  const t: SeatTest = {
    m,
    ui,
    hold: new HoldModel(m, ui),
    clock,
    trip: { tripId: 1, originCode: 'DHK', destinationCode: 'CTG' },
    locks,
    log: fakeApi(routes),
    routes,
    failNextLock(err) {
      failing.next = err
    },
    loadNewTrip(withDetails) {
      if (withDetails) served.details = withDetails
      t.trip = { ...t.trip, tripId: t.trip.tripId + 1 }
      return t.m.loadTrip(t.trip)
    },
    calls: () => t.log.filter((c) => c.name === 'seatLock').map((c) => ({ body: c.opts.body as SeatLockRequest, keepalive: c.opts.keepalive })),
    fakeSeatLock,
  }
  await t.m.loadTrip(t.trip)
  return t
}

/** Resolves once `cond` holds (the stand-in server answers on later microtasks); fails, naming `what`, if it never does. */
export async function until(cond: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 1000; turn++) {
    if (cond()) return
    await Promise.resolve()
  }
  throw new Error(`never happened: ${what}`)
}

/** A suite whose every test starts on a fresh visit (`t`) and disposes it after. */
export function seatSuite(title: string) {
  const test = suite<{ t: SeatTest }>(title)
  test.before.each(async (ctx) => {
    ctx.t = await seatTest()
  })
  test.after.each(({ t }) => {
    t.hold[Symbol.dispose]()
    t.m[Symbol.dispose]()
  })
  return test
}
