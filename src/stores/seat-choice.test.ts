// The seat-choice store: the trip's seat map, the fare summary and the limits on how many seats, another trip.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { effect } from '@preact/signals-react'
import * as seatChoice from './seat-choice.ts'
import { seat, details, layout, clock, trip, locks, routes, loadNewTrip, calls, dialog, toasts, flush, startSeatTest } from './seat-fixture.ts'

test.before.each(() => startSeatTest())

test('seat states come from the layout: sold, booked, held by another', async () => {
  assert.is(seatChoice.seatState('A1').value, 'available')
  assert.is(seatChoice.seatState('B3').value, 'sold')
  assert.is(seatChoice.seatState('B4').value, 'booked')
  await loadNewTrip(details([seat('C1', 0, 0, { lockedByOther: true }), seat('C2', 0, 1, { status: 13 })]))
  assert.is(seatChoice.seatState('C1').value, 'held')
  assert.is(seatChoice.seatState('C2').value, 'linked')
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

test('more than 5 seats shows MAX_SEAT_WARNING with 5 and rejects the 6th', async () => {
  const many = Array.from({ length: 8 }, (_, i) => seat(`C${i + 1}`, 3 + i, 0))
  await loadNewTrip(details(many))
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
  await loadNewTrip(details(many))
  for (let i = 1; i <= 5; i++) seatChoice.toggleSeat(`C${i}`)
  assert.is(seatChoice.toggleSeat('OPEN'), 'selected', 'a sixth entry that is OPEN is allowed')
  assert.is(seatChoice.countedSeats.value.length, 5)
  assert.is(seatChoice.seats.value.length, 6)
  await flush()
  assert.not.ok(calls().some((c) => c.body.seatNames.includes('OPEN')))
  assert.is(seatChoice.totalFare.value, 5 * 800)
})

test('the remaining seat limit is enforced with its number', async () => {
  await loadNewTrip(
    details(
      layout.map((s) => ({ ...s })),
      { remainingSeatLimit: 2 },
    ),
  )
  seatChoice.toggleSeat('A1')
  seatChoice.toggleSeat('A2')
  assert.is(seatChoice.toggleSeat('A3'), 'seatLimit')
  assert.equal(toasts('warning'), [{ id: 'seatChoice.seatLimit', values: { count: 2 } }])
  await flush()
})

test('the remaining limit counts seats this visitor already holds (the server subtracts them)', async () => {
  await loadNewTrip(
    details(
      layout.map((s) => (s.name === 'A4' ? { ...s, lockedByMe: true } : { ...s })),
      { remainingSeatLimit: 1, expirationTime: new Date(clock.now + 60_000).toISOString() },
    ),
  )
  assert.is(seatChoice.seatLimit.value, 2)
  assert.is(seatChoice.toggleSeat('A1'), 'selected')
  assert.is(seatChoice.toggleSeat('A2'), 'seatLimit')
  await flush()
})

test('an infinite remaining limit (-999) falls back to the 5-seat cap', async () => {
  await loadNewTrip(
    details(
      layout.map((s) => ({ ...s })),
      { remainingSeatLimit: -999 },
    ),
  )
  assert.is(seatChoice.seatLimit.value, 5)
})

test('choosing another trip releases the seats held on the first and leaves nothing of it', async () => {
  seatChoice.toggleSeat('A1')
  await flush()
  assert.is(seatChoice.lastEvent.value?.kind, 'selected')
  await loadNewTrip(details([seat('D1', 0, 0)]))
  assert.is(locks.size, 0)
  assert.equal(seatChoice.seats.value, [])
  assert.is(seatChoice.lastEvent.value, null, 'the first trip’s announcement is not said again')
  assert.is(seatChoice.seatState('A1').value, 'sold', 'a seat the new trip does not have cannot be chosen')
  assert.is(seatChoice.toggleSeat('A1'), 'unknown')
})

test('another trip takes the seat map of the first down at once: no click can lock a seat of the wrong trip', async () => {
  seatChoice.toggleSeat('A1')
  await flush()
  const next = loadNewTrip(details([seat('D1', 0, 0)]))
  assert.is(seatChoice.tripDetails.value, null)
  assert.is(seatChoice.toggleSeat('A2'), 'unknown')
  await next
  await flush()
  assert.is(locks.size, 0)
  assert.is(seatChoice.tripDetails.value?.tripId, trip.tripId)
})

test('failed trip details open the error dialog with the server reason', async () => {
  routes.tripDetails = async () => {
    throw Object.assign(new Error('Trip not found.'), { code: 'TRIP_NOT_FOUND', reason: 'Trip not found.' })
  }
  const st = await loadNewTrip()
  assert.is(st, 'error')
  assert.equal(dialog(), { id: 'error.TRIP_NOT_FOUND' })
})

test('toggling one seat changes only that seat signal', async () => {
  const seen: string[] = []
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
