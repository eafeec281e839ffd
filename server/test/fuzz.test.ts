/**
 * Generated fuzz test over every route of contract/api.ts: for each route, valid
 * requests generated from its zod schemas (fuzz/arbitrary.ts) and the same requests
 * broken at one place (body, query, path parameter, raw body), with and without a
 * passenger's bearer token. It fails on any 5xx, on a 2xx whose data does not match
 * the route's response schema, on a request the contract refuses that is not 400
 * VALIDATION_FAILED naming the place, and on any refused (4xx) request that wrote to
 * the database (fuzz/db-fingerprint.ts). fast-check shrinks a failure to a small
 * request before it is printed.
 *
 * Reproducible: a fixed seed by default, printed first (CI, .ci/run, draws a new one each
 * run); FUZZ_SEED=<n> replays one, and FUZZ_RUNS=<valid
 * requests per route, default 10, and up to three times as many more for a route none of whose valid requests was
 * answered 2xx; three times as many broken ones> change it; FUZZ_ROUTES=<pattern> fuzzes only the
 * routes whose name matches.
 *
 * Per-route knowledge is kept to `paramMeaning` (what an ambiguous path parameter
 * holds) and the world's `contexts` (real values by field name: a trip's id, date,
 * coach and cities; the passenger's mobile and password; own bookings, tickets,
 * payments, fresh SMS codes), so that valid requests get past "not found" to the
 * handlers' real work. New routes and fields are fuzzed from the contract alone.
 */
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as z from 'zod/mini'
import { api, type RouteName } from '../../contract/api.ts'
import { errorCatalogue } from '../../contract/errors.ts'
import { errorBody, isStorableText } from '../../contract/schemas.ts'
import { OTP_RESEND_SECONDS } from '../../contract/values.ts'
import { codeHash, issueOtp, OTP_MAX_ATTEMPTS, SMS_PER_MOBILE_HOUR, type OtpPurpose } from '../account/otp.ts'
import { AppError } from '../core.ts'
import { hashCostForTest, hashPassword, TEST_SCRYPT } from '../account/passwords.ts'
import { createSession } from '../account/sessions.ts'
import { addDays, dhakaDate, dhakaIsoOrNull } from '../lib/time.ts'
import { expireBookings } from '../bookings/bookings.ts'
import type { PassengerRow } from '../account/passengers.ts'
import { buyTicket, freeSeats, lockAndBook, lockBody, openFixture, pickTrip, type Fixture } from './booking-fixture.ts'
import { TEST_PASSWORD } from './helpers.ts'
import { sha256 } from '../lib/tokens.ts'
import { badPathSegments, Later, mutationArbitrary, resolveLater, validArbitrary, type Schema } from './fuzz/arbitrary.ts'
import { writeWatch } from './fuzz/db-fingerprint.ts'
import { issueTicketLink } from '../bookings/ticket-codes.ts'

/**
 * Path parameters whose name alone does not say what they hold: route → parameter →
 * the context field to take values from (`id` is a passenger on /profile/:id and
 * /account/:id, a reservation on /reservation/details/:id).
 */
const paramMeaning: Partial<Record<RouteName, Record<string, string>>> = {
  reservationById: { id: 'reservationId' },
}

const SEED = Number(process.env.FUZZ_SEED ?? 20260214)
const RUNS = Number(process.env.FUZZ_RUNS ?? 10)
const ROUTES = new RegExp(process.env.FUZZ_ROUTES ?? '')
const BROKEN_RUNS = RUNS * 3
const DEVICE = 'fuzz-device-0001'
// A fixed clock, so that the same seed makes the same requests on any day.
const NOW = new Date('2026-11-22T04:00:00Z')

type Part = 'body' | 'query' | 'params' | 'raw'

interface FuzzRequest {
  route: RouteName
  params: Record<string, unknown>
  /** Path parameters sent exactly as given (already URL-encoded). */
  rawParams: Record<string, string>
  query: unknown
  body: unknown
  raw: { payload: string; contentType: string } | null
  auth: 'passenger' | 'none' | 'unknown token' | 'long token' | 'basic'
  device: string | null
  /** What was broken, for broken requests. */
  broken: { part: Part; at: string; how: string } | null
}

interface RouteStats {
  requests: number
  ok: number
  refusedByValidation: number
  refusedByHandler: number
  serverErrors: number
  /** How valid requests were refused (status and code), for the report of a route that never succeeded. */
  validRefusals: Set<string>
}

/** A route's `:name` parameters in order. */
const paramNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!)

// Path parameters have no schema in the contract: any short word, or a context value.
const pathParam = z.string().check(z.regex(/^[A-Za-z0-9]{1,12}$/))

function storableDeep(v: unknown): boolean {
  if (typeof v === 'string') return isStorableText(v)
  if (v !== null && typeof v === 'object') return Object.values(v).every(storableDeep)
  return true
}

const clip = (s: string | undefined, n = 300) => (s === undefined ? 'undefined' : s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s)

/** The query string for `q` (a plain object: repeated keys for arrays), and what the server reads from it. */
function encodeQuery(q: unknown): { qs: string; seen: Record<string, string | string[]> } {
  const sp = new URLSearchParams()
  if (q !== null && typeof q === 'object' && !Array.isArray(q)) {
    for (const [k, v] of Object.entries(q)) {
      if (v === undefined) continue
      for (const x of Array.isArray(v) ? v : [v]) sp.append(k, typeof x === 'string' ? x : JSON.stringify(x))
    }
  } else if (q !== undefined) sp.append(typeof q === 'string' ? q : JSON.stringify(q), '')
  const qs = sp.toString()
  // URLSearchParams turns unpaired surrogates into U+FFFD, so reading it back is what arrives.
  const seen: Record<string, string | string[]> = {}
  for (const [k, v] of new URLSearchParams(qs)) {
    const had = seen[k]
    seen[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v]
  }
  return { qs, seen }
}

