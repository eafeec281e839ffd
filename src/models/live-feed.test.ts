// The live seat map (live-feed.ts): its one stream per visit, reconnecting, offline, silence, leaving the page.
import * as assert from 'uvu/assert'
import { SILENCE_MS } from './live-feed.ts'
import { feedSuite, live } from './live-feed-fixture.ts'
import { until } from './seat-page-fixture.ts'

const test = feedSuite('live feed')

test('one stream per tab on the trip; other passengers’ changes show at once, the passenger’s own seats stay theirs', async ({ t }) => {
  const { m } = t
  assert.is(t.opened.length, 1)
  assert.equal(t.current().params, { tripId: t.trip })
  assert.is(m.liveStatus.value, 'connecting')
  t.current().handlers.open()
  assert.is(m.liveStatus.value, 'live')
  assert.is(t.toggle('A1'), 'selected')
  await m.locksSettled()
  t.current().handlers.event('snapshot', { tripId: t.trip, seats: [live('A1', 'available'), live('A2', 'available'), live('B1', 'sold')] })
  t.current().handlers.event('seats', {
    tripId: t.trip,
    seats: [live('A2', 'held', '2026-11-22T10:15:00+06:00'), live('A3', 'booked'), live('A1', 'held')],
  })
  assert.is(m.seatState('A2').value, 'held')
  assert.is(m.seatState('A3').value, 'booked')
  // its own hold, as everyone else sees it
  assert.is(m.seatState('A1').value, 'selected')
  assert.is(m.availableSeats.value, 1)
  t.current().handlers.event('seats', { tripId: t.trip, seats: [live('A2', 'available')] })
  assert.is(m.seatState('A2').value, 'available')
  assert.is(m.availableSeats.value, 2)
  // another trip's events are not this page's
  t.current().handlers.event('seats', { tripId: t.trip + 1, seats: [live('A4', 'sold')] })
  assert.is(m.seatState('A4').value, 'available')
  // starting again (the page mounted twice) keeps one stream
  t.followAgain()
  assert.is(t.opened.length, 2)
  assert.is(t.opened[0]!.closed, true)
})

test('a server without the route: refused before it opened, seats checked when chosen, no note, no retries, no error', async ({ t }) => {
  const { m } = t
  t.current().handlers.error(true)
  assert.is(m.liveStatus.value, 'off')
  t.clock.advance(120_000)
  assert.is(t.opened.length, 1)
  assert.is(t.ui.errorModalVisible.value, false)
  assert.equal(t.ui.toasts.value, [])
  assert.is(t.toggle('A1'), 'selected')
})

test('a browser without EventSource: nothing live, nothing said', async ({ t }) => {
  const { m } = t
  t.stop()
  t.withoutEventSource()
  t.followAgain()
  assert.is(m.liveStatus.value, 'off')
  assert.equal(t.ui.toasts.value, [])
})

test('a dropped stream: stale at once, reconnected with growing backoff, then the seats are reloaded once and events met meanwhile applied after', async ({
  t,
}) => {
  const { m } = t
  t.current().handlers.open()
  assert.is(t.detailsLoads(), 1)
  t.current().handlers.error(false)
  assert.is(m.liveStatus.value, 'stale')
  // 1 s, then 2 s, then 4 s (±20 %, here exactly)
  t.clock.advance(999)
  assert.is(t.opened.length, 1)
  t.clock.advance(1)
  assert.is(t.opened.length, 2)
  t.current().handlers.error(true)
  t.clock.advance(1999)
  assert.is(t.opened.length, 2)
  t.clock.advance(1)
  assert.is(t.opened.length, 3)
  t.current().handlers.error(false)
  t.clock.advance(4000)
  assert.is(t.opened.length, 4)
  t.current().handlers.open()
  assert.is(m.liveStatus.value, 'live')
  // the snapshot arrives while the reload runs: it is applied after it
  t.current().handlers.event('snapshot', { tripId: t.trip, seats: [live('A3', 'sold')] })
  assert.is(m.seatState('A3').value, 'available', 'not before the reload has answered')
  await until(() => m.seatState('A3').value === 'sold', 'the snapshot applied after the reload')
  assert.is(t.detailsLoads(), 2)
  // the backoff starts again from 1 s after a stream that opened
  t.current().handlers.error(false)
  t.clock.advance(1000)
  assert.is(t.opened.length, 5)
})

test('a reconnect while a booking holds the seats: no reload (it would show the booking’s seats as booked), the booking’s seats stay chosen', async ({
  t,
}) => {
  const { m } = t
  t.current().handlers.open()
  t.toggle('A1')
  await m.locksSettled()
  t.hold.holdForBooking(['A1'], new Date(t.clock.now + 600_000).toISOString())
  t.current().handlers.error(false)
  t.clock.advance(1000)
  t.current().handlers.open()
  t.current().handlers.event('snapshot', { tripId: t.trip, seats: [live('A1', 'booked'), live('A2', 'held')] })
  await until(() => m.seatState('A2').value === 'held', 'the snapshot applied')
  assert.is(t.detailsLoads(), 1)
  assert.is(m.seatState('A1').value, 'selected')
  assert.equal(
    m.seats.value.map((s) => s.name),
    ['A1'],
  )
  assert.is(m.seatState('A2').value, 'held')
  assert.is(m.liveStatus.value, 'live')
})

test('offline: the stream closes and the page says seats may be out of date; back online, it reconnects at once', async ({ t }) => {
  const { m } = t
  t.current().handlers.open()
  t.onNetwork!(false)
  assert.is(m.liveStatus.value, 'stale')
  assert.is(t.opened[0]!.closed, true)
  t.clock.advance(60_000)
  assert.is(t.opened.length, 1)
  t.env.online = true
  t.onNetwork!(true)
  assert.is(t.opened.length, 2)
  t.current().handlers.open()
  assert.is(m.liveStatus.value, 'live')
  assert.is(t.detailsLoads(), 2)
  await until(() => m.loadStatus.value === 'ready', 'the seats read again')
})

test('a stream that goes silent (no heartbeat) is replaced', async ({ t }) => {
  const { m } = t
  t.current().handlers.open()
  t.clock.advance(SILENCE_MS - 1000)
  t.current().handlers.event('ping', { at: '2026-11-22T10:00:30+06:00' })
  t.clock.advance(SILENCE_MS - 1000)
  assert.is(t.opened.length, 1)
  t.clock.advance(3000)
  assert.is(m.liveStatus.value, 'stale')
  assert.is(t.opened[0]!.closed, true)
  t.clock.advance(1000)
  assert.is(t.opened.length, 2)
})

test("leaving the page (the live feed and the visit's model disposed) closes the stream and stops everything, the hold clock too", async ({ t }) => {
  const { m } = t
  t.current().handlers.open()
  t.current().handlers.event('seats', { tripId: t.trip, seats: [live('A2', 'held')] })
  t.toggle('A1')
  await m.locksSettled()
  assert.is(t.clock.timers, 2, 'the live seat map and the hold clock')
  t.feed[Symbol.dispose]()
  t.hold[Symbol.dispose]()
  m[Symbol.dispose]()
  assert.is(t.opened[0]!.closed, true)
  assert.is(m.liveStatus.value, 'off')
  assert.is(t.clock.timers, 0)
  // nothing live any more: a taken seat chosen says its state in the live region, as without the live seat map
  assert.is(t.toggle('A2'), 'unavailable')
  assert.equal(t.ui.toasts.value, [])
  assert.is(m.lastEvent.value?.kind, 'unavailable')
})

test.run()
