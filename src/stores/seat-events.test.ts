import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { LiveSeat } from '../../contract/streams.ts'
import { errorCatalogue } from '../../contract/errors.ts'
import { ApiError } from '../api/api-error.ts'
import { fakeApi, type FakeCall } from '../api/index.ts'
import { fakeStreams, type FakeStream } from '../api/streams.ts'
import { fakeClock, type FakeClock } from '../lib/clock.ts'
import * as seatChoice from './seat-choice.ts'
import { testSeat, testTripDetails } from './test-trip.ts'
import { SILENCE_MS, startSeatEvents, SUMMARY_EVERY_MS, type Network } from './seat-events.ts'
import * as ui from './ui.ts'

const NOW = Date.parse('2026-11-22T10:00:00+06:00')
let clock: FakeClock
let log: FakeCall[]
let opened: FakeStream[]
let stop: () => void
let online: boolean
let onNetwork: ((online: boolean) => void) | null
let busy: boolean
let focused: string | null
let lockAnswer: () => Promise<unknown> | unknown

/**
 * The trip the running test shows: another than the one on screen when the test starts, so loading it leaves
 * nothing of the previous test's trip (as the page does for another trip).
 */
let trip: number
const tripRef = (tripId: number) => ({ tripId, originCode: 'DHK', destinationCode: 'CTG' })
const details = () =>
  testTripDetails([testSeat('A1', 0, 0), testSeat('A2', 0, 1), testSeat('A3', 0, 2), testSeat('A4', 0, 3), testSeat('B1', 0, 4, { status: 1 })], {
    tripId: trip,
  })

const network: Network = {
  online: () => online,
  watch(fn) {
    onNetwork = fn
    return () => {
      onNetwork = null
    }
  },
}

const flush = async () => {
  for (let i = 0; i < 30; i++) await Promise.resolve()
}
const live = (name: string, state: LiveSeat['state'], expiresAt: string | null = null): LiveSeat => ({ name, state, expiresAt })
/** The newest stream opened, and that it is still open. */
const current = () => {
  const s = opened[opened.length - 1]!
  assert.is(s.closed, false, 'the newest stream is open')
  return s
}
const detailsLoads = () => log.filter((c) => c.name === 'tripDetails').length
const lockRequests = () => log.filter((c) => c.name === 'seatLock').length

test.before.each(async () => {
  clock = fakeClock(NOW)
  online = true
  onNetwork = null
  busy = false
  trip = (seatChoice.tripRef.value?.tripId ?? 0) + 1
  focused = null
  ui.resetUi()
  lockAnswer = () => ({ seatNames: ['A1'], expirationTime: new Date(clock.now + 900_000).toISOString() })
  const routes = { tripDetails: () => details(), busStations: () => ({ boarding: [], dropping: [] }), seatLock: () => lockAnswer() as never }
  // the previous test's seats are given back, as when its page went away, before this test's log starts
  fakeApi(routes)
  await seatChoice.releaseSeats()
  log = fakeApi(routes)
  opened = fakeStreams()
  await seatChoice.loadTrip(tripRef(trip))
  stop = startSeatEvents(trip, { network, busy: () => busy, focused: () => focused, random: () => 0.5 })
})
test.after.each(() => stop())

test('one stream per tab on the trip; other passengers’ changes show at once, the passenger’s own seats stay theirs', async () => {
  assert.is(opened.length, 1)
  assert.equal(current().params, { tripId: trip })
  assert.is(seatChoice.liveStatus.value, 'connecting')
  current().handlers.open()
  assert.is(seatChoice.liveStatus.value, 'live')
  assert.is(seatChoice.toggleSeat('A1'), 'selected')
  await flush()
  current().handlers.event('snapshot', { tripId: trip, seats: [live('A1', 'available'), live('A2', 'available'), live('B1', 'sold')] })
  current().handlers.event('seats', {
    tripId: trip,
    seats: [live('A2', 'held', '2026-11-22T10:15:00+06:00'), live('A3', 'booked'), live('A1', 'held')],
  })
  assert.is(seatChoice.seatState('A2').value, 'held')
  assert.is(seatChoice.seatState('A3').value, 'booked')
  // its own hold, as everyone else sees it
  assert.is(seatChoice.seatState('A1').value, 'selected')
  assert.is(seatChoice.availableSeats.value, 1)
  current().handlers.event('seats', { tripId: trip, seats: [live('A2', 'available')] })
  assert.is(seatChoice.seatState('A2').value, 'available')
  assert.is(seatChoice.availableSeats.value, 2)
  // another trip's events are not this page's
  current().handlers.event('seats', { tripId: trip + 1, seats: [live('A4', 'sold')] })
  assert.is(seatChoice.seatState('A4').value, 'available')
  // starting again (the page mounted twice) keeps one stream
  stop = startSeatEvents(trip, { network, random: () => 0.5 })
  assert.is(opened.length, 2)
  assert.is(opened[0]!.closed, true)
})