test('fuzz: every route in contract/api.ts, valid and broken requests, no 5xx, refusals write nothing', async () => {
  const started = Date.now()
  // First, so that even a run that hangs or crashes can be replayed.
  console.log(`fuzz: seed ${SEED} (replay with FUZZ_SEED=${SEED})`)
  // what is fuzzed is the contract and the answers, not the hash: about 120 password hashes (sign-ups, logins,
  // changes, resets) at a cost that takes 2 ms each, not 0.3 s; auth.test.ts and the rest keep the production cost
  const productionCost = hashCostForTest(TEST_SCRYPT)
  const f: Fixture = await openFixture({ now: NOW })
  try {
    const world = await buildWorld(f)
    const watch = writeWatch(f.db)
    const stats = new Map<RouteName, RouteStats>()
    const failures: string[] = []
    const routes = (Object.keys(api) as RouteName[]).filter((r) => ROUTES.test(r))
    /** 2xx answers to valid requests, per route: a context builder that fell back to a dummy value shows as none. */
    const validOk = new Map<RouteName, number>()

    const send = async (req: FuzzRequest): Promise<void> => {
      const def = api[req.route] as { method: string; path: string; auth: string; body?: Schema; query?: Schema; response: Schema }
      const memo = new Map<Later, Promise<unknown>>()
      const params = (await resolveLater(req.params, memo)) as Record<string, unknown>
      const body = await resolveLater(req.body, memo)
      const query = await resolveLater(req.query, memo)
      const url0 = '/api' + def.path.replace(/:(\w+)/g, (_, k: string) => req.rawParams[k] ?? encodeURIComponent(String(params[k])))
      const { qs, seen } = encodeQuery(query)
      const url = qs ? `${url0}?${qs}` : url0
      const headers: Record<string, string> = { accept: 'application/json' }
      const token = {
        passenger: world.token,
        none: null,
        'unknown token': 'Ab3dE5gH7jK9mN1pQ3sT5vX7zB9dF1hJ3lN5pR7tV9x',
        'long token': 'x'.repeat(300),
        basic: null,
      }[req.auth]
      if (token) headers.authorization = `Bearer ${token}`
      if (req.auth === 'basic') headers.authorization = 'Basic dXNlcjpwYXNz'
      if (req.device) headers['x-device-id'] = req.device
      let payload: string | undefined
      if (req.raw) {
        payload = req.raw.payload
        headers['content-type'] = req.raw.contentType
      } else if (body !== undefined) {
        payload = JSON.stringify(body)
        headers['content-type'] = 'application/json'
      }

      await watch.before()
      const res = await f.app.inject({ method: def.method as 'GET', url, headers, payload })
      const s = stats.get(req.route)!
      s.requests++
      let json: any
      try {
        json = res.json()
      } catch {
        json = undefined
      }
      const what = () =>
        `${req.route}: ${def.method} ${clip(url, 200)} auth=${req.auth}${req.device ? ` device=${req.device}` : ''} body=${clip(JSON.stringify(body))}` +
        `${req.raw ? ` raw(${req.raw.contentType})=${clip(req.raw.payload, 120)}` : ''}${req.broken ? ` [broken ${req.broken.part} at ${req.broken.at}: ${req.broken.how}]` : ' [valid]'}` +
        ` → ${res.statusCode} ${clip(res.body, 400)}`
      const fail = (why: string) => {
        throw new Error(`${why}\n    ${what()}`)
      }

      if (res.statusCode >= 500) {
        s.serverErrors++
        fail('5xx')
      }
      if (res.statusCode >= 200 && res.statusCode < 300) {
        s.ok++
        const r = def.response.safeParse(json?.data)
        if (!r.success) fail(`2xx data does not match the contract's response schema: ${clip(JSON.stringify((r as { error?: unknown }).error), 300)}`)
        // Logging out (or a password reset) may end the passenger's session: start another.
        if (!(await f.deps.authenticate(world.token))) world.token = await world.newSession()
        return
      }
      if (res.statusCode < 400) fail('unexpected status')
      const e = errorBody.safeParse(json)
      if (!e.success || !(json.error.code in errorCatalogue)) fail('refusal without a catalogue error body')
      if (json.error.code === 'VALIDATION_FAILED') s.refusedByValidation++
      else s.refusedByHandler++
      if (!req.broken) s.validRefusals.add(`${res.statusCode} ${json.error.code}`)

      // What the contract itself refuses must be 400 (413 past the body limit) VALIDATION_FAILED, naming the place.
      const b = req.broken
      const schema = b?.part === 'body' ? def.body : b?.part === 'query' ? def.query : undefined
      const value = b?.part === 'body' ? (body ?? {}) : seen
      if (b && schema && (!schema.safeParse(value).success || !storableDeep(value))) {
        if (json.error.code !== 'VALIDATION_FAILED' || ![400, 413].includes(res.statusCode))
          fail('the contract refuses this, the server should answer 400 VALIDATION_FAILED')
        if (res.statusCode === 400 && b.at !== '(whole)') {
          const paths: string[] = (json.error.fields ?? []).map((x: { path: string }) => x.path)
          const related = (p: string) => p === b.at || p.startsWith(b.at + '.') || b.at.startsWith(p + '.') || p === '(body)'
          if (!paths.some(related)) fail(`VALIDATION_FAILED should name ${b.at} (fields: ${paths.join(', ')})`)
        }
      }
      if (b?.part === 'params' && /^NUL/.test(b.how) && (res.statusCode !== 400 || json.error.code !== 'VALIDATION_FAILED')) {
        fail('a NUL path parameter should be 400 VALIDATION_FAILED')
      }
      const changed = await watch.changed()
      if (changed.length > 0) fail(`refused (${res.statusCode} ${json.error.code}) but wrote to: ${changed.join(', ')}`)
    }

    for (const [i, route] of routes.entries()) {
      stats.set(route, { requests: 0, ok: 0, refusedByValidation: 0, refusedByHandler: 0, serverErrors: 0, validRefusals: new Set() })
      const seed = (SEED + i * 7919) | 0
      // Without this a route's valid requests can all fail on what earlier routes drew: with the clock standing still,
      // their codes use up the mobile's hourly allowance (every valid cancelInitialize 429, seed 2206286294), and a
      // valid setNewPassword changes the password (every changePassword BAD_CREDENTIALS, seed 159868238).
      await world.freshStart()
      const arbs = routeArbitraries(route, world.contexts)
      for (const [kind, arb, numRuns] of [
        ['valid', arbs.valid, RUNS],
        ['broken', arbs.broken, BROKEN_RUNS],
      ] as const) {
        const okBefore = stats.get(route)!.ok
        try {
          await fc.assert(
            fc.asyncProperty(arb, async (req) => send(req)),
            { seed, numRuns },
          )
          // A route whose valid draws were all refused (each draw takes the request's keys from one context, so a
          // rarely drawn one can be missed ten times over) gets more draws of its own, until one is answered 2xx.
          for (const req of kind === 'valid' && stats.get(route)!.ok === okBefore ? fc.sample(arb, { seed: seed + 1, numRuns: RUNS * 3 }) : []) {
            await send(req)
            if (stats.get(route)!.ok > okBefore) break
          }
          if (kind === 'valid') validOk.set(route, stats.get(route)!.ok - okBefore)
        } catch (err) {
          const e = err as Error & { cause?: Error }
          const report = e.message.replace(/\n+Hint: .*$/s, '')
          failures.push(`${route} (${kind} requests, seed ${seed}): ${clip(report, 2000)}\n  ${clip(e.cause?.message ?? '', 2000)}`)
        }
      }
    }

    const sum = (k: Exclude<keyof RouteStats, 'validRefusals'>) => [...stats.values()].reduce((a, s) => a + s[k], 0)
    const perRoute = [...stats].map(([r, s]) => `${r} ${s.requests} (${s.ok}/${s.refusedByValidation}/${s.refusedByHandler})`).join(', ')
    console.log(
      `fuzz: ${sum('requests')} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${SEED}, ${RUNS} valid + ${BROKEN_RUNS} broken per route, ` +
        `${watch.checks()} row checks): 2xx ${sum('ok')}, 400 VALIDATION_FAILED ${sum('refusedByValidation')}, other 4xx ${sum('refusedByHandler')}, 5xx ${sum('serverErrors')}; ` +
        `per route requests (2xx/400 validation/other 4xx): ${perRoute}`,
    )
    if (failures.length) console.error(`\n${failures.length} fuzz failure(s):\n\n${failures.join('\n\n')}\n`)
    assert.is(failures.length, 0, `${failures.length} fuzz failure(s), printed above (replay with FUZZ_SEED=${SEED})`)
    // every route answered a valid request with success at least once: else its valid requests checked nothing
    const never = routes.filter((r) => !validOk.get(r))
    assert.equal(
      never.map((r) => `${r}: ${[...stats.get(r)!.validRefusals].join(', ')}`),
      [],
      `routes that never answered 2xx to a valid request (and how they refused; replay with FUZZ_SEED=${SEED})`,
    )
  } finally {
    await f.close()
    productionCost()
  }
})

