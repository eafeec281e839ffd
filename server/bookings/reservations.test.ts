/**
 * Trip search, trip details, seat locks, bookings and coupons through the HTTP API
 * (app.inject on PGlite, with a movable clock).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bookingBody, buyTicket, freeSeats, lockAndBook, lockBody, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { dhakaDate } from '../lib/time.ts'

const t = suite<{ f: Fixture }>('reservations')
let f: Fixture
/** How long a seat lock holds, from the server's configuration. */
const holdMs = () => f.deps.config.holdMinutes * 60_000
let trips = 0
/** A fresh trip for each test, so tests do not share seats. */
const nextTrip = (o: { minHours?: number } = {}) => pickTrip(f, { skip: trips++ * 7, ...o })

t.before(async () => {
  f = await openFixture()
})
t.after(async () => {
  await f.close()
})

const code = (r: { body: any }) => r.body?.error?.code

async function malformed(url: string, bodies: unknown[], token?: string) {
  for (const b of bodies) {
    const before = await f.snapshot()
    const r = await f.api('POST', url, b, { token })
    // Past the 64 KiB body limit: 413; not JSON: 415; both still VALIDATION_FAILED.
    assert.ok([400, 413, 415].includes(r.status), `${url} ${JSON.stringify(b).slice(0, 80)} → ${r.status}`)
    assert.is(code(r), 'VALIDATION_FAILED')
    assert.is(await f.snapshot(), before, 'nothing changed')
  }
}

// ---------- tripSearch ----------

t('tripSearch lists the open trips of the day between the cities, sorted by departure', async () => {
  const trip = await nextTrip()
  const r = await f.api('POST', '/api/reservation/tripSearch', {
    originCode: trip.originCode,
    destinationCode: trip.destinationCode,
    tripDate: trip.tripDate,
  })
  assert.is(r.status, 200)
  const list = r.body.data as any[]
  assert.ok(list.length >= 1)
  const mine = list.find((x) => x.tripId === trip.id)
  assert.ok(mine)
  assert.match(mine.departureTime, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\+06:00$/)
  assert.is(mine.originCode, trip.originCode)
  assert.ok(mine.totalSeats > 0 && mine.availableSeats <= mine.totalSeats)
  assert.ok(mine.fareFrom > 0)
  assert.ok(mine.boardingStations.length > 0 && mine.droppingStations.length > 0)
  assert.ok(mine.seatTypes.length > 0)
  assert.is(mine.durationMinutes, (Date.parse(mine.arrivalTime) - Date.parse(mine.departureTime)) / 60000)
  const deps = list.map((x) => Date.parse(x.departureTime))
  assert.equal(
    deps,
    [...deps].sort((a, b) => a - b),
  )
  // A lock by anyone makes a seat unavailable in the search.
  const [seat] = await freeSeats(f, trip.id, 1)
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [seat!]), { device: 'search-device-1' })
  const again = await f.api('POST', '/api/reservation/tripSearch', {
    originCode: trip.originCode,
    destinationCode: trip.destinationCode,
    tripDate: trip.tripDate,
  })
  assert.is(again.body.data.find((x: any) => x.tripId === trip.id).availableSeats, mine.availableSeats - 1)
})

t('tripSearch: identical searches are answered from memory for config.searchCacheMs, then fresh', async () => {
  const trip = await pickTrip(f)
  const body = { originCode: trip.originCode, destinationCode: trip.destinationCode, tripDate: trip.tripDate }
  const seatsOf = (r: any) => r.body.data.find((x: any) => x.tripId === trip.id).availableSeats as number
  f.deps.config.searchCacheMs = 60_000
  try {
    const first = seatsOf(await f.api('POST', '/api/reservation/tripSearch', body))
    const [seat] = await freeSeats(f, trip.id, 1)
    await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [seat!]), { device: 'cache-device-1' })
    assert.is(seatsOf(await f.api('POST', '/api/reservation/tripSearch', body)), first, 'cached')
    f.deps.config.searchCacheMs = 0
    assert.is(seatsOf(await f.api('POST', '/api/reservation/tripSearch', body)), first - 1, 'fresh without the cache')
    // an unknown city is still refused, cache or not
    f.deps.config.searchCacheMs = 60_000
    const bad = await f.api('POST', '/api/reservation/tripSearch', { ...body, originCode: 'ZZZ' })
    assert.is(bad.body.error.code, 'CITY_NOT_FOUND')
  } finally {
    f.deps.config.searchCacheMs = 0
  }
})

t('tripSearch: no trips that day answers an empty list', async () => {
  const far = dhakaDate(new Date(f.now().getTime() + 200 * 86_400_000))
  const r = await f.api('POST', '/api/reservation/tripSearch', { originCode: 'DHK', destinationCode: 'CTG', tripDate: far })
  assert.is(r.status, 200)
  assert.equal(r.body.data, [])
})

t('tripSearch errors: unknown city, same cities, past date, malformed', async () => {
  const today = dhakaDate(f.now())
  let r = await f.api('POST', '/api/reservation/tripSearch', { originCode: 'XYZ', destinationCode: 'CTG', tripDate: today })
  assert.is(r.status, 404)
  assert.is(code(r), 'CITY_NOT_FOUND')
  r = await f.api('POST', '/api/reservation/tripSearch', { originCode: 'DHK', destinationCode: 'DHK', tripDate: today })
  assert.is(code(r), 'VALIDATION_FAILED')
  r = await f.api('POST', '/api/reservation/tripSearch', {
    originCode: 'DHK',
    destinationCode: 'CTG',
    tripDate: dhakaDate(new Date(f.now().getTime() - 86_400_000)),
  })
  assert.is(code(r), 'TRIP_IS_NOT_AVAILABLE')
  r = await f.api('POST', '/api/reservation/tripSearch', { originCode: 'DHK', destinationCode: 'CTG', tripDate: '2026-02-31' })
  assert.is(code(r), 'VALIDATION_FAILED')
  await malformed('/api/reservation/tripSearch', [
    {},
    { originCode: 'DHK', destinationCode: 'CTG' },
    { originCode: 1, destinationCode: 'CTG', tripDate: today },
    { originCode: 'DHK', destinationCode: 'CTG', tripDate: today, extra: 1 },
    { originCode: 'D'.repeat(100_000), destinationCode: 'CTG', tripDate: today },
    { originCode: 'D'.repeat(10_000), destinationCode: 'CTG', tripDate: today },
    [],
    'text',
  ])
})

