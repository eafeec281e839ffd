import { effect } from '@preact/signals-react'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { SeatLockRequest, SeatLockResponse, TripDetails } from '../../contract/schemas.ts'
import type { TripRef } from '../lib/trip-ref.ts'
import { fakeApi, type CallOptions, type FakeCall, type FakeRoutes } from '../api/index.ts'
import { fakeClock, type FakeClock } from '../lib/clock.ts'
import * as seatChoice from './seat-choice.ts'
import { testSeat, testTripDetails } from './test-trip.ts'
import * as ui from './ui.ts'

// ---------- a fake server: seat locks per holder, like the real one ----------

const NOW = Date.parse('2026-11-22T10:00:00+06:00')
let clock: FakeClock

const seat = testSeat

/**
 * The trip the running test shows. Each test starts on another trip than the one on screen: loading it
 * takes the store's path for another trip, which leaves nothing of the previous one (as the page does).
 */
let trip: TripRef
function newTrip(): TripRef {
  return { tripId: (seatChoice.tripRef.value?.tripId ?? 0) + 1, originCode: 'DHK', destinationCode: 'CTG' }
}
const details = testTripDetails

const layout = [
  seat('A1', 0, 0),
  seat('A2', 0, 1),
  seat('A3', 0, 3, { seatType: 'Business', fare: 1200 }),
  seat('A4', 0, 4, { seatType: 'Business', fare: 1200 }),
  seat('B1', 1, 0),
  seat('B2', 1, 1),
  seat('B3', 1, 3, { status: 1 }),
  seat('B4', 1, 4, { status: 2 }),
  seat('OPEN', 2, 0),
]

/** Seat name → holder. */
let locks: Map<string, string>
let log: FakeCall[]
let routes: FakeRoutes
let failNextLock: Error | null
let currentDetails: TripDetails

/** The seat-lock requests sent, in order. */
const calls = () => log.filter((c) => c.name === 'seatLock').map((c) => ({ body: c.opts.body as SeatLockRequest, keepalive: c.opts.keepalive }))
/** The error dialog on screen, if any. */
const dialog = () => (ui.errorModalVisible.value ? ui.errorMessage.value : null)
/** The toasts of one type shown, as their messages. */
const toasts = (type: ui.ToastType) => ui.toasts.value.filter((t) => t.type === type).map((t) => t.message)

function fakeSeatLock(holder: string) {
  return ({ body }: CallOptions<'seatLock'>): SeatLockResponse => {
    if (!body) throw new Error('seatLock without a body')
    if (failNextLock) {
      const e = failNextLock
      failNextLock = null
      throw e
    }
    if (body.locked) {
      if (body.seatNames.some((n) => locks.has(n) && locks.get(n) !== holder)) return false
      for (const n of body.seatNames) locks.set(n, holder)
    } else {
      for (const n of body.seatNames) if (locks.get(n) === holder) locks.delete(n)
    }
    const mine = [...locks].filter(([, h]) => h === holder).map(([n]) => n)
    return { seatNames: mine, expirationTime: mine.length ? new Date(clock.now + 15 * 60_000).toISOString() : null }
  }
}

const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

test.before.each(async () => {
  clock = fakeClock(NOW)
  locks = new Map()
  failNextLock = null
  trip = newTrip()
  currentDetails = details(layout.map((s) => ({ ...s })))
  ui.resetUi()
  routes = {
    // the fake server answers for the trip asked
    tripDetails: ({ body }) => ({ ...currentDetails, tripId: body!.tripId }),
    busStations: () => ({ boarding: [], dropping: [] }),
    seatLock: fakeSeatLock('me'),
  }
  // the previous test's seats are given back, as when its page went away, before this test's log starts
  fakeApi(routes)
  await seatChoice.releaseSeats()
  log = fakeApi(routes)
  await seatChoice.loadTrip(trip)
})

test('seat states come from the layout: sold, booked, held by another', async () => {
  assert.is(seatChoice.seatState('A1').value, 'available')
  assert.is(seatChoice.seatState('B3').value, 'sold')
  assert.is(seatChoice.seatState('B4').value, 'booked')
  currentDetails = details([seat('C1', 0, 0, { lockedByOther: true }), seat('C2', 0, 1, { status: 13 })])
  await seatChoice.loadTrip((trip = newTrip()))
  assert.is(seatChoice.seatState('C1').value, 'held')
  assert.is(seatChoice.seatState('C2').value, 'linked')
})

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

test('fare summary: total and fare per seat type', async () => {
  seatChoice.toggleSeat('A1')
  seatChoice.toggleSeat('A3')
  seatChoice.toggleSeat('A4')
  assert.is(seatChoice.totalFare.value, 800 + 1200 + 1200)
  assert.equal(seatChoice.fareByType.value, [
    { seatType: 'Standard', count: 1, fare: 800, subtotal: 800 },
    { seatType: 'Business', count: 2, fare: 1200, subtotal: 2400 },
  ])
  await flush()
})

test('unavailable seats cannot be toggled', async () => {
  assert.is(seatChoice.toggleSeat('B3'), 'unavailable')
  assert.is(seatChoice.toggleSeat('B4'), 'unavailable')
  await flush()
  assert.is(calls().length, 0)
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
  failNextLock = Object.assign(new Error('Seat limit exceeded.'), { code: 'SEAT_LIMIT_EXCEEDED', reason: 'Seat limit exceeded.' })
  seatChoice.toggleSeat('A1')
  await flush()
  assert.is(seatChoice.seatState('A1').value, 'available')
  assert.equal(seatChoice.seats.value, [])
  assert.equal(toasts('error'), [{ id: 'error.SEAT_LIMIT_EXCEEDED' }])
})

