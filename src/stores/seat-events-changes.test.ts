// The live seat map (seat-events.ts): what other passengers and the operator change, and the polite summary of it.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { errorCatalogue } from '../../contract/errors.ts'
import { ApiError } from '../api/api-error.ts'
import { SUMMARY_EVERY_MS } from './seat-events.ts'
import * as seatChoice from './seat-choice.ts'
import * as ui from './ui.ts'
import {
  clock,
  log,
  opened,
  stop,
  trip,
  env,
  details,
  flush,
  live,
  current,
  detailsLoads,
  lockRequests,
  serve,
  tripRoutes,
  loadNextTrip,
  startSeatEventsTest,
} from './seat-events-fixture.ts'

test.before.each(() => startSeatEventsTest())
test.after.each(() => stop())

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
  env.lockAnswer = () => new Promise((res) => (answer = res))
  seatChoice.toggleSeat('A1')
  await flush()
  assert.is(lockRequests(), 1)
  current().handlers.event('seats', { tripId: trip, seats: [live('A1', 'held')] })
  assert.is(seatChoice.seatState('A1').value, 'selected')
  answer({ seatNames: ['A1'], expirationTime: new Date(clock.now + 900_000).toISOString() })
  await flush()
  assert.is(seatChoice.seatState('A1').value, 'selected')
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
  serve({
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
  serve(tripRoutes())
  await loadNextTrip()
  assert.is(seatChoice.tripCanceled.value, false)
})

test('a seat chosen on a trip cancelled meanwhile (no live seat map): the lock answers TRIP_OMITTED and the page says the trip is cancelled', async () => {
  serve({
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
  env.busy = true
  current().handlers.event('seats', { tripId: trip, seats: [live('A4', 'sold')] })
  clock.advance(30_000)
  assert.is(said.length, 2)
  env.busy = false
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
  env.focused = 'A2'
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

test.run()
