/**
 * A seat hold released and locked again by the same holder (POST /reservation/seatLock
 * locked: false, then true) is the same hold: its MAX_HOLD_EXTENSIONS extensions and its
 * MAX_HOLD_MINUTES ceiling, counted from when it was first won, both carry over.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { MAX_HOLD_EXTENSIONS, MAX_HOLD_MINUTES } from '../../contract/values.ts'
import { freeSeats, lockBody, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'

const t = suite('hold released and locked again')
let f: Fixture

t.before.each(async () => {
  f = await openFixture()
})
t.after.each(async () => {
  await f.close()
})

type Trip = Awaited<ReturnType<typeof pickTrip>>

function extendBody(trip: Trip, seatNames: string[], at: Date): Record<string, unknown> {
  const { locked: _, ...body } = lockBody(trip, seatNames)
  return { ...body, expirationTime: at.toISOString() }
}

for (const who of ['visitor (device id)', 'signed-in passenger'] as const) {
  t(`${who}: release and lock again keeps the extensions used and the ceiling`, async () => {
    const trip = await pickTrip(f, { minHours: 48 })
    const seats = await freeSeats(f, trip.id, 2)
    const opts = who === 'signed-in passenger' ? { token: (await f.passenger()).token } : { device: 'release-relock-1' }
    const lock = (locked: boolean) => f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats, locked), opts)
    const extend = (at: Date) => f.api('POST', '/api/reservation/extendSeatLock', extendBody(trip, seats, at), opts)
    const first = await lock(true)
    assert.is(first.status, 200)
    const won = Date.parse(first.body.data.expirationTime) - f.deps.config.holdMinutes * 60_000
    const at = (m: number) => new Date(won + m * 60_000)

    f.advance(10)
    let r = await extend(at(20))
    assert.is(r.status, 200)
    assert.is(r.body.data.extensionsLeft, MAX_HOLD_EXTENSIONS - 1)
    // released and locked again after its first hold (holdMinutes), inside the extension
    f.advance(7)
    assert.equal((await lock(false)).body.data.seatNames, [])
    r = await lock(true)
    assert.equal(r.body.data.seatNames, [...seats].sort())
    assert.ok(
      Date.parse(r.body.data.expirationTime) <= at(20).getTime(),
      `re-lock ends ${r.body.data.expirationTime}, the hold ended at ${at(20).toISOString()}`,
    )

    r = await extend(at(25))
    assert.is(r.status, 200, JSON.stringify(r.body))
    assert.is(r.body.data.extensionsLeft, MAX_HOLD_EXTENSIONS - 2, 'the extension before the release counts')
    assert.is(Date.parse(r.body.data.maxExpirationTime), at(MAX_HOLD_MINUTES).getTime())
    // and once more after another release: no third extension, the hold ends where it did
    assert.equal((await lock(false)).body.data.seatNames, [])
    r = await lock(true)
    assert.is(Date.parse(r.body.data.expirationTime), at(25).getTime())
    r = await extend(at(MAX_HOLD_MINUTES))
    assert.is(r.status, 409, JSON.stringify(r.body))
    assert.is(r.body.error.code, 'HOLD_EXTENSION_REFUSED')
    assert.is(Date.parse(r.body.error.values.until), at(25).getTime())
  })
}

t('another holder who wins the seat after the hold ends starts a hold of its own', async () => {
  const trip = await pickTrip(f, { minHours: 48 })
  const seats = await freeSeats(f, trip.id, 1)
  const a = { device: 'release-relock-a' }
  const b = { token: (await f.passenger()).token, headers: { 'x-forwarded-for': '203.0.113.9' } }
  const first = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), a)
  const won = Date.parse(first.body.data.expirationTime) - f.deps.config.holdMinutes * 60_000
  for (const m of [20, 30]) {
    const r = await f.api('POST', '/api/reservation/extendSeatLock', extendBody(trip, seats, new Date(won + m * 60_000)), a)
    assert.is(r.status, 200, JSON.stringify(r.body))
  }
  f.advance(31)
  const r = await f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), b)
  assert.equal(r.body.data.seatNames, seats)
  const fresh = Date.parse(r.body.data.expirationTime)
  const x = await f.api('POST', '/api/reservation/extendSeatLock', extendBody(trip, seats, new Date(fresh + 60_000)), b)
  assert.is(x.status, 200, JSON.stringify(x.body))
  assert.is(x.body.data.extensionsLeft, MAX_HOLD_EXTENSIONS - 1)
})

t.run()
