/**
 * Seat locks that lose at once (issue 30, sale day), on a real PostgreSQL with two server processes:
 * a seat another transaction is in the middle of locking answers "taken" (`false`) while that
 * transaction is still open, instead of queueing the request (and a pooled connection) behind it,
 * and nothing of a multi-seat request that lost stays held; the holder's own re-lock still waits
 * for a passing row lock and wins; and many clients from many addresses racing for one seat, or for
 * overlapping pairs, over both processes: exactly one winner per seat, every loser `false`, no 5xx.
 */
import * as assert from 'uvu/assert'
import { MAX_SEATS, OPEN_SEAT_NAME } from '../../contract/schemas.ts'
import type { Db, Tx } from '../db/db.ts'
import { freeSeats, lockBody, pickTrip } from '../test/booking-fixture.ts'
import { pgSuite, type ServersOnPostgres, startServersOnPostgres } from '../test/pg.ts'
import { call, type ServerProcess } from '../../harness/spawn-server.ts'
import { readConfig } from '../config.ts'

/** How long a seat lock holds in the server processes (their configuration from the same environment). */
const HOLD_MS = readConfig().config.holdMinutes * 60_000
/** Only a safety net so a request that waits for the open transaction fails the test instead of hanging it. */
const NET_MS = 30_000

const test = pgSuite('seat locks lose at once on PostgreSQL')
let stack: ServersOnPostgres | undefined
let db: Db
let servers: ServerProcess[]
let skip = 0

test.before(async () => {
  // the requests name their client address (X-Forwarded-For from loopback), so they do not queue on one address's lock
  stack = await startServersOnPostgres('seatlocknowait', { TRUST_PROXY: 'loopback' })
  ;({ db, servers } = stack)
})

test.after(() => stack?.stop())

const ctx = () => ({ db, now: () => new Date() })
const trip = () => pickTrip(ctx(), { skip: 30 + skip++ * 2 })

/** A seatLock request on server `i` from device `device` at client address `address`. */
function lock(i: number, body: Record<string, unknown>, device: string, address: string) {
  return call(servers[i % 2]!.url, 'POST', '/api/reservation/seatLock', body, { device, headers: { 'x-forwarded-for': address } })
}

/** Locks `seats` inside `tx` the way the server does (one lock_seats_many call), for `holder` at `address`. */
async function lockInTx(tx: Tx, t: Awaited<ReturnType<typeof trip>>, seats: string[], holder: string, address: string) {
  const now = new Date()
  const [row] = await tx.query<{ r: unknown }>('SELECT lock_seats_many($1::jsonb, $2, $3, $4, $5) AS r', [
    JSON.stringify([
      {
        tripId: t.id,
        tripDate: t.tripDate,
        coachCode: t.coachCode,
        originCode: t.originCode,
        destinationCode: t.destinationCode,
        seatNames: seats,
        holders: [holder],
        passengerId: null,
        now: now.toISOString(),
        expires: new Date(now.getTime() + HOLD_MS).toISOString(),
        address,
      },
    ]),
    MAX_SEATS,
    OPEN_SEAT_NAME,
    1_000_000,
    1_000_000,
  ])
  return row!.r as Array<{ seatNames?: string[] }>
}

/**
 * Runs `fn` while another connection's transaction is open with `hold` done in it (not committed);
 * `fn` answers whether it finished before the transaction ended. The transaction commits after `fn`,
 * or after the safety net when `fn` is still waiting for it.
 */
async function whileOpen<T>(hold: (tx: Tx) => Promise<void>, fn: () => Promise<T>): Promise<{ value: T; beforeRelease: boolean }> {
  let release!: () => void
  const released = new Promise<void>((r) => (release = r))
  let held!: () => void
  const holding = new Promise<void>((r) => (held = r))
  const open = db.transaction(async (tx) => {
    await hold(tx)
    held()
    await released
  })
  await Promise.race([holding, open])
  let ended = false
  const work = fn().then((value) => ({ value, beforeRelease: !ended }))
  const net = setTimeout(() => {
    ended = true
    release()
  }, NET_MS)
  try {
    return await work
  } finally {
    clearTimeout(net)
    ended = true
    release()
    await open
  }
}

