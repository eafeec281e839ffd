// The seat-choice store: the hold (seat-hold.ts): reset, its countdown and its end, a booking's hold.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { effect } from '@preact/signals-react'
import * as seatChoice from './seat-choice.ts'
import { clock, locks, routes, calls, toasts, fakeSeatLock, flush, startSeatTest } from './seat-fixture.ts'

test.before.each(() => startSeatTest())

test('reset unlocks all held seats, clears the seats and sets expirationTime to now', async () => {
  seatChoice.toggleSeat('A1')
  seatChoice.toggleSeat('A3')
  await flush()
  assert.is(locks.size, 2)
  await seatChoice.resetSeats()
  assert.is(locks.size, 0)
  assert.equal(seatChoice.seats.value, [])
  assert.is(seatChoice.seatState('A1').value, 'available')
  assert.is(Date.parse(seatChoice.expirationTime.value!), clock.now)
  const last = calls().at(-1)!
  assert.is(last.body.locked, false)
  assert.equal(last.body.seatNames.sort(), ['A1', 'A3'])
})

test('reset while a lock is in flight still leaves nothing held', async () => {
  seatChoice.toggleSeat('A1')
  await seatChoice.resetSeats()
  await flush()
  assert.is(locks.size, 0)
})

test('a seat chosen after a reset starts a new hold: the reset time does not end it', async () => {
  seatChoice.toggleSeat('A1')
  await flush()
  await seatChoice.resetSeats()
  let release = () => {}
  const real = fakeSeatLock('me')
  routes.seatLock = (opts) => new Promise((res) => (release = () => res(real(opts))))
  clock.now += 1000
  seatChoice.toggleSeat('A2')
  await flush()
  seatChoice.tick()
  assert.is(seatChoice.seatState('A2').value, 'selected', 'the hold clock does not expire the new choice')
  assert.equal(toasts('info'), [])
  release()
  await flush()
  assert.is(locks.get('A2'), 'me')
  assert.is(seatChoice.holdMsLeft.value, 15 * 60_000)
})

test('the hold countdown warns in its last 2 minutes and resets when it runs out', async () => {
  seatChoice.toggleSeat('A1')
  await flush()
  assert.is(seatChoice.holdMsLeft.value, 15 * 60_000)
  assert.not.ok(seatChoice.holdEndingSoon.value)
  clock.now += 13 * 60_000 + 1000
  seatChoice.tick()
  assert.ok(seatChoice.holdEndingSoon.value)
  clock.now += 2 * 60_000
  seatChoice.tick()
  await flush()
  assert.equal(seatChoice.seats.value, [])
  assert.is(locks.size, 0)
  assert.equal(toasts('info'), [{ id: 'seatChoice.holdExpired' }])
  assert.is(seatChoice.lastEvent.value?.kind, 'expired')
})

test("a booking's hold running out is said by the booking, not by a notification as well", async () => {
  seatChoice.toggleSeat('A1')
  await flush()
  // what the seat page's link (seat-booking-link.ts) hears: the booking is told once
  let expired = 0
  const stop = effect(() => {
    if (seatChoice.bookingHoldRanOut.value) expired++
  })
  const until = new Date(clock.now + 15 * 60_000).toISOString()
  seatChoice.holdForBooking(['A1'], until)
  clock.now += 15 * 60_000
  seatChoice.tick()
  await flush()
  stop()
  assert.is(expired, 1)
  assert.equal(seatChoice.seats.value, [])
  assert.equal(toasts('info'), [])
})

test.run()
