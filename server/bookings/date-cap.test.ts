/**
 * The per-passenger cap for one travel date (SEATS_PER_PASSENGER_PER_DATE, here 4), on PGlite:
 * counted across bookings and trips of the date, by account and by mobile number (the account's
 * and the traveller's written on a booking), paid and live unpaid seats; other dates, cancelled
 * bookings and other passengers unaffected; the refusal's code, reason and values; what the
 * trip-details answer says is left. The two-process race is in date-cap-on-postgres.test.ts.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bookingBody, freeSeats, lockBody, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'

const t = suite('seats per passenger per date')
let f: Fixture
type Trip = Awaited<ReturnType<typeof pickTrip>>
type Who = { id: number; token: string; mobile: string }
const code = (r: { body: any }) => r.body?.error?.code

t.before(async () => {
  f = await openFixture({ config: { seatsPerPassengerPerDate: 4 } })
})
t.after(async () => {
  await f.close()
})

/** `n` trips of one travel date (the `dateIndex`-th date with that many), each with free seats. */
async function tripsOfOneDate(n: number, dateIndex = 0): Promise<Trip[]> {
  const byDate = new Map<string, Trip[]>()
  for (let skip = 0; ; skip++) {
    const trip = await pickTrip(f, { skip }).catch(() => null)
    if (!trip) throw new Error(`no date with ${n} trips`)
    const list = byDate.get(trip.tripDate) ?? []
    list.push(trip)
    byDate.set(trip.tripDate, list)
    const full = [...byDate.values()].filter((l) => l.length >= n)
    if (full.length > dateIndex) return full[dateIndex]!.slice(0, n)
  }
}

let travellerSeq = 0
/** A traveller's mobile no test used before. */
const newMobile = () => `016${String(process.pid % 1000).padStart(3, '0')}${String(++travellerSeq).padStart(5, '0')}`

/** Locks `n` free seats of the trip for `who` and books them for the traveller `mobile`. */
async function book(who: Who, trip: Trip, n: number, mobile = who.mobile) {
  const seats = await freeSeats(f, trip.id, n)
  const l = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: who.token })
  assert.is(l.status, 200, JSON.stringify(l.body))
  assert.ok(l.body.data, 'the seats are locked')
  const r = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats, { passengerMobile: mobile }), { token: who.token })
  if (r.status !== 200) await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats, false), { token: who.token })
  return r
}

async function details(trip: Trip, token?: string) {
  const r = await f.api(
    'POST',
    '/api/reservation/tripDetails',
    { tripId: trip.id, originCode: trip.originCode, destinationCode: trip.destinationCode, originBusStationId: null, destinationBusStationId: null },
    { token },
  )
  assert.is(r.status, 200, JSON.stringify(r.body))
  return r.body.data as { remainingSeatLimit: number; dateSeatLimit: { cap: number; left: number | null } }
}

t('one account: 4 seats over two trips of a date, a fifth on a third trip refused with the number; another date is not touched', async () => {
  const [a, b, c] = await tripsOfOneDate(3)
  const p = await f.passenger()
  assert.is((await book(p, a!, 2)).status, 200)
  assert.is((await book(p, b!, 2)).status, 200)
  const before = await f.snapshot()
  const r = await book(p, c!, 1)
  assert.is(r.status, 400)
  assert.is(code(r), 'SEAT_LIMIT_EXCEEDED')
  assert.is(r.body.error.reason, `Seat limit exceeded. One passenger may buy at most 4 seats for travel on ${c!.tripDate}; you have 0 left.`)
  assert.equal(r.body.error.values, { scope: 'date', count: 4, left: 0 })
  // the refused booking left nothing behind but its released locks
  assert.is(await f.snapshot(), before)
  const [other] = await tripsOfOneDate(1, 1)
  assert.is.not(other!.tripDate, a!.tripDate)
  assert.is((await book(p, other!, 4)).status, 200, 'another travel date has a cap of its own')
})

