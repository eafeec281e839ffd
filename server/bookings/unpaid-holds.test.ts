/**
 * Unpaid bookings as holds, on PGlite with a movable clock (the two-process races are in
 * unpaid-holds-on-postgres.test.ts): no renewal once the first booking's time has passed
 * (cancelled or expired), extensions carried over, the cool-down's end, the booking-time
 * check of the per-address limit, the booking's remembered address.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bookingBody, freeSeats, lockBody, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'

const t = suite('unpaid holds')
let f: Fixture
/** How long a seat lock holds, from the server's configuration. */
const holdMs = () => f.deps.config.holdMinutes * 60_000
let tripSeq = 0
const nextTrip = () => pickTrip(f, { skip: tripSeq++ * 5 })
const code = (r: { body: any }) => r.body?.error?.code
const net = (address: string) => ({ 'x-forwarded-for': address })

t.before(async () => {
  f = await openFixture({ config: { holdLimitPerAddress: 10, holdLimitPerAddressTotal: 30, unpaidSeatsPerPassenger: 10 } })
})
t.after(async () => {
  await f.close()
})

async function book(who: { token: string }, trip: Awaited<ReturnType<typeof nextTrip>>, seats: string[], address: string) {
  const l = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: who.token, headers: net(address) })
  assert.is(l.status, 200, JSON.stringify(l.body))
  const b = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats), { token: who.token, headers: net(address) })
  assert.is(b.status, 200, JSON.stringify(b.body))
  return b.body.data
}

t('a booking remembers its client address', async () => {
  const trip = await nextTrip()
  const p = await f.passenger()
  const r = await book(p, trip, await freeSeats(f, trip.id, 1), '203.0.113.60')
  const [row] = await f.db.query<{ address: string; passenger_id: number }>('SELECT address, passenger_id FROM reservations WHERE id = $1', [r.id])
  assert.equal(row, { address: '203.0.113.60', passenger_id: p.id })
})

t('once the first booking has run out (expired, not cancelled), its passenger and network cannot hold those seats again for a while', async () => {
  const trip = await nextTrip()
  const [p, q] = [await f.passenger(), await f.passenger()]
  const seats = await freeSeats(f, trip.id, 3)
  const mine = seats.slice(0, 2)
  const first = await book(p, trip, mine, '203.0.113.61')
  f.advance(15.5)
  // the same account from another network, and another account of the same network
  for (const [who, address] of [
    [p, '198.51.100.61'],
    [q, '203.0.113.61'],
  ] as const) {
    const l = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, mine), { token: who.token, headers: net(address) })
    assert.is(l.status, 409)
    assert.is(code(l), 'SEAT_HOLD_ENDED')
    assert.ok(l.body.error.values.minutes > 0)
    assert.match(l.body.error.reason, /you can hold them again in \d+ minutes/)
  }
  // other seats are fine, and so is anyone else
  const other = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [seats[2]!]), { token: p.token, headers: net('203.0.113.61') })
  assert.is(other.status, 200)
  const r = await f.passenger()
  const l = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, mine), { token: r.token, headers: net('198.51.100.62') })
  assert.is(l.status, 200)
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, mine, false), { token: r.token, headers: net('198.51.100.62') })
  // 15 minutes after the latest the first booking could have ended, a full hold again
  f.setNow(new Date(Date.parse(first.createdAt) + (30 + 15) * 60_000 + 1000))
  const again = await book(p, trip, mine, '203.0.113.61')
  assert.is(Date.parse(again.expirationTime) - Date.parse(again.createdAt), holdMs())
})

t('an extended first booking: booking its seats again after a cancel ends when the extended one would have', async () => {
  const trip = await nextTrip()
  const p = await f.passenger()
  const seats = await freeSeats(f, trip.id, 1)
  const first = await book(p, trip, seats, '203.0.113.63')
  const extended = new Date(Date.parse(first.createdAt) + 25 * 60_000)
  const x = await f.api(
    'POST',
    '/api/reservation/extendBookingTime',
    { reservationId: first.id, expirationTime: extended.toISOString() },
    { token: p.token },
  )
  assert.is(x.status, 200)
  f.advance(20)
  const c = await f.api('POST', '/api/reservation/cancelBooking', { reservationId: first.id }, { token: p.token, headers: net('203.0.113.63') })
  assert.is(c.status, 200)
  const again = await book(p, trip, seats, '203.0.113.63')
  assert.is(Date.parse(again.expirationTime), extended.getTime())
  // and it cannot be extended past the first one's maximum
  const past = new Date(Date.parse(first.createdAt) + 31 * 60_000).toISOString()
  const y = await f.api('POST', '/api/reservation/extendBookingTime', { reservationId: again.id, expirationTime: past }, { token: p.token })
  assert.is(code(y), 'INVALID_EXPIRATION_TIME')
})

