/**
 * The waiting room on a real PostgreSQL with two server processes: joins and polls spread over
 * both give one place per browser, admissions are always a prefix of the queue's order and at
 * the rate set, and a process killed mid-sale loses no place and no admission.
 */
import pg from 'pg'
import * as assert from 'uvu/assert'
import type { Db } from '../db/db.ts'
import { freeSeats, lockBody, pickTrip } from '../test/booking-fixture.ts'
import { pgSuite, type ServersOnPostgres, startServersOnPostgres } from '../test/pg.ts'
import { call, type ServerProcess } from '../../harness/spawn-server.ts'
import { sha256 } from '../lib/tokens.ts'
import { CLAIM_SQL } from './queue.ts'
import { markRushDate } from './rush-dates.ts'

const test = pgSuite('waiting room on PostgreSQL')
let stack: ServersOnPostgres | undefined
let db: Db
let servers: ServerProcess[]

test.before(async () => {
  stack = await startServersOnPostgres('queue', { TRUST_PROXY: '1', QUEUE_DEVICES_PER_ADDRESS: '100000', QUEUE_ADMIT_MINUTES: '10' })
  ;({ db, servers } = stack)
})

test.after(() => stack?.stop())

/** Waits (polling, never a fixed sleep) until `check` answers true, or fails after `ms`. */
async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** The places in queue order with their admission: admitted ones must be a prefix. */
async function places(rushKey: { tripDate: string; originCode: string; destinationCode: string }) {
  return db.query<{ admitted: boolean; token_hash: string }>(
    `SELECT p.admitted_at IS NOT NULL AS admitted, p.token_hash FROM queue_places p JOIN rush_dates r ON r.id = p.rush_id
      WHERE r.trip_date = $1 AND r.origin_code = $2 AND r.destination_code = $3 ORDER BY p.draw, p.id`,
    [rushKey.tripDate, rushKey.originCode, rushKey.destinationCode],
  )
}

