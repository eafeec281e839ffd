/**
 * The waiting room answered from a process's memory (memory.ts, config.queueStatusCacheMs): a waiting place's
 * poll reads nothing from the database once the process knows its place and rank, and says what a full read
 * says; memory never answers for a place the refresh has admitted, a waitlist offer, or a sold-out date it
 * has not read. The same server with memory off reads at every poll (queue.test.ts).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { freeSeats, queuePlaceCounted, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { newToken, sha256 } from '../lib/tokens.ts'
import { RANKS_SETTLE_MS } from './memory.ts'
import { markRushDate } from './rush-dates.ts'

const t = suite('waiting room from memory')
let f: Fixture
type Trip = Awaited<ReturnType<typeof pickTrip>>
let trip: Trip
let opensAt: Date
/** Memory time: long, so that a slow test machine does not read again between two polls of one moment; the test clock moves by more. */
const MEMORY_MS = 30_000
const LATER = MEMORY_MS + 1000

t.before.each(async () => {
  f = await openFixture({ config: { queueDevicesPerAddress: 1_000_000, queueStatusCacheMs: MEMORY_MS, queueSessionCacheMs: MEMORY_MS } })
  trip = await pickTrip(f, { minHours: 48 })
  opensAt = new Date(f.now().getTime() + 10 * 60_000)
})
t.after.each(async () => {
  await f.close()
})

const key = () => ({ tripDate: trip.tripDate, originCode: trip.originCode, destinationCode: trip.destinationCode })
const mark = (admitPerMinute: number) => markRushDate(f.db, { ...key(), opensAt, admitPerMinute, admitMinutes: 10 }, 'command')
const at = (ms: number) => f.setNow(new Date(opensAt.getTime() + ms))
const join = async (session?: string) => (await f.api('POST', '/api/queue', { ...key(), token: null, join: true }, { token: session })).body.data
async function status(token: string | null, session?: string) {
  const r = await f.api('POST', '/api/queue', { ...key(), token }, { token: session })
  assert.is(r.status, 200, JSON.stringify(r.body))
  return r.body.data
}

/** Statements on the queue's tables (`all`: every statement) that `fn` ran. */
async function statements(fn: () => Promise<unknown>, all = false): Promise<string[]> {
  const seen: string[] = []
  const query = f.db.query.bind(f.db)
  f.db.query = ((sql: string, params?: unknown[]) => {
    if (all || /rush_dates|queue_places|waitlist/.test(sql)) seen.push(sql)
    return query(sql, params)
  }) as typeof f.db.query
  try {
    await fn()
  } finally {
    f.db.query = query
  }
  return seen
}

const placeCounted = (token: string) => queuePlaceCounted(f, token)

t('a waiting place asks again and again: nothing read once the process knows its place and rank, and the answer is the database’s', async () => {
  await mark(6)
  at(-60_000)
  const tokens: string[] = []
  for (let i = 0; i < 12; i++) tokens.push((await join()).token)
  // before the hour: the pre-queue, counted
  at(-30_000)
  // a join with its token finds the place: a full read, to hold the polls against
  const full = await Promise.all(tokens.map(async (token) => (await f.api('POST', '/api/queue', { ...key(), token, join: true })).body.data))
  for (const s of full) assert.is(s.state, 'preQueue')
  // the process has read the date at this moment (the crowd's first poll does)
  await status(tokens[0]!)
  const before = await statements(async () => {
    for (const [k, token] of tokens.entries()) assert.equal(await status(token), full[k])
  })
  assert.equal(before, [], `no statement before the hour:\n${before.join('\n---\n')}`)
  // after the hour, once a refresh numbered the drawn pre-queue: each place read once, then from memory
  at(RANKS_SETTLE_MS + 1000)
  const first = await Promise.all(tokens.map((x) => status(x)))
  const after = await statements(async () => {
    for (const [k, token] of tokens.entries()) {
      const s = await status(token)
      assert.is(s.state, 'waiting')
      assert.is(s.place, first[k]!.place)
      assert.is(s.place, await placeCounted(token))
      assert.is(s.ahead, s.place - 1)
      assert.is(s.estimateSeconds, s.place * 10, '6 a minute')
      assert.is(s.waiting, 12)
    }
  })
  // placeCounted's own statements aside
  const polls = after.filter((sql) => !sql.includes('count(q.id)'))
  assert.equal(polls, [], `no statement a poll:\n${polls.join('\n---\n')}`)
})