// ---------- tripDetails ----------

t('tripDetails shows every seat with sold/booked/locked state, fare, limit and my lock expiry', async () => {
  const trip = await nextTrip()
  const p = await f.passenger()
  const [mine, other] = await freeSeats(f, trip.id, 2)
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [mine!]), { token: p.token })
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [other!]), { device: 'details-other-1' })
  const sold = await f.db.query<{ seat_name: string; status: number }>(
    'SELECT rs.seat_name, x.status FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id WHERE rs.trip_id = $1 AND rs.active',
    [trip.id],
  )
  const r = await f.api(
    'POST',
    '/api/reservation/tripDetails',
    {
      tripId: trip.id,
      originCode: trip.originCode,
      destinationCode: trip.destinationCode,
      originBusStationId: trip.boardingId,
      destinationBusStationId: null,
    },
    { token: p.token },
  )
  assert.is(r.status, 200)
  const d = r.body.data
  const seat = (n: string) => d.seatLayout.seats.find((s: any) => s.name === n)
  assert.is(seat(mine!).lockedByMe, true)
  assert.is(seat(mine!).lockedByOther, false)
  assert.is(seat(other!).lockedByOther, true)
  for (const s of sold) assert.is(seat(s.seat_name).status, s.status)
  assert.ok(d.seatLayout.seats.every((s: any) => s.fare > 0))
  assert.is(d.remainingSeatLimit, 4)
  assert.is(Date.parse(d.expirationTime), f.now().getTime() - (f.now().getTime() % 1000) + holdMs())
  const free = d.seatLayout.seats.filter((s: any) => s.status === 0 && !s.lockedByMe && !s.lockedByOther).length
  assert.is(d.availableSeats, free)
  // A visitor sees no lock of its own and the full limit.
  const v = await f.api('POST', '/api/reservation/tripDetails', {
    tripId: trip.id,
    originCode: trip.originCode,
    destinationCode: trip.destinationCode,
    originBusStationId: null,
    destinationBusStationId: null,
  })
  assert.is(v.body.data.remainingSeatLimit, 5)
  assert.is(v.body.data.expirationTime, null)
})

t('tripDetails errors: unknown trip, wrong route, station of another city, closed and omitted trips, malformed', async () => {
  const trip = await nextTrip()
  const body = {
    tripId: trip.id,
    originCode: trip.originCode,
    destinationCode: trip.destinationCode,
    originBusStationId: null,
    destinationBusStationId: null,
  }
  let r = await f.api('POST', '/api/reservation/tripDetails', { ...body, tripId: 999_999 })
  assert.is(code(r), 'TRIP_NOT_FOUND')
  r = await f.api('POST', '/api/reservation/tripDetails', { ...body, originCode: trip.destinationCode, destinationCode: trip.originCode })
  assert.is(code(r), 'TRIP_NOT_FOUND')
  r = await f.api('POST', '/api/reservation/tripDetails', { ...body, originBusStationId: trip.droppingId })
  assert.is(code(r), 'BUS_STATION_NOT_FOUND')
  await f.db.query("UPDATE trips SET status = 'CLOSED' WHERE id = $1", [trip.id])
  r = await f.api('POST', '/api/reservation/tripDetails', body)
  assert.is(code(r), 'TRIP_IS_CLOSED')
  await f.db.query("UPDATE trips SET status = 'OMITTED' WHERE id = $1", [trip.id])
  r = await f.api('POST', '/api/reservation/tripDetails', body)
  assert.is(code(r), 'TRIP_OMITTED')
  await f.db.query("UPDATE trips SET status = 'OPEN' WHERE id = $1", [trip.id])
  await malformed('/api/reservation/tripDetails', [
    {},
    { ...body, tripId: 'one' },
    { ...body, tripId: -1 },
    { ...body, originBusStationId: undefined },
    { ...body, hack: true },
  ])
})

// ---------- seatLock ----------

t('seatLock: one holder wins a seat; another gets false; only the holder can unlock', async () => {
  const trip = await nextTrip()
  const [a, b] = await freeSeats(f, trip.id, 2)
  let r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { device: 'holder-aaaa-1' })
  assert.is(r.status, 200)
  assert.equal(r.body.data.seatNames, [a])
  assert.ok(r.body.data.expirationTime.endsWith('+06:00'))
  r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { device: 'holder-bbbb-1' })
  assert.is(r.status, 200)
  assert.is(r.body.data, false)
  // All or nothing: b is free but a is not, so b is not kept either.
  r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [b!, a!]), { device: 'holder-bbbb-1' })
  assert.is(r.body.data, false)
  const held = await f.db.query('SELECT seat_name FROM seat_locks WHERE trip_id = $1 AND seat_name = $2', [trip.id, b])
  assert.is(held.length, 0)
  // Unlocking a seat you do not hold changes nothing.
  const before = await f.snapshot()
  r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!], false), { device: 'holder-bbbb-1' })
  assert.is(r.status, 200)
  assert.equal(r.body.data, { seatNames: [], expirationTime: null })
  assert.is(await f.snapshot(), before)
  r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!], false), { device: 'holder-aaaa-1' })
  assert.equal(r.body.data, { seatNames: [], expirationTime: null })
  r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { device: 'holder-bbbb-1' })
  assert.equal(r.body.data.seatNames, [a])
})

