/**
 * Races, on PGlite (one process, app.inject) and on a real PostgreSQL 15 with TWO
 * server processes sharing it: 500 simultaneous locks of one seat, an expired
 * lock taken over, overlapping bookings (each booked one holding its lock), 20
 * concurrent balance payments, a replayed payment callback, simultaneous cancels
 * with one code, and a card approval racing a balance payment. Each race also runs a naive check-then-write variant
 * of the lock and of the debit, and asserts that one DOES go wrong, so these tests
 * are known to be able to fail.
 */
import { suite, type Test } from 'uvu'
import * as assert from 'uvu/assert'
import { openDb, type Db, type Queryable } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import type { PassengerRow } from '../account/passengers.ts'
import { createSession } from '../account/sessions.ts'
import { bookingBody, freeSeats, lockBody, openFixture, pickTrip, type Fixture } from '../test/booking-fixture.ts'
import { pgSuite, startPostgres } from '../test/pg.ts'
import { call, gatewayDecide, startServer, type ServerProcess } from '../../harness/spawn-server.ts'
import { readConfig } from '../config.ts'

/** How long a seat lock holds in the server processes (their configuration from the same environment). */
const HOLD_MS = readConfig().config.holdMinutes * 60_000

interface Ctx {
  name: string
  db: Db
  now(): Date
  /** Sends a request to server number `i` (alternating between processes on PostgreSQL). */
  request(i: number, method: string, url: string, body?: unknown, opts?: { token?: string; device?: string }): Promise<{ status: number; body: any }>
  /** Posts the gateway form on server `i`; answers the redirect location. */
  decide(i: number, redirectUrl: string, decision: 'approve' | 'decline'): Promise<string | null>
  passenger(balance?: number): Promise<{ id: number; token: string }>
}

let mobileSeq = 0
let tripSeq = 0
const trip = (c: Ctx) => pickTrip(c, { skip: 40 + tripSeq++ * 3 })

/**
 * A barrier for `n` naive clients: each waits after its read until all have read,
 * the interleaving that simultaneous requests allow (left to chance, a loaded
 * machine sometimes serialises them and the naive variant passes by luck).
 */
function barrier(n: number): () => Promise<void> {
  let arrived = 0
  let open!: () => void
  const all = new Promise<void>((r) => (open = r))
  return () => {
    if (++arrived === n) open()
    return all
  }
}

/** Naive lock: read, then write unconditionally. Answers true when it "won". */
async function naiveLock(db: Queryable, tripId: number, seat: string, holder: string, now: Date, afterRead: () => Promise<void>): Promise<boolean> {
  const rows = await db.query<{ expires_at: Date }>('SELECT expires_at FROM seat_locks WHERE trip_id = $1 AND seat_name = $2', [tripId, seat])
  await afterRead()
  if (rows[0] && rows[0].expires_at > now) return false
  await db.query(
    `INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (trip_id, seat_name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at`,
    [tripId, seat, holder, new Date(now.getTime() + HOLD_MS)],
  )
  return true
}

/** Naive debit: read the balance, then write the computed one. Answers true when it "paid". */
async function naiveDebit(db: Queryable, passengerId: number, amount: number, afterRead: () => Promise<void>): Promise<boolean> {
  const [row] = await db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [passengerId])
  await afterRead()
  if (row!.balance < amount) return false
  await db.query('UPDATE passengers SET balance = $2 WHERE id = $1', [passengerId, row!.balance - amount])
  return true
}

