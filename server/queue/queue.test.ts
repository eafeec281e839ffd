/**
 * The waiting room of a rush date (POST /queue to join and to poll, and seat locks that need an
 * admission): a random draw for the pre-queue, arrival order after the hour, the admission rate,
 * expiry, refused admissions (none, made up, not yet, expired, another passenger's) and one
 * place per browser and per passenger.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { freeSeats, queuePlaceCounted, lockBody, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { markRushDate } from './rush-dates.ts'

const t = suite('rush-date waiting room')
let f: Fixture
type Trip = Awaited<ReturnType<typeof pickTrip>>
let trip: Trip
let opensAt: Date

t.before.each(async () => {
  f = await openFixture({ config: { queueDevicesPerAddress: 1_000_000 } })
  trip = await pickTrip(f, { minHours: 48 })
  opensAt = new Date(f.now().getTime() + 10 * 60_000)
})
t.after.each(async () => {
  await f.close()
})

const key = () => ({ tripDate: trip.tripDate, originCode: trip.originCode, destinationCode: trip.destinationCode })
const mark = (admitPerMinute: number | 'auto' | null, admitMinutes: number | null = 10) =>
  markRushDate(f.db, { ...key(), opensAt, admitPerMinute, admitMinutes }, 'command')
const at = (ms: number) => f.setNow(new Date(opensAt.getTime() + ms))

async function join(token: string | null, opts: { token?: string; address?: string; again?: boolean } = {}) {
  const headers = opts.address ? { 'x-forwarded-for': opts.address } : undefined
  const body = { ...key(), token, join: true, ...(opts.again ? { again: true } : {}) }
  return f.api('POST', '/api/queue', body, { token: opts.token, headers })
}
async function status(token: string | null, session?: string) {
  const r = await f.api('POST', '/api/queue', { ...key(), token }, { token: session })
  assert.is(r.status, 200, JSON.stringify(r.body))
  return r.body.data
}
function lock(seats: string[], queueToken: string | null, opts: { token?: string; device?: string } = {}) {
  const headers: Record<string, string> = queueToken ? { 'x-queue-token': queueToken } : {}
  return f.api('POST', '/api/reservation/seatLock', lockBody(trip, seats), { ...opts, headers })
}

t('joined before the hour: drawn at random at the hour; later arrivals queue behind in arrival order', async () => {
  await mark(1)
  const early: string[] = []
  for (let i = 0; i < 30; i++) {
    at(-9 * 60_000 + i * 1000)
    const r = await join(null)
    assert.is(r.status, 200, JSON.stringify(r.body))
    assert.is(r.body.data.state, 'preQueue')
    assert.is(r.body.data.place, null, 'no place is told before the draw')
    early.push(r.body.data.token)
  }
  const late: string[] = []
  for (let i = 0; i < 5; i++) {
    at(2000 + i * 1000)
    late.push((await join(null)).body.data.token)
  }
  at(8000)
  const earlyPlaces: number[] = []
  for (const token of early) earlyPlaces.push((await status(token)).place)
  const latePlaces: number[] = []
  for (const token of late) latePlaces.push((await status(token)).place)
  // at 1 a minute nobody is admitted in the first 8 s
  assert.equal(
    [...earlyPlaces].sort((a, b) => a - b),
    Array.from({ length: 30 }, (_, i) => i + 1),
  )
  assert.not.equal(
    earlyPlaces,
    [...earlyPlaces].sort((a, b) => a - b),
    'the pre-queue is not in arrival order',
  )
  assert.not.equal(
    earlyPlaces,
    [...earlyPlaces].sort((a, b) => b - a),
    'nor in reverse arrival order',
  )
  assert.equal(latePlaces, [31, 32, 33, 34, 35], 'after the hour: behind the drawn places, first come first served')
})

t('admits from the front at the rate set, one admission at a time per place, and counts seats left', async () => {
  await mark(6)
  at(-60_000)
  const tokens: string[] = []
  for (let i = 0; i < 8; i++) tokens.push((await join(null)).body.data.token)
  const admitted = async () => {
    let n = 0
    for (const token of tokens) if ((await status(token)).state === 'admitted') n++
    return n
  }
  at(0)
  assert.is(await admitted(), 0)
  at(9_000)
  assert.is(await admitted(), 0, '6 a minute: the first after 10 s')
  at(10_000)
  assert.is(await admitted(), 1)
  at(35_000)
  assert.is(await admitted(), 3)
  const s = await status(tokens[0]!)
  assert.ok(s.seatsLeft > 0, 'seats still unsold are told')
  const waiting = (await Promise.all(tokens.map((x) => status(x)))).filter((x) => x.state === 'waiting')
  assert.equal(waiting.map((x) => x.place).sort(), [1, 2, 3, 4, 5])
  for (const w of waiting) assert.is(w.estimateSeconds, w.place * 10, 'the estimate is the place at the rate')
})

t("rate 'auto': admits as many a minute as seats are free, none while every seat is held, and estimates from that", async () => {
  await mark('auto')
  at(-60_000)
  const tokens: string[] = []
  for (let i = 0; i < 4; i++) tokens.push((await join(null)).body.data.token)
  const dateTrips = `SELECT t.id FROM trips t JOIN routes r ON r.id = t.route_id
                      WHERE t.trip_date = $1 AND r.origin_code = $2 AND r.destination_code = $3 AND t.status = 'OPEN'`
  const args = [trip.tripDate, trip.originCode, trip.destinationCode]
  // every seat of the date held by someone else for an hour
  await f.db.query(
    `INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at, address)
     SELECT d.id, x, 'other', $4::timestamptz + interval '1 hour', '' FROM (${dateTrips}) d CROSS JOIN LATERAL unnest(free_seats(d.id, $4)) AS x`,
    [...args, f.now()],
  )
  at(0)
  at(30_000)
  const none = await status(tokens[0]!)
  assert.is(none.seatsLeft, 0)
  assert.is(none.admitPerMinute, 0, 'no seat free: nobody admitted')
  assert.is(none.state, 'waiting')
  assert.is(none.estimateSeconds, null, 'no estimate while every seat is held')
  // two seats come free: two a minute, the first admitted 30 s later
  await f.db.query(
    `DELETE FROM seat_locks WHERE (trip_id, seat_name) IN (SELECT trip_id, seat_name FROM seat_locks WHERE holder = 'other' AND trip_id IN (${dateTrips}) ORDER BY trip_id, seat_name LIMIT 2)`,
    args,
  )
  at(31_000)
  const two = await status(tokens[0]!)
  assert.is(two.seatsLeft, 2)
  assert.is(two.admitPerMinute, 2)
  const states = async () => Promise.all(tokens.map(async (x) => (await status(x)).state))
  assert.is((await states()).filter((x) => x === 'admitted').length, 0)
  at(61_000)
  assert.is((await states()).filter((x) => x === 'admitted').length, 1, '2 a minute: one after 30 s')
  const waiting = (await Promise.all(tokens.map((x) => status(x)))).filter((x) => x.state === 'waiting')
  for (const w of waiting) assert.is(w.estimateSeconds, w.place * 30, 'the estimate is the place at the derived rate')
})

t('an admitted passenger locks seats until the admission ends; then it is refused as expired', async () => {
  await mark(60, 2)
  at(-1000)
  const token = (await join(null)).body.data.token
  at(1000)
  const s = await status(token)
  assert.is(s.state, 'admitted')
  const [a, b] = await freeSeats(f, trip.id, 2)
  const r = await lock([a!], token, { device: 'queue-device-1' })
  assert.is(r.status, 200, JSON.stringify(r.body))
  assert.equal(r.body.data.seatNames, [a])
  at(2 * 60_000 + 1000)
  assert.is((await status(token)).state, 'expired')
  const late = await lock([b!], token, { device: 'queue-device-1' })
  assert.is(late.status, 403)
  assert.is(late.body.error.code, 'QUEUE_ADMISSION_REFUSED')
  assert.is(late.body.error.values.because, 'expired')
  // joining again puts the place at the back of the queue
  const again = await join(token, { again: true })
  assert.is(again.body.data.state, 'waiting')
})

t('seat locks on a rush date without a valid admission are refused: none, made up, not yet, another passenger’s', async () => {
  await mark(1)
  const [seat] = await freeSeats(f, trip.id, 1)
  const a = await f.passenger()
  const b = await f.passenger()
  at(-5000)
  const aToken = (await join(null, { token: a.token })).body.data.token
  const bToken = (await join(null, { token: b.token })).body.data.token
  at(0)
  const refused = async (token: string | null, session: string | undefined, because: string) => {
    const r = await lock([seat!], token, { token: session, device: 'queue-device-2' })
    assert.is(r.status, 403, JSON.stringify(r.body))
    assert.is(r.body.error.code, 'QUEUE_ADMISSION_REFUSED')
    assert.is(r.body.error.values.because, because)
  }
  await refused(null, undefined, 'notInQueue')
  await refused('x'.repeat(43), undefined, 'notInQueue')
  at(60_000)
  const first =
    (await status(aToken, a.token)).state === 'admitted'
      ? { token: aToken, s: a, other: b, otherToken: bToken }
      : { token: bToken, s: b, other: a, otherToken: aToken }
  assert.is((await status(first.token, first.s.token)).state, 'admitted')
  await refused(first.otherToken, first.other.token, 'waiting')
  // the admitted passenger's token, sent by the other passenger, or by nobody signed in
  await refused(first.token, first.other.token, 'waiting')
  const c = await f.passenger()
  await refused(first.token, c.token, 'borrowed')
  await refused(first.token, undefined, 'borrowed')
  const ok = await lock([seat!], first.token, { token: first.s.token })
  assert.is(ok.status, 200, JSON.stringify(ok.body))
  // another trip needs nothing
  const other = await pickTrip(f, { minHours: 48, skip: 50 })
  if (other.tripDate !== trip.tripDate || other.originCode !== trip.originCode) {
    const [s2] = await freeSeats(f, other.id, 1)
    const r = await f.api('POST', '/api/reservation/seatLock', lockBody(other, [s2!]), { device: 'queue-device-3' })
    assert.is(r.status, 200, JSON.stringify(r.body))
  }
})

t('a signed-in passenger with a place of their own cannot use another browser’s unclaimed admitted place: one place each', async () => {
  await mark(1)
  const [seat] = await freeSeats(f, trip.id, 1)
  const p = await f.passenger()
  at(-5000)
  // a place joined without signing in (another browser of the same person), then the passenger's own
  const spare = (await join(null)).body.data.token
  at(5000)
  const own = (await join(null, { token: p.token })).body.data.token
  at(60_000)
  assert.is((await status(spare)).state, 'admitted', 'the spare place, drawn first, is admitted')
  assert.is((await status(own, p.token)).state, 'waiting')
  const r = await lock([seat!], spare, { token: p.token })
  assert.is(r.status, 403, JSON.stringify(r.body))
  assert.is(r.body.error.code, 'QUEUE_ADMISSION_REFUSED')
  assert.is(r.body.error.values.because, 'waiting')
  // the spare place is the browser's own when nobody signs in with it
  const anon = await lock([seat!], spare, { device: 'queue-device-4' })
  assert.is(anon.status, 200, JSON.stringify(anon.body))
})

t('one place per browser (its tabs share the token) and per signed-in passenger; issued tokens are limited per address', async () => {
  await f.close()
  f = await openFixture({ config: { queueDevicesPerAddress: 3 } })
  trip = await pickTrip(f, { minHours: 48 })
  opensAt = new Date(f.now().getTime() + 10 * 60_000)
  await mark(1)
  at(-60_000)
  const first = await join(null, { address: '203.0.113.5' })
  const token = first.body.data.token
  // two tabs at once, and a refresh: the same place
  const tabs = await Promise.all([join(token), join(token), join(token)])
  for (const tab of tabs) assert.is(tab.body.data.token, token)
  assert.is((await status(token)).waiting, 1)
  // a signed-in passenger on two browsers has one place
  const p = await f.passenger()
  const laptop = (await join(null, { token: p.token, address: '203.0.113.6' })).body.data.token
  const phone = (await join(null, { token: p.token, address: '203.0.113.6' })).body.data.token
  assert.is.not(laptop, phone)
  // the count of people waiting is refreshed once a second
  at(-59_000)
  assert.is((await status(phone)).waiting, 2)
  // a made-up token joins nothing: the server issues one (counted against the address)
  const madeUp = await join('y'.repeat(43), { address: '203.0.113.5' })
  assert.is.not(madeUp.body.data.token, 'y'.repeat(43))
  const flood = await join(null, { address: '203.0.113.5' })
  assert.is(flood.status, 200)
  const refused = await join(null, { address: '203.0.113.5' })
  assert.is(refused.status, 429)
  assert.is(refused.body.error.code, 'TOO_MANY_REQUESTS')
  at(0)
  assert.is((await status(token)).waiting, 4, 'a refused join took no place')
})

t(
  'seats a waitlist offer holds for the passenger on the rush date are their turn: the status admits them until the offer ends, and they may lock',
  async () => {
    await mark(1)
    const [held, other] = await freeSeats(f, trip.id, 2)
    const p = await f.passenger()
    const q = await f.passenger()
    at(30_000)
    const until = new Date(f.now().getTime() + 5 * 60_000)
    const [w] = await f.db.query<{ id: number }>(
      `INSERT INTO waitlist (trip_id, passenger_id, seats, status, offered_seats, offered_at, offer_expires_at, created_at)
     VALUES ($1, $2, 1, 'OFFERED', $3::text[], $4, $5, $4) RETURNING id`,
      [trip.id, p.id, [held], f.now(), until],
    )
    await f.db.query("INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at, address) VALUES ($1, $2, $3, $4, '')", [
      trip.id,
      held,
      `p:${p.id}`,
      until,
    ])
    // never in the queue, yet its turn: the seat page lets them on, and a lock is not refused
    const s = await status(null, p.token)
    assert.is(s.state, 'admitted')
    assert.is(Date.parse(s.admittedUntil), Math.floor(until.getTime() / 1000) * 1000)
    const ok = await lock([other!], null, { token: p.token })
    assert.is(ok.status, 200, JSON.stringify(ok.body))
    // another passenger is not let in by it
    assert.is((await status(null, q.token)).state, 'notJoined')
    const r = await lock([other!], null, { token: q.token, device: 'queue-device-9' })
    assert.is(r.body.error.code, 'QUEUE_ADMISSION_REFUSED')
    // the offer over: the queue as for anyone
    await f.db.query("UPDATE waitlist SET status = 'LAPSED' WHERE id = $1", [w!.id])
    at(31_000)
    assert.is((await status(null, p.token)).state, 'notJoined')
  },
)

t('sold out: everyone still waiting is told at once', async () => {
  await mark(1)
  at(-60_000)
  const tokens = [(await join(null)).body.data.token, (await join(null)).body.data.token]
  at(5000)
  assert.is((await status(tokens[1]!)).state, 'waiting')
  await f.db.query(
    "UPDATE trips t SET status = 'CLOSED' FROM routes r WHERE r.id = t.route_id AND t.trip_date = $1 AND r.origin_code = $2 AND r.destination_code = $3",
    [trip.tripDate, trip.originCode, trip.destinationCode],
  )
  at(6000)
  for (const token of tokens) assert.is((await status(token)).state, 'soldOut')
})

t('a status poll is one read of the queue; at most one poll a second also refreshes the rush date', async () => {
  await mark(60)
  at(-60_000)
  const token = (await join(null)).body.data.token
  at(-59_000)
  await status(token)
  const seen: string[] = []
  const query = f.db.query.bind(f.db)
  f.db.query = ((sql: string, params?: unknown[]) => {
    if (/rush_dates|queue_places/.test(sql)) seen.push(sql)
    return query(sql, params)
  }) as typeof f.db.query
  try {
    at(-58_500)
    for (let i = 0; i < 5; i++) await status(token)
    assert.is(seen.length, 5, `one statement a poll:\n${seen.join('\n---\n')}`)
  } finally {
    f.db.query = query
  }
})

/** `n` browsers in the rush date's pre-queue, made in the database (joining each through the API would take long). */
async function bulkPreQueue(n: number): Promise<void> {
  const [rush] = await f.db.query<{ id: number }>('SELECT id FROM rush_dates WHERE trip_date = $1 AND origin_code = $2', [
    trip.tripDate,
    trip.originCode,
  ])
  await f.db.query("INSERT INTO queue_devices (token_hash, address, issued_at) SELECT 'bulk-' || i, 'bulk', $1 FROM generate_series(1, $2::int) i", [
    f.now(),
    n,
  ])
  await f.db.query(
    "INSERT INTO queue_places (rush_id, token_hash, joined_at, draw) SELECT $1, 'bulk-' || i, $2, random() FROM generate_series(1, $3::int) i",
    [rush!.id, f.now(), n],
  )
}