/** Valid and broken request generators for one route. */
function routeArbitraries(
  route: RouteName,
  contexts: Record<string, unknown>[],
): { valid: fc.Arbitrary<FuzzRequest>; broken: fc.Arbitrary<FuzzRequest> } {
  const def = api[route] as { method: string; path: string; auth: string; body?: Schema; query?: Schema }
  const names = paramNames(def.path)
  const opts = { contexts, acceptString: isStorableText }
  const meaning = (n: string) => paramMeaning[route]?.[n] ?? n
  const paramsSchema = z.strictObject(Object.fromEntries(names.map((n) => [meaning(n), pathParam])))
  const paramsArb = names.length
    ? // the parameters' schema is a stand-in (the contract has none): real values from the contexts go in as they are
      validArbitrary(paramsSchema, { ...opts, checkContexts: false }).map((v) =>
        Object.fromEntries(names.map((n) => [n, (v as Record<string, unknown>)[meaning(n)]])),
      )
    : fc.constant({})
  const bodyArb = def.body ? validArbitrary(def.body, opts) : fc.constant(undefined)
  const queryArb = def.query ? validArbitrary(def.query, opts) : fc.constant(undefined)
  const authArb: fc.Arbitrary<FuzzRequest['auth']> =
    def.auth === 'none'
      ? fc.constantFrom('none', 'none', 'passenger')
      : fc.oneof(
          { weight: 6, arbitrary: fc.constant('passenger' as const) },
          { weight: 1, arbitrary: fc.constantFrom('none', 'unknown token', 'long token', 'basic') },
        )
  const deviceArb = fc.oneof(
    { weight: 4, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.constant(DEVICE) },
    { weight: 1, arbitrary: fc.constantFrom('bad device!', 'x'.repeat(65)) },
  )

  const valid: fc.Arbitrary<FuzzRequest> = fc
    .record({ params: paramsArb, query: queryArb, body: bodyArb, auth: authArb, device: deviceArb })
    .map((r) => ({ route, rawParams: {}, raw: null, broken: null, ...r }) as FuzzRequest)

  const broken: fc.Arbitrary<FuzzRequest>[] = []
  if (def.body) {
    broken.push(
      valid.chain((r) =>
        mutationArbitrary(fc.constant(r.body), def.body).map((m) => ({
          ...r,
          body: m.value,
          broken: { part: 'body' as const, at: m.at, how: m.how },
        })),
      ),
    )
  }
  if (def.query) {
    broken.push(
      valid.chain((r) =>
        mutationArbitrary(fc.constant(r.query), def.query).map((m) => ({
          ...r,
          query: m.value,
          broken: { part: 'query' as const, at: m.at, how: m.how },
        })),
      ),
    )
  } else {
    // Routes without a query still get one: it must be ignored or refused, never a 500.
    broken.push(
      valid.chain((r) =>
        mutationArbitrary(fc.constant({ q: 'x' })).map((m) => ({ ...r, query: m.value, broken: { part: 'query' as const, at: m.at, how: m.how } })),
      ),
    )
  }
  if (names.length) {
    broken.push(
      fc.tuple(valid, fc.constantFrom(...names), fc.constantFrom(...badPathSegments)).map(([r, name, seg]) => ({
        ...r,
        rawParams: { [name]: seg.raw },
        broken: { part: 'params' as const, at: name, how: seg.label },
      })),
    )
  }
  if (def.method !== 'GET') {
    broken.push(
      fc.tuple(valid, fc.constantFrom(...rawBodies)).map(([r, raw]) => ({
        ...r,
        raw: { payload: raw.payload, contentType: raw.contentType },
        broken: { part: 'raw' as const, at: '(whole)', how: raw.label },
      })),
    )
    if (!def.body) {
      // A body where none is expected is ignored.
      broken.push(
        valid.chain((r) =>
          fc.jsonValue({ maxDepth: 2 }).map((j) => ({ ...r, body: j, broken: { part: 'raw' as const, at: '(whole)', how: 'unexpected body' } })),
        ),
      )
    }
  }
  return { valid: valid.map(printable), broken: fc.oneof(...broken).map(printable) }
}

