// The seat page model: a reload of the same trip (back from login, after a refused booking) while seats are chosen.
import * as assert from 'uvu/assert'
import type { TripDetails } from '../../contract/schemas.ts'
import type { LoadStatus } from './seat-map.ts'
import { details, layout, type SeatTest, seatSuite, until } from './seat-page-fixture.ts'

const test = seatSuite('seat reload')

/** The server's trip details as of now: its locks marked as this visitor's or another's. */
function snapshot({ locks, trip, clock }: SeatTest): TripDetails {
  const seats = layout.map((s) => ({ ...s, lockedByMe: locks.get(s.name) === 'me', lockedByOther: locks.has(s.name) && locks.get(s.name) !== 'me' }))
  const mine = seats.filter((s) => s.lockedByMe).length
  return details(seats, {
    tripId: trip.tripId,
    remainingSeatLimit: 5 - mine,
    expirationTime: mine ? new Date(clock.now + 15 * 60_000).toISOString() : null,
  })
}

/**
 * Starts a reload whose answer is taken now (before what follows reaches the server) and sent on `answer()`;
 * `asked` resolves once its request has reached the server.
 */
function slowReload(t: SeatTest): { done: Promise<LoadStatus>; asked: () => Promise<void>; answer: () => void } {
  const taken = snapshot(t)
  let answer = () => {}
  let asked = false
  const answered = new Promise<TripDetails>((res) => (answer = () => res(taken)))
  t.routes.tripDetails = () => {
    asked = true
    return answered
  }
  const done = t.m.loadTrip(t.trip)
  return { done, asked: () => until(() => asked, 'the reload asked'), answer }
}

test('own unexpired locks from the server are kept as the selection after a reload', async ({ t }) => {
  const { m, clock, loadNewTrip, calls } = t
  const exp = new Date(clock.now + 10 * 60_000).toISOString()
  await loadNewTrip(
    details(
      layout.map((s) => (s.name === 'A4' ? { ...s, lockedByMe: true } : { ...s })),
      { expirationTime: exp },
    ),
  )
  assert.equal(
    m.seats.value.map((s) => s.name),
    ['A4'],
  )
  assert.is(m.seatState('A4').value, 'selected')
  assert.is(m.expirationTime.value, exp)
  m.toggleSeat('A4')
  await m.locksSettled()
  assert.is(calls().at(-1)!.body.locked, false, 'choosing it again unlocks')
})

test('a seat chosen while the trip reloads stays chosen and held (the answer predates its lock)', async ({ t }) => {
  const { m, locks } = t
  const reload = slowReload(t)
  await reload.asked()
  assert.is(m.toggleSeat('A1'), 'selected')
  await m.locksSettled()
  assert.is(locks.get('A1'), 'me')
  reload.answer()
  await reload.done
  await m.locksSettled()
  assert.is(m.seatState('A1').value, 'selected')
  assert.equal(
    m.seats.value.map((s) => s.name),
    ['A1'],
  )
  assert.is(locks.get('A1'), 'me')
  assert.ok(t.hold.holdMsLeft.value! > 0)
  m.toggleSeat('A1')
  await m.locksSettled()
  assert.not.ok(locks.has('A1'), 'choosing it again unlocks')
})

test('a lock still in flight when the reload answers carries on; the seat stays chosen', async ({ t }) => {
  const { m, locks, routes, calls, fakeSeatLock } = t
  let release = () => {}
  const real = fakeSeatLock('me')
  routes.seatLock = (opts) => new Promise((res) => (release = () => res(real(opts))))
  m.toggleSeat('A2')
  await until(() => calls().length === 1, "A2's lock sent")
  const reload = slowReload(t)
  reload.answer()
  await reload.done
  assert.is(m.seatState('A2').value, 'selected')
  release()
  await m.locksSettled()
  assert.is(locks.get('A2'), 'me')
  assert.is(m.seatState('A2').value, 'selected')
  assert.equal(
    m.seats.value.map((s) => s.name),
    ['A2'],
  )
})

test('a seat given up while the trip reloads stays given up and is unlocked', async ({ t }) => {
  const { m, locks } = t
  m.toggleSeat('A1')
  await m.locksSettled()
  const reload = slowReload(t)
  await reload.asked()
  m.toggleSeat('A1')
  reload.answer()
  await reload.done
  await m.locksSettled()
  assert.is(m.seatState('A1').value, 'available')
  assert.equal(m.seats.value, [])
  assert.not.ok(locks.has('A1'))
})

test('seats nobody touched during the reload follow the server (a lock that ended there is dropped)', async ({ t }) => {
  const { m, locks } = t
  m.toggleSeat('A1')
  m.toggleSeat('A2')
  await m.locksSettled()
  locks.delete('A2')
  const reload = slowReload(t)
  reload.answer()
  await reload.done
  assert.equal(
    m.seats.value.map((s) => s.name),
    ['A1'],
  )
  assert.is(m.seatState('A2').value, 'available')
})

test.run()