t('seatLock: a lock expires after 15 minutes and can then be taken; re-locking keeps your seats', async () => {
  const trip = await nextTrip()
  const [a, b] = await freeSeats(f, trip.id, 2)
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { device: 'expiry-aaaa-1' })
  f.advance(5)
  let r = await f.api('POST', '/api/reservation/seatLock', { ...lockBody(trip, [b!]), tripId: trip.id }, { device: 'expiry-aaaa-1' })
  assert.equal(r.body.data.seatNames, [a, b].sort())
  // The earliest of the holder's locks.
  assert.is(Date.parse(r.body.data.expirationTime), Math.floor((f.now().getTime() - 5 * 60_000) / 1000) * 1000 + holdMs())
  f.advance(10.5)
  r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { device: 'expiry-bbbb-1' })
  assert.equal(r.body.data.seatNames, [a])
  r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [b!]), { device: 'expiry-bbbb-1' })
  assert.is(r.body.data, false)
})

t('seatLock: re-locking a held seat never moves its expiry; it ends 15 minutes after it was first locked', async () => {
  const trip = await nextTrip()
  const [a] = await freeSeats(f, trip.id, 1)
  const first = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { device: 'relock-aaaa-1' })
  const expiry = first.body.data.expirationTime
  // the loop of an attacker keeping a coach blocked: lock the same seats again and again
  for (let i = 0; i < 3; i++) {
    f.advance(4)
    const again = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { device: 'relock-aaaa-1' })
    assert.equal(again.body.data, { seatNames: [a], expirationTime: expiry })
  }
  const p = await f.passenger()
  // signing in takes the visitor's hold over, with the same expiry
  const mine = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { token: p.token, device: 'relock-aaaa-1' })
  assert.is(mine.body.data.expirationTime, expiry)
  f.advance(3.1)
  const other = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { device: 'relock-bbbb-1' })
  assert.equal(other.body.data.seatNames, [a])
})

/** The body of POST /reservation/extendSeatLock: the held seats until `at`. */
function extendBody(trip: Parameters<typeof lockBody>[0], seatNames: string[], at: Date | string | number): Record<string, unknown> {
  const { locked: _, ...body } = lockBody(trip, seatNames)
  return { ...body, expirationTime: at instanceof Date ? at.toISOString() : at }
}

t(
  'extendSeatLock: a hold before booking is extended to a valid expiry, at most twice and 30 minutes from when it was won; refusals say why',
  async () => {
    const trip = await nextTrip()
    const [a, b] = await freeSeats(f, trip.id, 2)
    const device = { device: 'extend-aaaa-1' }
    const first = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!, b!]), device)
    const won = Date.parse(first.body.data.expirationTime) - holdMs()
    const at = (m: number) => new Date(won + m * 60_000)
    const extend = (names: string[], when: Date | string, opts: { device?: string; token?: string } = device) =>
      f.api('POST', '/api/reservation/extendSeatLock', extendBody(trip, names, when), opts)
    f.advance(13)
    const before = await f.snapshot()
    // not after the hold's current end, or past the maximum (30 minutes from when it was won)
    for (const bad of [at(14), at(15), at(30.5)]) {
      const r = await extend([a!, b!], bad)
      assert.is(r.status, 400, String(bad))
      assert.is(code(r), 'INVALID_EXPIRATION_TIME')
    }
    // not an instant, or one the calendar does not have: the request itself is malformed
    for (const bad of ['tomorrow', '2027-02-29T10:00:00+06:00']) {
      const r = await extend([a!, b!], bad)
      assert.is(r.status, 400, bad)
      assert.is(code(r), 'VALIDATION_FAILED', bad)
    }
    assert.match((await extend([a!, b!], at(31))).body.error.reason, /can be held until \S+ at the latest/)
    // another holder cannot extend my seats; a seat I do not hold is a hold that has run out
    let r = await extend([a!], at(25), { device: 'extend-bbbb-1' })
    assert.is(code(r), 'BOOKING_TIME_EXCEED')
    assert.is(r.status, 409)
    assert.is(await f.snapshot(), before, 'nothing changed')

    r = await extend([a!, b!], at(25))
    assert.is(r.status, 200)
    assert.equal(r.body.data.seatNames, [a, b].sort())
    assert.is(Date.parse(r.body.data.expirationTime), at(25).getTime())
    assert.is(Date.parse(r.body.data.maxExpirationTime), at(30).getTime())
    assert.is(r.body.data.extensionsLeft, 1)
    // the seat map and re-locking both see the new end, and re-locking never moves it again
    const relock = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!, b!]), device)
    assert.is(Date.parse(relock.body.data.expirationTime), at(25).getTime())
    f.advance(10)
    // 23 minutes in: still held (a plain hold would have ended at 15)
    r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { device: 'extend-bbbb-1' })
    assert.is(r.body.data, false)
    // signing in takes the hold over with its extensions counted
    const p = await f.passenger()
    r = await extend([a!, b!], at(30), { ...device, token: p.token })
    assert.is(r.status, 200)
    assert.is(Date.parse(r.body.data.expirationTime), at(30).getTime())
    assert.is(r.body.data.extensionsLeft, 0)
    r = await extend([a!, b!], at(30), { ...device, token: p.token })
    assert.is(code(r), 'HOLD_EXTENSION_REFUSED')
    assert.is(r.status, 409)
    assert.is(r.body.error.reason, 'Seats can be held longer at most 2 times, and for at most 30 minutes in all. Book them before the time runs out.')
    assert.equal(r.body.error.values, { count: 2, minutes: 30, until: r.body.error.values.until })
    assert.is(Date.parse(r.body.error.values.until), at(30).getTime())
    // the hold ends at its maximum, and a new hold of the seat starts again from zero
    f.advance(7.1)
    r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { device: 'extend-bbbb-1' })
    assert.equal(r.body.data.seatNames, [a])
    const fresh = Date.parse(r.body.data.expirationTime)
    r = await extend([a!], new Date(fresh + 5 * 60_000), { device: 'extend-bbbb-1' })
    assert.is(r.status, 200)
    assert.is(r.body.data.extensionsLeft, 1)
    assert.is(Date.parse(r.body.data.maxExpirationTime), fresh + holdMs())
    await malformed('/api/reservation/extendSeatLock', [
      {},
      extendBody(trip, [a!], 5),
      { ...extendBody(trip, [a!], at(20)), locked: true },
      extendBody(trip, [], at(20)),
    ])
  },
)

