/**
 * The waitlist of a sold-out trip (issue 30 item 4), on PGlite with a movable clock: joining and
 * its refusals, the place, leaving, and an offer on each trigger (a cancelled booking, a lapsed
 * hold, an expired unpaid booking, leaving), held for the passenger and taken for everyone else,
 * told by one SMS in the passenger's language, booked through the normal booking, or passed on.
 * The two-process race is in waitlist-on-postgres.test.ts.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bookingBody, freeSeats, lockBody, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { cancelTrip, moveTrip } from '../bookings/trip-changes.ts'
import { offerAllWaitlists, offerFreedSeats } from './waitlist.ts'

const t = suite('waitlist')
let f: Fixture
let tripSeq = 0
const nextTrip = () => pickTrip(f, { skip: tripSeq++ * 3 })
type Trip = Awaited<ReturnType<typeof nextTrip>>
type Who = { id: number; token: string; mobile: string }
const code = (r: { body: any }) => r.body?.error?.code

t.before(async () => {
  f = await openFixture()
})
t.after(async () => {
  await f.close()
})

/** Every free seat of the trip held by a filler holder for `minutes`; answers their names. */
async function fill(trip: Trip, minutes = 60): Promise<string[]> {
  const rows = await f.db.query<{ seat_name: string }>(
    `INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at)
     SELECT $1, x, 'd:filler-device-0001', $3 FROM unnest(free_seats($1, $2)) AS x RETURNING seat_name`,
    [trip.id, f.now(), new Date(f.now().getTime() + minutes * 60_000)],
  )
  return rows.map((r) => r.seat_name)
}

/** Locks and books seats; answers the booking. */
async function book(who: Who, trip: Trip, seats: string[]): Promise<any> {
  const l = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: who.token })
  assert.ok(l.status === 200 && l.body.data, JSON.stringify(l.body))
  const b = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats), { token: who.token })
  assert.is(b.status, 200, JSON.stringify(b.body))
  return b.body.data
}

const join = (who: Who, trip: Trip, seats: number, lang = 'en') =>
  f.api('POST', '/api/waitlist', { tripId: trip.id, seats }, { token: who.token, headers: { 'accept-language': lang } })
const entry = async (who: Who, trip: Trip) => (await f.api('GET', `/api/waitlist/${trip.id}`, undefined, { token: who.token })).body.data
const smsTo = (who: Who) =>
  f.db.query<{ body: string }>(
    `SELECT body FROM outbox_messages WHERE channel = 'SMS' AND "to" = $1 AND body LIKE '%aitlist%' OR "to" = $1 AND body LIKE 'অপেক্ষা%' ORDER BY id`,
    [who.mobile],
  )

/** A sold-out trip: `booker` booked `booked` seats, every other seat is held by a filler. */
async function soldOut(booker: Who, booked = 2): Promise<{ trip: Trip; seats: string[]; booking: any }> {
  const trip = await nextTrip()
  const seats = await freeSeats(f, trip.id, booked)
  const booking = await book(booker, trip, seats)
  await fill(trip)
  return { trip, seats, booking }
}

t('joining is refused: not signed in, a bad count, a trip with free seats, twice; leaving when not on the list', async () => {
  const trip = await nextTrip()
  const a = await f.passenger()
  const anon = await f.api('POST', '/api/waitlist', { tripId: trip.id, seats: 1 })
  assert.is(anon.status, 401)
  assert.is(code(anon), 'INVALID_SESSION')
  for (const seats of [0, 5, 1.5, '2']) {
    const r = await f.api('POST', '/api/waitlist', { tripId: trip.id, seats }, { token: a.token })
    assert.is(code(r), 'VALIDATION_FAILED', `seats ${seats}`)
  }
  const open = await join(a, trip, 1)
  assert.is(open.status, 409)
  assert.is(code(open), 'TRIP_NOT_SOLD_OUT')
  await fill(trip)
  const ok = await join(a, trip, 2)
  assert.is(ok.status, 200, JSON.stringify(ok.body))
  assert.equal(ok.body.data, { status: 'WAITING', seats: 2, place: 1, offeredSeats: [], offerExpiresAt: null })
  assert.is(code(await join(a, trip, 1)), 'WAITLIST_ALREADY_JOINED')
  assert.is(code(await f.api('POST', '/api/waitlist', { tripId: 2_000_000, seats: 1 }, { token: a.token })), 'TRIP_NOT_FOUND')
  const b = await f.passenger()
  const left = await f.api('POST', '/api/waitlist/leave', { tripId: trip.id }, { token: b.token })
  assert.is(left.status, 404)
  assert.is(code(left), 'WAITLIST_NOT_JOINED')
  assert.is(code(await f.api('GET', '/api/waitlist/abc', undefined, { token: a.token })), 'VALIDATION_FAILED')
})

