// The live seat map (live-feed.ts): what other passengers and the operator change, and the polite summary of it.
import * as assert from 'uvu/assert'
import { errorCatalogue } from '../../contract/errors.ts'
import { ApiError } from '../api/api-error.ts'
import { SUMMARY_EVERY_MS } from './live-feed.ts'
import { feedSuite, live } from './live-feed-fixture.ts'
import { until } from './seat-page-fixture.ts'

const test = feedSuite('live feed changes')

test('a seat taken while the page is open: choosing it says so, without a lock request or the lock-lost dialog', async ({ t }) => {
  const { m } = t
  t.current().handlers.open()
  t.current().handlers.event('seats', { tripId: t.trip, seats: [live('A2', 'held', '2026-11-22T10:15:00+06:00')] })
  assert.is(t.toggle('A2'), 'unavailable')
  assert.equal(
    t.log.filter((c) => c.name === 'seatLock').map((c) => c.opts.body),
    [],
  )
  assert.is(t.ui.errorModalVisible.value, false)
  assert.equal(
    t.ui.toasts.value.map((t) => t.message),
    [{ id: 'seatChoice.takenJustNow', values: { name: 'A2' } }],
  )
  // a seat sold before the page opened: the live region says why
  assert.is(t.toggle('B1'), 'unavailable')
  assert.equal(
    m.lastEvent.value && {
      kind: m.lastEvent.value.kind,
      seat: m.lastEvent.value.seatName,
      state: m.lastEvent.value.state,
    },
    {
      kind: 'unavailable',
      seat: 'B1',
      state: 'sold',
    },
  )
})

test('a lock request on its way is not overruled by an event; the seat follows the server’s answer', async ({ t }) => {
  const { m } = t
  t.current().handlers.open()
  let answer!: (v: unknown) => void
  t.env.lockAnswer = () => new Promise((res) => (answer = res))
  t.toggle('A1')
  await until(() => t.lockRequests() === 1, 'the lock sent')
  t.current().handlers.event('seats', { tripId: t.trip, seats: [live('A1', 'held')] })
  assert.is(m.seatState('A1').value, 'selected')
  answer({ seatNames: ['A1'], expirationTime: new Date(t.clock.now + 900_000).toISOString() })
  await m.locksSettled()
  assert.is(m.seatState('A1').value, 'selected')
})

test('the trip is gone: reloaded once (the page shows the server’s reason), nothing live any more', async ({ t }) => {
  const { m } = t
  t.current().handlers.open()
  t.current().handlers.event('trip', { tripId: t.trip, change: 'gone' })
  assert.is(t.detailsLoads(), 2)
  await until(() => m.loadStatus.value === 'ready', 'the seats read again')
  assert.is(m.liveStatus.value, 'off')
  assert.is(t.opened[0]!.closed, true)
  t.opened[0]!.handlers.error(false)
  t.clock.advance(60_000)
  assert.is(t.opened.length, 1)
})

test('the operator cancels the trip while the passenger holds seats: the reload answers TRIP_OMITTED, the seat map goes, the seats are given back, no error dialog, nothing live any more', async ({
  t,
}) => {
  const { m } = t
  t.current().handlers.open()
  assert.is(t.toggle('A1'), 'selected')
  await m.locksSettled()
  assert.is(m.countedSeats.value.length, 1)
  t.serve({
    tripDetails: () => {
      throw new ApiError('TRIP_OMITTED', errorCatalogue.TRIP_OMITTED.reason, 409)
    },
    // the server answers the unlock of a closed trip as it answers everything about it
    seatLock: () => {
      throw new ApiError('TRIP_OMITTED', errorCatalogue.TRIP_OMITTED.reason, 409)
    },
  })
  // the server closes the trip and drops its holds in one write: the trip event, then the seats
  t.current().handlers.event('trip', { tripId: t.trip, change: 'changed' })
  t.current().handlers.event('seats', { tripId: t.trip, seats: [live('A1', 'available')] })
  await until(() => m.tripCanceled.value, 'the trip taken down')
  await until(() => m.liveStatus.value === 'off', 'nothing live any more')
  assert.is(m.tripDetails.value, null, 'nothing left to click')
  assert.equal(m.countedSeats.value, [])
  assert.is(t.hold.holdMsLeft.value, null, 'no hold clock')
  const unlock = t.log.find((c) => c.name === 'seatLock')
  assert.equal((unlock?.opts.body as { seatNames: string[]; locked: boolean } | undefined)?.locked, false, 'the held seat is given back')
  assert.is(t.ui.errorModalVisible.value, false, 'the page says it, not the error dialog')
  assert.is(m.liveStatus.value, 'off')
  assert.is(t.opened[0]!.closed, true)
  t.clock.advance(60_000)
  assert.is(t.opened.length, 1, 'no reconnect')
  // another trip: the page is itself again
  t.serve(t.tripRoutes())
  await t.loadNextTrip()
  assert.is(m.tripCanceled.value, false)
})

