/**
 * "A booking is still live" has one SQL spelling, `booking_live(status, expiration_time, now)`
 * (db/functions/booking_live.sql), and one TypeScript spelling, `bookingLive` (bookings.ts): they agree on
 * every reservation status and an expiry before, at, after `now` or none, on PGlite and on
 * PostgreSQL; and the planner inlines the function, so a query that calls it can use the
 * partial indexes on booked reservations (status 2) as the expression written out could.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { reservationStatus } from '../../contract/schemas.ts'
import { bookingLive } from '../bookings/bookings.ts'
import { type Db, openDb } from '../db/db.ts'
import { migrate } from '../db/migrate.ts'
import { tempDir } from '../test/helpers.ts'
import { pgSuite, startPostgres, type TestPostgres } from '../test/pg.ts'

const NOW = new Date('2026-03-01T06:00:00Z')
const expiries: (Date | null)[] = [null, new Date(NOW.getTime() - 60_000), NOW, new Date(NOW.getTime() + 60_000)]

async function agrees(db: Db): Promise<void> {
  let checked = 0
  for (const status of Object.values(reservationStatus)) {
    for (const expiration_time of expiries) {
      const [row] = await db.query<{ live: boolean }>('SELECT coalesce(booking_live($1::int, $2::timestamptz, $3::timestamptz), false) AS live', [
        status,
        expiration_time,
        NOW,
      ])
      const ts = bookingLive({ status, expiration_time }, NOW)
      assert.is(row?.live, ts, `status ${status}, expiry ${expiration_time?.toISOString() ?? 'none'}`)
      checked++
    }
  }
  // the booked one live for a minute is live, and it is the only one
  assert.is(checked, Object.values(reservationStatus).length * expiries.length)
  assert.ok(bookingLive({ status: reservationStatus.booked, expiration_time: expiries[3]! }, NOW))
}

/** The partial indexes on booked reservations (`WHERE status = 2`, in the baseline migration). */
const BOOKED_INDEX = /Index (Only )?Scan using reservations_(booked_expiry|unpaid_address)_idx/

async function usesBookedIndex(db: Db): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off')
    const rows = await tx.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT count(*) FROM reservations x WHERE booking_live(x.status, x.expiration_time, '${NOW.toISOString()}'::timestamptz)`,
    )
    return rows.map((r) => r['QUERY PLAN']).join('\n')
  })
}

const lite = suite('booking_live on PGlite')
let liteDb: Db
lite.before(async () => {
  liteDb = await openDb({ dataDir: tempDir('bus-booking-live-'), databaseUrl: '' })
  await migrate(liteDb)
})
lite.after(async () => {
  await liteDb?.close()
})
lite('booking_live and bookingLive agree', () => agrees(liteDb))
lite('booking_live is inlined: its query can use the index of booked reservations', async () => {
  const plan = await usesBookedIndex(liteDb)
  assert.match(plan, BOOKED_INDEX, plan)
})
lite.run()

const real = pgSuite('booking_live on PostgreSQL')
let pg: TestPostgres | undefined
let realDb: Db | undefined
real.before(async () => {
  pg = await startPostgres()
  realDb = await openDb({ databaseUrl: await pg.createDatabase('booking_live'), max: 2 })
  await migrate(realDb)
})
real.after(async () => {
  await realDb?.close()
  await pg?.stop()
})
real('booking_live and bookingLive agree', () => agrees(realDb!))
real('booking_live is inlined: its query can use the index of booked reservations', async () => {
  const plan = await usesBookedIndex(realDb!)
  assert.match(plan, BOOKED_INDEX, plan)
})
real.run()