t(
  'seatLock: one address holds at most HOLD_LIMIT_PER_ADDRESS seats of a trip and HOLD_LIMIT_PER_ADDRESS_TOTAL overall, whatever device ids it uses',
  async () => {
    const config = f.deps.config
    const saved = { perTrip: config.holdLimitPerAddress, total: config.holdLimitPerAddressTotal }
    config.holdLimitPerAddress = 10
    config.holdLimitPerAddressTotal = 14
    const from = async (ip: string, body: unknown, device: string) => {
      const r = await f.app.inject({
        method: 'POST',
        url: '/api/reservation/seatLock',
        payload: body as object,
        remoteAddress: ip,
        headers: { 'x-device-id': device },
      })
      return { status: r.statusCode, body: r.json(), headers: r.headers }
    }
    try {
      const trip = await nextTrip()
      const seats = await freeSeats(f, trip.id, 16)
      // 7 rotating device ids from one address, 2 seats each: only the first 10 seats are held
      const outcomes = []
      for (let i = 0; i < 7; i++) outcomes.push(await from('203.0.113.7', lockBody(trip, seats.slice(i * 2, i * 2 + 2)), `rotating-device-${i}`))
      assert.equal(
        outcomes.map((o) => o.status),
        [200, 200, 200, 200, 200, 429, 429],
      )
      const refused = outcomes[5]!
      assert.is(refused.body.error.code, 'HOLD_LIMIT_EXCEEDED')
      assert.match(refused.body.error.reason, 'At most 10 seats may be held from one network on this trip')
      assert.equal(refused.body.error.values, { limit: 10 })
      assert.ok(Number(refused.headers['retry-after']) > 0)
      const held = await f.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM seat_locks WHERE trip_id = $1 AND address = $2 AND expires_at > $3',
        [trip.id, '203.0.113.7', f.now()],
      )
      assert.is(held[0]!.n, 10, 'a refused request holds nothing')
      // a signed-in passenger behind the same address is counted too
      const p = await f.passenger()
      const signedIn = await f.app.inject({
        method: 'POST',
        url: '/api/reservation/seatLock',
        payload: lockBody(trip, [seats[14]!]),
        remoteAddress: '203.0.113.7',
        headers: { authorization: `Bearer ${p.token}` },
      })
      assert.is(signedIn.statusCode, 429)
      // another address still gets a seat
      assert.equal((await from('198.51.100.20', lockBody(trip, [seats[14]!]), 'other-visitor-1')).body.data.seatNames, [seats[14]])
      // IPv6 visitors are counted by their /48: rotating addresses and /64 networks inside it does not help
      const trip3 = await nextTrip()
      const v6 = await freeSeats(f, trip3.id, 12)
      const v6Status = []
      for (let i = 0; i < 4; i++)
        v6Status.push((await from(`2001:db8:1:${i + 2}::${i + 1}`, lockBody(trip3, v6.slice(i * 3, i * 3 + 3)), `v6-device-${i}`)).status)
      assert.equal(v6Status, [200, 200, 200, 429])
      await f.db.query('DELETE FROM seat_locks WHERE trip_id = $1', [trip3.id])
      // across trips: 10 held here, 4 more elsewhere, then the total of 14 refuses
      const trip2 = await nextTrip()
      const more = await freeSeats(f, trip2.id, 5)
      assert.is((await from('203.0.113.7', lockBody(trip2, more.slice(0, 4)), 'rotating-device-8')).status, 200)
      const total = await from('203.0.113.7', lockBody(trip2, [more[4]!]), 'rotating-device-9')
      assert.is(total.status, 429)
      assert.match(total.body.error.reason, 'At most 14 seats may be held from one network on all trips together')
      // the holds end on their own and the address may hold seats again
      f.advance(15.1)
      assert.is((await from('203.0.113.7', lockBody(trip, [seats[12]!]), 'rotating-device-6')).status, 200)
    } finally {
      config.holdLimitPerAddress = saved.perTrip
      config.holdLimitPerAddressTotal = saved.total
    }
  },
)

t('seatLock: at most 5 seats per holder and trip (MAX_SEAT_WARNING), OPEN is ignored, unknown seat is SEAT_NOT_FOUND', async () => {
  const trip = await nextTrip()
  const seats = await freeSeats(f, trip.id, 6)
  let r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats.slice(0, 5)), { device: 'cap-aaaa-11' })
  assert.is(r.body.data.seatNames.length, 5)
  const before = await f.snapshot()
  r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [seats[5]!]), { device: 'cap-aaaa-11' })
  assert.is(r.status, 400)
  assert.is(code(r), 'MAX_SEAT_WARNING')
  assert.match(r.body.error.reason, /5/)
  assert.is(await f.snapshot(), before)
  r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, ['OPEN']), { device: 'cap-aaaa-11' })
  assert.is(r.status, 200)
  assert.is(r.body.data.seatNames.length, 5)
  r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, ['ZZ99']), { device: 'cap-bbbb-11' })
  assert.is(code(r), 'SEAT_NOT_FOUND')
  assert.is(await f.snapshot(), before)
})