test('a seat taken while the page is open: choosing it says so, without a lock request or the lock-lost dialog', async () => {
  current().handlers.open()
  current().handlers.event('seats', { tripId: trip, seats: [live('A2', 'held', '2026-11-22T10:15:00+06:00')] })
  assert.is(seatChoice.toggleSeat('A2'), 'unavailable')
  await flush()
  assert.equal(
    log.filter((c) => c.name === 'seatLock').map((c) => c.opts.body),
    [],
  )
  assert.is(ui.errorModalVisible.value, false)
  assert.equal(
    ui.toasts.value.map((t) => t.message),
    [{ id: 'seatChoice.takenJustNow', values: { name: 'A2' } }],
  )
  // a seat sold before the page opened: the live region says why
  assert.is(seatChoice.toggleSeat('B1'), 'unavailable')
  assert.equal(
    seatChoice.lastEvent.value && {
      kind: seatChoice.lastEvent.value.kind,
      seat: seatChoice.lastEvent.value.seatName,
      state: seatChoice.lastEvent.value.state,
    },
    {
      kind: 'unavailable',
      seat: 'B1',
      state: 'sold',
    },
  )
})

test('a lock request on its way is not overruled by an event; the seat follows the server’s answer', async () => {
  current().handlers.open()
  let answer!: (v: unknown) => void
  lockAnswer = () => new Promise((res) => (answer = res))
  seatChoice.toggleSeat('A1')
  await flush()
  assert.is(lockRequests(), 1)
  current().handlers.event('seats', { tripId: trip, seats: [live('A1', 'held')] })
  assert.is(seatChoice.seatState('A1').value, 'selected')
  answer({ seatNames: ['A1'], expirationTime: new Date(clock.now + 900_000).toISOString() })
  await flush()
  assert.is(seatChoice.seatState('A1').value, 'selected')
})

test('a server without the route: refused before it opened, seats checked when chosen, no note, no retries, no error', async () => {
  current().handlers.error(true)
  assert.is(seatChoice.liveStatus.value, 'off')
  clock.advance(120_000)
  await flush()
  assert.is(opened.length, 1)
  assert.is(ui.errorModalVisible.value, false)
  assert.equal(ui.toasts.value, [])
  assert.is(seatChoice.toggleSeat('A1'), 'selected')
})

test('a browser without EventSource: nothing live, nothing said', async () => {
  stop()
  opened = fakeStreams({ unsupported: true })
  stop = startSeatEvents(trip, { network, random: () => 0.5 })
  assert.is(seatChoice.liveStatus.value, 'off')
  assert.equal(ui.toasts.value, [])
})

test('a dropped stream: stale at once, reconnected with growing backoff, then the seats are reloaded once and events met meanwhile applied after', async () => {
  current().handlers.open()
  assert.is(detailsLoads(), 1)
  current().handlers.error(false)
  assert.is(seatChoice.liveStatus.value, 'stale')
  // 1 s, then 2 s, then 4 s (±20 %, here exactly)
  clock.advance(999)
  assert.is(opened.length, 1)
  clock.advance(1)
  assert.is(opened.length, 2)
  current().handlers.error(true)
  clock.advance(1999)
  assert.is(opened.length, 2)
  clock.advance(1)
  assert.is(opened.length, 3)
  current().handlers.error(false)
  clock.advance(4000)
  assert.is(opened.length, 4)
  current().handlers.open()
  assert.is(seatChoice.liveStatus.value, 'live')
  // the snapshot arrives while the reload runs: it is applied after it
  current().handlers.event('snapshot', { tripId: trip, seats: [live('A3', 'sold')] })
  await flush()
  assert.is(detailsLoads(), 2)
  assert.is(seatChoice.seatState('A3').value, 'sold')
  // the backoff starts again from 1 s after a stream that opened
  current().handlers.error(false)
  clock.advance(1000)
  assert.is(opened.length, 5)
})

