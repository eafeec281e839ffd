/**
 * Extending a seat hold before booking (POST /reservation/extendSeatLock) where it matters:
 * a real PostgreSQL with two server processes, the passenger's extensions sent to both at
 * once. However they interleave, the hold is extended at most MAX_HOLD_EXTENSIONS times and
 * never past MAX_HOLD_MINUTES from when it was won; every other request is refused with a
 * catalogue reason (never a 500).
 */
import * as assert from 'uvu/assert'
import { MAX_HOLD_EXTENSIONS, MAX_HOLD_MINUTES } from '../../contract/values.ts'
import type { Db } from '../db/db.ts'
import { freeSeats, lockBody, pickTrip } from '../test/booking-fixture.ts'
import { pgSuite, type ServersOnPostgres, startServersOnPostgres } from '../test/pg.ts'
import { call, type ServerProcess } from '../../harness/spawn-server.ts'
import { readConfig } from '../config.ts'

/** How long a seat lock holds in the server processes (their configuration from the same environment). */
const HOLD_MS = readConfig().config.holdMinutes * 60_000

const test = pgSuite('hold extension on PostgreSQL')
let stack: ServersOnPostgres | undefined
let db: Db
let servers: ServerProcess[]

test.before(async () => {
  stack = await startServersOnPostgres('holdextension', {})
  ;({ db, servers } = stack)
})

test.after(() => stack?.stop())

test('PostgreSQL, two processes: 8 extensions at once extend a hold at most twice, never past 30 minutes from when it was won', async () => {
  const ctx = { db, now: () => new Date() }
  const trip = await pickTrip(ctx, { minHours: 48 })
  const seats = await freeSeats(ctx, trip.id, 2)
  const device = 'extend-pg-device-1'
  const won = await call(servers[0]!.url, 'POST', '/api/reservation/seatLock', lockBody(trip, seats), { device })
  assert.is(won.status, 200)
  const start = Date.parse(won.body.data.expirationTime) - HOLD_MS
  const at = (m: number) => new Date(start + m * 60_000).toISOString()
  const { locked: _, ...tripRef } = lockBody(trip, seats)
  const extend = (i: number, m: number) =>
    call(servers[i % 2]!.url, 'POST', '/api/reservation/extendSeatLock', { ...tripRef, expirationTime: at(m) }, { device })
  // each asks for a little more than the one before, so any order may win several
  const results = await Promise.all([16, 17, 18, 19, 20, 21, 22, 23].map((m, i) => extend(i, m)))
  const granted = results.filter((r) => r.status === 200)
  const refused = results.filter((r) => r.status !== 200)
  assert.ok(granted.length >= 1 && granted.length <= MAX_HOLD_EXTENSIONS, `${granted.length} extensions granted`)
  for (const r of refused) {
    assert.ok([400, 409].includes(r.status), `status ${r.status}`)
    assert.ok(['HOLD_EXTENSION_REFUSED', 'INVALID_EXPIRATION_TIME'].includes(r.body.error.code), r.body.error.code)
  }
  // the last one granted is what the database holds
  const rows = await db.query<{ expires_at: Date; extensions: number }>(
    'SELECT expires_at, extensions FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2::text[])',
    [trip.id, seats],
  )
  assert.is(rows.length, 2)
  const latest = Math.max(...granted.map((r) => Date.parse(r.body.data.expirationTime)))
  for (const row of rows) {
    assert.is(row.expires_at.getTime(), latest)
    assert.is(row.extensions, granted.length)
  }
  // up to the maximum, from whichever process, then no further
  let left = granted.length
  while (left < MAX_HOLD_EXTENSIONS) {
    const r = await extend(left, MAX_HOLD_MINUTES)
    assert.is(r.status, 200)
    left++
  }
  const past = await extend(1, MAX_HOLD_MINUTES + 1)
  assert.is(past.body.error.code, 'HOLD_EXTENSION_REFUSED')
  const [row] = await db.query<{ expires_at: Date; extensions: number }>(
    'SELECT max(expires_at) AS expires_at, max(extensions) AS extensions FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2::text[])',
    [trip.id, seats],
  )
  assert.ok(row!.expires_at.getTime() <= start + MAX_HOLD_MINUTES * 60_000)
  assert.is(row!.extensions, MAX_HOLD_EXTENSIONS)
})

test.run()