/** The request with a short printed form (fast-check prints counterexamples with it; 100 kB strings are clipped). */
function printable(r: FuzzRequest): FuzzRequest {
  const show = (v: unknown) => clip(fc.stringify(v), 200)
  const text =
    `${r.route} auth=${r.auth} device=${r.device} params=${show(r.params)}${Object.keys(r.rawParams).length ? ` rawParams=${show(r.rawParams)}` : ''}` +
    ` query=${show(r.query)} body=${show(r.body)}${r.raw ? ` raw=${show(r.raw)}` : ''}${r.broken ? ` broken=${show(r.broken)}` : ''}`
  return Object.defineProperty({ ...r }, fc.toStringMethod, { value: () => text, enumerable: false })
}

const rawBodies: readonly { label: string; payload: string; contentType: string }[] = [
  { label: 'truncated JSON', payload: '{"a":', contentType: 'application/json' },
  { label: 'empty JSON body', payload: '', contentType: 'application/json' },
  { label: 'JSON null', payload: 'null', contentType: 'application/json' },
  { label: 'JSON array', payload: '[1,2]', contentType: 'application/json' },
  { label: 'JSON text', payload: '"x"', contentType: 'application/json' },
  { label: 'JSON 1e999', payload: '1e999', contentType: 'application/json' },
  { label: '__proto__ key', payload: '{"__proto__":{"isAdmin":true}}', contentType: 'application/json' },
  { label: 'constructor.prototype', payload: '{"constructor":{"prototype":{"isAdmin":true}}}', contentType: 'application/json' },
  { label: 'deep nesting', payload: '['.repeat(30_000) + ']'.repeat(30_000), contentType: 'application/json' },
  { label: 'duplicate keys', payload: '{"a":1,"a":2}', contentType: 'application/json' },
  { label: 'JSON as UTF-16', payload: '{"a":1}', contentType: 'application/json; charset=utf-16' },
  { label: 'plain text', payload: 'hello', contentType: 'text/plain' },
  { label: 'unknown type', payload: '<a/>', contentType: 'application/xml' },
  { label: 'form with NUL', payload: 'name=a%00b&x=1', contentType: 'application/x-www-form-urlencoded' },
  { label: 'form', payload: 'mobile=01712345678&password=x', contentType: 'application/x-www-form-urlencoded' },
  { label: 'over the body limit', payload: JSON.stringify({ a: 'x'.repeat(70_000) }), contentType: 'application/json' },
]