function scenarios(t: Test, name: string, make: () => Promise<{ ctx: Ctx; close(): Promise<void> }>) {
  // Device ids allow [A-Za-z0-9_-] only: an invalid one would make every visitor the same `ip:` holder.
  const tag = name.replace(/[^A-Za-z0-9]+/g, '').slice(0, 10)
  let env: { ctx: Ctx; close(): Promise<void> } | null = null
  let c: Ctx
  t.before(async () => {
    env = await make()
    c = env.ctx
  })
  t.after(async () => {
    await env?.close()
  })
  /** Locks and books `n` free seats of a fresh trip for `who`, both on server `i`; answers the booking. */
  const bookOn = async (i: number, who: { token: string }, n = 1) => {
    const tr = await trip(c)
    const s = await freeSeats(c, tr.id, n)
    await c.request(i, 'POST', '/api/reservation/seatLock', lockBody(tr, s), { token: who.token })
    const b = await c.request(i, 'POST', '/api/reservation/booking', bookingBody(tr, s), { token: who.token })
    assert.is(b.status, 200, JSON.stringify(b.body))
    return b.body.data
  }
  const balanceOf = async (id: number) => (await c.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [id]))[0]!.balance

  t('500 simultaneous locks of one seat by different holders: exactly one winner', async () => {
    const tr = await trip(c)
    const [seat] = await freeSeats(c, tr.id, 1)
    const results = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        c.request(i, 'POST', '/api/reservation/seatLock', lockBody(tr, [seat!]), { device: `race-${tag}-${i}-dev` }),
      ),
    )
    assert.ok(
      results.every((r) => r.status === 200),
      JSON.stringify(results.find((r) => r.status !== 200)?.body),
    )
    const winners = results.map((r, i) => (r.body.data ? i : -1)).filter((i) => i >= 0)
    assert.is(winners.length, 1)
    const [row] = await c.db.query<{ holder: string }>('SELECT holder FROM seat_locks WHERE trip_id = $1 AND seat_name = $2', [tr.id, seat])
    assert.is(row!.holder, `d:race-${tag}-${winners[0]}-dev`)

    // The naive check-then-write lock lets several holders believe they won.
    const [seat2] = await freeSeats(c, tr.id, 1)
    const lockGate = barrier(50)
    const naive = await Promise.all(Array.from({ length: 50 }, (_, i) => naiveLock(c.db, tr.id, seat2!, `d:naive-${i}`, c.now(), lockGate)))
    assert.ok(naive.filter(Boolean).length > 1, `naive lock had ${naive.filter(Boolean).length} winner(s)`)
  })

  t('an expired lock is taken over by exactly one of many', async () => {
    const tr = await trip(c)
    const [seat] = await freeSeats(c, tr.id, 1)
    const first = await c.request(0, 'POST', '/api/reservation/seatLock', lockBody(tr, [seat!]), { device: `old-${tag}-holder` })
    assert.ok(first.body.data)
    await c.db.query('UPDATE seat_locks SET expires_at = $3 WHERE trip_id = $1 AND seat_name = $2', [
      tr.id,
      seat,
      new Date(c.now().getTime() - 60_000),
    ])
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        c.request(i, 'POST', '/api/reservation/seatLock', lockBody(tr, [seat!]), { device: `take-${tag}-${i}-dev` }),
      ),
    )
    assert.is(results.filter((r) => r.status === 200 && r.body.data).length, 1)
    assert.is(results.filter((r) => r.status === 200 && r.body.data === false).length, 199)
  })

  t('overlapping bookings never both succeed (double submit and overlapping seat pairs)', async () => {
    const tr = await trip(c)
    const p = await c.passenger()
    const two = await freeSeats(c, tr.id, 2)
    await c.request(0, 'POST', '/api/reservation/seatLock', lockBody(tr, two), { token: p.token })
    const dbl = await Promise.all(
      Array.from({ length: 10 }, (_, i) => c.request(i, 'POST', '/api/reservation/booking', bookingBody(tr, two), { token: p.token })),
    )
    assert.is(dbl.filter((r) => r.status === 200).length, 1)
    assert.ok(dbl.filter((r) => r.status !== 200).every((r) => ['SEAT_UNAVAILABLE', 'BOOKING_TIME_EXCEED'].includes(r.body.error.code)))

    const tr2 = await trip(c)
    const seats = await freeSeats(c, tr2.id, 13)
    const people = await Promise.all(Array.from({ length: 12 }, () => c.passenger()))
    const outcomes = await Promise.all(
      people.map(async (who, i) => {
        const pair = [seats[i]!, seats[i + 1]!]
        const l = await c.request(i, 'POST', '/api/reservation/seatLock', lockBody(tr2, pair), { token: who.token })
        const b = await c.request(i + 1, 'POST', '/api/reservation/booking', bookingBody(tr2, pair), { token: who.token })
        return { pair, locked: !!l.body.data, booked: b.status === 200 }
      }),
    )
    const booked = outcomes.filter((o) => o.booked)
    assert.ok(booked.length >= 1)
    assert.ok(
      booked.every((o) => o.locked),
      `booked without holding the seats: ${JSON.stringify(booked.filter((o) => !o.locked))}`,
    )
    const taken = booked.flatMap((o) => o.pair)
    assert.is(new Set(taken).size, taken.length, 'no seat booked twice')
    const dup = await c.db.query('SELECT seat_name FROM reservation_seats WHERE trip_id = $1 AND active GROUP BY seat_name HAVING count(*) > 1', [
      tr2.id,
    ])
    assert.is(dup.length, 0)
  })

  t('20 concurrent balance payments never overdraw', async () => {
    const p = await c.passenger(0)
    const ids: number[] = []
    for (let i = 0; i < 20; i++) ids.push((await bookOn(i, p)).id)
    await c.db.query('UPDATE reservations SET subtotal = 500, total = 500 WHERE id = ANY($1::int[])', [ids])
    await c.db.query('UPDATE passengers SET balance = 3750 WHERE id = $1', [p.id])
    const results = await Promise.all(
      ids.map((id, i) => c.request(i, 'POST', '/api/reservation/payFromBalance', { reservationId: id }, { token: p.token })),
    )
    const ok = results.filter((r) => r.status === 200)
    assert.is(ok.length, 7)
    assert.ok(results.filter((r) => r.status !== 200).every((r) => r.body.error.code === 'INSUFFICIENT_BALANCE'))
    const [bal] = await c.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [p.id])
    assert.is(bal!.balance, 250)
    const [led] = await c.db.query<{ n: number; s: number }>(
      "SELECT count(*)::int AS n, coalesce(sum(amount), 0)::int AS s FROM ledger WHERE passenger_id = $1 AND kind = 'TICKET_PAYMENT'",
      [p.id],
    )
    assert.equal({ ...led }, { n: 7, s: -3500 })
    const [sold] = await c.db.query<{ n: number }>('SELECT count(*)::int AS n FROM reservations WHERE id = ANY($1::int[]) AND status = 1', [ids])
    assert.is(sold!.n, 7)

    // The naive read-then-write debit accepts more payments than the money covers.
    const q = await c.passenger(3750)
    const debitGate = barrier(20)
    const naive = await Promise.all(Array.from({ length: 20 }, () => naiveDebit(c.db, q.id, 500, debitGate)))
    assert.ok(naive.filter(Boolean).length > 7, `naive debit accepted ${naive.filter(Boolean).length} payments for money enough for 7`)
  })

  t('payments at once cannot use a once-only coupon twice (uses per passenger, and in total across passengers)', async () => {
    const code = `ONCE${tag.slice(0, 6).toUpperCase()}`
    const total = `ONE${tag.slice(0, 6).toUpperCase()}`
    await c.db.query(
      `INSERT INTO offers (title, title_bn, description, coupon_code, discount_percent, max_discount, valid_until, max_uses_per_passenger, max_uses_total)
       VALUES ('Once', 'Once', 'Once', $1, 50, 1000, '2099-12-31', 1, NULL), ('One', 'One', 'One', $2, 50, 1000, '2099-12-31', NULL, 1)`,
      [code, total],
    )
    // six passengers race for the single use in total
    const people = await Promise.all(Array.from({ length: 6 }, () => c.passenger(100_000)))
    const theirs: number[] = []
    for (const [i, who] of people.entries()) {
      const b = await bookOn(i, who)
      assert.is(
        (await c.request(i, 'GET', `/api/reservation/booking/applyDiscountCoupon/${b.id}/${total}`, undefined, { token: who.token })).status,
        200,
      )
      theirs.push(b.id)
    }
    const race = await Promise.all(
      theirs.map((id, i) => c.request(i, 'POST', '/api/reservation/payFromBalance', { reservationId: id }, { token: people[i]!.token })),
    )
    assert.is(race.filter((r) => r.status === 200).length, 1)
    assert.ok(race.filter((r) => r.status !== 200).every((r) => r.body.error.code === 'COUPON_USED_UP'))

    // one passenger pays six bookings at once, each with the once-per-passenger coupon
    const p = await c.passenger(100_000)
    const ids: number[] = []
    for (let i = 0; i < 6; i++) {
      const b = await bookOn(i, p)
      const a = await c.request(i, 'GET', `/api/reservation/booking/applyDiscountCoupon/${b.id}/${code}`, undefined, { token: p.token })
      assert.is(a.status, 200, JSON.stringify(a.body))
      ids.push(b.id)
    }
    const results = await Promise.all(
      ids.map((id, i) => c.request(i, 'POST', '/api/reservation/payFromBalance', { reservationId: id }, { token: p.token })),
    )
    assert.is(results.filter((r) => r.status === 200).length, 1)
    assert.ok(results.filter((r) => r.status !== 200).every((r) => r.body.error.code === 'COUPON_ALREADY_USED'))
    const [uses] = await c.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM coupon_redemptions cr JOIN offers o ON o.id = cr.offer_id WHERE o.coupon_code = $1',
      [code],
    )
    assert.is(uses!.n, 1)
    const [led] = await c.db.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger WHERE passenger_id = $1 AND kind = 'TICKET_PAYMENT'", [p.id])
    assert.is(led!.n, 1)
  })

  t('a replayed payment callback confirms once and charges once', async () => {
    const p = await c.passenger(0)
    const tr = await trip(c)
    const s = await freeSeats(c, tr.id, 2)
    await c.request(0, 'POST', '/api/reservation/seatLock', lockBody(tr, s), { token: p.token })
    const b = await c.request(1, 'POST', '/api/reservation/booking', bookingBody(tr, s), { token: p.token })
    const pays = await Promise.all(
      Array.from({ length: 6 }, (_, i) => c.request(i, 'POST', '/api/reservation/payment', { reservationId: b.body.data.id }, { token: p.token })),
    )
    assert.is(new Set(pays.map((x) => x.body.data.paymentId)).size, 1, 'double clicks make one payment')
    const { paymentId, redirectUrl, resultToken } = pays[0]!.body.data
    // The gateway decided but its notification has not run yet: every success call races to confirm.
    await c.db.query("UPDATE payments SET status = 'APPROVED', decided_at = $2 WHERE id = $1", [paymentId, c.now()])
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => c.request(i, 'POST', '/api/reservation/success', { paymentId, resultToken })),
    )
    assert.ok(results.every((r) => r.status === 200))
    const pnrs = new Set(results.map((r) => r.body.data.reservation.pnr))
    assert.is(pnrs.size, 1)
    const [pnr] = [...pnrs]
    assert.match(String(pnr), /^[A-Z0-9]{10}$/)
    const approvals = await Promise.all(Array.from({ length: 10 }, (_, i) => c.decide(i, redirectUrl, 'approve')))
    assert.ok(approvals.every((l) => l === `/reservation/success?paymentId=${paymentId}`))
    const msgs = await c.db.query('SELECT channel FROM outbox_messages WHERE body LIKE $1', [`%${pnr}%`])
    assert.is(msgs.length, 2, 'one SMS and one e-mail')
    const [pay] = await c.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE reservation_id = $1', [b.body.data.id])
    assert.is(pay!.n, 1)
    const [led] = await c.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger WHERE passenger_id = $1', [p.id])
    assert.is(led!.n, 0, 'no refund, no balance movement for a card sale')

    const top = await c.request(0, 'POST', '/api/account/topUp', { amount: 1200 }, { token: p.token })
    await c.db.query("UPDATE payments SET status = 'APPROVED', decided_at = $2 WHERE id = $1", [top.body.data.paymentId, c.now()])
    await Promise.all(Array.from({ length: 30 }, (_, i) => c.request(i, 'POST', '/api/reservation/success', { paymentId: top.body.data.paymentId })))
    const [bal] = await c.db.query<{ balance: number }>('SELECT balance FROM passengers WHERE id = $1', [p.id])
    assert.is(bal!.balance, 1200)
  })

  t('cancels at the same moment with one code refund once (with the code checked first, and without)', async () => {
    const p = await c.passenger(100_000)
    const [{ mobile }] = await c.db.query<{ mobile: string }>('SELECT mobile FROM passengers WHERE id = $1', [p.id])
    const lastCode = async () =>
      (
        await c.db.query<{ code: string }>('SELECT code FROM outbox_messages WHERE "to" = $1 AND code IS NOT NULL ORDER BY id DESC LIMIT 1', [mobile])
      )[0]!.code
    for (const checkedFirst of [false, true]) {
      const b = await bookOn(1, p)
      const sold = await c.request(0, 'POST', '/api/reservation/payFromBalance', { reservationId: b.id }, { token: p.token })
      assert.is(sold.status, 200, JSON.stringify(sold.body))
      const { pnr, pin } = sold.body.data
      const quote = await c.request(1, 'GET', `/api/reservation/cancelInitialize/${pnr}/${pin}`)
      assert.is(quote.status, 200, JSON.stringify(quote.body))
      const otp = await lastCode()
      if (checkedFirst) assert.is((await c.request(0, 'POST', '/api/verifyCancelTicketOTP', { pnr, pin, otp })).body.data, true)
      const paid = await balanceOf(p.id)
      // six at once (a PNR takes ten tries in flight), alternating between the processes
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => c.request(i, 'GET', `/api/reservation/cancel/${pnr}/${pin}/${otp}`)))
      const summary = JSON.stringify(results.map((r) => r.body.error?.code ?? r.status))
      assert.is(results.filter((r) => r.status === 200).length, 1, summary)
      const losers = checkedFirst ? ['RESERVATION_NOT_CANCELLABLE'] : ['RESERVATION_NOT_CANCELLABLE', 'OTP_VALIDITY_EXPIRED']
      assert.ok(
        results.filter((r) => r.status !== 200).every((r) => losers.includes(r.body.error.code)),
        summary,
      )
      assert.is(await balanceOf(p.id), paid + quote.body.data.refundAmount, 'refunded once')
      const [refunds] = await c.db.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger WHERE reservation_id = $1 AND kind = 'REFUND'", [b.id])
      assert.is(refunds!.n, 1)
    }
  })

  t('a card approval racing a balance payment for one booking charges once and sells once', async () => {
    const p = await c.passenger(100_000)
    const outcomes: string[] = []
    // each outcome forced once (the card approval first, then the balance payment first), then four real races:
    // whichever way a race goes, the checks below hold, and both ways are checked every run
    const orders = ['card first', 'balance first', 'race', 'race', 'race', 'race'] as const
    for (const [round, order] of orders.entries()) {
      const { id, fare } = await bookOn(round, p)
      const opened = await c.request(round, 'POST', '/api/reservation/payment', { reservationId: id }, { token: p.token })
      const { paymentId, redirectUrl } = opened.body.data
      const before = await balanceOf(p.id)
      // the approval on one process, the balance payment on the other
      const approve = () => c.decide(round, redirectUrl, 'approve')
      const payFromBalance = () => c.request(round + 1, 'POST', '/api/reservation/payFromBalance', { reservationId: id }, { token: p.token })
      let byBalance: Awaited<ReturnType<typeof payFromBalance>>
      if (order === 'card first') {
        await approve()
        byBalance = await payFromBalance()
      } else if (order === 'balance first') {
        byBalance = await payFromBalance()
        await approve()
      } else [, byBalance] = await Promise.all([approve(), payFromBalance()])
      const [pay] = await c.db.query<{ status: string; refunded: boolean }>('SELECT status, refunded FROM payments WHERE id = $1', [paymentId])
      const [res] = await c.db.query<{ status: number; pnr: string; payment_method: string }>(
        'SELECT status, pnr, payment_method FROM reservations WHERE id = $1',
        [id],
      )
      // a card payment that came too late goes back to the card (refunds), not to the balance
      const [toCard] = await c.db.query<{ amount: number }>('SELECT amount FROM refunds WHERE payment_id = $1', [paymentId])
      const fromCard = pay!.status === 'APPROVED' ? fare.total - (toCard?.amount ?? 0) : 0
      const what = `${res!.payment_method} (card ${pay!.status}${pay!.refunded ? `, refunded to the ${toCard ? 'card' : 'balance'}` : ''}; balance payment ${byBalance.body.error?.code ?? byBalance.status})`
      outcomes.push(`${order}: ${what}`)
      if (order !== 'race') assert.is(res!.payment_method, order === 'card first' ? 'CARD' : 'BALANCE', what)
      assert.is(res!.status, 1, what)
      assert.is(before - (await balanceOf(p.id)) + fromCard, fare.total, `charged once: ${what}`)
      if (res!.payment_method === 'CARD') assert.is(byBalance.body.error?.code, 'PAYMENT_ALREADY_COMPLETED', what)
      else assert.is(byBalance.status, 200, what)
      const [tickets] = await c.db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_messages WHERE body LIKE $1', [`%${res!.pnr}%`])
      assert.is(tickets!.n, 2, `one SMS and one e-mail: ${what}`)
    }
    console.log(`card approval against balance payment on ${name}:\n  ${outcomes.join('\n  ')}`)
  })

  return t
}

