// The seat page's link between seat choice and booking (src/models/hold.ts): a booking of the trip on the page
// holds its seats there, its end gives them back, the hold running out ends it. One stand-in server answers both.
import { effect } from '@preact/signals-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { input, startBookingTest } from './booking-fixture.ts'
import type { Booking } from './booking.ts'
import { details, layout, type SeatTest, seatTest, toasts, until } from './seat-page-fixture.ts'

const test = suite<{ t: SeatTest; b: Booking & Disposable }>('booking link')
test.before.each(async (ctx) => {
  // the server's booking is of the trip the seat test shows (trip 1)
  const { b, s } = await startBookingTest(1)
  ctx.b = b
  ctx.t = await seatTest(s.handlers)
  assert.is(s.reservation.tripId, ctx.t.trip.tripId)
  // the booking step is shown: the seat page links the booking model
  ctx.t.hold.linkBooking(ctx.b)
})
test.after.each(({ t, b }) => {
  b[Symbol.dispose]()
  t.hold[Symbol.dispose]()
  t.m[Symbol.dispose]()
})

const named = (t: SeatTest, name: string) => t.log.filter((c) => c.name === name)
const names = (t: SeatTest) => t.m.seats.value.map((s) => s.name)

/** Chooses A1 and A2 and books them. */
async function book({ m, trip }: SeatTest, b: Booking): Promise<void> {
  m.toggleSeat('A1')
  m.toggleSeat('A2')
  await m.locksSettled()
  assert.ok(await b.book({ ...input, tripId: trip.tripId }))
}

test("a booking of the trip on the page holds its seats there: frozen, on the booking's clock, which Extend moves", async ({ t, b }) => {
  const { m, clock } = t
  await book(t, b)
  assert.is(b.phase.value, 'booked')
  assert.ok(m.heldForBooking.value)
  assert.equal(names(t), ['A1', 'A2'])
  assert.is(m.expirationTime.value, b.booking.value!.expirationTime)
  assert.is(m.toggleSeat('A3'), 'unavailable', 'the selection is frozen')
  assert.is(m.toggleSeat('A1'), 'unavailable')
  assert.not.ok(t.hold.canKeepSeats.value, "the booking's Extend moves its hold, not Keep my seats")
  clock.now += 60_000
  const until = await b.extend()
  assert.ok(until)
  assert.is(m.expirationTime.value, until)
  assert.is(t.hold.holdMsLeft.value, Date.parse(until!) - clock.now)
})

test("a fresh trip-details answer (it shows the booking's seats as booked) leaves them chosen", async ({ t, b }) => {
  const { m, routes } = t
  await book(t, b)
  routes.tripDetails = ({ body }) =>
    details(
      layout.map((s) => (s.name === 'A1' || s.name === 'A2' ? { ...s, status: 2 } : { ...s })),
      { tripId: body!.tripId },
    )
  await m.loadTrip(t.trip)
  assert.ok(m.heldForBooking.value)
  assert.equal(names(t), ['A1', 'A2'])
  assert.is(m.seatState('A1').value, 'selected')
  assert.is(m.expirationTime.value, b.booking.value!.expirationTime)
})

test('the hold running out on the seat page ends the booking then: said once, by the booking; the seats go back, the seat map is read again', async ({
  t,
  b,
}) => {
  const { m, clock } = t
  await book(t, b)
  const said: string[] = []
  const stop = effect(() => {
    const a = b.announcement.value
    if (a) said.push(a.id)
  })
  said.length = 0
  const loads = named(t, 'tripDetails').length
  clock.now = Date.parse(b.booking.value!.expirationTime!)
  await t.hold.tick()
  assert.is(b.phase.value, 'ended', 'at once, not on the booking clock’s next tick')
  assert.equal(said, ['booking.announceExpired'])
  assert.not.ok(m.heldForBooking.value)
  assert.equal(names(t), [])
  assert.equal(toasts(t, 'info'), [], 'no notification as well')
  await until(() => m.loadStatus.value === 'ready', 'the seat map read again')
  assert.is(named(t, 'tripDetails').length, loads + 1)
  // the booking's own clock, a moment later: nothing more is said
  clock.now += 1000
  b.tick()
  await t.hold.tick()
  stop()
  assert.equal(said, ['booking.announceExpired'])
  assert.is(m.toggleSeat('A3'), 'selected', 'choosing is free again')
  await m.locksSettled()
})

test("the page's reset cancels a booking that holds the seats; seat choice's own reset leaves a booking's seats alone", async ({ t, b }) => {
  const { m, locks } = t
  await book(t, b)
  await m.resetSeats()
  assert.equal(names(t), ['A1', 'A2'])
  assert.ok(m.heldForBooking.value)
  assert.is(named(t, 'cancelBooking').length, 0)
  const loads = named(t, 'tripDetails').length
  await t.hold.resetSeats()
  await until(() => m.loadStatus.value === 'ready', 'the seat map read again')
  assert.is(named(t, 'cancelBooking').length, 1)
  assert.is(b.phase.value, 'ended')
  assert.is(b.announcement.value?.id, 'booking.announceCanceled')
  assert.not.ok(m.heldForBooking.value)
  assert.equal(names(t), [])
  assert.is(named(t, 'tripDetails').length, loads + 1, 'the seats it held are shown as they are now')
  // no booking holds the seats now: the page's reset is seat choice's
  m.toggleSeat('A3')
  await m.locksSettled()
  assert.is(locks.get('A3'), 'me')
  await t.hold.resetSeats()
  assert.equal(names(t), [])
  assert.not.ok(locks.has('A3'))
  assert.is(named(t, 'cancelBooking').length, 1)
})

test('paid from the balance: the seats are no longer held here, and the seat map is not read again', async ({ t, b }) => {
  const { m } = t
  await book(t, b)
  const loads = named(t, 'tripDetails').length
  assert.ok(await b.payFromBalance())
  assert.is(b.phase.value, 'sold')
  assert.not.ok(m.heldForBooking.value)
  assert.equal(names(t), [])
  assert.is(named(t, 'tripDetails').length, loads)
})

test("no booking: the passenger's own choice is left alone; unlinked, a booking does not reach the seat page", async ({ t, b }) => {
  const { m, locks, routes } = t
  m.toggleSeat('A3')
  await m.locksSettled()
  // a fresh answer: the server holds A3 for the passenger
  routes.tripDetails = ({ body }) =>
    details(
      layout.map((s) => ({ ...s, lockedByMe: locks.get(s.name) === 'me' })),
      { tripId: body!.tripId },
    )
  await m.loadTrip(t.trip)
  assert.equal(names(t), ['A3'])
  assert.not.ok(m.heldForBooking.value)
  t.hold.linkBooking(null)
  await book(t, b)
  assert.is(b.phase.value, 'booked')
  assert.not.ok(m.heldForBooking.value)
  assert.equal(names(t), ['A3', 'A1', 'A2'])
})

test.run()