t('a departed or cancelled trip has no waitlist', async () => {
  const a = await f.passenger()
  const gone = await nextTrip()
  await fill(gone)
  await f.db.query(`UPDATE trips SET status = 'CLOSED' WHERE id = $1`, [gone.id])
  assert.is(code(await join(a, gone, 1)), 'TRIP_IS_CLOSED')
  const trip = await nextTrip()
  await fill(trip)
  const clock = f.now()
  f.setNow(new Date(trip.departureAt.getTime() + 60_000))
  try {
    assert.is(code(await join(a, trip, 1)), 'TRIP_IS_CLOSED')
  } finally {
    f.setNow(clock)
  }
})

t(
  'a cancelled booking is offered to the first whose need fits: held for them, taken for others, one SMS; booked through the normal booking',
  async () => {
    const x = await f.passenger()
    const { trip, seats, booking } = await soldOut(x, 2)
    const [a, b, c] = [await f.passenger(), await f.passenger(), await f.passenger()]
    assert.is((await join(a, trip, 3)).status, 200)
    assert.is((await join(b, trip, 1, 'bn')).status, 200)
    assert.is((await join(c, trip, 1)).status, 200)
    assert.equal((await entry(c, trip)).place, 3)
    const cancel = await f.api('POST', '/api/reservation/cancelBooking', { reservationId: booking.id }, { token: x.token })
    assert.is(cancel.status, 200, JSON.stringify(cancel.body))
    // a needs 3 (2 are free): b gets the first, c the second
    const eb = await entry(b, trip)
    assert.is(eb.status, 'OFFERED')
    assert.equal(eb.offeredSeats, [seats[0]])
    const ec = await entry(c, trip)
    assert.is(ec.status, 'OFFERED')
    assert.equal(ec.offeredSeats, [seats[1]])
    assert.equal(await entry(a, trip), { status: 'WAITING', seats: 3, place: 1, offeredSeats: [], offerExpiresAt: null })
    const minutes = (Date.parse(eb.offerExpiresAt) - f.now().getTime()) / 60_000
    assert.is(Math.round(minutes), f.deps.config.waitlistOfferSeconds / 60)
    // one SMS each, in the language they joined in
    const sb = await smsTo(b)
    assert.is(sb.length, 1)
    assert.match(sb[0]!.body, /^অপেক্ষা তালিকা: /)
    assert.match(sb[0]!.body, new RegExp(`আসন ${seats[0]} `))
    assert.match(sb[0]!.body, new RegExp(`/reservation\\?tripId=${trip.id}&`))
    const sc = await smsTo(c)
    assert.is(sc.length, 1)
    assert.match(sc[0]!.body, new RegExp(`^Waitlist: seats ${seats[1]} on coach ${trip.coachCode} .* are held for you until `))
    // a second run offers nothing again
    assert.is((await offerFreedSeats(f.deps, trip.id)).length, 0)
    assert.is((await smsTo(b)).length, 1)
    // taken for everyone else: on the seat map and for a seat lock
    const details = (who: Who) =>
      f.api(
        'POST',
        '/api/reservation/tripDetails',
        {
          tripId: trip.id,
          originCode: trip.originCode,
          destinationCode: trip.destinationCode,
          originBusStationId: null,
          destinationBusStationId: null,
        },
        { token: who.token },
      )
    const seen = (await details(a)).body.data.seatLayout.seats.find((s: any) => s.name === seats[0])
    assert.equal([seen.lockedByOther, seen.lockedByMe], [true, false])
    const mine = (await details(b)).body.data.seatLayout.seats.find((s: any) => s.name === seats[0])
    assert.equal([mine.lockedByOther, mine.lockedByMe], [false, true])
    const steal = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [seats[0]!]), { token: a.token })
    assert.is(steal.body.data, false)
    // the seat page's release (a reload, leaving the page) keeps the offer's seats held
    const release = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [seats[0]!], false), { token: b.token })
    assert.equal(release.body.data.seatNames, [seats[0]])
    await offerAllWaitlists(f.deps)
    assert.is((await entry(b, trip)).status, 'OFFERED')
    // b books the offered seat through the normal booking
    const booked = await f.api('POST', '/api/reservation/booking', bookingBody(trip, [seats[0]!]), { token: b.token })
    assert.is(booked.status, 200, JSON.stringify(booked.body))
    await offerAllWaitlists(f.deps)
    assert.is((await entry(b, trip)).status, 'BOOKED')
  },
)