t('paid seats count; a cancelled booking frees its seats from the count; asking for more than is left says what is left', async () => {
  const [a, b] = await tripsOfOneDate(2)
  const p = await f.passenger({ balance: 100_000 })
  const sold = await book(p, a!, 2)
  const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: sold.body.data.id }, { token: p.token })
  assert.is(paid.status, 200, JSON.stringify(paid.body))
  const unpaid = await book(p, b!, 1)
  assert.is(unpaid.status, 200)
  const r = await book(p, b!, 2)
  assert.is(code(r), 'SEAT_LIMIT_EXCEEDED')
  assert.equal(r.body.error.values, { scope: 'date', count: 4, left: 1 })
  const c = await f.api('POST', '/api/reservation/cancelBooking', { reservationId: unpaid.body.data.id }, { token: p.token })
  assert.is(c.status, 200)
  assert.is((await book(p, b!, 2)).status, 200, 'the cancelled seat no longer counts')
  assert.is(code(await book(p, a!, 1)), 'SEAT_LIMIT_EXCEEDED')
})

t('one mobile number: two accounts booking for the same traveller share 4 seats for the date; a third passenger is not held back', async () => {
  const [a, b] = await tripsOfOneDate(2)
  const [p, q, other] = [await f.passenger(), await f.passenger(), await f.passenger()]
  const traveller = newMobile()
  assert.is((await book(p, a!, 3, traveller)).status, 200)
  const r = await book(q, b!, 2, traveller)
  assert.is(code(r), 'SEAT_LIMIT_EXCEEDED')
  assert.equal(r.body.error.values, { scope: 'date', count: 4, left: 1 })
  assert.is((await book(q, b!, 1, traveller)).status, 200)
  // the traveller's mobile written with a leading 0 more: the same number
  assert.is(code(await book(q, b!, 1, `0${traveller}`)), 'SEAT_LIMIT_EXCEEDED')
  assert.is((await book(other, b!, 4, newMobile())).status, 200)
})

t("an account's own mobile counts as the passenger's: another account booking for it, or it booking for another's, shares the cap", async () => {
  const [a, b] = await tripsOfOneDate(2)
  const [p, q] = [await f.passenger(), await f.passenger()]
  // q books 3 seats for p's mobile: p has 1 left, whatever traveller p writes
  assert.is((await book(q, a!, 3, p.mobile)).status, 200)
  assert.is(code(await book(p, b!, 2, newMobile())), 'SEAT_LIMIT_EXCEEDED')
  assert.is((await book(p, b!, 1, newMobile())).status, 200)
  // two accounts of one person, each booking for the other's mobile, do not get 8
  const [r, s] = [await f.passenger(), await f.passenger()]
  assert.is((await book(r, a!, 4, s.mobile)).status, 200)
  assert.is(code(await book(s, b!, 1, r.mobile)), 'SEAT_LIMIT_EXCEEDED')
})

t('trip details: the cap and what is left for the date, and a remaining seat limit within it (a visitor: the cap)', async () => {
  const [a, b] = await tripsOfOneDate(2)
  const p = await f.passenger()
  const visitor = await details(a!)
  assert.equal(visitor.dateSeatLimit, { cap: 4, left: null })
  assert.is(visitor.remainingSeatLimit, 4)
  assert.equal((await details(a!, p.token)).dateSeatLimit, { cap: 4, left: 4 })
  assert.is((await book(p, a!, 3)).status, 200)
  const other = await details(b!, p.token)
  assert.equal(other.dateSeatLimit, { cap: 4, left: 1 })
  assert.is(other.remainingSeatLimit, 1)
  // a seat held on the trip is taken from what may still be chosen, not from what is left to buy
  const [seat] = await freeSeats(f, b!.id, 1)
  await f.api('POST', '/api/reservation/seatLock', lockBody(b!, [seat!]), { token: p.token })
  const held = await details(b!, p.token)
  assert.equal([held.dateSeatLimit.left, held.remainingSeatLimit], [1, 0])
})

t.run()