t('seatLock: simultaneous requests (gathered into shared database calls) are each won or lost on their own', async () => {
  const trip = await nextTrip()
  const seats = await freeSeats(f, trip.id, 12)
  const lock = (names: string[], device: string) => f.api('POST', '/api/reservation/seatLock', lockBody(trip, names), { device })
  const answers = await Promise.all([
    // ten devices, one seat each
    ...seats.slice(0, 10).map((s, i) => lock([s], `batch-solo-${i}-xx`)),
    // two devices race for one more seat: exactly one wins
    lock([seats[10]!], 'batch-race-a-xx'),
    lock([seats[10]!], 'batch-race-b-xx'),
    // a request with a seat someone in this round already has loses as a whole
    lock([seats[11]!, seats[0]!], 'batch-whole-xx'),
    // bad requests fail alone
    lock(['ZZ99'], 'batch-bad-seat-xx'),
    f.api('POST', '/api/reservation/seatLock', { ...lockBody(trip, [seats[11]!]), coachCode: 'NOPE' }, { device: 'batch-bad-trip-xx' }),
  ])
  for (let i = 0; i < 10; i++) assert.equal(answers[i]!.body.data.seatNames, [seats[i]], `solo ${i}`)
  const race = [answers[10]!.body.data, answers[11]!.body.data]
  assert.is(race.filter((d) => d && d.seatNames?.[0] === seats[10]).length, 1, 'one winner')
  assert.is(race.filter((d) => d === false).length, 1, 'one refused')
  assert.is(answers[12]!.body.data, false)
  assert.is(code(answers[13]!), 'SEAT_NOT_FOUND')
  assert.is(code(answers[14]!), 'TRIP_NOT_FOUND')
  const rows = await f.db.query<{ seat_name: string; holder: string }>(
    'SELECT seat_name, holder FROM seat_locks WHERE trip_id = $1 ORDER BY seat_name',
    [trip.id],
  )
  assert.is(rows.length, 11, 'ten solo seats and the raced one; nothing of the lost or bad requests')
  assert.not.ok(rows.some((r) => r.seat_name === seats[11]))
})

t('seatLock errors: unknown coach, wrong route, departed trip, malformed', async () => {
  const trip = await nextTrip()
  const [a] = await freeSeats(f, trip.id, 1)
  let r = await f.api('POST', '/api/reservation/seatLock', { ...lockBody(trip, [a!]), coachCode: 'NOPE' })
  assert.is(code(r), 'TRIP_NOT_FOUND')
  r = await f.api('POST', '/api/reservation/seatLock', {
    ...lockBody(trip, [a!]),
    originCode: trip.destinationCode,
    destinationCode: trip.originCode,
  })
  assert.is(code(r), 'TRIP_NOT_FOUND')
  // the clock pinned just past this trip's departure: it has left
  const start = f.now()
  f.setNow(new Date(trip.departureAt.getTime() + 60_000))
  try {
    r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]))
    assert.is(code(r), 'TRIP_IS_CLOSED')
  } finally {
    f.setNow(start)
  }
  assert.is((await f.db.query('SELECT 1 FROM seat_locks WHERE trip_id = $1', [trip.id])).length, 0, 'nothing held on the departed trip')
  const ok = lockBody(trip, [a!])
  await malformed('/api/reservation/seatLock', [
    {},
    { ...ok, seatNames: [] },
    { ...ok, seatNames: ['A1', 'A2', 'A3', 'A4', 'B1', 'B2'] },
    { ...ok, seatNames: ['a1'] },
    { ...ok, seatNames: 'A1' },
    { ...ok, locked: 'yes' },
    { ...ok, locked: undefined },
    { ...ok, coachCode: 'x'.repeat(5000) },
    { ...ok, admin: true },
  ])
})

t('seatLock: after login the passenger takes over the seats its device held', async () => {
  const trip = await nextTrip()
  const p = await f.passenger()
  const [a] = await freeSeats(f, trip.id, 1)
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { device: 'visitor-dev-77' })
  let r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { token: p.token })
  assert.is(r.body.data, false, 'without the device id it is someone else')
  r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [a!]), { token: p.token, device: 'visitor-dev-77' })
  assert.equal(r.body.data.seatNames, [a])
  const [row] = await f.db.query<{ holder: string }>('SELECT holder FROM seat_locks WHERE trip_id = $1 AND seat_name = $2', [trip.id, a])
  assert.is(row!.holder, `p:${p.id}`)
})

// ---------- booking ----------

t('booking: held seats become a booked reservation with fares, 15-minute expiry and the locks spent', async () => {
  const trip = await nextTrip()
  const p = await f.passenger()
  const seats = await freeSeats(f, trip.id, 2)
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: p.token })
  const r = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats), { token: p.token })
  assert.is(r.status, 200)
  const res = r.body.data
  assert.is(res.status, 2)
  assert.is(res.pnr, null)
  assert.equal(res.seats.map((s: any) => s.name).sort(), [...seats].sort())
  assert.is(
    res.fare.subtotal,
    res.seats.reduce((a: number, s: any) => a + s.fare, 0),
  )
  assert.is(res.fare.total, res.fare.subtotal)
  assert.is(res.origin.code, trip.originCode)
  assert.is(res.boardingStation.id, trip.boardingId)
  assert.ok(res.boardingStation.time.endsWith('+06:00'))
  assert.is(Date.parse(res.expirationTime) - Date.parse(res.createdAt), holdMs())
  assert.is(Date.parse(res.maxExpirationTime) - Date.parse(res.createdAt), 30 * 60_000)
  assert.is((await f.db.query('SELECT 1 FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2)', [trip.id, seats])).length, 0)
  const d = await f.api(
    'POST',
    '/api/reservation/tripDetails',
    {
      tripId: trip.id,
      originCode: trip.originCode,
      destinationCode: trip.destinationCode,
      originBusStationId: null,
      destinationBusStationId: null,
    },
    { token: p.token },
  )
  for (const s of seats) assert.is(d.body.data.seatLayout.seats.find((x: any) => x.name === s).status, 2)
  assert.is(d.body.data.remainingSeatLimit, 3)
  // Others can no longer lock a booked seat.
  const other = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, [seats[0]!]), { device: 'booked-other-1' })
  assert.is(other.body.data, false)
})