/** The one statement a poll runs (the rush date refreshed already this second), with its parameters. */
async function pollStatement(token: string): Promise<{ place: number; sql: string; params: unknown[] }> {
  const seen: { sql: string; params: unknown[] }[] = []
  const query = f.db.query.bind(f.db)
  f.db.query = ((sql: string, params?: unknown[]) => {
    if (/rush_dates|queue_places/.test(sql)) seen.push({ sql, params: params ?? [] })
    return query(sql, params)
  }) as typeof f.db.query
  try {
    const s = await status(token)
    assert.is(seen.length, 1, 'one statement a poll')
    return { place: s.place, ...seen[0]! }
  } finally {
    f.db.query = query
  }
}

/** Rows of queue_places the statement's plan reads when run (EXPLAIN ANALYZE): rows each of its nodes there returned or filtered out. */
async function queuePlacesRead(sql: string, params: unknown[]): Promise<number> {
  const [row] = await f.db.query<Record<string, unknown>>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params)
  const raw = Object.values(row!)[0]
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[]
  type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] }
  const read = (n: PlanNode): number => {
    const own =
      n['Relation Name'] === 'queue_places'
        ? (Number(n['Actual Rows']) + Number(n['Rows Removed by Filter'] ?? 0) + Number(n['Rows Removed by Index Recheck'] ?? 0)) *
          Number(n['Actual Loops'])
        : 0
    return own + (n.Plans ?? []).reduce((k, c) => k + read(c), 0)
  }
  return read(plan[0]!.Plan)
}