test('a reconnect while a booking holds the seats: no reload (it would show the booking’s seats as booked), the booking’s seats stay chosen', async () => {
  current().handlers.open()
  seatChoice.toggleSeat('A1')
  await flush()
  seatChoice.holdForBooking(['A1'], new Date(clock.now + 600_000).toISOString())
  current().handlers.error(false)
  clock.advance(1000)
  current().handlers.open()
  current().handlers.event('snapshot', { tripId: trip, seats: [live('A1', 'booked'), live('A2', 'held')] })
  await flush()
  assert.is(detailsLoads(), 1)
  assert.is(seatChoice.seatState('A1').value, 'selected')
  assert.equal(
    seatChoice.seats.value.map((s) => s.name),
    ['A1'],
  )
  assert.is(seatChoice.seatState('A2').value, 'held')
  assert.is(seatChoice.liveStatus.value, 'live')
})

test('offline: the stream closes and the page says seats may be out of date; back online, it reconnects at once', async () => {
  current().handlers.open()
  onNetwork!(false)
  assert.is(seatChoice.liveStatus.value, 'stale')
  assert.is(opened[0]!.closed, true)
  clock.advance(60_000)
  assert.is(opened.length, 1)
  online = true
  onNetwork!(true)
  assert.is(opened.length, 2)
  current().handlers.open()
  await flush()
  assert.is(seatChoice.liveStatus.value, 'live')
  assert.is(detailsLoads(), 2)
})

test('a stream that goes silent (no heartbeat) is replaced', async () => {
  current().handlers.open()
  clock.advance(SILENCE_MS - 1000)
  current().handlers.event('ping', { at: '2026-11-22T10:00:30+06:00' })
  clock.advance(SILENCE_MS - 1000)
  assert.is(opened.length, 1)
  clock.advance(3000)
  assert.is(seatChoice.liveStatus.value, 'stale')
  assert.is(opened[0]!.closed, true)
  clock.advance(1000)
  assert.is(opened.length, 2)
})

test('the trip is gone: reloaded once (the page shows the server’s reason), nothing live any more', async () => {
  current().handlers.open()
  current().handlers.event('trip', { tripId: trip, change: 'gone' })
  await flush()
  assert.is(detailsLoads(), 2)
  assert.is(seatChoice.liveStatus.value, 'off')
  assert.is(opened[0]!.closed, true)
  opened[0]!.handlers.error(false)
  clock.advance(60_000)
  assert.is(opened.length, 1)
})

test('the operator cancels the trip while the passenger holds seats: the reload answers TRIP_OMITTED, the seat map goes, the seats are given back, no error dialog, nothing live any more', async () => {
  current().handlers.open()
  assert.is(seatChoice.toggleSeat('A1'), 'selected')
  await flush()
  assert.is(seatChoice.countedSeats.value.length, 1)
  log = fakeApi({
    tripDetails: () => {
      throw new ApiError('TRIP_OMITTED', errorCatalogue.TRIP_OMITTED.reason, 409)
    },
    // the server answers the unlock of a closed trip as it answers everything about it
    seatLock: () => {
      throw new ApiError('TRIP_OMITTED', errorCatalogue.TRIP_OMITTED.reason, 409)
    },
  })
  // the server closes the trip and drops its holds in one write: the trip event, then the seats
  current().handlers.event('trip', { tripId: trip, change: 'changed' })
  current().handlers.event('seats', { tripId: trip, seats: [live('A1', 'available')] })
  await flush()
  assert.is(seatChoice.tripCanceled.value, true)
  assert.is(seatChoice.tripDetails.value, null, 'nothing left to click')
  assert.equal(seatChoice.countedSeats.value, [])
  assert.is(seatChoice.holdMsLeft.value, null, 'no hold clock')
  const unlock = log.find((c) => c.name === 'seatLock')
  assert.equal((unlock?.opts.body as { seatNames: string[]; locked: boolean } | undefined)?.locked, false, 'the held seat is given back')
  assert.is(ui.errorModalVisible.value, false, 'the page says it, not the error dialog')
  assert.is(seatChoice.liveStatus.value, 'off')
  assert.is(opened[0]!.closed, true)
  clock.advance(60_000)
  assert.is(opened.length, 1, 'no reconnect')
  // another trip: the page is itself again
  log = fakeApi({ tripDetails: () => details(), busStations: () => ({ boarding: [], dropping: [] }), seatLock: () => lockAnswer() as never })
  trip += 1
  await seatChoice.loadTrip(tripRef(trip))
  assert.is(seatChoice.tripCanceled.value, false)
})