t('booking accepts seats the device held before login (and spends those locks)', async () => {
  const trip = await nextTrip()
  const p = await f.passenger()
  const seats = await freeSeats(f, trip.id, 1)
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { device: 'prelogin-dev-9' })
  const r = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats), { token: p.token, device: 'prelogin-dev-9' })
  assert.is(r.status, 200)
  assert.is(r.body.data.status, 2)
})

t('booking errors: no session, seats not held, held by another, sold, station, seat, trip, limit, malformed', async () => {
  const trip = await nextTrip()
  const p = await f.passenger()
  const q = await f.passenger()
  const seats = await freeSeats(f, trip.id, 2)
  let r = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats))
  assert.is(r.status, 401)
  assert.is(code(r), 'INVALID_SESSION')
  const before = await f.snapshot()
  r = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats), { token: p.token })
  assert.is(code(r), 'BOOKING_TIME_EXCEED')
  assert.is(await f.snapshot(), before)
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: q.token })
  const before2 = await f.snapshot()
  r = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats), { token: p.token })
  assert.is(r.status, 409)
  assert.is(code(r), 'SEAT_UNAVAILABLE')
  assert.is(await f.snapshot(), before2)
  // a seat someone bought on this trip
  const buyer = await f.passenger({ balance: 100_000 })
  const [soldSeat] = (await buyTicket(f, buyer, trip, 1)).seats.map((s: { name: string }) => s.name)
  const before3 = await f.snapshot()
  r = await f.api('POST', '/api/reservation/booking', bookingBody(trip, [soldSeat]), { token: p.token })
  assert.is(r.status, 409)
  assert.is(code(r), 'SEAT_UNAVAILABLE')
  r = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats, { droppingStationId: trip.boardingId }), { token: q.token })
  assert.is(code(r), 'BUS_STATION_NOT_FOUND')
  r = await f.api('POST', '/api/reservation/booking', bookingBody(trip, ['ZZ99']), { token: q.token })
  assert.is(code(r), 'SEAT_NOT_FOUND')
  r = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats, { tripId: 999_999 }), { token: q.token })
  assert.is(code(r), 'TRIP_NOT_FOUND')
  assert.is(await f.snapshot(), before3, 'the refused bookings changed nothing')
  const ok = bookingBody(trip, seats)
  await malformed(
    '/api/reservation/booking',
    [
      {},
      { ...ok, seatNames: [] },
      { ...ok, passengerMobile: '12345' },
      { ...ok, passengerEmail: 'not-an-email' },
      { ...ok, passengerName: '' },
      { ...ok, passengerName: 'x'.repeat(101) },
      { ...ok, tripId: '1' },
      { ...ok, status: 1 },
    ],
    q.token,
  )
})

t('booking: at most 5 unpaid seats per passenger and trip (SEAT_LIMIT_EXCEEDED)', async () => {
  const trip = await nextTrip()
  const p = await f.passenger()
  await lockAndBook(f, p, trip, 3)
  const more = await freeSeats(f, trip.id, 3)
  // Held through the device before login, so the lock cap did not count the bookings.
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, more), { device: 'limit-dev-123' })
  const before = await f.snapshot()
  const r = await f.api('POST', '/api/reservation/booking', bookingBody(trip, more), { token: p.token, device: 'limit-dev-123' })
  assert.is(code(r), 'SEAT_LIMIT_EXCEEDED')
  assert.is(await f.snapshot(), before)
  // Signed in, the lock cap counts the booked seats too.
  await f.api('POST', '/api/reservation/seatLock', lockBody(trip, more, false), { device: 'limit-dev-123' })
  const l = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, more), { token: p.token })
  assert.is(code(l), 'MAX_SEAT_WARNING')
})

t('an unpaid booking expires: its seats are free again and it cannot be paid', async () => {
  const trip = await nextTrip()
  const p = await f.passenger({ balance: 100_000 })
  const res = await lockAndBook(f, p, trip, 2)
  f.advance(15.5)
  // another passenger on another network (this passenger's network may not hold them again for a while)
  const q = await f.passenger()
  const elsewhere = { 'x-forwarded-for': '198.51.100.20' }
  const seats = res.seats.map((s: any) => s.name)
  const l = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: q.token, headers: elsewhere })
  assert.equal(l.body.data.seatNames, [...seats].sort())
  const b = await f.api('POST', '/api/reservation/booking', bookingBody(trip, seats), { token: q.token, headers: elsewhere })
  assert.is(b.status, 200)
  const pay = await f.api('POST', '/api/reservation/payFromBalance', { reservationId: res.id }, { token: p.token })
  assert.is(code(pay), 'BOOKING_NOT_FOUND')
  const old = await f.api('GET', `/api/reservation/details/${res.id}`, undefined, { token: p.token })
  assert.is(old.body.data.status, 5)
})

// ---------- extendBooking, cancelBooking ----------

