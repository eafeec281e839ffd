// The seat page model: the trip's seat map, the fare summary and the limits on how many seats, another trip.
import * as assert from 'uvu/assert'
import { effect } from '@preact/signals-core'

import { seat, details, layout, dialog, toasts, seatSuite } from './seat-page-fixture.ts'

const test = seatSuite('seat map')

test('seat states come from the layout: sold, booked, held by another', async ({ t }) => {
  const { m, loadNewTrip } = t
  assert.is(m.seatState('A1').value, 'available')
  assert.is(m.seatState('B3').value, 'sold')
  assert.is(m.seatState('B4').value, 'booked')
  await loadNewTrip(details([seat('C1', 0, 0, { lockedByOther: true }), seat('C2', 0, 1, { status: 13 })]))
  assert.is(m.seatState('C1').value, 'held')
  assert.is(m.seatState('C2').value, 'linked')
})

test('fare summary: total and fare per seat type', async ({ t }) => {
  const { m } = t
  m.toggleSeat('A1')
  m.toggleSeat('A3')
  m.toggleSeat('A4')
  assert.is(m.totalFare.value, 800 + 1200 + 1200)
  assert.equal(m.fareByType.value, [
    { seatType: 'Standard', count: 1, fare: 800, subtotal: 800 },
    { seatType: 'Business', count: 2, fare: 1200, subtotal: 2400 },
  ])
  await m.locksSettled()
})

test('unavailable seats cannot be toggled', async ({ t }) => {
  const { m, calls } = t
  assert.is(m.toggleSeat('B3'), 'unavailable')
  assert.is(m.toggleSeat('B4'), 'unavailable')
  await m.locksSettled()
  assert.is(calls().length, 0)
})

test('more than 5 seats shows MAX_SEAT_WARNING with 5 and rejects the 6th', async ({ t }) => {
  const { m, locks, loadNewTrip } = t
  const many = Array.from({ length: 8 }, (_, i) => seat(`C${i + 1}`, 3 + i, 0))
  await loadNewTrip(details(many))
  for (let i = 1; i <= 5; i++) assert.is(m.toggleSeat(`C${i}`), 'selected')
  assert.is(m.toggleSeat('C6'), 'maxSeats')
  assert.is(m.seatState('C6').value, 'available')
  assert.equal(toasts(t, 'warning'), [{ id: 'error.MAX_SEAT_WARNING', values: { count: 5 } }])
  assert.is(m.seats.value.length, 5)
  await m.locksSettled()
  assert.is(locks.size, 5)
  assert.not.ok(locks.has('C6'))
})

test('OPEN seats are placeholders: not counted, never locked', async ({ t }) => {
  const { m, loadNewTrip, calls } = t
  const many = [...Array.from({ length: 5 }, (_, i) => seat(`C${i + 1}`, i, 0)), seat('OPEN', 6, 0)]
  await loadNewTrip(details(many))
  for (let i = 1; i <= 5; i++) m.toggleSeat(`C${i}`)
  assert.is(m.toggleSeat('OPEN'), 'selected', 'a sixth entry that is OPEN is allowed')
  assert.is(m.countedSeats.value.length, 5)
  assert.is(m.seats.value.length, 6)
  await m.locksSettled()
  assert.not.ok(calls().some((c) => c.body.seatNames.includes('OPEN')))
  assert.is(m.totalFare.value, 5 * 800)
})

test('the remaining seat limit is enforced with its number', async ({ t }) => {
  const { m, loadNewTrip } = t
  await loadNewTrip(
    details(
      layout.map((s) => ({ ...s })),
      { remainingSeatLimit: 2 },
    ),
  )
  m.toggleSeat('A1')
  m.toggleSeat('A2')
  assert.is(m.toggleSeat('A3'), 'seatLimit')
  assert.equal(toasts(t, 'warning'), [{ id: 'seatChoice.seatLimit', values: { count: 2 } }])
  await m.locksSettled()
})

test('the remaining limit counts seats this visitor already holds (the server subtracts them)', async ({ t }) => {
  const { m, clock, loadNewTrip } = t
  await loadNewTrip(
    details(
      layout.map((s) => (s.name === 'A4' ? { ...s, lockedByMe: true } : { ...s })),
      { remainingSeatLimit: 1, expirationTime: new Date(clock.now + 60_000).toISOString() },
    ),
  )
  assert.is(m.seatLimit.value, 2)
  assert.is(m.toggleSeat('A1'), 'selected')
  assert.is(m.toggleSeat('A2'), 'seatLimit')
  await m.locksSettled()
})

test('an infinite remaining limit (-999) falls back to the 5-seat cap', async ({ t }) => {
  const { m, loadNewTrip } = t
  await loadNewTrip(
    details(
      layout.map((s) => ({ ...s })),
      { remainingSeatLimit: -999 },
    ),
  )
  assert.is(m.seatLimit.value, 5)
})

test('choosing another trip releases the seats held on the first and leaves nothing of it', async ({ t }) => {
  const { m, locks, loadNewTrip } = t
  m.toggleSeat('A1')
  await m.locksSettled()
  assert.is(m.lastEvent.value?.kind, 'selected')
  await loadNewTrip(details([seat('D1', 0, 0)]))
  assert.is(locks.size, 0)
  assert.equal(m.seats.value, [])
  assert.is(m.lastEvent.value, null, 'the first trip’s announcement is not said again')
  assert.is(m.seatState('A1').value, 'sold', 'a seat the new trip does not have cannot be chosen')
  assert.is(m.toggleSeat('A1'), 'unknown')
})

test('another trip takes the seat map of the first down at once: no click can lock a seat of the wrong trip', async ({ t }) => {
  const { m, locks, loadNewTrip } = t
  m.toggleSeat('A1')
  await m.locksSettled()
  const next = loadNewTrip(details([seat('D1', 0, 0)]))
  assert.is(m.tripDetails.value, null)
  assert.is(m.toggleSeat('A2'), 'unknown')
  await next
  await m.locksSettled()
  assert.is(locks.size, 0)
  assert.is(m.tripDetails.value?.tripId, t.trip.tripId)
})

test('failed trip details open the error dialog with the server reason', async ({ t }) => {
  const { routes, loadNewTrip } = t
  routes.tripDetails = async () => {
    throw Object.assign(new Error('Trip not found.'), { code: 'TRIP_NOT_FOUND', reason: 'Trip not found.' })
  }
  const st = await loadNewTrip()
  assert.is(st, 'error')
  assert.equal(dialog(t), { id: 'error.TRIP_NOT_FOUND' })
})

test('toggling one seat changes only that seat signal', async ({ t }) => {
  const { m } = t
  const seen: string[] = []
  const disposers = layout.map((s) => {
    let first = true
    return effect(() => {
      void m.seatState(s.name).value
      if (!first) seen.push(s.name)
      first = false
    })
  })
  m.toggleSeat('A2')
  await m.locksSettled()
  for (const d of disposers) d()
  assert.equal(seen, ['A2'])
})

test.run()
