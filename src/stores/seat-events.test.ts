// The live seat map (seat-events.ts): its one stream per tab, reconnecting, offline, silence, leaving the page.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { SILENCE_MS } from './seat-events.ts'
import * as seatChoice from './seat-choice.ts'
import * as ui from './ui.ts'
import {
  clock,
  opened,
  stop,
  onNetwork,
  trip,
  env,
  flush,
  live,
  current,
  detailsLoads,
  startSeatEventsAgain,
  withoutEventSource,
  startSeatEventsTest,
} from './seat-events-fixture.ts'

test.before.each(() => startSeatEventsTest())
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
  startSeatEventsAgain()
  assert.is(opened.length, 2)
  assert.is(opened[0]!.closed, true)
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
  withoutEventSource()
  startSeatEventsAgain()
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
  env.online = true
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