t('extendBooking moves the expiry up to the maximum; past, beyond-max and garbage times are refused', async () => {
  const trip = await nextTrip()
  const p = await f.passenger()
  const res = await lockAndBook(f, p, trip, 1)
  const at = (m: number) => new Date(Date.parse(res.createdAt) + m * 60_000).toISOString()
  let r = await f.api('POST', '/api/reservation/extendBookingTime', { reservationId: res.id, expirationTime: at(25) }, { token: p.token })
  assert.is(r.status, 200)
  assert.is(Date.parse(r.body.data.expirationTime), Date.parse(at(25)))
  const before = await f.snapshot()
  for (const bad of [at(-1), at(31)]) {
    r = await f.api('POST', '/api/reservation/extendBookingTime', { reservationId: res.id, expirationTime: bad }, { token: p.token })
    assert.is(code(r), 'INVALID_EXPIRATION_TIME', bad)
  }
  // not a date and time at all, or not a real one: the request is malformed
  for (const bad of ['tomorrow', '2026-13-45T99:00:00Z', '2026-02-30T10:00:00Z', at(20).replace(/T\d\d/, 'T24')]) {
    r = await f.api('POST', '/api/reservation/extendBookingTime', { reservationId: res.id, expirationTime: bad }, { token: p.token })
    assert.is(r.status, 400, bad)
    assert.is(code(r), 'VALIDATION_FAILED', bad)
  }
  assert.is(await f.snapshot(), before)
  const q = await f.passenger()
  r = await f.api('POST', '/api/reservation/extendBookingTime', { reservationId: res.id, expirationTime: at(20) }, { token: q.token })
  assert.is(code(r), 'RESERVATION_NOT_ACCESSIBLE')
  r = await f.api('POST', '/api/reservation/extendBookingTime', { reservationId: 999_999, expirationTime: at(20) }, { token: p.token })
  assert.is(code(r), 'RESERVATION_NOT_FOUND')
  f.advance(26)
  r = await f.api('POST', '/api/reservation/extendBookingTime', { reservationId: res.id, expirationTime: at(29) }, { token: p.token })
  assert.is(code(r), 'BOOKING_NOT_FOUND')
  await malformed('/api/reservation/extendBookingTime', [{}, { reservationId: res.id }, { reservationId: res.id, expirationTime: 5 }], p.token)
})

t('extendBooking refuses 29 February 2027 (no such day) with VALIDATION_FAILED, where it was read as 1 March', async () => {
  // A clock on 1 March 2027, 10:00 in Dhaka: "2027-02-29T04:20Z" would roll over to 20 minutes from now.
  const g = await openFixture({ now: new Date('2027-03-01T04:00:00Z'), daysAhead: 2 })
  try {
    const trip = await pickTrip(g, { minHours: 6 })
    const p = await g.passenger()
    const res = await lockAndBook(g, p, trip, 1)
    const before = await g.snapshot()
    const extend = (expirationTime: string) =>
      g.api('POST', '/api/reservation/extendBookingTime', { reservationId: res.id, expirationTime }, { token: p.token })
    const r = await extend('2027-02-29T04:20:00Z')
    assert.is(r.status, 400, JSON.stringify(r.body))
    assert.is(code(r), 'VALIDATION_FAILED')
    assert.is(await g.snapshot(), before)
    // the real day is taken
    const ok = await extend('2027-03-01T04:20:00Z')
    assert.is(ok.status, 200, JSON.stringify(ok.body))
  } finally {
    await g.close()
  }
})

t('cancelBooking cancels a booking and frees its seats; a second cancel is BOOKING_NOT_FOUND', async () => {
  const trip = await nextTrip()
  const p = await f.passenger()
  const res = await lockAndBook(f, p, trip, 2)
  let r = await f.api('POST', '/api/reservation/cancelBooking', { reservationId: res.id }, { token: p.token })
  assert.is(r.status, 200)
  assert.is(r.body.data.status, 5)
  assert.ok(r.body.data.canceledAt)
  const active = await f.db.query('SELECT 1 FROM reservation_seats WHERE reservation_id = $1 AND active', [res.id])
  assert.is(active.length, 0)
  r = await f.api('POST', '/api/reservation/cancelBooking', { reservationId: res.id }, { token: p.token })
  assert.is(code(r), 'BOOKING_NOT_FOUND')
  const q = await f.passenger()
  const other = await lockAndBook(f, q, trip, 1)
  r = await f.api('POST', '/api/reservation/cancelBooking', { reservationId: other.id }, { token: p.token })
  assert.is(code(r), 'RESERVATION_NOT_ACCESSIBLE')
  r = await f.api('POST', '/api/reservation/cancelBooking', { reservationId: other.id })
  assert.is(r.status, 401)
  await malformed('/api/reservation/cancelBooking', [{}, { reservationId: 'x' }, { reservationId: 1.5 }, { reservationId: 1, more: 1 }], p.token)
})

// ---------- coupons ----------