const placeCounted = (token: string) => queuePlaceCounted(f, token)

t(
  'a poll reads its own place, not the places ahead: with hundreds ahead one row of the queue; joined since the last refresh, only the few joined since',
  async () => {
    await mark(60)
    at(-60_000)
    await bulkPreQueue(400)
    at(1000)
    const token = (await join(null)).body.data.token
    at(5000)
    await status(token)
    const back = await pollStatement(token)
    assert.ok(back.place > 390, `behind the pre-queue less the first admitted: ${back.place}`)
    assert.is(back.place, await placeCounted(token))
    assert.is(await queuePlacesRead(back.sql, back.params), 1, 'the caller’s row only')
    // three join within the second after the refresh: no rank yet, each behind everyone ranked and the ones joined before it
    const late: string[] = []
    for (let i = 1; i <= 3; i++) {
      at(5000 + i * 100)
      late.push((await join(null)).body.data.token)
    }
    const last = await pollStatement(late[2]!)
    assert.is(last.place, back.place + 3)
    assert.is(last.place, await placeCounted(late[2]!))
    assert.ok((await queuePlacesRead(last.sql, last.params)) <= 3, 'its row and the two joined before it since the refresh')
    // the next refresh admits one more and numbers them all
    at(6000)
    await status(token)
    for (const x of [token, ...late]) {
      const s = await pollStatement(x)
      assert.is(s.place, await placeCounted(x))
      assert.is(await queuePlacesRead(s.sql, s.params), 1)
    }
  },
)