test('a seat chosen on a trip cancelled meanwhile (no live seat map): the lock answers TRIP_OMITTED and the page says the trip is cancelled', async ({
  t,
}) => {
  const { m } = t
  t.serve({
    tripDetails: () => t.details(),
    busStations: () => ({ boarding: [], dropping: [] }),
    seatLock: () => {
      throw new ApiError('TRIP_OMITTED', errorCatalogue.TRIP_OMITTED.reason, 409)
    },
  })
  assert.is(t.toggle('A2'), 'selected')
  await m.locksSettled()
  assert.is(m.tripCanceled.value, true)
  assert.equal(m.countedSeats.value, [])
  assert.equal(t.ui.toasts.value, [], 'no toast: the page says it')
})

test('the summary: silent changes, one polite count after they settle, at most every 10 s, never while moving through the grid', async ({ t }) => {
  const { m } = t
  t.current().handlers.open()
  const said: string[] = []
  const summaries = () => {
    const e = m.lastEvent.value
    if (e?.kind === 'others' && !said.includes(String(e.seq))) said.push(String(e.seq))
    return e?.kind === 'others' ? { taken: e.taken, freed: e.freed } : null
  }
  t.current().handlers.event('seats', { tripId: t.trip, seats: [live('A1', 'held'), live('A2', 'booked')] })
  t.current().handlers.event('seats', { tripId: t.trip, seats: [live('A3', 'held')] })
  assert.is(summaries(), null, 'nothing said with each change')
  t.clock.advance(2000)
  assert.equal(summaries(), { taken: 3, freed: 0 })
  assert.is(said.length, 1)
  // a seat freed and one taken and freed again within the next 10 s: one summary, 10 s after the last
  t.current().handlers.event('seats', { tripId: t.trip, seats: [live('A1', 'available'), live('A4', 'held')] })
  t.current().handlers.event('seats', { tripId: t.trip, seats: [live('A4', 'available')] })
  t.clock.advance(SUMMARY_EVERY_MS - 1000)
  assert.is(said.length, 1)
  t.clock.advance(1000)
  assert.equal(summaries(), { taken: 0, freed: 1 })
  assert.is(said.length, 2)
  // moving through the grid: held back until the keys stop
  t.env.busy = true
  t.current().handlers.event('seats', { tripId: t.trip, seats: [live('A4', 'sold')] })
  t.clock.advance(30_000)
  assert.is(said.length, 2)
  t.env.busy = false
  t.clock.advance(1000)
  assert.equal(summaries(), { taken: 1, freed: 0 })
  assert.is(said.length, 3)
})

test('the summary names the seat the passenger is on when it was among those taken', async ({ t }) => {
  const { m } = t
  t.current().handlers.open()
  const tripId = m.tripRef.value!.tripId
  const summary = () => {
    const e = m.lastEvent.value
    return e?.kind === 'others' ? { taken: e.taken, freed: e.freed, focused: e.seatName ?? null } : null
  }
  t.env.focused = 'A2'
  t.current().handlers.event('seats', { tripId, seats: [live('A1', 'held'), live('A2', 'booked')] })
  t.clock.advance(2000)
  assert.equal(summary(), { taken: 2, freed: 0, focused: 'A2' })
  // the seat the passenger is on was not among them: not named
  t.current().handlers.event('seats', { tripId, seats: [live('A3', 'held')] })
  t.clock.advance(SUMMARY_EVERY_MS)
  assert.equal(summary(), { taken: 1, freed: 0, focused: null })
  // nor when it became available
  t.current().handlers.event('seats', { tripId, seats: [live('A2', 'available')] })
  t.clock.advance(SUMMARY_EVERY_MS)
  assert.equal(summary(), { taken: 0, freed: 1, focused: null })
})

test.run()