t('coupons: apply gives min(percent, max) off; remove restores; unknown, expired and foreign are refused', async () => {
  const trip = await nextTrip()
  const p = await f.passenger()
  const res = await lockAndBook(f, p, trip, 2)
  const [offer] = await f.db.query<{ coupon_code: string; discount_percent: number; max_discount: number }>(
    'SELECT coupon_code, discount_percent, max_discount FROM offers WHERE valid_until >= $1::date ORDER BY id LIMIT 1',
    [dhakaDate(f.now())],
  )
  let r = await f.api('GET', `/api/reservation/booking/applyDiscountCoupon/${res.id}/${offer!.coupon_code.toLowerCase()}`, undefined, {
    token: p.token,
  })
  assert.is(r.status, 200)
  const expected = Math.min(Math.floor((res.fare.subtotal * offer!.discount_percent) / 100), offer!.max_discount)
  assert.equal(r.body.data.fare, {
    subtotal: res.fare.subtotal,
    discount: expected,
    total: res.fare.subtotal - expected,
    couponCode: offer!.coupon_code,
  })
  r = await f.api('GET', `/api/reservation/booking/removeDiscountCoupon/${res.id}/${offer!.coupon_code}`, undefined, { token: p.token })
  assert.equal(r.body.data.fare, { subtotal: res.fare.subtotal, discount: 0, total: res.fare.subtotal, couponCode: null })
  const before = await f.snapshot()
  r = await f.api('GET', `/api/reservation/booking/applyDiscountCoupon/${res.id}/NOSUCHCODE`, undefined, { token: p.token })
  assert.is(code(r), 'INVALID_COUPON')
  assert.is(await f.snapshot(), before)
  await f.db.query(
    "INSERT INTO offers (title, title_bn, description, coupon_code, discount_percent, max_discount, valid_until) VALUES ('Old', 'Old', 'Old', 'OLDCODE1', 10, 100, '2020-01-01')",
  )
  const before2 = await f.snapshot()
  r = await f.api('GET', `/api/reservation/booking/applyDiscountCoupon/${res.id}/OLDCODE1`, undefined, { token: p.token })
  assert.is(code(r), 'INVALID_COUPON')
  assert.is(await f.snapshot(), before2)
  const q = await f.passenger()
  r = await f.api('GET', `/api/reservation/booking/applyDiscountCoupon/${res.id}/${offer!.coupon_code}`, undefined, { token: q.token })
  assert.is(code(r), 'RESERVATION_NOT_ACCESSIBLE')
  r = await f.api('GET', `/api/reservation/booking/applyDiscountCoupon/abc/${offer!.coupon_code}`, undefined, { token: p.token })
  assert.is(code(r), 'VALIDATION_FAILED')
  r = await f.api('GET', `/api/reservation/booking/applyDiscountCoupon/${res.id}/${offer!.coupon_code}`)
  assert.is(r.status, 401)
})

t('coupon rules: first booking only, uses per passenger, total uses and minimum fare, checked on apply and again on payment', async () => {
  const offer = async (code: string, rules: string) => {
    await f.db.query(
      `INSERT INTO offers (title, title_bn, description, coupon_code, discount_percent, max_discount, valid_until, first_booking_only, max_uses_per_passenger, max_uses_total, min_fare)
       VALUES ('Rule test', 'Rule test', 'Rule test', $1, 10, 500, '2099-12-31', ${rules})`,
      [code],
    )
  }
  await offer('FIRSTONLY', 'true, 1, NULL, 0')
  await offer('ONCEEACH', 'false, 1, NULL, 0')
  await offer('TWOTOTAL', 'false, NULL, 2, 0')
  await offer('BIGFARE', 'false, NULL, NULL, 100000')
  const apply = (who: { token: string }, id: number, c: string) =>
    f.api('GET', `/api/reservation/booking/applyDiscountCoupon/${id}/${c}`, undefined, { token: who.token })
  const pay = (who: { token: string }, id: number) => f.api('POST', '/api/reservation/payFromBalance', { reservationId: id }, { token: who.token })

  // FIRST50-style: a passenger who has bought before cannot use it
  const p = await f.passenger({ balance: 100_000 })
  const a = await lockAndBook(f, p, await nextTrip(), 1)
  assert.is((await apply(p, a.id, 'FIRSTONLY')).status, 200)
  assert.is((await pay(p, a.id)).status, 200)
  const b = await lockAndBook(f, p, await nextTrip(), 1)
  assert.is(code(await apply(p, b.id, 'FIRSTONLY')), 'COUPON_FIRST_BOOKING_ONLY')
  // uses per passenger: once each
  assert.is((await apply(p, b.id, 'ONCEEACH')).status, 200)
  assert.is((await pay(p, b.id)).status, 200)
  const c = await lockAndBook(f, p, await nextTrip(), 1)
  assert.is(code(await apply(p, c.id, 'ONCEEACH')), 'COUPON_ALREADY_USED')
  // total uses: two, by anyone
  for (let i = 0; i < 2; i++) {
    const who = await f.passenger({ balance: 100_000 })
    const r = await lockAndBook(f, who, await nextTrip(), 1)
    assert.is((await apply(who, r.id, 'TWOTOTAL')).status, 200)
    assert.is((await pay(who, r.id)).status, 200)
  }
  assert.is(code(await apply(p, c.id, 'TWOTOTAL')), 'COUPON_USED_UP')
  // minimum fare, with the amount for the message
  const min = await apply(p, c.id, 'BIGFARE')
  assert.is(code(min), 'COUPON_MIN_FARE')
  assert.equal(min.body.error.values, { amount: 100000 })
  // an offer that has not started yet is not valid
  await offer('NOTYET', 'false, NULL, NULL, 0')
  await f.db.query("UPDATE offers SET valid_from = $1::date + 1 WHERE coupon_code = 'NOTYET'", [dhakaDate(f.now())])
  assert.is(code(await apply(p, c.id, 'NOTYET')), 'INVALID_COUPON')

  // applied while it was allowed, then used up before payment: the payment is refused, nothing charged
  const q = await f.passenger({ balance: 100_000 })
  const x = await lockAndBook(f, q, await nextTrip(), 1)
  const y = await lockAndBook(f, q, await nextTrip(), 1)
  assert.is((await apply(q, x.id, 'FIRSTONLY')).status, 200)
  assert.is((await apply(q, y.id, 'FIRSTONLY')).status, 200)
  const both = await Promise.all([pay(q, x.id), pay(q, y.id)])
  assert.equal(both.map((r) => r.status).sort(), [200, 400])
  const refused = both.find((r) => r.status === 400)!
  assert.ok(['COUPON_FIRST_BOOKING_ONLY', 'COUPON_ALREADY_USED'].includes(code(refused)), code(refused))
  const [bal] = await f.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [q.id])
  const paid = both.find((r) => r.status === 200)!.body.data
  assert.is(bal!.balance, 100_000 - paid.fare.total, 'charged once')
  const [uses] = await f.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM coupon_redemptions cr JOIN offers o ON o.id = cr.offer_id WHERE o.coupon_code = 'FIRSTONLY' AND cr.passenger_id = $1",
    [q.id],
  )
  assert.is(uses!.n, 1)
})

t.run()