test('PostgreSQL, two processes: one place per browser, admissions a prefix of the order at the rate, a killed process loses nothing', async () => {
  const ctx = { db, now: () => new Date() }
  const trip = await pickTrip(ctx, { minHours: 48 })
  const key = { tripDate: trip.tripDate, originCode: trip.originCode, destinationCode: trip.destinationCode }
  const opensAt = new Date(Date.now() + 6000)
  const rate = 120
  await markRushDate(db, { ...key, opensAt, admitPerMinute: rate, admitMinutes: null }, 'command')
  const on = (i: number) => servers[i % servers.length]!.url
  const join = (i: number, token: string | null) =>
    call(on(i), 'POST', '/api/queue', { ...key, token, join: true }, { headers: { 'x-forwarded-for': `198.51.100.${i % 50}` } })
  const status = (i: number, token: string) => call(on(i), 'POST', '/api/queue', { ...key, token })

  // 30 browsers join before the hour, each on one process, then again (a refresh, another tab) on both at once
  const tokens = (await Promise.all(Array.from({ length: 30 }, (_, i) => join(i, null)))).map((r) => {
    assert.is(r.status, 200, JSON.stringify(r.body))
    return r.body.data.token as string
  })
  const again = await Promise.all(tokens.flatMap((token, i) => [join(i, token), join(i + 1, token)]))
  for (const [j, r] of again.entries()) assert.is(r.body.data.token, tokens[j >> 1], 'the same browser keeps its place')
  assert.is((await places(key)).length, 30, 'one place per browser')

  // after the hour: polls on both processes admit at the rate, always from the front
  await until('the hour', async () => Date.now() > opensAt.getTime() + 1500)
  let polls = 0
  await until('some admissions', async () => {
    // each process answers waiting places from its memory of the date (memory.ts): a place the database admitted
    // over a second before the poll (the memory's 250 ms, and more) is told so by either process
    const settled = await db.query<{ token_hash: string }>('SELECT token_hash FROM queue_places WHERE admitted_at < $2 AND token_hash = ANY($1)', [
      tokens.map((t) => sha256(t)),
      new Date(Date.now() - 1000),
    ])
    const answers = await Promise.all(tokens.map((t, i) => status(i + polls, t)))
    for (const { token_hash } of settled) {
      const k = tokens.findIndex((t) => sha256(t) === token_hash)
      assert.is(answers[k]!.body.data.state, 'admitted', `admitted over a second ago, told by process ${(k + polls) % 2}`)
    }
    polls++
    const ps = await places(key)
    const admitted = ps.filter((p) => p.admitted).length
    assert.ok(
      ps.slice(0, admitted).every((p) => p.admitted),
      'admitted places are the front of the queue',
    )
    const allowed = Math.floor(((Date.now() - opensAt.getTime()) * rate) / 60_000) + 1
    assert.ok(admitted <= allowed, `${admitted} admitted, the rate allows ${allowed}`)
    return admitted >= 4 && settled.length >= 2
  })

  // one process is killed mid-sale: the other serves every place, admissions go on from the front
  await servers[0]!.kill('SIGKILL')
  servers = [servers[1]!]
  const before = await places(key)
  await until('everyone admitted', async () => {
    const answers = await Promise.all(tokens.map((t) => status(0, t)))
    for (const a of answers) assert.ok(['waiting', 'admitted'].includes(a.body.data.state), JSON.stringify(a.body))
    const ps = await places(key)
    const admitted = ps.filter((p) => p.admitted).length
    assert.ok(
      ps.slice(0, admitted).every((p) => p.admitted),
      'admitted places are the front of the queue',
    )
    return admitted === 30
  })
  const after = await places(key)
  assert.equal(
    after.map((p) => p.token_hash),
    before.map((p) => p.token_hash),
    'no place was lost or moved',
  )

  // an admission taken through the killed process holds seats through the other
  const [seat] = await freeSeats(ctx, trip.id, 1)
  const r = await call(servers[0]!.url, 'POST', '/api/reservation/seatLock', lockBody(trip, [seat!]), {
    device: 'queue-pg-device',
    headers: { 'x-queue-token': tokens[0]! },
  })
  assert.is(r.status, 200, JSON.stringify(r.body))
  const refused = await call(servers[0]!.url, 'POST', '/api/reservation/seatLock', lockBody(trip, [seat!]), { device: 'queue-pg-device-2' })
  assert.is(refused.status, 403)
  assert.is(refused.body.error.code, 'QUEUE_ADMISSION_REFUSED')
})

test('a join is not held up by a refresh in progress: the refresh claims its row without blocking the foreign key of the new place', async () => {
  const trip = await pickTrip({ db, now: () => new Date() }, { minHours: 24 * 10 })
  const key = { tripDate: trip.tripDate, originCode: trip.originCode, destinationCode: trip.destinationCode }
  await markRushDate(db, { ...key, opensAt: new Date(Date.now() + 3_600_000), admitPerMinute: 60, admitMinutes: null }, 'command')
  const [rush] = await db.query<{ id: number }>('SELECT id FROM rush_dates WHERE trip_date = $1 AND origin_code = $2 AND destination_code = $3', [
    key.tripDate,
    key.originCode,
    key.destinationCode,
  ])
  // a refresh's transaction, claimed and still running (its count of seats and numbering of places take tens of ms in a sale)
  const refresh = new pg.Client({ connectionString: stack!.url })
  await refresh.connect()
  try {
    await refresh.query('BEGIN')
    const claimed = await refresh.query(CLAIM_SQL, [rush!.id, new Date(Date.now() + 60_000)])
    assert.is(claimed.rowCount, 1, 'the refresh claimed the rush date')
    const joined = call(servers[0]!.url, 'POST', '/api/queue', { ...key, token: null, join: true }, { headers: { 'x-forwarded-for': '203.0.113.7' } })
    const answer = await Promise.race([joined, new Promise<null>((r) => setTimeout(() => r(null), 10_000).unref())])
    assert.ok(answer, 'the join answered while the refresh held its claim (it waited for the refresh to end)')
    assert.is(answer.status, 200, JSON.stringify(answer.body))
    assert.is(answer.body.data.state, 'preQueue')
    await refresh.query('COMMIT')
    await joined
  } finally {
    await refresh.end()
  }
})

test.run()