t('seats locked from one network and booked from another count toward the booking network: refused there when it is full', async () => {
  const trip = await nextTrip()
  const seats = await freeSeats(f, trip.id, 12)
  const [p, q] = [await f.passenger(), await f.passenger()]
  // network B holds 10 seats of the trip: 5 booked, 5 locked
  await book(p, trip, seats.slice(0, 5), '198.51.100.64')
  const lb = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats.slice(5, 10)), {
    device: 'b-visitor',
    headers: net('198.51.100.64'),
  })
  assert.is(lb.status, 200)
  // q locks 2 seats from network A, then books them from network B
  const la = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats.slice(10, 12)), { token: q.token, headers: net('203.0.113.64') })
  assert.is(la.status, 200)
  const before = await f.snapshot()
  const b = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats.slice(10, 12)), { token: q.token, headers: net('198.51.100.64') })
  assert.is(b.status, 429)
  assert.is(code(b), 'HOLD_LIMIT_EXCEEDED')
  assert.ok(Number(b.headers['retry-after']) > 0)
  assert.is(await f.snapshot(), before)
  // from its own network it books
  const ok = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats.slice(10, 12)), { token: q.token, headers: net('203.0.113.64') })
  assert.is(ok.status, 200)
})

t(
  'releasing a seat lock and locking the seat again (any device or account of the network) ends when the first lock would have; a booking still gets its full time',
  async () => {
    const trip = await nextTrip()
    const seats = await freeSeats(f, trip.id, 2)
    const p = await f.passenger()
    const from = net('203.0.113.68')
    const first = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { device: 'first-device', headers: from })
    assert.is(first.status, 200)
    const end = Date.parse(first.body.data.expirationTime)
    f.advance(10)
    await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats, false), { device: 'first-device', headers: from })
    for (const who of [{ device: 'first-device' }, { device: 'second-device' }, { token: p.token }]) {
      const again = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { ...who, headers: from })
      assert.is(again.status, 200)
      assert.is(Date.parse(again.body.data.expirationTime), end)
      await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats, false), { ...who, headers: from })
    }
    // another network gets a full hold
    const other = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { device: 'elsewhere', headers: net('198.51.100.68') })
    assert.is(Date.parse(other.body.data.expirationTime), f.now().getTime() + holdMs())
    await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats, false), { device: 'elsewhere', headers: net('198.51.100.68') })
    // booking from the capped lock: the booking's own 15 minutes
    const l = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: p.token, headers: from })
    assert.is(Date.parse(l.body.data.expirationTime), end)
    const b = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats), { token: p.token, headers: from })
    assert.is(b.status, 200)
    assert.is(Date.parse(b.body.data.expirationTime), f.now().getTime() + holdMs())
  },
)

t('UNPAID_SEATS_PER_PASSENGER: paying for a booking frees its seats from the count', async () => {
  const p = await f.passenger({ balance: 1_000_000 })
  const [a, b, c] = [await nextTrip(), await nextTrip(), await nextTrip()]
  const first = await book(p, a, await freeSeats(f, a.id, 5), '192.0.2.65')
  await book(p, b, await freeSeats(f, b.id, 5), '192.0.2.66')
  const seats = await freeSeats(f, c.id, 1)
  const l = await f.api('POST', '/api/reservation/seatLock', lockBody(c, seats), { token: p.token, headers: net('192.0.2.67') })
  assert.is(l.status, 200)
  const refused = await f.api('POST', '/api/reservation/booking', bookingBody(c, seats), { token: p.token, headers: net('192.0.2.67') })
  assert.is(code(refused), 'SEAT_LIMIT_EXCEEDED')
  const paid = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: first.id }, { token: p.token })
  assert.is(paid.status, 200)
  const ok = await f.api('POST', '/api/reservation/booking', bookingBody(c, seats), { token: p.token, headers: net('192.0.2.67') })
  assert.is(ok.status, 200, JSON.stringify(ok.body))
})

t.run()
