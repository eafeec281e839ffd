/**
 * Abuse limits under contention, where it matters: a real PostgreSQL with two server
 * processes behind a proxy (TRUST_PROXY=1), each attacker sending its requests to
 * both processes at once: seat holds per address, sign-in and code requests per
 * address, wrong PINs per PNR.
 */
import * as assert from 'uvu/assert'
import type { Db } from '../db/db.ts'
import { freeSeats, lockBody, pickTrip } from '../test/booking-fixture.ts'
import { pgSuite, type ServersOnPostgres, startServersOnPostgres } from '../test/pg.ts'
import { call, type ServerProcess } from '../../harness/spawn-server.ts'

const test = pgSuite('limits on PostgreSQL')
let stack: ServersOnPostgres | undefined
let db: Db
let servers: ServerProcess[]

test.before(async () => {
  stack = await startServersOnPostgres('limits', {
    TRUST_PROXY: '1',
    HOLD_LIMIT_PER_ADDRESS: '10',
    HOLD_LIMIT_PER_ADDRESS_TOTAL: '30',
    AUTH_RATE_LIMIT_MAX: '6',
    LOGIN_FAILURE_LIMIT: '10',
    SMS_LIMIT_PER_ADDRESS: '4',
    SMS_HOURLY_BUDGET: '24',
    SMS_SIGNUP_SHARE: '50',
  })
  ;({ db, servers } = stack)
})

test.after(() => stack?.stop())

test('PostgreSQL, two processes: 7 rotating device ids from one address hold at most 10 seats of a trip; others still get seats', async () => {
  const ctx = { db, now: () => new Date() }
  // Four attackers at once, each on its own trip from its own address, so both processes
  // run several lock transactions side by side: 30 single-seat requests per attacker,
  // alternating between the processes, from 7 rotating device ids.
  const attacks: { trip: Awaited<ReturnType<typeof pickTrip>>; seats: string[]; address: string }[] = []
  for (let skip = 0; attacks.length < 4; skip++) {
    const trip = await pickTrip(ctx, { minHours: 48, skip })
    const seats = await freeSeats(ctx, trip.id, 31).catch(() => null)
    if (seats) attacks.push({ trip, seats, address: `203.0.113.${7 + attacks.length}` })
  }
  const results = await Promise.all(
    attacks.map(({ trip, seats, address }) =>
      Promise.all(
        seats.slice(0, 30).map((seat, i) =>
          call(servers[i % 2]!.url, 'POST', '/api/reservation/seatLock', lockBody(trip, [seat]), {
            device: `rotating-device-${i % 7}`,
            headers: { 'x-forwarded-for': address },
          }),
        ),
      ),
    ),
  )
  for (const [a, rs] of results.entries()) {
    const won = rs.filter((r) => r.status === 200 && r.body.data)
    const refused = rs.filter((r) => r.status === 429)
    assert.is(won.length, 10, `attacker ${a}: ${won.length} holds granted`)
    assert.is(refused.length, 20)
    assert.ok(refused.every((r) => r.body.error.code === 'HOLD_LIMIT_EXCEEDED'))
    const [held] = await db.query<{ n: number }>(
      // the servers' clock (TEST_NOW moves it), not PostgreSQL's
      'SELECT count(*)::int AS n FROM seat_locks WHERE trip_id = $1 AND address = $2 AND expires_at > $3',
      [attacks[a]!.trip.id, attacks[a]!.address, new Date()],
    )
    assert.is(held!.n, 10)
  }
  const { trip, seats } = attacks[0]!
  const attacker = { 'x-forwarded-for': attacks[0]!.address }

  // the eleventh seat is refused with a clear reason, whichever process and device id asks
  const eleventh = await call(servers[1]!.url, 'POST', '/api/reservation/seatLock', lockBody(trip, [seats[30]!]), {
    device: 'brand-new-device',
    headers: attacker,
  })
  assert.is(eleventh.status, 429)
  assert.is(eleventh.body.error.code, 'HOLD_LIMIT_EXCEEDED')
  assert.is(
    eleventh.body.error.reason,
    'At most 10 seats may be held from one network on this trip. Book or release seats, or try again when a hold ends.',
  )
  assert.ok(Number(eleventh.headers.get('retry-after')) > 0)

  // a passenger from another address still gets a seat
  const other = await call(servers[0]!.url, 'POST', '/api/reservation/seatLock', lockBody(trip, [seats[30]!]), {
    device: 'another-visitor',
    headers: { 'x-forwarded-for': '198.51.100.9' },
  })
  assert.is(other.status, 200)
  assert.equal(other.body.data.seatNames, [seats[30]])
})