t('an offer not booked in time lapses and passes to the next; leaving while offered passes the seats on at once', async () => {
  const x = await f.passenger()
  const { trip, seats, booking } = await soldOut(x, 1)
  const [a, b, c] = [await f.passenger(), await f.passenger(), await f.passenger()]
  for (const w of [a, b, c]) assert.is((await join(w, trip, 1)).status, 200)
  await f.api('POST', '/api/reservation/cancelBooking', { reservationId: booking.id }, { token: x.token })
  assert.equal((await entry(a, trip)).offeredSeats, seats)
  assert.equal((await entry(b, trip)).place, 1)
  f.advance(f.deps.config.waitlistOfferSeconds / 60 + 1)
  assert.is((await entry(a, trip)).status, 'LAPSED')
  await offerAllWaitlists(f.deps)
  assert.is((await entry(a, trip)).status, 'LAPSED')
  assert.equal((await entry(b, trip)).offeredSeats, seats)
  assert.is((await smsTo(b)).length, 1)
  // b leaves with one click: the seat goes to c
  const left = await f.api('POST', '/api/waitlist/leave', { tripId: trip.id }, { token: b.token })
  assert.equal([left.status, left.body.data], [200, true])
  assert.is(await entry(b, trip), null)
  assert.equal((await entry(c, trip)).offeredSeats, seats)
  // a joins again behind nobody waiting
  assert.equal((await join(a, trip, 1)).body.data.place, 1)
})

for (const how of ['cancels the trip', 'moves its passengers to another coach'] as const) {
  t(`the operator ${how}: the trip's waitlist ends, each waiting or offered passenger told once in their language`, async () => {
    // a trip with another coach on its route and day (for the move)
    const sibling = async (id: number) =>
      (
        await f.db.query<{ coach_code: string }>(
          `SELECT s.coach_code FROM trips s JOIN trips t ON t.id = $1
            WHERE s.route_id = t.route_id AND s.trip_date = t.trip_date AND s.id <> t.id AND s.status = 'OPEN' LIMIT 1`,
          [id],
        )
      )[0]?.coach_code
    let trip = await nextTrip()
    while (!(await sibling(trip.id))) trip = await nextTrip()
    const toCoach = (await sibling(trip.id))!
    const x = await f.passenger()
    const booking = await book(x, trip, await freeSeats(f, trip.id, 1))
    await fill(trip)
    const [a, b] = [await f.passenger(), await f.passenger()]
    assert.is((await join(a, trip, 1)).status, 200)
    assert.is((await join(b, trip, 1, 'bn')).status, 200)
    await f.api('POST', '/api/reservation/cancelBooking', { reservationId: booking.id }, { token: x.token })
    assert.is((await entry(a, trip)).status, 'OFFERED')
    const change = () =>
      how === 'cancels the trip' ? cancelTrip(f.deps, trip.id, { en: 'Flood on the road', bn: 'রাস্তায় বন্যা' }) : moveTrip(f.deps, trip.id, toCoach)
    await change()
    assert.is(await entry(a, trip), null, 'the offered place ended')
    assert.is(await entry(b, trip), null, 'the waiting place ended')
    const told = async () => [(await smsTo(a)).map((m) => m.body), (await smsTo(b)).map((m) => m.body)] as const
    const [toA, toB] = await told()
    assert.is(toA.length, 2, 'the offer, then the end')
    assert.match(toA[1]!, /Your waitlist place has ended\. Other coaches: .*\/search\?from=/)
    assert.match(toA[1]!, how === 'cancels the trip' ? /was cancelled by the operator/ : new RegExp(`its passengers travel on coach ${toCoach}`))
    assert.is(toB.length, 1)
    assert.match(toB[0]!, /^অপেক্ষা তালিকা: .*আপনার অপেক্ষা তালিকার জায়গা শেষ হয়েছে।/)
    // the command run again tells nobody twice
    await change()
    assert.equal(
      (await told()).map((m) => m.length),
      [2, 1],
    )
  })
}

t('a lapsed seat hold and an expired unpaid booking are offered by the sweep', async () => {
  const x = await f.passenger()
  const trip = await nextTrip()
  const seats = await freeSeats(f, trip.id, 1)
  await book(x, trip, seats)
  // the other seats are held for 30 minutes, one of them (the first) for 2
  const held = await fill(trip, 30)
  await f.db.query('UPDATE seat_locks SET expires_at = $3 WHERE trip_id = $1 AND seat_name = $2', [
    trip.id,
    held[0],
    new Date(f.now().getTime() + 120_000),
  ])
  const [a, b] = [await f.passenger(), await f.passenger()]
  assert.is((await join(a, trip, 1)).status, 200)
  assert.is((await join(b, trip, 1)).status, 200)
  await offerAllWaitlists(f.deps)
  assert.is((await entry(a, trip)).status, 'WAITING')
  f.advance(3)
  await offerAllWaitlists(f.deps)
  assert.equal((await entry(a, trip)).offeredSeats, [held[0]])
  assert.is((await entry(b, trip)).status, 'WAITING')
  assert.is((await f.api('POST', '/api/reservation/booking', bookingBody(trip, [held[0]!]), { token: a.token })).status, 200)
  // x's unpaid booking expires (a's booking and the fillers' holds still last)
  f.advance(f.deps.config.holdMinutes - 2)
  await offerAllWaitlists(f.deps)
  assert.equal((await entry(b, trip)).offeredSeats, seats)
})

t.run()
