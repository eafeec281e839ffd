/**
 * Round trips on a real PostgreSQL with two server processes: two return legs for one outbound
 * booking sent at once, one to each process, make exactly one round trip; the round trip paid from
 * the balance twice at once, once on each process, is charged once and sells two tickets.
 */
import * as assert from 'uvu/assert'
import { bookingBody, freeSeats, lockBody, pickTrip, returnTripOf } from '../test/booking-fixture.ts'
import { signedInPassenger } from '../test/pg-passengers.ts'
import { pgServersSuite } from '../test/pg-servers.ts'
import { call } from '../../harness/spawn-server.ts'
import { reservationStatus } from '../../contract/schemas.ts'

const { test, pg } = pgServersSuite('round trips on PostgreSQL', 'round_trips')
const { ctx } = pg
type Trip = Awaited<ReturnType<typeof pickTrip>>
type Who = { id: number; token: string; mobile: string }
const account = (balance = 0): Promise<Who> => signedInPassenger(pg.db, '015', balance)

let skip = 0
async function roundTrip(): Promise<[Trip, Trip]> {
  for (;;) {
    const out = await pickTrip(ctx, { minHours: 48, skip: skip++ * 3 })
    const back = await returnTripOf(ctx, out).catch(() => null)
    if (back) return [out, back]
  }
}

/** Locks `n` free seats of `trip` on server `s` and books them there (`extra`: more booking fields). */
async function lockSeats(who: Who, trip: Trip, n: number, s = 0) {
  const seats = await freeSeats(ctx, trip.id, n)
  const l = await call(pg.url(s), 'POST', '/api/reservation/seatLock', lockBody(trip, seats), { token: who.token })
  assert.ok(l.body.data, JSON.stringify(l.body))
  return seats
}

async function bookOutbound(who: Who, trip: Trip) {
  const seats = await lockSeats(who, trip, 1)
  const o = await call(pg.url(0), 'POST', '/api/reservation/booking', bookingBody(trip, seats, { passengerMobile: who.mobile }), {
    token: who.token,
  })
  assert.is(o.status, 200, JSON.stringify(o.body))
  return o.body.data as { id: number; fare: { total: number } }
}

test('two return legs for one outbound at once on two processes: exactly one round trip', async () => {
  for (let round = 0; round < 3; round++) {
    const who = await account()
    const [out, back] = await roundTrip()
    const o = await bookOutbound(who, out)
    const a = await lockSeats(who, back, 1, 0)
    const b = await lockSeats(who, back, 1, 1)
    const answers = await Promise.all(
      [a, b].map((seats, i) =>
        call(pg.url(i), 'POST', '/api/reservation/booking', bookingBody(back, seats, { outboundReservationId: o.id }), { token: who.token }),
      ),
    )
    assert.is(answers.filter((x) => x.status === 200).length, 1, JSON.stringify(answers.map((x) => x.body?.error ?? x.status)))
    assert.is(answers.find((x) => x.status !== 200)!.body.error.code, 'VALIDATION_FAILED')
    const legs = await pg.db.query('SELECT id FROM reservations WHERE outbound_reservation_id = $1', [o.id])
    assert.is(legs.length, 1)
  }
})

test('the round trip paid from the balance twice at once on two processes: one charge, two tickets', async () => {
  for (let round = 0; round < 3; round++) {
    const who = await account(50_000)
    const [out, back] = await roundTrip()
    const o = await bookOutbound(who, out)
    const seats = await lockSeats(who, back, 2, 1)
    const r = await call(pg.url(1), 'POST', '/api/reservation/booking', bookingBody(back, seats, { outboundReservationId: o.id }), {
      token: who.token,
    })
    assert.is(r.status, 200, JSON.stringify(r.body))
    const answers = await Promise.all(
      pg.servers.map((s) => call(s.url, 'POST', '/api/reservation/payFromBalance', { reservationId: o.id }, { token: who.token })),
    )
    assert.is(answers.filter((x) => x.status === 200).length, 1, JSON.stringify(answers.map((x) => x.body?.error ?? x.status)))
    const [p] = await pg.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [who.id])
    assert.is(Number(p!.balance), 50_000 - o.fare.total - r.body.data.fare.total)
    const sold = await pg.db.query<{ pnr: string }>('SELECT pnr FROM reservations WHERE id = ANY($1::int[]) AND status = $2', [
      [o.id, r.body.data.id],
      reservationStatus.sold,
    ])
    assert.is(sold.length, 2)
    assert.is.not(sold[0]!.pnr, sold[1]!.pnr)
  }
})

test.run()