test('PostgreSQL, two processes: sign-in and mobile look-ups from one address share one limit a minute', async () => {
  const from = { 'x-forwarded-for': '203.0.113.50' }
  const logins = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      call(servers[i % 2]!.url, 'POST', '/api/checkPassenger', { mobile: '01712345678', password: `Wrong@${1000 + i}` }, { headers: from }),
    ),
  )
  assert.equal(logins.map((r) => r.status).sort(), [...Array(6).fill(401), ...Array(6).fill(429)])
  assert.ok(logins.filter((r) => r.status === 429).every((r) => r.body.error.code === 'TOO_MANY_REQUESTS'))
  const lookups = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      call(servers[i % 2]!.url, 'GET', `/api/getPassengerByMobile/0171234${String(5000 + i)}`, undefined, { headers: from }),
    ),
  )
  assert.is(lookups.filter((r) => r.status === 200).length, 6)
  // another address is not held back
  const other = await call(
    servers[1]!.url,
    'POST',
    '/api/checkPassenger',
    { mobile: '01712345678', password: 'Demo@1234' },
    { headers: { 'x-forwarded-for': '198.51.100.60' } },
  )
  assert.is(other.status, 200)
})

test('PostgreSQL, two processes: 40 simultaneous PIN guesses on one PNR get exactly 10 answers, then even the right PIN waits', async () => {
  const [sold] = await db.query<{ pnr: string; pin: string }>('SELECT pnr, pin FROM reservations WHERE status = 1 AND pnr IS NOT NULL LIMIT 1')
  assert.ok(sold, 'the demo data has a sold ticket')
  const tries = Array.from({ length: 41 }, (_, i) => String(i * 7).padStart(4, '0'))
    .filter((p) => p !== sold!.pin)
    .slice(0, 40)
  const rs = await Promise.all(
    tries.map((pin, i) =>
      call(servers[i % 2]!.url, 'GET', `/api/reservation/details/${sold!.pnr}/${pin}`, undefined, { headers: { 'x-forwarded-for': `192.0.2.${i}` } }),
    ),
  )
  assert.is(rs.filter((r) => r.status === 404 && r.body.error.code === 'WRONG_PNR_PIN').length, 10)
  assert.is(rs.filter((r) => r.status === 429 && r.body.error.code === 'TOO_MANY_ATTEMPTS').length, 30)
  const right = await call(servers[0]!.url, 'GET', `/api/reservation/details/${sold!.pnr}/${sold!.pin}`)
  assert.is(right.status, 429)
})

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } })
const signUpBody = (mobile: string, password = 'Right@1234') => ({
  mobile,
  fullName: 'Limit Test',
  email: 'limit@example.com',
  city: 'Dhaka',
  password,
})
/** The newest one-time code sent to `mobile` (development stores it with the message). */
async function codeFor(mobile: string): Promise<string> {
  const [row] = await db.query<{ code: string }>(`SELECT code FROM outbox_messages WHERE "to" = $1 AND code IS NOT NULL ORDER BY id DESC LIMIT 1`, [
    mobile,
  ])
  assert.ok(row, `a code went to ${mobile}`)
  return row!.code
}
const smsTo = async (mobiles: string[]) =>
  (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_messages WHERE channel = 'SMS' AND "to" = ANY($1)`, [mobiles]))[0]!.n

test('PostgreSQL, two processes: 30 simultaneous wrong passwords on one account from 30 addresses get exactly 10 answers; then even the right password waits, and the SMS code signs in', async () => {
  const mobile = '01912300001'
  const reg = await call(servers[0]!.url, 'POST', '/api/register', signUpBody(mobile), from('198.51.100.200'))
  assert.is(reg.status, 200, JSON.stringify(reg.body))
  const verified = await call(
    servers[1]!.url,
    'POST',
    '/api/verifyMobileVerificationCode',
    { mobile, code: await codeFor(mobile), registrationToken: reg.body.data.registrationToken },
    from('198.51.100.200'),
  )
  assert.is(verified.status, 200, JSON.stringify(verified.body))
  const rs = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      call(servers[i % 2]!.url, 'POST', '/api/checkPassenger', { mobile, password: `Wrong@${i}x` }, from(`192.0.2.${100 + i}`)),
    ),
  )
  assert.is(rs.filter((r) => r.status === 401 && r.body.error.code === 'BAD_CREDENTIALS').length, 10)
  const refused = rs.filter((r) => r.status === 429 && r.body.error.code === 'TOO_MANY_ATTEMPTS')
  assert.is(refused.length, 20)
  assert.ok(refused.every((r) => r.body.error.values.minutes >= 14 && Number(r.headers.get('retry-after')) > 0))
  const right = await call(servers[0]!.url, 'POST', '/api/checkPassenger', { mobile, password: 'Right@1234' }, from('198.51.100.201'))
  assert.is(right.status, 429)
  assert.is(right.body.error.code, 'TOO_MANY_ATTEMPTS')
  // the owner's SMS-code sign-in is not held back
  const sent = await call(servers[1]!.url, 'POST', '/api/sendOtp', { mobile, purpose: 'LOGIN' }, from('198.51.100.201'))
  assert.is(sent.status, 200, JSON.stringify(sent.body))
  const v = await call(servers[0]!.url, 'POST', '/api/verifyOTP', { mobile, otp: await codeFor(mobile), purpose: 'LOGIN' }, from('198.51.100.201'))
  assert.is(v.status, 200, JSON.stringify(v.body))
  assert.type(v.body.data.session.token, 'string')
  // other accounts sign in as usual
  const demo = await call(servers[1]!.url, 'POST', '/api/checkPassenger', { mobile: '01712345678', password: 'Demo@1234' }, from('198.51.100.202'))
  assert.is(demo.status, 200)
})

test('PostgreSQL, two processes: one address makes the server send at most SMS_LIMIT_PER_ADDRESS (4) codes an hour, whichever route and number', async () => {
  const address = '203.0.113.77'
  const mobiles = Array.from({ length: 6 }, (_, i) => `0191230010${i}`)
  const rs = await Promise.all(mobiles.map((m, i) => call(servers[i % 2]!.url, 'POST', '/api/register', signUpBody(m), from(address))))
  assert.is(rs.filter((r) => r.status === 200).length, 4)
  const refused = rs.filter((r) => r.status === 429)
  assert.is(refused.length, 2)
  for (const r of refused) {
    assert.is(r.body.error.code, 'TOO_MANY_REQUESTS')
    assert.match(r.body.error.reason, 'Too many codes were asked for from your network')
  }
  assert.is(await smsTo(mobiles), 4)
  // a code of another kind from the same address is refused too; another address still gets one
  const login = await call(servers[0]!.url, 'POST', '/api/sendOtp', { mobile: '01712345678', purpose: 'RESET_PASSWORD' }, from(address))
  assert.is(login.status, 429)
  assert.is(await smsTo(['01712345678']), 0)
  const other = await call(servers[1]!.url, 'POST', '/api/sendOtp', { mobile: '01712345678', purpose: 'RESET_PASSWORD' }, from('203.0.113.78'))
  assert.is(other.status, 200, JSON.stringify(other.body))
  assert.is(await smsTo(['01712345678']), 1)
})

test('PostgreSQL, two processes: one /48 is one address for SMS_LIMIT_PER_ADDRESS, whichever /64 networks in it ask', async () => {
  const mobiles = Array.from({ length: 6 }, (_, i) => `0191230030${i}`)
  const rs = await Promise.all(
    mobiles.map((m, i) => call(servers[i % 2]!.url, 'POST', '/api/register', signUpBody(m), from(`2001:db8:77:${i + 1}::${i + 9}`))),
  )
  assert.equal(rs.map((r) => r.status).sort(), [200, 200, 200, 200, 429, 429])
  assert.ok(rs.filter((r) => r.status === 429).every((r) => r.body.error.code === 'TOO_MANY_REQUESTS'))
  assert.is(await smsTo(mobiles), 4)
})

test('PostgreSQL, two processes: a flood of sign-ups spends only SMS_SIGNUP_SHARE (50 %) of SMS_HOURLY_BUDGET (24); existing accounts still get login codes', async () => {
  // codes sent so far, by kind (one otps row per code here: no code was sent twice to one mobile and purpose)
  const codesSent = async (signups: boolean) =>
    (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM otps WHERE (purpose = 'SIGNUP') = $1 AND code_hash <> '-'", [signups]))[0]!.n
  const accountCodesBefore = await codesSent(false)
  // sign-ups to unknown numbers from many addresses, on both processes at once: more than the whole budget
  const mobiles = Array.from({ length: 30 }, (_, i) => `01912300${String(200 + i)}`)
  const rs = await Promise.all(mobiles.map((m, i) => call(servers[i % 2]!.url, 'POST', '/api/register', signUpBody(m), from(`198.18.0.${10 + i}`))))
  const refused = rs.filter((r) => r.status !== 200)
  assert.ok(refused.length > 0)
  for (const r of refused) {
    assert.is(r.status, 503)
    assert.is(r.body.error.code, 'SMS_PROVIDER_SERVICE_UNAVAILABLE')
    assert.ok(Number(r.headers.get('retry-after')) > 0)
  }

  // existing accounts still get their codes, on both processes at once
  const accounts = Array.from({ length: 14 }, (_, i) => `019123005${String(10 + i)}`)
  for (const m of accounts) {
    await db.query(
      `INSERT INTO passengers (mobile, full_name, email, city, password_hash, status, balance, created_at)
       VALUES ($1, 'Existing', 'existing@example.com', 'Dhaka', NULL, 'ACTIVE', 0, $2)`,
      [m, new Date()],
    )
  }
  const codes = await Promise.all(
    accounts.map((m, i) => call(servers[i % 2]!.url, 'POST', '/api/sendOtp', { mobile: m, purpose: 'LOGIN' }, from(`198.18.2.${i + 1}`))),
  )
  const sent = codes.filter((r) => r.status === 200).length
  assert.ok(sent > 0, `existing accounts got no login code after the flood: ${JSON.stringify(codes.map((r) => r.status))}`)
  // sign-ups spent their share exactly, existing accounts the rest of the budget
  assert.is(await codesSent(true), 12)
  assert.is(sent, 24 - 12 - accountCodesBefore)
  assert.ok(codes.filter((r) => r.status !== 200).every((r) => r.status === 503 && r.body.error.code === 'SMS_PROVIDER_SERVICE_UNAVAILABLE'))
  assert.is(await smsTo(accounts), sent)
  assert.is(await smsTo(mobiles), 30 - refused.length)
  // a code that went out signs in
  const got = accounts.find((_, i) => codes[i]!.status === 200)!
  const v = await call(servers[1]!.url, 'POST', '/api/verifyOTP', { mobile: got, otp: await codeFor(got), purpose: 'LOGIN' }, from('198.18.2.1'))
  assert.is(v.status, 200, JSON.stringify(v.body))
  // the whole budget spent: a number with no account is refused alike, and nothing is sent
  const unknown = await call(servers[0]!.url, 'POST', '/api/sendOtp', { mobile: '01912300599', purpose: 'LOGIN' }, from('198.18.1.1'))
  assert.equal([unknown.status, unknown.body.error.code], [503, 'SMS_PROVIDER_SERVICE_UNAVAILABLE'])
  assert.is(await smsTo(['01912300599']), 0)
})

test.run()