test('a seat chosen on a trip cancelled meanwhile (no live seat map): the lock answers TRIP_OMITTED and the page says the trip is cancelled', async () => {
  log = fakeApi({
    tripDetails: () => details(),
    busStations: () => ({ boarding: [], dropping: [] }),
    seatLock: () => {
      throw new ApiError('TRIP_OMITTED', errorCatalogue.TRIP_OMITTED.reason, 409)
    },
  })
  assert.is(seatChoice.toggleSeat('A2'), 'selected')
  await flush()
  assert.is(seatChoice.tripCanceled.value, true)
  assert.equal(seatChoice.countedSeats.value, [])
  assert.equal(ui.toasts.value, [], 'no toast: the page says it')
})

test('the summary: silent changes, one polite count after they settle, at most every 10 s, never while moving through the grid', async () => {
  current().handlers.open()
  const said: string[] = []
  const summaries = () => {
    const e = seatChoice.lastEvent.value
    if (e?.kind === 'others' && !said.includes(String(e.seq))) said.push(String(e.seq))
    return e?.kind === 'others' ? { taken: e.taken, freed: e.freed } : null
  }
  current().handlers.event('seats', { tripId: trip, seats: [live('A1', 'held'), live('A2', 'booked')] })
  current().handlers.event('seats', { tripId: trip, seats: [live('A3', 'held')] })
  assert.is(summaries(), null, 'nothing said with each change')
  clock.advance(2000)
  assert.equal(summaries(), { taken: 3, freed: 0 })
  assert.is(said.length, 1)
  // a seat freed and one taken and freed again within the next 10 s: one summary, 10 s after the last
  current().handlers.event('seats', { tripId: trip, seats: [live('A1', 'available'), live('A4', 'held')] })
  current().handlers.event('seats', { tripId: trip, seats: [live('A4', 'available')] })
  clock.advance(SUMMARY_EVERY_MS - 1000)
  assert.is(said.length, 1)
  clock.advance(1000)
  assert.equal(summaries(), { taken: 0, freed: 1 })
  assert.is(said.length, 2)
  // moving through the grid: held back until the keys stop
  busy = true
  current().handlers.event('seats', { tripId: trip, seats: [live('A4', 'sold')] })
  clock.advance(30_000)
  assert.is(said.length, 2)
  busy = false
  clock.advance(1000)
  assert.equal(summaries(), { taken: 1, freed: 0 })
  assert.is(said.length, 3)
})

test('the summary names the seat the passenger is on when it was among those taken', async () => {
  current().handlers.open()
  const tripId = seatChoice.tripRef.value!.tripId
  const summary = () => {
    const e = seatChoice.lastEvent.value
    return e?.kind === 'others' ? { taken: e.taken, freed: e.freed, focused: e.seatName ?? null } : null
  }
  focused = 'A2'
  current().handlers.event('seats', { tripId, seats: [live('A1', 'held'), live('A2', 'booked')] })
  clock.advance(2000)
  assert.equal(summary(), { taken: 2, freed: 0, focused: 'A2' })
  // the seat the passenger is on was not among them: not named
  current().handlers.event('seats', { tripId, seats: [live('A3', 'held')] })
  clock.advance(SUMMARY_EVERY_MS)
  assert.equal(summary(), { taken: 1, freed: 0, focused: null })
  // nor when it became available
  current().handlers.event('seats', { tripId, seats: [live('A2', 'available')] })
  clock.advance(SUMMARY_EVERY_MS)
  assert.equal(summary(), { taken: 0, freed: 1, focused: null })
})

test('leaving the page closes the stream and stops everything', async () => {
  current().handlers.open()
  current().handlers.event('seats', { tripId: trip, seats: [live('A2', 'held')] })
  stop()
  assert.is(opened[0]!.closed, true)
  assert.is(seatChoice.liveStatus.value, 'off')
  assert.is(clock.timers, 0)
  // nothing live any more: a taken seat chosen says its state in the live region, as without the live seat map
  assert.is(seatChoice.toggleSeat('A2'), 'unavailable')
  assert.equal(ui.toasts.value, [])
  assert.is(seatChoice.lastEvent.value?.kind, 'unavailable')
})

test.run()