interface World {
  token: string
  newSession(): Promise<string>
  /**
   * Before each route: the passenger's password is TEST_PASSWORD again (a valid setNewPassword or changePassword
   * draw sets another) and the mobile has its hourly SMS allowance back (as if each route were fuzzed an hour after
   * the last), so a route's valid requests do not depend on what the routes before it drew.
   */
  freshStart(): Promise<void>
  contexts: Record<string, unknown>[]
}

/**
 * The data valid requests point at: a passenger with a password and a balance, live
 * bookings, sold tickets and open card payments (made again when the fuzz has used
 * them up), fresh SMS codes and a password-reset token on demand, a pending sign-up,
 * three trips with free seats, someone else's ticket, the coupons. Expired bookings
 * are swept first, so that a refused request never finds a sweep to do (the fixture
 * clock does not move).
 */
async function buildWorld(f: Fixture): Promise<World> {
  const p = await f.passenger({ balance: 1_000_000 })
  const passwordHash = await hashPassword(TEST_PASSWORD)
  await f.db.query('UPDATE passengers SET password_hash = $2 WHERE id = $1', [p.id, passwordHash])
  const trips = [await pickTrip(f), await pickTrip(f, { skip: 9 }), await pickTrip(f, { skip: 18 })]
  // Trips the world books and buys on, apart from the ones requests lock seats on.
  const stock = [await pickTrip(f, { skip: 27 }), await pickTrip(f, { skip: 36 }), await pickTrip(f, { skip: 45 }), await pickTrip(f, { skip: 54 })]
  const booked = await lockAndBook(f, p, stock[0]!, 1)
  const sold = await buyTicket(f, p, stock[1]!, 1)
  const pay = await f.api('POST', '/api/reservation/payment', { reservationId: booked.id }, { token: p.token })
  const topUp = await f.api('POST', '/api/account/topUp', { amount: 500 }, { token: p.token })
  if (pay.status !== 200 || topUp.status !== 200) throw new Error('fuzz world: payments failed')
  const [other] = await f.db.query<{ id: number; pnr: string; pin: string }>(
    'SELECT id, pnr, pin FROM reservations WHERE status = 1 AND pnr IS NOT NULL AND passenger_id IS DISTINCT FROM $1 ORDER BY id LIMIT 1',
    [p.id],
  )
  const offers = await f.db.query<{ coupon_code: string }>('SELECT coupon_code FROM offers ORDER BY id')
  await expireBookings(f.db, f.now())
  const today = dhakaDate(f.now())
  const freshStart = async () => {
    await f.db.query('UPDATE passengers SET password_hash = $2 WHERE id = $1', [p.id, passwordHash])
    await f.db.query("DELETE FROM limit_events WHERE bucket = $1 AND key LIKE $2 || ':%'", [SMS_PER_MOBILE_HOUR.bucket, p.mobile])
  }
  const world: World = { token: p.token, newSession, freshStart, contexts: [] }
  const me = () => ({ token: world.token })

  /** Runs `make` on each stock trip until one works (seats and the per-trip limit run out). */
  const onSomeTrip = async <T>(make: (t: (typeof stock)[number]) => Promise<T>, fallback: T): Promise<T> => {
    for (const t of stock) {
      try {
        return await make(t)
      } catch {
        // this trip is used up: the next one
      }
    }
    return fallback
  }
  const liveBooking = new Later('a live booking', async () => {
    const [r] = await f.db.query<{ id: number }>(
      'SELECT id FROM reservations WHERE passenger_id = $1 AND status = 2 AND expiration_time > $2 ORDER BY id DESC LIMIT 1',
      [p.id, f.now()],
    )
    return r?.id ?? (await onSomeTrip(async (t) => (await lockAndBook(f, me(), t, 1)).id, booked.id))
  })
  const ticket = new Later('a sold ticket', async () => {
    const [r] = await f.db.query<{ id: number; pnr: string; pin: string; seats: string }>(
      `SELECT x.id, x.pnr, x.pin,
              (SELECT string_agg(rs.seat_name, ',') FROM reservation_seats rs WHERE rs.reservation_id = x.id AND rs.active) AS seats
         FROM reservations x JOIN trips t ON t.id = x.trip_id
        WHERE x.passenger_id = $1 AND x.status = 1 AND t.departure_at > $2 ORDER BY x.id DESC LIMIT 1`,
      [p.id, new Date(f.now().getTime() + 7 * 3_600_000)],
    )
    const seatsOf = (x: { seats: { name: string }[] }) => ({ ...x, seats: x.seats.map((s) => s.name).join(',') })
    return r ?? seatsOf(await onSomeTrip(async (t) => buyTicket(f, me(), t, 1), sold))
  })
  /**
   * A one-time code that works: the live one when there is one (found among the codes sent to the mobile by its
   * hash), else a new one issued (as the routes do) and read from the outbox. Issuing counts against the mobile's
   * hourly SMS budget, which the fixture's clock never renews: when that refuses, the world's code is sent as after
   * the hour has passed (the budget's events for the mobile and purpose dropped).
   */
  type Use = (l: Later) => Promise<any>
  const codeFor = (mobile: (use: Use) => Promise<string> | string, purpose: OtpPurpose, ref: (use: Use) => Promise<string> | string = () => '') =>
    new Later(`a fresh ${purpose} code`, async (use) => {
      const m = await mobile(use)
      const r = await ref(use)
      const sent = async () =>
        (
          await f.db.query<{ code: string }>('SELECT code FROM outbox_messages WHERE "to" = $1 AND code IS NOT NULL ORDER BY id DESC LIMIT 50', [m])
        ).map((x) => x.code)
      const [live] = await f.db.query<{ code_hash: string }>(
        `SELECT code_hash FROM otps WHERE mobile = $1 AND purpose = $2 AND ref = $3 AND consumed_at IS NULL AND expires_at > $4 AND attempts < ${OTP_MAX_ATTEMPTS}`,
        [m, purpose, r, f.now()],
      )
      const known = live && (await sent()).find((c) => codeHash(m, purpose, r, c) === live.code_hash)
      if (known) return known
      await f.db.query('UPDATE otps SET consumed_at = $4 WHERE mobile = $1 AND purpose = $2 AND ref = $3 AND consumed_at IS NULL', [
        m,
        purpose,
        r,
        f.now(),
      ])
      const issue = () => f.db.transaction((tx) => issueOtp(tx, f.deps, { mobile: m, purpose, ref: r, address: '127.0.0.1' }))
      await issue().catch(async (err) => {
        if (!(err instanceof AppError && err.code === 'TOO_MANY_ATTEMPTS')) throw err
        await f.db.query('DELETE FROM limit_events WHERE bucket = $1 AND key = $2', [SMS_PER_MOBILE_HOUR.bucket, `${m}:${purpose}`])
        await issue()
      })
      return (await sent())[0]!
    })
  const resetToken = new Later('a password-reset token', async (use) => {
    const otp = await use(codeFor(() => p.mobile, 'RESET_PASSWORD'))
    const r = await f.api('POST', '/api/verifyOTP', { mobile: p.mobile, otp, purpose: 'RESET_PASSWORD' })
    return r.body?.data?.resetToken ?? 'no-reset-token'
  })
  let pendingSeq = 0
  let lastPending: Record<string, unknown> | null = null
  /**
   * The registration of a pending sign-up: its id while it is the newest open one of its mobile with a live code
   * sent over the resend wait ago (so that it may be sent again), else null.
   */
  const usableRegistration = async (pend: Record<string, unknown>): Promise<number | null> => {
    if (typeof pend.registrationToken !== 'string') return null
    // Another sign-up of the same mobile (a fuzzed /register) sends its own code, after which this one's
    // code is neither the newest nor sent again within the resend wait: a new pending sign-up is needed.
    const [reg] = await f.db.query<{ id: number }>(
      `SELECT r.id FROM registrations r
        WHERE r.token_hash = $1 AND r.completed_at IS NULL AND r.expires_at > $2
          AND NOT EXISTS (SELECT 1 FROM registrations n WHERE n.mobile = r.mobile AND n.id > r.id)
          AND EXISTS (SELECT 1 FROM otps o WHERE o.mobile = r.mobile AND o.purpose = 'SIGNUP' AND o.ref = 'reg:' || r.id
                        AND o.consumed_at IS NULL AND o.expires_at > $2 AND o.attempts < ${OTP_MAX_ATTEMPTS} AND o.sent_at <= $3)`,
      [sha256(pend.registrationToken), f.now(), new Date(f.now().getTime() - OTP_RESEND_SECONDS * 1000)],
    )
    return reg?.id ?? null
  }
  // A sign-up waiting for its SMS code: a new one once the last is verified, resent, or can no longer be.
  const pending = new Later('a pending sign-up', async () => {
    if (lastPending && (await usableRegistration(lastPending)) !== null) return lastPending
    const mobile = `0160${String(process.pid % 1000).padStart(3, '0')}${String(++pendingSeq).padStart(4, '0')}`
    // Signed up just over the resend wait ago, so that its code may be sent again once (its code is still valid).
    const now = f.now()
    f.setNow(new Date(now.getTime() - (OTP_RESEND_SECONDS + 1) * 1000))
    const r = await f
      .api('POST', '/api/register', { mobile, fullName: 'Fuzz Pending', email: 'pending@example.com', city: 'Dhaka', password: TEST_PASSWORD })
      .finally(() => f.setNow(now))
    lastPending = { ...(r.status === 200 ? r.body.data : {}), mobile }
    return lastPending
  })
  const pendingMobile = pending.pick('its mobile', (v) => v.mobile)
  // A mobile no one has signed up with: a sign-up's own (the passenger's mobile and password name fewer of its keys)
  const newMobile = new Later(
    'a new mobile',
    async () => `0170${String(process.pid % 1000).padStart(3, '0')}${String(++pendingSeq).padStart(4, '0')}`,
  )
  const soldPnr = ticket.pick('its PNR', (t) => t.pnr)
  const in20Minutes = new Later('now + 20 min', async () => dhakaIsoOrNull(new Date(f.now().getTime() + 20 * 60_000)))
  // A hold won now ends after holdMinutes and may be extended up to maxHoldMinutes: a minute past its end.
  const pastHoldEnd = new Later('a minute past a new hold', async () =>
    dhakaIsoOrNull(new Date(f.now().getTime() + Math.min(f.deps.config.holdMinutes + 1, f.deps.config.maxHoldMinutes) * 60_000)),
  )
  /**
   * A free seat of `t`, locked for the passenger just before the request (which may book or extend it). The
   * passenger's earlier holds and live bookings on the trip are let go first: one passenger may hold and book at most
   * MAX_SEATS seats of a trip.
   */
  const heldSeat = (t: (typeof trips)[number]) =>
    new Later(`a seat held on trip ${t.id}`, async () => {
      const held = await f.db.query<{ seat_name: string }>(
        'SELECT seat_name FROM seat_locks WHERE trip_id = $1 AND holder = $2 AND expires_at > $3',
        [t.id, `p:${p.id}`, f.now()],
      )
      if (held.length > 0) {
        const letGo = await f.api(
          'POST',
          '/api/reservation/seatLock',
          lockBody(
            t,
            held.map((h) => h.seat_name),
            false,
          ),
          { token: world.token },
        )
        if (letGo.status !== 200) throw new Error(`fuzz world: letting go of held seats failed: ${JSON.stringify(letGo.body)}`)
      }
      // The passenger's live bookings on the trip count toward MAX_SEATS too: the fuzz's own bookings there are cancelled
      // (FUZZ_SEED=707891874: after five booked seats on a trip, locking one more was refused MAX_SEAT_WARNING).
      const booked = await f.db.query<{ id: number }>(
        'SELECT id FROM reservations WHERE trip_id = $1 AND passenger_id = $2 AND status = 2 AND expiration_time > $3',
        [t.id, p.id, f.now()],
      )
      for (const b of booked) {
        const cancel = await f.api('POST', '/api/reservation/cancelBooking', { reservationId: b.id }, { token: world.token })
        if (cancel.status !== 200) throw new Error(`fuzz world: cancelling booking ${b.id} failed: ${JSON.stringify(cancel.body)}`)
      }
      const seats = await freeSeats(f, t.id, 1)
      const lock = await f.api('POST', '/api/reservation/seatLock', lockBody(t, seats), { token: world.token })
      if (lock.status !== 200 || !lock.body.data) throw new Error(`fuzz world: locking ${seats} failed: ${JSON.stringify(lock.body)}`)
      return seats
    })
  const newestPayment = new Later('the newest payment', async () => {
    const [r] = await f.db.query<{ id: string }>('SELECT id FROM payments ORDER BY created_at DESC, id DESC LIMIT 1')
    return r!.id
  })

  /**
   * A change of the sold ticket that goes through: another trip of its route (not the sold-out one), as many of
   * its free seats as the ticket has, locked for the passenger just before, and the amounts quoted for them.
   */
  const changeOrder = new Later('a change of the sold ticket', async (use) => {
    const { id } = (await use(ticket)) as { id: number }
    const [r] = await f.db.query<{ trip_id: number; n: number }>(
      'SELECT x.trip_id, (SELECT count(*)::int FROM reservation_seats s WHERE s.reservation_id = x.id AND s.trip_id = x.trip_id AND s.active) AS n FROM reservations x WHERE x.id = $1',
      [id],
    )
    const [to] = await f.db.query<{ id: number; trip_date: string; coach_code: string; origin_code: string; destination_code: string }>(
      `SELECT t.id, t.trip_date::text AS trip_date, t.coach_code, r.origin_code, r.destination_code FROM trips t JOIN routes r ON r.id = t.route_id
        WHERE t.route_id = (SELECT route_id FROM trips WHERE id = $1) AND t.id NOT IN ($1, $2) AND t.status = 'OPEN'
          AND t.departure_at > $3 AND (t.sale_opens_at IS NULL OR t.sale_opens_at <= $4) ORDER BY t.departure_at LIMIT 1`,
      [r!.trip_id, soldOut.id, new Date(f.now().getTime() + 7 * 3_600_000), f.now()],
    )
    const trip = { tripDate: to!.trip_date, coachCode: to!.coach_code, originCode: to!.origin_code, destinationCode: to!.destination_code }
    // the passenger's earlier holds there are let go first: one holder may hold at most MAX_SEATS seats of a trip
    await f.db.query('DELETE FROM seat_locks WHERE trip_id = $1 AND holder = $2', [to!.id, `p:${p.id}`])
    const seatNames = await freeSeats(f, to!.id, r!.n)
    const lock = await f.api('POST', '/api/reservation/seatLock', lockBody(trip as never, seatNames), { token: world.token })
    if (lock.status !== 200 || !lock.body.data) throw new Error(`fuzz world: locking ${seatNames} failed: ${JSON.stringify(lock.body)}`)
    const order = { reservationId: id, tripId: to!.id, seatNames }
    const q = await f.api('POST', '/api/reservation/changeQuote', order, { token: world.token })
    if (q.status !== 200) throw new Error(`fuzz world: quoting a change failed: ${JSON.stringify(q.body)}`)
    return { ...order, fromTripId: r!.trip_id, toPay: q.body.data.toPay, refund: q.body.data.refund }
  })
  const changeField = (k: string) => changeOrder.pick(`its ${k}`, (v) => v[k])

  const contexts: Record<string, unknown>[] = []
  for (const t of trips) {
    const seats = await freeSeats(f, t.id, 4)
    const trip = {
      tripId: t.id,
      tripDate: t.tripDate,
      coachCode: t.coachCode,
      originCode: t.originCode,
      destinationCode: t.destinationCode,
      originBusStationId: t.boardingId,
      destinationBusStationId: t.droppingId,
      boardingStationId: t.boardingId,
      droppingStationId: t.droppingId,
      // a booking of these seats is a single journey: a drawn outboundReservationId names no booking of the caller's
      outboundReservationId: undefined,
    }
    contexts.push(
      { ...trip, seatNames: [seats[0]] },
      { ...trip, seatNames: [seats[1], seats[2]] },
      { ...trip, seatNames: [seats[3]] },
      { ...trip, seatNames: heldSeat(t), expirationTime: pastHoldEnd },
      // a booking of a held seat by the passenger, naming every key of the booking (so that one is drawn as often as
      // the trip's free-seat contexts are: FUZZ_SEED=2209257046 drew only free seats for 'booking', never a 2xx)
      { ...trip, seatNames: heldSeat(t), passengerName: 'Fuzz Passenger', passengerMobile: p.mobile },
    )
  }
  // A sold-out trip (every seat held by another for a week) for the waitlist routes, and the passenger waiting on it.
  const soldOut = await pickTrip(f, { skip: 63 })
  await f.db.query(
    "INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at) SELECT $1, x, 'd:fuzz-filler-0001', $3 FROM unnest(free_seats($1, $2)) AS x",
    [soldOut.id, f.now(), new Date(f.now().getTime() + 7 * 86_400_000)],
  )
  const waiting = new Later("the passenger on the sold-out trip's waitlist", async () => {
    await f.api('POST', '/api/waitlist', { tripId: soldOut.id, seats: 1 }, { token: world.token })
    return soldOut.id
  })
  const notWaiting = new Later('the sold-out trip, the passenger off its waitlist', async () => {
    await f.api('POST', '/api/waitlist/leave', { tripId: soldOut.id }, { token: world.token })
    return soldOut.id
  })
  contexts.push(
    // many, so that the waitlist routes' valid requests often find them among the trips' contexts
    ...Array.from({ length: 10 }, () => ({ tripId: waiting })),
    ...Array.from({ length: 3 }, () => ({ tripId: notWaiting, seats: 2 })),
    { mobile: p.mobile, password: TEST_PASSWORD, currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD, id: p.id },
    { mobile: newMobile, fullName: 'Fuzz Signup', email: 'signup@example.com', city: 'Dhaka' },
    { mobile: p.mobile, purpose: 'LOGIN', otp: codeFor(() => p.mobile, 'LOGIN') },
    { mobile: p.mobile, purpose: 'RESET_PASSWORD', otp: codeFor(() => p.mobile, 'RESET_PASSWORD') },
    { mobile: p.mobile, resetToken, password: TEST_PASSWORD },
    {
      mobile: pendingMobile,
      // the live code of this registration (found among the codes sent to its mobile by its hash)
      code: new Later('its code', async (use) => {
        const pend = (await use(pending)) as Record<string, unknown>
        const id = await usableRegistration(pend)
        const mobile = pend.mobile as string
        const [live] = await f.db.query<{ code_hash: string }>("SELECT code_hash FROM otps WHERE mobile = $1 AND purpose = 'SIGNUP' AND ref = $2", [
          mobile,
          `reg:${id}`,
        ])
        const sent = await f.db.query<{ code: string }>(
          'SELECT code FROM outbox_messages WHERE "to" = $1 AND code IS NOT NULL ORDER BY id DESC LIMIT 50',
          [mobile],
        )
        return sent.map((x) => x.code).find((c) => live && codeHash(mobile, 'SIGNUP', `reg:${id}`, c) === live.code_hash) ?? '000000'
      }),
      registrationToken: pending.pick('its token', (v) => v.registrationToken),
    },
    { reservationId: liveBooking, expirationTime: in20Minutes },
    { reservationId: booked.id, expirationTime: in20Minutes },
    { reservationId: ticket.pick('its id', (t) => t.id), pnr: soldPnr, pin: ticket.pick('its PIN', (t) => t.pin) },
    {
      pnr: soldPnr,
      pin: ticket.pick('its PIN', (t) => t.pin),
      otp: codeFor(
        () => p.mobile,
        'CANCEL_TICKET',
        (use) => use(soldPnr),
      ),
    },
    // the seats a cancel may name: the sold ticket's own, as often as the waitlist's seat counts above are drawn
    // for it (a cancel naming "2" is refused: one of ten valid cancels must succeed); stated as a cancel's seats
    // ("A1,A2"), so they are never a waitlist's seat count (FUZZ_SEED=1318971254: a broken joinWaitlist request
    // got "A1" for its seats and was refused for them, not for the field it broke)
    ...Array.from({ length: 6 }, () => ({ seats: ticket.pick('its seats', (t: { seats: string }) => t.seats, 'A1,A2') })),
    { reservationId: other!.id, pnr: other!.pnr, pin: other!.pin },
    // a change of the sold ticket (the change routes), its fields together
    {
      reservationId: changeField('reservationId'),
      tripId: changeField('tripId'),
      seatNames: changeField('seatNames'),
      fromTripId: changeField('fromTripId'),
      toPay: changeField('toPay'),
      refund: changeField('refund'),
    },
    // the link of the ticket SMS: a new one for the sold ticket (the database keeps only its hash)
    {
      token: new Later(
        'a ticket link',
        async (use) => issueTicketLink(f.db, ((await use(ticket)) as { id: number }).id),
        // its form (16 base64url characters), which a queue place's token (43) is not
        'AbCdEfGh-_345678',
      ),
      date: today,
    },
    { from: addDays(today, -30), to: today },
    { paymentId: pay.body.data.paymentId },
    { paymentId: topUp.body.data.paymentId },
    { paymentId: newestPayment },
    ...offers.map((o) => ({ couponCode: o.coupon_code, reservationId: liveBooking })),
  )
  world.contexts = contexts
  return world

  async function newSession(): Promise<string> {
    const [row] = await f.db.query<PassengerRow>('SELECT * FROM passengers WHERE id = $1', [p.id])
    return (await createSession(f.db, f.deps, row!)).token
  }
}

test.run()
