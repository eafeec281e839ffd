// The seat page model: the hold (hold.ts): reset, its countdown and its end, a booking's hold.
import * as assert from 'uvu/assert'
import { effect } from '@preact/signals-core'

import { toasts, seatSuite, until } from './seat-page-fixture.ts'
import { tripRefFromQuery } from '../lib/trip-ref.ts'

const test = seatSuite('hold')

test('reset unlocks all held seats, clears the seats and sets expirationTime to now', async ({ t }) => {
  const { m, clock, locks, calls } = t
  m.toggleSeat('A1')
  m.toggleSeat('A3')
  await m.locksSettled()
  assert.is(locks.size, 2)
  await m.resetSeats()
  assert.is(locks.size, 0)
  assert.equal(m.seats.value, [])
  assert.is(m.seatState('A1').value, 'available')
  assert.is(Date.parse(m.expirationTime.value!), clock.now)
  const last = calls().at(-1)!
  assert.is(last.body.locked, false)
  assert.equal(last.body.seatNames.sort(), ['A1', 'A3'])
})

test('reset while a lock is in flight still leaves nothing held', async ({ t }) => {
  const { m, locks } = t
  m.toggleSeat('A1')
  await m.resetSeats()
  await m.locksSettled()
  assert.is(locks.size, 0)
})

test('a seat chosen after a reset starts a new hold: the reset time does not end it', async ({ t }) => {
  const { m, clock, locks, routes, calls, fakeSeatLock } = t
  m.toggleSeat('A1')
  await m.locksSettled()
  await m.resetSeats()
  let release = () => {}
  const real = fakeSeatLock('me')
  routes.seatLock = (opts) => new Promise((res) => (release = () => res(real(opts))))
  clock.now += 1000
  m.toggleSeat('A2')
  await until(() => calls().some((c) => c.body.seatNames.includes('A2')), "A2's lock sent")
  await t.hold.tick()
  assert.is(m.seatState('A2').value, 'selected', 'the hold clock does not expire the new choice')
  assert.equal(toasts(t, 'info'), [])
  release()
  await m.locksSettled()
  assert.is(locks.get('A2'), 'me')
  assert.is(t.hold.holdMsLeft.value, 15 * 60_000)
})

test('the hold countdown warns in its last 2 minutes and resets when it runs out', async ({ t }) => {
  const { m, clock, locks } = t
  m.toggleSeat('A1')
  await m.locksSettled()
  assert.is(t.hold.holdMsLeft.value, 15 * 60_000)
  assert.not.ok(t.hold.holdEndingSoon.value)
  clock.now += 13 * 60_000 + 1000
  await t.hold.tick()
  assert.ok(t.hold.holdEndingSoon.value)
  clock.now += 2 * 60_000
  await t.hold.tick()
  assert.equal(m.seats.value, [])
  assert.is(locks.size, 0)
  assert.equal(toasts(t, 'info'), [{ id: 'seatChoice.holdExpired' }])
  assert.is(m.lastEvent.value?.kind, 'expired')
})

test("a booking's hold running out is said by the booking, not by a notification as well", async ({ t }) => {
  const { m, clock } = t
  m.toggleSeat('A1')
  await m.locksSettled()
  // what the seat page's booking link hears: the booking is told once
  let expired = 0
  const stop = effect(() => {
    if (t.hold.bookingHoldRanOut.value) expired++
  })
  const until = new Date(clock.now + 15 * 60_000).toISOString()
  t.hold.holdForBooking(['A1'], until)
  clock.now += 15 * 60_000
  await t.hold.tick()
  stop()
  assert.is(expired, 1)
  assert.equal(m.seats.value, [])
  assert.equal(toasts(t, 'info'), [])
})

test("Keep my seats on a round trip's return leg sends its booked outbound, to be kept as long; a one-way trip's sends none", async ({ t }) => {
  const { m, log, routes } = t
  routes.extendSeatLock = ({ body }) => ({
    seatNames: body!.seatNames,
    expirationTime: body!.expirationTime,
    maxExpirationTime: body!.expirationTime,
    extensionsLeft: 1,
  })
  const kept = () =>
    log.filter((c) => c.name === 'extendSeatLock').map((c) => (c.opts.body as { outboundReservationId?: number }).outboundReservationId)
  m.toggleSeat('A1')
  await m.locksSettled()
  await t.hold.extendHold()
  assert.equal(kept(), [undefined])
  await m.loadTrip(tripRefFromQuery('tripId=7&from=CTG&to=DHK&date=2026-11-30&outbound=41')!)
  m.toggleSeat('A2')
  await m.locksSettled()
  await t.hold.extendHold()
  assert.equal(kept(), [undefined, 41])
})

test.run()
