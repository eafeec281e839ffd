// The seat-choice store: choosing seats and the per-seat lock requests (seat-locks.ts).
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as seatChoice from './seat-choice.ts'
import { trip, locks, routes, failNextLock, calls, dialog, toasts, fakeSeatLock, flush, startSeatTest } from './seat-fixture.ts'

test.before.each(() => startSeatTest())

test('choosing a seat selects it at once and locks it on the server; choosing again unlocks', async () => {
  assert.is(seatChoice.toggleSeat('A1'), 'selected')
  assert.is(seatChoice.seatState('A1').value, 'selected', 'optimistic')
  assert.equal(
    seatChoice.seats.value.map((s) => s.name),
    ['A1'],
  )
  await flush()
  assert.is(locks.get('A1'), 'me')
  assert.equal(calls()[0]!.body, {
    tripId: trip.tripId,
    tripDate: '2026-11-22',
    coachCode: 'NX-101',
    originCode: 'DHK',
    destinationCode: 'CTG',
    seatNames: ['A1'],
    locked: true,
  })
  assert.ok(seatChoice.expirationTime.value, 'expirationTime from the lock answer')
  assert.is(seatChoice.toggleSeat('A1'), 'deselected')
  assert.is(seatChoice.seatState('A1').value, 'available')
  await flush()
  assert.not.ok(locks.has('A1'))
  assert.is(calls()[1]!.body.locked, false)
})

test('a falsy lock answer removes the seat from the selection and available seats and opens the error dialog', async () => {
  locks.set('A2', 'someone-else')
  const before = seatChoice.availableSeats.value
  seatChoice.toggleSeat('A2')
  assert.is(seatChoice.seatState('A2').value, 'selected')
  await flush()
  assert.is(seatChoice.seatState('A2').value, 'held')
  assert.equal(seatChoice.seats.value, [])
  assert.is(seatChoice.availableSeats.value, before - 1)
  assert.equal(dialog(), { id: 'seat.lockLost', values: { names: 'A2' } })
  assert.is(seatChoice.toggleSeat('A2'), 'unavailable', 'and it cannot be chosen again')
})

test('a failed lock request reverts the seat and shows the reason in an error toast', async () => {
  failNextLock(Object.assign(new Error('Seat limit exceeded.'), { code: 'SEAT_LIMIT_EXCEEDED', reason: 'Seat limit exceeded.' }))
  seatChoice.toggleSeat('A1')
  await flush()
  assert.is(seatChoice.seatState('A1').value, 'available')
  assert.equal(seatChoice.seats.value, [])
  assert.equal(toasts('error'), [{ id: 'error.SEAT_LIMIT_EXCEEDED' }])
})

test('quick toggles end in the state the passenger left the seat in', async () => {
  seatChoice.toggleSeat('A1')
  seatChoice.toggleSeat('A1')
  seatChoice.toggleSeat('A1')
  await flush()
  assert.is(seatChoice.seatState('A1').value, 'selected')
  assert.is(locks.get('A1'), 'me')
  seatChoice.toggleSeat('A1')
  await flush()
  assert.not.ok(locks.has('A1'))
})

test('release with keepalive gives back held seats (leaving the page, closing the tab)', async () => {
  seatChoice.toggleSeat('A1')
  seatChoice.toggleSeat('A2')
  await flush()
  await seatChoice.releaseSeats({ keepalive: true })
  assert.is(locks.size, 0)
  assert.is(calls().at(-1)!.keepalive, true)
})

test('locksSettled waits for every lock the clicks started, so a booking names seats the server holds', async () => {
  const releases: (() => void)[] = []
  const real = fakeSeatLock('me')
  routes.seatLock = (opts) => new Promise((res) => releases.push(() => res(real(opts))))
  let settled = false
  await seatChoice.locksSettled()
  seatChoice.toggleSeat('A1')
  seatChoice.toggleSeat('A2')
  void seatChoice.locksSettled().then(() => (settled = true))
  await flush()
  assert.is(releases.length, 2, 'both locks sent')
  releases[0]!()
  await flush()
  assert.not.ok(settled, 'A2 has not answered yet')
  releases[1]!()
  await flush()
  assert.ok(settled)
  assert.equal([...locks.keys()].sort(), ['A1', 'A2'])
})

test.run()