async function insertPassenger(db: Db, balance: number, now: Date): Promise<{ id: number; token: string }> {
  const mobile = `017${String(process.pid % 1000).padStart(3, '0')}${String(++mobileSeq).padStart(5, '0')}`
  const [row] = await db.query<PassengerRow>(
    `INSERT INTO passengers (mobile, full_name, email, city, status, balance, created_at) VALUES ($1, 'Race Tester', $2, 'Dhaka', 'ACTIVE', $3, $4) RETURNING *`,
    [mobile, `r${mobile}@example.com`, balance, now],
  )
  const s = await createSession(db, createDeps(db), row!, true)
  return { id: row!.id, token: s.token }
}

const pglite = scenarios(suite('concurrency on PGlite'), 'PGlite', async () => {
  const f: Fixture = await openFixture()
  return {
    ctx: {
      name: 'pglite',
      db: f.db,
      now: f.now,
      request: (_i, m, u, b, o) => f.api(m, u, b, o),
      async decide(_i, url, decision) {
        const r = await f.app.inject({
          method: 'POST',
          url,
          payload: `decision=${decision}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
        return (r.headers.location as string) ?? null
      },
      passenger: (balance = 0) => f.passenger({ balance }),
    },
    close: () => f.close(),
  }
})

const twoProcesses = 'PostgreSQL with two server processes'
const postgres = scenarios(pgSuite(`concurrency on ${twoProcesses}`), twoProcesses, async () => {
  const pg = await startPostgres()
  const url = await pg.createDatabase('concurrency')
  const servers: ServerProcess[] = []
  let db: Db | null = null
  try {
    // The first process migrates and seeds; the second finds it done.
    servers.push(await startServer({ DATABASE_URL: url }))
    servers.push(await startServer({ DATABASE_URL: url }))
    db = await openDb({ databaseUrl: url, max: 60 })
  } catch (err) {
    for (const s of servers) await s.kill('SIGKILL')
    await pg.stop()
    throw err
  }
  const theDb = db
  return {
    ctx: {
      name: 'postgres',
      db: theDb,
      now: () => new Date(),
      request: (i, m, u, b, o) => call(servers[i % 2]!.url, m, u, b, o),
      decide: (i, u, d) => gatewayDecide(servers[i % 2]!.url, u, d),
      passenger: (balance = 0) => insertPassenger(theDb, balance, new Date()),
    },
    async close() {
      await theDb.close()
      for (const s of servers) await s.kill('SIGTERM')
      await pg.stop()
    },
  }
})

pglite.run()
postgres.run()
