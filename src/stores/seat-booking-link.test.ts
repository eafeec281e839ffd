// The seat page's link between seat choice and booking (seat-booking-link.ts): a booking of the trip on the page
// holds its seats there, its end gives them back, the hold running out ends it. One fake server answers both stores.
import { effect } from '@preact/signals-react'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as bookingStore from './booking.ts'
import { handlers, input, server, startBookingTest } from './booking-fixture.ts'
import { linkSeatsToBooking, resetSeats } from './seat-booking-link.ts'
import * as seatChoice from './seat-choice.ts'
import { clock, details, flush, layout, locks, log, routes, startSeatTest, toasts, trip } from './seat-fixture.ts'

let unlink: () => void

test.before.each(async () => {
  // the server's booking is of the trip the seat test shows next (each test is on a trip of its own)
  await startBookingTest((seatChoice.tripRef.value?.tripId ?? 0) + 1)
  await startSeatTest(handlers)
  assert.is(server.tripId, trip.tripId)
  unlink = linkSeatsToBooking()
})
test.after.each(() => unlink())

const named = (name: string) => log.filter((c) => c.name === name)
const names = () => seatChoice.seats.value.map((s) => s.name)

/** Chooses A1 and A2 and books them. */
async function book(): Promise<void> {
  seatChoice.toggleSeat('A1')
  seatChoice.toggleSeat('A2')
  await flush()
  assert.ok(await bookingStore.book({ ...input, tripId: trip.tripId }))
}

test("a booking of the trip on the page holds its seats there: frozen, on the booking's clock, which Extend moves", async () => {
  await book()
  assert.is(bookingStore.phase.value, 'booked')
  assert.ok(seatChoice.heldForBooking.value)
  assert.equal(names(), ['A1', 'A2'])
  assert.is(seatChoice.expirationTime.value, bookingStore.booking.value!.expirationTime)
  assert.is(seatChoice.toggleSeat('A3'), 'unavailable', 'the selection is frozen')
  assert.is(seatChoice.toggleSeat('A1'), 'unavailable')
  assert.not.ok(seatChoice.canKeepSeats.value, "the booking's Extend moves its hold, not Keep my seats")
  clock.now += 60_000
  const until = await bookingStore.extend()
  assert.ok(until)
  assert.is(seatChoice.expirationTime.value, until)
  assert.is(seatChoice.holdMsLeft.value, Date.parse(until!) - clock.now)
})

test("a fresh trip-details answer (it shows the booking's seats as booked) leaves them chosen", async () => {
  await book()
  routes.tripDetails = ({ body }) =>
    details(
      layout.map((s) => (s.name === 'A1' || s.name === 'A2' ? { ...s, status: 2 } : { ...s })),
      { tripId: body!.tripId },
    )
  await seatChoice.loadTrip(trip)
  assert.ok(seatChoice.heldForBooking.value)
  assert.equal(names(), ['A1', 'A2'])
  assert.is(seatChoice.seatState('A1').value, 'selected')
  assert.is(seatChoice.expirationTime.value, bookingStore.booking.value!.expirationTime)
})

test('the hold running out on the seat page ends the booking then: said once, by the booking; the seats go back, the seat map is read again', async () => {
  await book()
  const said: string[] = []
  const stop = effect(() => {
    const a = bookingStore.announcement.value
    if (a) said.push(a.id)
  })
  said.length = 0
  const loads = named('tripDetails').length
  clock.now = Date.parse(bookingStore.booking.value!.expirationTime!)
  seatChoice.tick()
  await flush()
  assert.is(bookingStore.phase.value, 'ended', 'at once, not on the booking clock’s next tick')
  assert.equal(said, ['booking.announceExpired'])
  assert.not.ok(seatChoice.heldForBooking.value)
  assert.equal(names(), [])
  assert.equal(toasts('info'), [], 'no notification as well')
  assert.is(named('tripDetails').length, loads + 1)
  // the booking's own clock, a moment later: nothing more is said
  clock.now += 1000
  bookingStore.tick()
  seatChoice.tick()
  await flush()
  stop()
  assert.equal(said, ['booking.announceExpired'])
  assert.is(seatChoice.toggleSeat('A3'), 'selected', 'choosing is free again')
  await flush()
})

test("the page's reset cancels a booking that holds the seats; seat choice's own reset leaves a booking's seats alone", async () => {
  await book()
  await seatChoice.resetSeats()
  assert.equal(names(), ['A1', 'A2'])
  assert.is(named('cancelBooking').length, 0)
  const loads = named('tripDetails').length
  await resetSeats()
  await flush()
  assert.is(named('cancelBooking').length, 1)
  assert.is(bookingStore.phase.value, 'ended')
  assert.is(bookingStore.announcement.value?.id, 'booking.announceCanceled')
  assert.not.ok(seatChoice.heldForBooking.value)
  assert.equal(names(), [])
  assert.is(named('tripDetails').length, loads + 1, 'the seats it held are shown as they are now')
  // no booking holds the seats now: the page's reset is seat choice's
  seatChoice.toggleSeat('A3')
  await flush()
  assert.is(locks.get('A3'), 'me')
  await resetSeats()
  assert.equal(names(), [])
  assert.not.ok(locks.has('A3'))
  assert.is(named('cancelBooking').length, 1)
})

test('paid from the balance: the seats are no longer held here, and the seat map is not read again', async () => {
  await book()
  const loads = named('tripDetails').length
  assert.ok(await bookingStore.payFromBalance())
  assert.is(bookingStore.phase.value, 'sold')
  assert.not.ok(seatChoice.heldForBooking.value)
  assert.equal(names(), [])
  assert.is(named('tripDetails').length, loads)
})

test("no booking: the passenger's own choice is left alone; unlinked, a booking does not reach the seat page", async () => {
  seatChoice.toggleSeat('A3')
  await flush()
  // a fresh answer: the server holds A3 for the passenger
  routes.tripDetails = ({ body }) =>
    details(
      layout.map((s) => ({ ...s, lockedByMe: locks.get(s.name) === 'me' })),
      { tripId: body!.tripId },
    )
  await seatChoice.loadTrip(trip)
  assert.equal(names(), ['A3'])
  assert.not.ok(seatChoice.heldForBooking.value)
  unlink()
  unlink = () => {}
  await book()
  assert.is(bookingStore.phase.value, 'booked')
  assert.not.ok(seatChoice.heldForBooking.value)
  assert.equal(names(), ['A3', 'A1', 'A2'])
})

test.run()