t('before the hour the pre-queue is counted, not numbered (a random draw would move every rank each second); from 5 s before, numbered', async () => {
  await mark(60)
  const ranks = async () => (await f.db.query<{ rank: number | null }>('SELECT rank FROM queue_places ORDER BY draw, id')).map((r) => r.rank)
  at(-60_000)
  const tokens: string[] = []
  for (let i = 0; i < 4; i++) tokens.push((await join(null)).body.data.token)
  at(-58_000)
  const early = await status(tokens[0]!)
  assert.is(early.state, 'preQueue')
  assert.is(early.waiting, 4, 'the pre-queue is counted')
  assert.is(early.place, null)
  assert.equal(await ranks(), [null, null, null, null], 'and not numbered')
  at(-4_000)
  const late = await status(tokens[0]!)
  assert.is(late.waiting, 4)
  assert.equal(await ranks(), [1, 2, 3, 4], 'numbered before the crowd polls at the hour')
  // at the hour each has its drawn place at once, by its rank
  at(0)
  const places = []
  for (const x of tokens) places.push((await status(x)).place)
  assert.equal([...places].sort(), [1, 2, 3, 4])
})

t('a date that is no rush answers open; bad input is refused by the contract', async () => {
  const r = await join(null)
  assert.is(r.status, 200)
  assert.is(r.body.data.state, 'open')
  const bad = await f.api('POST', '/api/queue', { ...key(), token: 'short', join: true, draw: 0 })
  assert.is(bad.status, 400)
  assert.is(bad.body.error.code, 'VALIDATION_FAILED')
})