test('more than 5 seats shows MAX_SEAT_WARNING with 5 and rejects the 6th', async () => {
  const many = Array.from({ length: 8 }, (_, i) => seat(`C${i + 1}`, 3 + i, 0))
  currentDetails = details(many)
  await seatChoice.loadTrip((trip = newTrip()))
  for (let i = 1; i <= 5; i++) assert.is(seatChoice.toggleSeat(`C${i}`), 'selected')
  assert.is(seatChoice.toggleSeat('C6'), 'maxSeats')
  assert.is(seatChoice.seatState('C6').value, 'available')
  assert.equal(toasts('warning'), [{ id: 'error.MAX_SEAT_WARNING', values: { count: 5 } }])
  assert.is(seatChoice.seats.value.length, 5)
  await flush()
  assert.is(locks.size, 5)
  assert.not.ok(locks.has('C6'))
})

test('OPEN seats are placeholders: not counted, never locked', async () => {
  const many = [...Array.from({ length: 5 }, (_, i) => seat(`C${i + 1}`, i, 0)), seat('OPEN', 6, 0)]
  currentDetails = details(many)
  await seatChoice.loadTrip((trip = newTrip()))
  for (let i = 1; i <= 5; i++) seatChoice.toggleSeat(`C${i}`)
  assert.is(seatChoice.toggleSeat('OPEN'), 'selected', 'a sixth entry that is OPEN is allowed')
  assert.is(seatChoice.countedSeats.value.length, 5)
  assert.is(seatChoice.seats.value.length, 6)
  await flush()
  assert.not.ok(calls().some((c) => c.body.seatNames.includes('OPEN')))
  assert.is(seatChoice.totalFare.value, 5 * 800)
})

test('the remaining seat limit is enforced with its number', async () => {
  currentDetails = details(
    layout.map((s) => ({ ...s })),
    { remainingSeatLimit: 2 },
  )
  await seatChoice.loadTrip((trip = newTrip()))
  seatChoice.toggleSeat('A1')
  seatChoice.toggleSeat('A2')
  assert.is(seatChoice.toggleSeat('A3'), 'seatLimit')
  assert.equal(toasts('warning'), [{ id: 'seatChoice.seatLimit', values: { count: 2 } }])
  await flush()
})

test('the remaining limit counts seats this visitor already holds (the server subtracts them)', async () => {
  currentDetails = details(
    layout.map((s) => (s.name === 'A4' ? { ...s, lockedByMe: true } : { ...s })),
    { remainingSeatLimit: 1, expirationTime: new Date(clock.now + 60_000).toISOString() },
  )
  await seatChoice.loadTrip((trip = newTrip()))
  assert.is(seatChoice.seatLimit.value, 2)
  assert.is(seatChoice.toggleSeat('A1'), 'selected')
  assert.is(seatChoice.toggleSeat('A2'), 'seatLimit')
  await flush()
})

test('an infinite remaining limit (-999) falls back to the 5-seat cap', async () => {
  currentDetails = details(
    layout.map((s) => ({ ...s })),
    { remainingSeatLimit: -999 },
  )
  await seatChoice.loadTrip((trip = newTrip()))
  assert.is(seatChoice.seatLimit.value, 5)
})

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

test('choosing another trip releases the seats held on the first and leaves nothing of it', async () => {
  seatChoice.toggleSeat('A1')
  await flush()
  assert.is(seatChoice.lastEvent.value?.kind, 'selected')
  currentDetails = details([seat('D1', 0, 0)])
  await seatChoice.loadTrip((trip = newTrip()))
  assert.is(locks.size, 0)
  assert.equal(seatChoice.seats.value, [])
  assert.is(seatChoice.lastEvent.value, null, 'the first trip’s announcement is not said again')
  assert.is(seatChoice.seatState('A1').value, 'sold', 'a seat the new trip does not have cannot be chosen')
  assert.is(seatChoice.toggleSeat('A1'), 'unknown')
})

test('own unexpired locks from the server are kept as the selection after a reload', async () => {
  const exp = new Date(clock.now + 10 * 60_000).toISOString()
  currentDetails = details(
    layout.map((s) => (s.name === 'A4' ? { ...s, lockedByMe: true } : { ...s })),
    { expirationTime: exp },
  )
  await seatChoice.loadTrip((trip = newTrip()))
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

// ---------- a reload of the same trip (back from login, after a refused booking) ----------

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

test('another trip takes the seat map of the first down at once: no click can lock a seat of the wrong trip', async () => {
  seatChoice.toggleSeat('A1')
  await flush()
  currentDetails = details([seat('D1', 0, 0)])
  const next = seatChoice.loadTrip((trip = newTrip()))
  assert.is(seatChoice.tripDetails.value, null)
  assert.is(seatChoice.toggleSeat('A2'), 'unknown')
  await next
  await flush()
  assert.is(locks.size, 0)
  assert.is(seatChoice.tripDetails.value?.tripId, trip.tripId)
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

test('failed trip details open the error dialog with the server reason', async () => {
  routes.tripDetails = async () => {
    throw Object.assign(new Error('Trip not found.'), { code: 'TRIP_NOT_FOUND', reason: 'Trip not found.' })
  }
  const st = await seatChoice.loadTrip((trip = newTrip()))
  assert.is(st, 'error')
  assert.equal(dialog(), { id: 'error.TRIP_NOT_FOUND' })
})

test('toggling one seat changes only that seat signal', async () => {
  const seen: string[] = []
  const { effect } = await import('@preact/signals-react')
  const disposers = layout.map((s) => {
    let first = true
    return effect(() => {
      void seatChoice.seatState(s.name).value
      if (!first) seen.push(s.name)
      first = false
    })
  })
  seatChoice.toggleSeat('A2')
  await flush()
  for (const d of disposers) d()
  assert.equal(seen, ['A2'])
})

test.run()
