/**
 * Unpaid bookings are holds (security issue 21, item 2), on a real PostgreSQL with two
 * server processes behind a proxy (TRUST_PROXY=1), each attacker's requests spread over
 * both: the seats of unpaid bookings count toward the per-address hold limits (per trip
 * and in total) and the per-passenger limit across trips, and cancelling a booking and
 * booking the same seats again (from the same account, another account of the same
 * address, or the same account elsewhere) never ends later than the first booking.
 */
import * as assert from 'uvu/assert'
import type { PassengerRow } from '../account/passengers.ts'
import { createSession } from '../account/sessions.ts'
import type { Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import { bookingBody, freeSeats, lockBody, pickTrip } from '../test/booking-fixture.ts'
import { pgSuite, type ServersOnPostgres, startServersOnPostgres } from '../test/pg.ts'
import { call, type ServerProcess } from '../../harness/spawn-server.ts'

const test = pgSuite('unpaid holds on PostgreSQL')
let stack: ServersOnPostgres | undefined
let db: Db
let servers: ServerProcess[]

test.before(async () => {
  stack = await startServersOnPostgres('unpaid_holds', {
    TRUST_PROXY: '1',
    HOLD_LIMIT_PER_ADDRESS: '10',
    HOLD_LIMIT_PER_ADDRESS_TOTAL: '30',
    UNPAID_SEATS_PER_PASSENGER: '10',
  })
  ;({ db, servers } = stack)
})

test.after(() => stack?.stop())

const ctx = {
  get db() {
    return db
  },
  now: () => new Date(),
}
type Trip = Awaited<ReturnType<typeof pickTrip>>
type Who = { id: number; token: string }

let mobileSeq = 0
async function account(): Promise<Who> {
  const mobile = `018${String(process.pid % 1000).padStart(3, '0')}${String(++mobileSeq).padStart(5, '0')}`
  const [row] = await db.query<PassengerRow>(
    `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at) VALUES ($1, 'Hoarder', $2, 'Dhaka', 'ACTIVE', 0, now()) RETURNING *`,
    [mobile, `h${mobile}@example.com`],
  )
  const s = await createSession(db, createDeps(db), row!, true)
  return { id: row!.id, token: s.token }
}

/** Trips with at least `seats` free seats each, none used by an earlier test. */
let tripSkip = 0
async function trips(n: number, seats: number): Promise<{ trip: Trip; seats: string[] }[]> {
  const out: { trip: Trip; seats: string[] }[] = []
  while (out.length < n) {
    const trip = await pickTrip(ctx, { minHours: 48, skip: tripSkip++ })
    const free = await freeSeats(ctx, trip.id, seats).catch(() => null)
    if (free) out.push({ trip, seats: free })
  }
  return out
}

type Outcome = { ok: true; id: number } | { ok: false; step: 'lock' | 'booking'; status: number; code: string | undefined }

/** Locks the seats on one process and books them on the other, from `address`. */
async function lockAndBook(i: number, who: Who, trip: Trip, seats: string[], address: string): Promise<Outcome> {
  const headers = { 'x-forwarded-for': address }
  const l = await call(servers[i % 2]!.url, 'POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: who.token, headers })
  if (l.status !== 200 || !l.body.data) return { ok: false, step: 'lock', status: l.status, code: l.body?.error?.code }
  const b = await call(servers[(i + 1) % 2]!.url, 'POST', '/api/reservation/booking', bookingBody(trip, seats), { token: who.token, headers })
  if (b.status !== 200) return { ok: false, step: 'booking', status: b.status, code: b.body?.error?.code }
  return { ok: true, id: b.body.data.id }
}

async function cancel(i: number, who: Who, id: number, address: string): Promise<void> {
  const r = await call(
    servers[i % 2]!.url,
    'POST',
    '/api/reservation/cancelBooking',
    { reservationId: id },
    {
      token: who.token,
      headers: { 'x-forwarded-for': address },
    },
  )
  assert.is(r.status, 200, JSON.stringify(r.body))
}

/** Seats an address holds unpaid right now: unexpired seat locks plus seats of unexpired unpaid bookings (of all accounts). */
async function heldFrom(address: string, passengerIds: number[], tripId: number | null = null): Promise<{ locked: number; booked: number }> {
  const [l] = await db.query<{ n: number }>(
    // the servers' clock (TEST_NOW moves it), not PostgreSQL's
    'SELECT count(*)::int AS n FROM seat_locks WHERE address = $1 AND expires_at > $3 AND ($2::int IS NULL OR trip_id = $2)',
    [address, tripId, new Date()],
  )
  // by passenger, not by reservations.address (a column the old code does not have)
  const [b] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
      WHERE x.passenger_id = ANY($1::int[]) AND booking_live(x.status, x.expiration_time, $3) AND rs.active AND ($2::int IS NULL OR rs.trip_id = $2)`,
    [passengerIds, tripId, new Date()],
  )
  return { locked: l!.n, booked: b!.n }
}

async function expiryOf(id: number): Promise<number> {
  const [r] = await db.query<{ expiration_time: Date }>('SELECT expiration_time FROM reservations WHERE id = $1', [id])
  return r!.expiration_time.getTime()
}

test('12 trips from one address: 12 accounts book 5 seats each, the last 7 at once on two processes; the address holds at most 30', async () => {
  const address = '203.0.113.21'
  const plan = await trips(12, 5)
  const who = await Promise.all(plan.map(() => account()))
  const outcomes: Outcome[] = []
  // one after another: each booking spends its locks, which the old count missed
  for (let i = 0; i < 5; i++) outcomes.push(await lockAndBook(i, who[i]!, plan[i]!.trip, plan[i]!.seats, address))
  // then 7 at once, spread over both processes
  outcomes.push(...(await Promise.all(plan.slice(5).map((p, k) => lockAndBook(k, who[5 + k]!, p.trip, p.seats, address)))))
  const granted = outcomes.filter((o) => o.ok).length
  const held = await heldFrom(
    address,
    who.map((w) => w.id),
  )
  assert.ok(held.locked + held.booked <= 30, `the address holds ${held.booked} booked + ${held.locked} locked seats`)
  assert.is(granted, 6, `${granted} bookings of 5 seats granted: ${JSON.stringify(outcomes)}`)
  for (const o of outcomes) if (!o.ok) assert.equal([o.step, o.status, o.code], ['lock', 429, 'HOLD_LIMIT_EXCEEDED'])
  // the refusal says why and when to come back
  const p = (await trips(1, 1))[0]!
  const more = await call(servers[1]!.url, 'POST', '/api/reservation/seatLock', lockBody(p.trip, p.seats), {
    token: who[11]!.token,
    headers: { 'x-forwarded-for': address },
  })
  assert.is(more.status, 429)
  assert.is(
    more.body.error.reason,
    'At most 30 seats may be held from one network on all trips together. Book or release seats, or try again when a hold ends.',
  )
  assert.ok(Number(more.headers.get('retry-after')) > 0)
})

test('one account from one address, 5 seats on each of 12 trips: at most 10 unpaid seats, and the address stays within 30', async () => {
  const address = '203.0.113.22'
  const plan = await trips(12, 5)
  const who = await account()
  const outcomes: Outcome[] = []
  for (const [i, p] of plan.entries()) outcomes.push(await lockAndBook(i, who, p.trip, p.seats, address))
  const held = await heldFrom(address, [who.id])
  assert.is(held.booked, 10, `${held.booked} seats in unpaid bookings: ${JSON.stringify(outcomes)}`)
  assert.ok(held.locked + held.booked <= 30, `the address holds ${held.booked} booked + ${held.locked} locked seats`)
  assert.is(outcomes.filter((o) => o.ok).length, 2)
  const refused = outcomes.filter((o) => !o.ok)
  assert.ok(refused.some((o) => o.code === 'SEAT_LIMIT_EXCEEDED'))
  assert.ok(
    refused.every((o) => o.code === 'SEAT_LIMIT_EXCEEDED' || o.code === 'HOLD_LIMIT_EXCEEDED'),
    JSON.stringify(refused),
  )
})

test('one trip, one address: after one account books 5 seats, 3 more accounts at once on two processes get only 5 more (limit 10)', async () => {
  const address = '203.0.113.23'
  // 20 seats for the 4 accounts, 2 more that none of them asks for
  const [{ trip, seats }] = await trips(1, 22)
  const who = await Promise.all([0, 1, 2, 3].map(() => account()))
  const first = await lockAndBook(0, who[0]!, trip, seats.slice(0, 5), address)
  assert.ok(first.ok, JSON.stringify(first))
  const rest = await Promise.all([1, 2, 3].map((k) => lockAndBook(k, who[k]!, trip, seats.slice(5 * k, 5 * k + 5), address)))
  const held = await heldFrom(
    address,
    who.map((w) => w.id),
    trip.id,
  )
  assert.ok(held.locked + held.booked <= 10, `the address holds ${held.booked} booked + ${held.locked} locked seats on the trip`)
  assert.is(rest.filter((o) => o.ok).length, 1, JSON.stringify(rest))
  for (const o of rest) if (!o.ok) assert.equal([o.step, o.status, o.code], ['lock', 429, 'HOLD_LIMIT_EXCEEDED'])
  // another network still gets seats on the trip (seats no account asked for: whichever of the 3 won holds its own)
  const other = await lockAndBook(1, await account(), trip, seats.slice(20, 22), '198.51.100.23')
  assert.ok(other.ok, JSON.stringify(other))
})

test('one account from 4 networks: 4 bookings of 5 seats on 4 trips at once on two processes, exactly 2 granted (10 unpaid seats)', async () => {
  const plan = await trips(4, 5)
  const who = await account()
  const addresses = plan.map((_, i) => `192.0.2.${30 + i}`)
  // every lock first (locks do not count toward the passenger's unpaid seats), then every booking at once
  for (const [i, p] of plan.entries()) {
    const l = await call(servers[i % 2]!.url, 'POST', '/api/reservation/seatLock', lockBody(p.trip, p.seats), {
      token: who.token,
      headers: { 'x-forwarded-for': addresses[i]! },
    })
    assert.is(l.status, 200, JSON.stringify(l.body))
  }
  const booked = await Promise.all(
    plan.map((p, i) =>
      call(servers[i % 2]!.url, 'POST', '/api/reservation/booking', bookingBody(p.trip, p.seats), {
        token: who.token,
        headers: { 'x-forwarded-for': addresses[i]! },
      }),
    ),
  )
  const ok = booked.filter((b) => b.status === 200)
  assert.is(ok.length, 2, JSON.stringify(booked.map((b) => b.body?.error ?? b.status)))
  for (const b of booked.filter((b) => b.status !== 200)) {
    assert.is(b.status, 400)
    assert.is(b.body.error.code, 'SEAT_LIMIT_EXCEEDED')
    assert.is(b.body.error.reason, 'You can have at most 10 unpaid seats on all trips together. Pay for or cancel a booking first.')
  }
  assert.is((await heldFrom('-', [who.id])).booked, 10)
  // cancelling one makes room again
  const refusedAt = booked.findIndex((b) => b.status !== 200)
  await cancel(0, who, ok[0]!.body.data.id, addresses[0]!)
  const again = await call(servers[1]!.url, 'POST', '/api/reservation/booking', bookingBody(plan[refusedAt]!.trip, plan[refusedAt]!.seats), {
    token: who.token,
    headers: { 'x-forwarded-for': addresses[refusedAt]! },
  })
  assert.is(again.status, 200, JSON.stringify(again.body))
})

test('cancel and book the same seats again: never later than the first booking, from the same account, another account of the network, or elsewhere', async () => {
  const address = '203.0.113.24'
  const [{ trip, seats }] = await trips(1, 4)
  const [a, b, c] = await Promise.all([account(), account(), account()])
  const mine = seats.slice(0, 2)

  const first = await lockAndBook(0, a, trip, mine, address)
  assert.ok(first.ok, JSON.stringify(first))
  const end = await expiryOf(first.id)
  // the same account, the same network: cancel, lock and book again (each step on another process)
  await cancel(1, a, first.id, address)
  const second = await lockAndBook(1, a, trip, mine, address)
  assert.ok(second.ok, JSON.stringify(second))
  assert.ok(
    (await expiryOf(second.id)) <= end,
    `re-booked until ${new Date(await expiryOf(second.id)).toISOString()}, first ended ${new Date(end).toISOString()}`,
  )

  // another account of the same network
  await cancel(0, a, second.id, address)
  const third = await lockAndBook(0, b, trip, mine, address)
  assert.ok(third.ok, JSON.stringify(third))
  assert.ok((await expiryOf(third.id)) <= end)

  // the first account from another network
  await cancel(1, b, third.id, address)
  const fourth = await lockAndBook(1, a, trip, mine, '198.51.100.24')
  assert.ok(fourth.ok, JSON.stringify(fourth))
  assert.ok((await expiryOf(fourth.id)) <= end)
  // the seat lock taken after the cancel ended no later than the first booking either
  await cancel(0, a, fourth.id, '198.51.100.24')
  const l = await call(servers[0]!.url, 'POST', '/api/reservation/seatLock', lockBody(trip, mine), {
    token: b.token,
    headers: { 'x-forwarded-for': address },
  })
  assert.is(l.status, 200)
  const locks = await db.query<{ expires_at: Date }>('SELECT expires_at FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2::text[])', [
    trip.id,
    mine,
  ])
  assert.is(locks.length, 2)
  assert.ok(locks.every((k) => k.expires_at.getTime() <= end))
  await call(servers[1]!.url, 'POST', '/api/reservation/seatLock', lockBody(trip, mine, false), {
    token: b.token,
    headers: { 'x-forwarded-for': address },
  })

  // an honest passenger is not held back: other seats get a full hold, and so does another passenger elsewhere
  const other = await lockAndBook(0, a, trip, seats.slice(2, 4), address)
  assert.ok(other.ok, JSON.stringify(other))
  assert.ok((await expiryOf(other.id)) > end)
  const someoneElse = await lockAndBook(1, c, trip, mine, '198.51.100.99')
  assert.ok(someoneElse.ok, JSON.stringify(someoneElse))
  assert.ok((await expiryOf(someoneElse.id)) > end)
})

test.run()