t("a rush date's search answer may be kept by a CDN or proxy for a few seconds; another date's by none", async () => {
  const search = (tripDate: string) => f.api('POST', '/api/reservation/tripSearch', { ...key(), tripDate })
  const plain = await search(trip.tripDate)
  assert.is(plain.status, 200, JSON.stringify(plain.body))
  assert.is(plain.headers['cache-control'], 'no-store')
  await mark(60)
  // the server's own search cache would answer the date's earlier rows: a new instant asks again
  at(-5 * 60_000)
  const rush = await search(trip.tripDate)
  assert.is(rush.status, 200, JSON.stringify(rush.body))
  const cc = String(rush.headers['cache-control'])
  assert.match(cc, /(^|, )public(,|$)/)
  assert.match(cc, /(^|, )max-age=0(,|$)/, 'browsers ask again: only shared caches keep it')
  const shared = Number(/s-maxage=(\d+)/.exec(cc)?.[1])
  assert.ok(shared >= 1 && shared <= 10, `s-maxage of a few seconds: ${cc}`)
  // a signed-in passenger's search is the same answer: nothing personal goes into a shared cache
  const passenger = await f.passenger()
  const signedIn = await f.api('POST', '/api/reservation/tripSearch', key(), { token: passenger.token })
  assert.equal(signedIn.body, rush.body)
})

