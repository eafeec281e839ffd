/**
 * A suite of two-process tests on PostgreSQL (a limit must hold across processes): the suite, and the stack its
 * hooks start before its tests and stop after them (startServersOnPostgres), read through getters once started.
 *
 *   const { test, pg } = pgServersSuite('refunds on PostgreSQL', 'refunds');
 *   test('…', async () => { await call(pg.url(0), …); await pg.db.query(…); await pickTrip(pg.ctx, …) });
 */
import type { Test } from 'uvu'
import * as assert from 'uvu/assert'
import { call, type ServerProcess } from '../../harness/spawn-server.ts'
import { bookingBody, lockBody, type pickTrip } from './booking-fixture.ts'
import type { Db } from '../db/db.ts'
import { pgSuite, type ServersOnPostgres, startServersOnPostgres } from './pg.ts'

/** The started stack of a pgServersSuite. */
export interface PgServers {
  /** A pool on the servers' database, for the test's own queries. */
  readonly db: Db
  /** The server processes, in the order started. */
  readonly servers: ServerProcess[]
  /** The base URL of server `i` (0: the first). */
  url(i: number): string
  /** What booking-fixture.ts's helpers (pickTrip, freeSeats) take: the database and the wall clock the servers read. */
  readonly ctx: { readonly db: Db; now(): Date }
}

/** A pgSuite `name` whose hooks start `processes` servers (with `env`) on a fresh PostgreSQL database `database`, and stop them. */
export function pgServersSuite(name: string, database: string, env: Record<string, string> = {}, processes = 2): { test: Test; pg: PgServers } {
  const test = pgSuite(name)
  let stack: ServersOnPostgres | undefined
  test.before(async () => {
    stack = await startServersOnPostgres(database, env, processes)
  })
  test.after(() => stack?.stop())
  const started = (): ServersOnPostgres => {
    if (!stack) throw new Error(`${name}: the PostgreSQL stack is not started (only tests and hooks after before() may use it)`)
    return stack
  }
  const pg: PgServers = {
    get db() {
      return started().db
    },
    get servers() {
      return started().servers
    },
    url: (i) => started().servers[i]!.url,
    ctx: {
      get db() {
        return started().db
      },
      now: () => new Date(),
    },
  }
  return { test, pg }
}

/**
 * Locks `seats` of `trip` for passenger `who` on the server at `url` and books them there without an e-mail, paid
 * from the balance unless `pay` is false; answers the reservation as the server answered it.
 */
export async function bookOn(
  url: string,
  who: { token: string; mobile: string },
  trip: Awaited<ReturnType<typeof pickTrip>>,
  seats: string[],
  pay = true,
) {
  const { token } = who
  assert.is((await call(url, 'POST', '/api/reservation/seatLock', lockBody(trip, seats), { token })).status, 200)
  const booked = await call(
    url,
    'POST',
    '/api/reservation/booking',
    bookingBody(trip, seats, { passengerMobile: who.mobile, passengerEmail: null }),
    {
      token,
    },
  )
  assert.is(booked.status, 200, JSON.stringify(booked.body))
  if (!pay) return booked.body.data
  const paid = await call(url, 'POST', '/api/reservation/payFromBalance', { reservationId: booked.body.data.id }, { token })
  assert.is(paid.status, 200, JSON.stringify(paid.body))
  return paid.body.data
}