test('a seat another transaction is locking: the request answers false while that transaction is open, and a two-seat request holds nothing', async () => {
  const t = await trip()
  const pair = await freeSeats(ctx(), t.id, 2)
  // the contested seat is the later one in the order lock_seats takes them, so the free one is won first
  const [order] = await db.query<{ other: string; seat: string }>('SELECT min(x) AS other, max(x) AS seat FROM unnest($1::text[]) x', [pair])
  const { other, seat } = order!
  const { value, beforeRelease } = await whileOpen(
    async (tx) => {
      const won = await lockInTx(tx, t, [seat], 'd:nowait-open-tx', '10.77.0.1')
      assert.equal(won[0]?.seatNames, [seat], JSON.stringify(won))
    },
    () => Promise.all([lock(0, lockBody(t, [seat]), 'nowait-one', '10.77.0.2'), lock(1, lockBody(t, [other, seat]), 'nowait-two', '10.77.0.3')]),
  )
  assert.ok(beforeRelease, 'the seat lock waited for the transaction that was locking the seat')
  for (const r of value) {
    assert.is(r.status, 200, JSON.stringify(r.body))
    assert.is(r.body.data, false)
  }
  // the open transaction committed: its holder alone holds the seat, and the two-seat request left no seat held
  const rows = await db.query<{ seat_name: string; holder: string }>(
    'SELECT seat_name, holder FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2::text[]) AND expires_at > $3 ORDER BY seat_name',
    [t.id, [seat, other], new Date()],
  )
  assert.equal(rows, [{ seat_name: seat, holder: 'd:nowait-open-tx' }])
  const again = await lock(1, lockBody(t, [other]), 'nowait-two', '10.77.0.3')
  assert.equal(again.body.data?.seatNames, [other])
})

test("the holder's own re-lock waits for a passing lock on its seat and keeps it (idempotent)", async () => {
  const t = await trip()
  const seat = (await freeSeats(ctx(), t.id, 1))[0]!
  const first = await lock(0, lockBody(t, [seat]), 'nowait-owner', '10.77.1.1')
  assert.equal(first.body.data?.seatNames, [seat])
  let answer: Awaited<ReturnType<typeof lock>> | undefined
  const { value } = await whileOpen(
    // what a losing request's upsert does to the row for a moment
    async (tx) => {
      await tx.query('SELECT 1 FROM seat_locks WHERE trip_id = $1 AND seat_name = $2 FOR UPDATE', [t.id, seat])
    },
    async () => {
      const pending = lock(1, lockBody(t, [seat]), 'nowait-owner', '10.77.1.1').then((r) => (answer = r))
      // until the re-lock waits for the row (or has answered without waiting)
      for (let i = 0; !answer && i < 1500; i++) {
        const [w] = await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%lock_seats_many%'",
        )
        if (w!.n > 0) break
        await new Promise((r) => setTimeout(r, 20))
      }
      return { answeredFirst: !!answer, pending }
    },
  )
  assert.not.ok(value.answeredFirst, `the re-lock answered before the row was free: ${JSON.stringify(answer?.body)}`)
  const r = await value.pending
  assert.is(r.status, 200, JSON.stringify(r.body))
  assert.equal(r.body.data?.seatNames, [seat])
  assert.is(r.body.data.expirationTime, first.body.data.expirationTime)
})

test('PostgreSQL, two processes: 80 clients from 80 addresses lock one seat at once: one winner, 79 answered false, no 5xx', async () => {
  const t = await trip()
  const seat = (await freeSeats(ctx(), t.id, 1))[0]!
  const results = await Promise.all(Array.from({ length: 80 }, (_, i) => lock(i, lockBody(t, [seat]), `nowait-race-${i}`, `10.78.0.${i + 1}`)))
  assert.ok(
    results.every((r) => r.status === 200),
    JSON.stringify(results.find((r) => r.status !== 200)?.body),
  )
  const winners = results.flatMap((r, i) => (r.body.data ? [i] : []))
  assert.is(winners.length, 1)
  assert.is(results.filter((r) => r.body.data === false).length, 79)
  const rows = await db.query<{ holder: string }>('SELECT holder FROM seat_locks WHERE trip_id = $1 AND seat_name = $2', [t.id, seat])
  assert.equal(rows, [{ holder: `d:nowait-race-${winners[0]}` }])
})

test('PostgreSQL, two processes: 60 clients lock overlapping pairs of 12 seats at once: a winner holds both seats, a loser none', async () => {
  const t = await trip()
  const seats = await freeSeats(ctx(), t.id, 12)
  const pairs = Array.from({ length: 60 }, (_, i) => [seats[i % 12]!, seats[(i + 1) % 12]!])
  const results = await Promise.all(pairs.map((p, i) => lock(i, lockBody(t, p), `nowait-pair-${i}`, `10.79.0.${i + 1}`)))
  assert.ok(
    results.every((r) => r.status === 200),
    JSON.stringify(results.find((r) => r.status !== 200)?.body),
  )
  const rows = await db.query<{ seat_name: string; holder: string }>(
    'SELECT seat_name, holder FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2::text[])',
    [t.id, seats],
  )
  const held = new Map(rows.map((r) => [r.seat_name, r.holder]))
  let won = 0
  for (const [i, r] of results.entries()) {
    const mine = pairs[i]!.filter((s) => held.get(s) === `d:nowait-pair-${i}`)
    if (r.body.data) {
      won++
      assert.equal([...r.body.data.seatNames].sort(), [...pairs[i]!].sort())
      assert.is(mine.length, 2, `winner ${i} holds ${mine}`)
    } else assert.is(mine.length, 0, `loser ${i} holds ${mine}`)
  }
  assert.ok(won >= 1 && won <= 6, `${won} winners`)
  assert.is(rows.length, won * 2)
})

test.run()