t(
  'a signed-in passenger’s poll that memory answers runs no statement, its session’s look-up included; a join looks the session up each time',
  async () => {
    await mark(6)
    const p = await f.passenger()
    at(-60_000)
    const mine = await join(p.token)
    at(-30_000)
    // a full read, and the process's first look at the date and at this session
    const full = (await f.api('POST', '/api/queue', { ...key(), token: mine.token, join: true }, { token: p.token })).body.data
    assert.is(full.state, 'preQueue')
    await status(mine.token, p.token)
    const polls = await statements(async () => {
      for (let i = 0; i < 5; i++) assert.equal(await status(mine.token, p.token), full)
    }, true)
    assert.equal(polls, [], `no statement a poll:\n${polls.join('\n---\n')}`)
    // the session ended (LOGOUT): a join no longer counts as the passenger's, at once; a poll may take the session
    // for queueSessionCacheMs, and reads only the place its queue token names anyway
    assert.is((await f.api('POST', '/api/logout', undefined, { token: p.token })).status, 200)
    const after = (await f.api('POST', '/api/queue', { ...key(), token: null, join: true }, { token: p.token })).body.data
    assert.is(after.state, 'preQueue')
    assert.is.not(after.token, mine.token, 'a new place for an anonymous caller, not the passenger’s')
    const [row] = await f.db.query<{ passenger_id: number | null }>('SELECT passenger_id FROM queue_places WHERE token_hash = $1', [
      sha256(after.token),
    ])
    assert.is(row!.passenger_id, null)
  },
)

t('after the hour a place this process never saw is found in its memory of the ranks: the crowd’s first polls are not full reads', async () => {
  await mark(6)
  at(-60_000)
  await join()
  // 300 browsers that joined on another process: only the database has their places
  const tokens = Array.from({ length: 300 }, () => newToken())
  const [rush] = await f.db.query<{ id: number }>('SELECT id FROM rush_dates WHERE trip_date = $1 AND origin_code = $2 AND destination_code = $3', [
    trip.tripDate,
    trip.originCode,
    trip.destinationCode,
  ])
  await f.db.query("INSERT INTO queue_devices (token_hash, address, issued_at) SELECT unnest($1::text[]), 'elsewhere', $2", [
    tokens.map(sha256),
    f.now(),
  ])
  await f.db.query('INSERT INTO queue_places (rush_id, token_hash, joined_at, draw) SELECT $1, unnest($2::text[]), $3, random()', [
    rush!.id,
    tokens.map(sha256),
    f.now(),
  ])
  at(RANKS_SETTLE_MS + 1000)
  const seen = await statements(async () => {
    for (const token of tokens) assert.is((await status(token)).state, 'waiting')
  })
  const places = seen.filter((sql) => /FROM rush_dates r\s+LEFT JOIN LATERAL \(\s+SELECT x\.id/.test(sql))
  assert.is(places.length, 0, 'no poll read its place')
  assert.ok(seen.length <= 4, `the date, its refresh and the ranks, read once:\n${seen.join('\n---\n')}`)
  for (const token of tokens.slice(0, 20)) assert.is((await status(token)).place, await placeCounted(token))
})

t('memory never says "waiting" of a place the refresh admitted, nor keeps a sold-out date open', async () => {
  await mark(1)
  at(-60_000)
  const tokens = [(await join()).token, (await join()).token, (await join()).token]
  at(RANKS_SETTLE_MS + 1000)
  const places = await Promise.all(tokens.map((x) => status(x)))
  const front = tokens[places.findIndex((s) => s.place === 1)]!
  assert.is((await status(front)).state, 'waiting', '1 a minute: the first after 60 s')
  at(60_000)
  const admitted = await status(front)
  assert.is(admitted.state, 'admitted')
  assert.ok(admitted.admittedUntil)
  for (const token of tokens.filter((x) => x !== front)) {
    const s = await status(token)
    assert.is(s.state, 'waiting')
    assert.is(s.place, await placeCounted(token))
  }
  await f.db.query(
    "UPDATE trips t SET status = 'CLOSED' FROM routes r WHERE r.id = t.route_id AND t.trip_date = $1 AND r.origin_code = $2 AND r.destination_code = $3",
    [trip.tripDate, trip.originCode, trip.destinationCode],
  )
  at(60_000 + LATER)
  for (const token of tokens.filter((x) => x !== front)) assert.is((await status(token)).state, 'soldOut')
})

t('a waitlist offer to a waiting passenger is their turn at the next read of the date, memory or not', async () => {
  await mark(1)
  const p = await f.passenger()
  at(-60_000)
  const mine = await join(p.token)
  at(RANKS_SETTLE_MS + 1000)
  assert.is((await status(mine.token, p.token)).state, 'waiting')
  assert.is((await status(mine.token, p.token)).state, 'waiting')
  const [seat] = await freeSeats(f, trip.id, 1)
  const until = new Date(f.now().getTime() + 60 * 60_000)
  await f.db.query(
    `INSERT INTO waitlist (trip_id, passenger_id, seats, status, offered_seats, offered_at, offer_expires_at, created_at)
     VALUES ($1, $2, 1, 'OFFERED', $3::text[], $4, $5, $4)`,
    [trip.id, p.id, [seat], f.now(), until],
  )
  at(RANKS_SETTLE_MS + 1000 + LATER)
  const s = await status(mine.token, p.token)
  assert.is(s.state, 'admitted')
  assert.is(Date.parse(s.admittedUntil), Math.floor(until.getTime() / 1000) * 1000)
})

t.run()
