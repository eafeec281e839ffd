// The seat-choice store: a reload of the same trip (back from login, after a refused booking) while seats are chosen.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { TripDetails } from '../../contract/schemas.ts'
import * as seatChoice from './seat-choice.ts'
import { details, layout, clock, trip, locks, routes, loadNewTrip, calls, fakeSeatLock, flush, startSeatTest } from './seat-fixture.ts'

test.before.each(() => startSeatTest())

/** The server's trip details as of now: its locks marked as this visitor's or another's. */
function snapshot(): TripDetails {
  const seats = layout.map((s) => ({ ...s, lockedByMe: locks.get(s.name) === 'me', lockedByOther: locks.has(s.name) && locks.get(s.name) !== 'me' }))
  const mine = seats.filter((s) => s.lockedByMe).length
  return details(seats, {
    tripId: trip.tripId,
    remainingSeatLimit: 5 - mine,
    expirationTime: mine ? new Date(clock.now + 15 * 60_000).toISOString() : null,
  })
}

/** Starts a reload whose answer is taken now (before what follows reaches the server) and sent on `answer()`. */
function slowReload(): { done: Promise<seatChoice.LoadStatus>; answer: () => void } {
  const taken = snapshot()
  let answer = () => {}
  const answered = new Promise<TripDetails>((res) => (answer = () => res(taken)))
  routes.tripDetails = () => answered
  const done = seatChoice.loadTrip(trip)
  return { done, answer }
}

test('own unexpired locks from the server are kept as the selection after a reload', async () => {
  const exp = new Date(clock.now + 10 * 60_000).toISOString()
  await loadNewTrip(
    details(
      layout.map((s) => (s.name === 'A4' ? { ...s, lockedByMe: true } : { ...s })),
      { expirationTime: exp },
    ),
  )
  assert.equal(
    seatChoice.seats.value.map((s) => s.name),
    ['A4'],
  )
  assert.is(seatChoice.seatState('A4').value, 'selected')
  assert.is(seatChoice.expirationTime.value, exp)
  seatChoice.toggleSeat('A4')
  await flush()
  assert.is(calls().at(-1)!.body.locked, false, 'choosing it again unlocks')
})

test('a seat chosen while the trip reloads stays chosen and held (the answer predates its lock)', async () => {
  const reload = slowReload()
  await flush()
  assert.is(seatChoice.toggleSeat('A1'), 'selected')
  await flush()
  assert.is(locks.get('A1'), 'me')
  reload.answer()
  await reload.done
  await flush()
  assert.is(seatChoice.seatState('A1').value, 'selected')
  assert.equal(
    seatChoice.seats.value.map((s) => s.name),
    ['A1'],
  )
  assert.is(locks.get('A1'), 'me')
  assert.ok(seatChoice.holdMsLeft.value! > 0)
  seatChoice.toggleSeat('A1')
  await flush()
  assert.not.ok(locks.has('A1'), 'choosing it again unlocks')
})

test('a lock still in flight when the reload answers carries on; the seat stays chosen', async () => {
  let release = () => {}
  const real = fakeSeatLock('me')
  routes.seatLock = (opts) => new Promise((res) => (release = () => res(real(opts))))
  seatChoice.toggleSeat('A2')
  await flush()
  const reload = slowReload()
  reload.answer()
  await reload.done
  assert.is(seatChoice.seatState('A2').value, 'selected')
  release()
  await flush()
  assert.is(locks.get('A2'), 'me')
  assert.is(seatChoice.seatState('A2').value, 'selected')
  assert.equal(
    seatChoice.seats.value.map((s) => s.name),
    ['A2'],
  )
})

test('a seat given up while the trip reloads stays given up and is unlocked', async () => {
  seatChoice.toggleSeat('A1')
  await flush()
  const reload = slowReload()
  await flush()
  seatChoice.toggleSeat('A1')
  reload.answer()
  await reload.done
  await flush()
  assert.is(seatChoice.seatState('A1').value, 'available')
  assert.equal(seatChoice.seats.value, [])
  assert.not.ok(locks.has('A1'))
})

test('seats nobody touched during the reload follow the server (a lock that ended there is dropped)', async () => {
  seatChoice.toggleSeat('A1')
  seatChoice.toggleSeat('A2')
  await flush()
  locks.delete('A2')
  const reload = slowReload()
  reload.answer()
  await reload.done
  assert.equal(
    seatChoice.seats.value.map((s) => s.name),
    ['A1'],
  )
  assert.is(seatChoice.seatState('A2').value, 'available')
})

test.run()
