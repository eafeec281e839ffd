// The seat page model: choosing seats and the per-seat lock requests (lock-queue.ts).
import { effect } from '@preact/signals-core'
import * as assert from 'uvu/assert'

import { dialog, toasts, seatSuite, until } from './seat-page-fixture.ts'

const test = seatSuite('lock queue')

test('choosing a seat selects it at once and locks it on the server; choosing again unlocks', async ({ t }) => {
  const { m, locks, calls } = t
  assert.is(m.toggleSeat('A1'), 'selected')
  assert.is(m.seatState('A1').value, 'selected', 'optimistic')
  assert.equal(
    m.seats.value.map((s) => s.name),
    ['A1'],
  )
  await m.locksSettled()
  assert.is(locks.get('A1'), 'me')
  assert.equal(calls()[0]!.body, {
    tripId: t.trip.tripId,
    tripDate: '2026-11-22',
    coachCode: 'NX-101',
    originCode: 'DHK',
    destinationCode: 'CTG',
    seatNames: ['A1'],
    locked: true,
  })
  assert.ok(m.expirationTime.value, 'expirationTime from the lock answer')
  assert.is(m.toggleSeat('A1'), 'deselected')
  assert.is(m.seatState('A1').value, 'available')
  await m.locksSettled()
  assert.not.ok(locks.has('A1'))
  assert.is(calls()[1]!.body.locked, false)
})

test('a falsy lock answer removes the seat from the selection and available seats and opens the error dialog', async ({ t }) => {
  const { m, locks } = t
  locks.set('A2', 'someone-else')
  const before = m.availableSeats.value
  m.toggleSeat('A2')
  assert.is(m.seatState('A2').value, 'selected')
  await m.locksSettled()
  assert.is(m.seatState('A2').value, 'held')
  assert.equal(m.seats.value, [])
  assert.is(m.availableSeats.value, before - 1)
  assert.equal(dialog(t), { id: 'seat.lockLost', values: { names: 'A2' } })
  assert.is(m.toggleSeat('A2'), 'unavailable', 'and it cannot be chosen again')
})

test('a failed lock request reverts the seat and shows the reason in an error toast', async ({ t }) => {
  const { m, failNextLock } = t
  failNextLock(Object.assign(new Error('Seat limit exceeded.'), { code: 'SEAT_LIMIT_EXCEEDED', reason: 'Seat limit exceeded.' }))
  m.toggleSeat('A1')
  await m.locksSettled()
  assert.is(m.seatState('A1').value, 'available')
  assert.equal(m.seats.value, [])
  assert.equal(toasts(t, 'error'), [{ id: 'error.SEAT_LIMIT_EXCEEDED' }])
})

test('quick toggles end in the state the passenger left the seat in', async ({ t }) => {
  const { m, locks } = t
  m.toggleSeat('A1')
  m.toggleSeat('A1')
  m.toggleSeat('A1')
  await m.locksSettled()
  assert.is(m.seatState('A1').value, 'selected')
  assert.is(locks.get('A1'), 'me')
  m.toggleSeat('A1')
  await m.locksSettled()
  assert.not.ok(locks.has('A1'))
})

test('release with keepalive gives back held seats (leaving the page, closing the tab)', async ({ t }) => {
  const { m, locks, calls } = t
  m.toggleSeat('A1')
  m.toggleSeat('A2')
  await m.locksSettled()
  await m.releaseSeats({ keepalive: true })
  assert.is(locks.size, 0)
  assert.is(calls().at(-1)!.keepalive, true)
})

test('locksSettled waits for every lock the clicks started, so a booking names seats the server holds', async ({ t }) => {
  const { m, locks, routes, fakeSeatLock } = t
  const releases: (() => void)[] = []
  const real = fakeSeatLock('me')
  routes.seatLock = (opts) => new Promise((res) => releases.push(() => res(real(opts))))
  let settled = false
  await m.locksSettled()
  m.toggleSeat('A1')
  m.toggleSeat('A2')
  const all = m.locksSettled().then(() => (settled = true))
  await until(() => releases.length === 2, 'both locks sent')
  releases[0]!()
  await until(() => locks.has('A1'), 'A1 locked')
  await Promise.resolve()
  assert.not.ok(settled, 'A2 has not answered yet')
  releases[1]!()
  await all
  assert.ok(settled)
  assert.equal([...locks.keys()].sort(), ['A1', 'A2'])
})

test('leaving the page gives the seats back, except once after keepSeatsOnLeave (the login handoff): the visit goes on', async ({ t }) => {
  const { m, locks } = t
  m.toggleSeat('A1')
  await m.locksSettled()
  m.keepSeatsOnLeave()
  assert.ok(m.leavePage(), 'the visit goes on')
  assert.is(locks.get('A1'), 'me')
  assert.equal(
    m.seats.value.map((s) => s.name),
    ['A1'],
  )
  assert.not.ok(m.leavePage(), 'once: the next leave gives the seats back')
  await until(() => !locks.has('A1'), 'A1 given back')
  assert.equal(m.seats.value, [])
})

test('a seat chosen is said chosen once the server holds it; a seat lost meanwhile is said by the lock-lost dialog alone', async ({ t }) => {
  const { m, locks } = t
  m.toggleSeat('A1')
  assert.is(m.lastEvent.value, null, 'not before the server answers')
  await m.locksSettled()
  assert.equal([m.lastEvent.value?.kind, m.lastEvent.value?.seatName], ['selected', 'A1'])
  locks.set('A2', 'someone-else')
  const kinds: string[] = []
  const stop = effect(() => {
    const e = m.lastEvent.value
    if (e) kinds.push(e.kind)
  })
  m.toggleSeat('A2')
  await m.locksSettled()
  stop()
  assert.equal(kinds, ['selected', 'lockLost'], 'A1 said before, A2 never said chosen')
  assert.equal(dialog(t), { id: 'seat.lockLost', values: { names: 'A2' } })
})

test.run()