t('a long queue is asked seldom far back (a tenth of the wait, at most 30 s) and often at the front', async () => {
  await mark(10)
  const tokens: string[] = []
  for (let i = 0; i < 40; i++) {
    at(1000 + i * 10)
    tokens.push((await join(null)).body.data.token)
  }
  at(2000)
  const front = await status(tokens[0]!)
  const back = await status(tokens[39]!)
  assert.is(back.state, 'waiting')
  // 40th at 10 a minute: 240 s to wait
  assert.is(back.estimateSeconds, 240)
  assert.is(back.pollSeconds, 24)
  const far = await status(tokens[25]!)
  assert.ok(far.pollSeconds < back.pollSeconds && far.pollSeconds >= 5, `${far.pollSeconds}`)
  // the first: 6 s to wait, asked every 2 s
  assert.is(front.pollSeconds, 2)
})

t('after the hour a large pre-queue asks spread over seconds (at most 15), each place at its own point, not all in one second', async () => {
  await mark(60)
  at(-60_000)
  const tokens: string[] = []
  for (let i = 0; i < 20; i++) tokens.push((await join(null)).body.data.token)
  await bulkPreQueue(3000)
  // far from the hour: every 15 s
  at(-40_000)
  assert.is((await status(tokens[0]!)).pollSeconds, 15)
  at(-7_000)
  const polls: number[] = []
  for (const x of tokens) polls.push((await status(x)).pollSeconds)
  // 3,020 waiting: over 7.55 s (400 a second) from 3 s after the hour's 7 s (a refresh has numbered the pre-queue by then: memory.ts)
  for (const p of polls) assert.ok(p >= 7 + 3 && p <= 7 + 3 + 7.55, `${p}`)
  assert.ok(new Set(polls).size >= 10, `spread, not together: ${polls.join(', ')}`)
  // a place asks at the same point each time
  assert.is((await status(tokens[3]!)).pollSeconds, polls[3])
})

t.run()
