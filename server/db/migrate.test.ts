/** Migrations and demo data on PGlite and on a real PostgreSQL 15 with several processes starting together. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openDb, type Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import { credit, debit } from '../account/ledger.ts'
import { listMigrations, migrate } from '../db/migrate.ts'
import { seed } from '../seed/index.ts'
import { addDays, dhakaDate } from '../lib/time.ts'
import { onPostgres, startPostgres, type TestPostgres } from '../test/pg.ts'
import { spawnServer } from '../test/proc.ts'
import { tempDir } from '../test/helpers.ts'

const counts = async (db: Db) => {
  const [r] = await db.query(`SELECT
    (SELECT count(*) FROM schema_migrations)::int AS migrations, (SELECT count(*) FROM cities)::int AS cities,
    (SELECT count(*) FROM bus_stations)::int AS stations, (SELECT count(*) FROM routes)::int AS routes,
    (SELECT count(*) FROM layout_seats)::int AS seats, (SELECT count(*) FROM schedules)::int AS schedules,
    (SELECT count(*) FROM trips)::int AS trips, (SELECT count(*) FROM offers)::int AS offers,
    (SELECT count(*) FROM passengers WHERE mobile = '01712345678')::int AS passengers,
    (SELECT count(*) FROM ledger l JOIN passengers p ON p.id = l.passenger_id WHERE p.mobile = '01712345678')::int AS ledger,
    (SELECT count(*) FROM passengers)::int AS allPassengers, (SELECT count(*) FROM ledger)::int AS allLedger,
    (SELECT count(*) FROM company)::int AS company, (SELECT count(*) FROM time_periods)::int AS periods`)
  return r as Record<string, number>
}

test('PGlite: migrations apply once in order, seeding is idempotent, trips are topped up as days pass', async () => {
  const db = await openDb({ dataDir: tempDir(), databaseUrl: '' })
  let now = new Date('2026-06-01T00:00:00Z')
  const deps = createDeps(db, { now: () => now })
  try {
    const names = listMigrations().map((m) => m.name)
    assert.equal(names.slice(0, 2), ['001_core.sql', '002_passengers.sql'])
    assert.equal(await migrate(db, (tx) => seed(tx, deps)), names)
    const first = await counts(db)
    assert.is(first.migrations, names.length)
    assert.ok(first.cities >= 12 && first.stations >= 24 && first.routes >= 30)
    assert.is(first.trips, first.schedules * 31)
    assert.equal([first.passengers, first.ledger, first.company, first.periods, first.offers], [1, 1, 1, 3, 3])
    assert.equal(await migrate(db, (tx) => seed(tx, deps)), [])
    assert.equal(await counts(db), first)
    // five days later: trips still cover today..today+30
    now = new Date(now.getTime() + 5 * 86_400_000)
    await migrate(db, (tx) => seed(tx, deps))
    const later = await counts(db)
    assert.is(later.trips, first.schedules * 36)
    const today = dhakaDate(now)
    const [d] = await db.query<{ n: number }>('SELECT count(DISTINCT trip_date)::int AS n FROM trips WHERE trip_date BETWEEN $1::date AND $2::date', [
      today,
      addDays(today, 30),
    ])
    assert.is(d!.n, 31)
  } finally {
    await db.close()
  }
})

test('PGlite: a failing migration rolls back completely', async () => {
  const fs = await import('node:fs')
  const path = await import('node:path')
  const dir = tempDir()
  const migrations = path.join(dir, 'migrations')
  fs.mkdirSync(migrations)
  fs.writeFileSync(path.join(migrations, '001_ok.sql'), 'CREATE TABLE a (x int);')
  fs.writeFileSync(path.join(migrations, '002_bad.sql'), 'CREATE TABLE b (x int); SELECT nonsense FROM nowhere;')
  const db = await openDb({ dataDir: path.join(dir, 'db'), databaseUrl: '' })
  try {
    let failed = ''
    await migrate(db, undefined, migrations).catch((e: Error) => (failed = e.message))
    assert.match(failed, /migration 002_bad\.sql failed/)
    const tables = await db.query(`SELECT table_name FROM information_schema.tables WHERE table_name IN ('a', 'b', 'schema_migrations')`)
    assert.is(tables.length, 0)
  } finally {
    await db.close()
  }
})

const pgTest = onPostgres(test, 'migrations on PostgreSQL')
let pg: TestPostgres

pgTest.before(async () => {
  pg = await startPostgres()
})

pgTest.after(async () => {
  await pg.stop()
})

pgTest('PostgreSQL: three servers starting together migrate and seed exactly once, and serve', async () => {
  const url = await pg.createDatabase('race')
  const servers = await Promise.all([1, 2, 3].map(() => spawnServer({ DATABASE_URL: url })))
  try {
    const lines = await Promise.all(servers.map((s) => s.ready))
    for (const l of lines) assert.match(l, /\(database: postgres\)/)
    const db = await openDb({ databaseUrl: url })
    try {
      const c = await counts(db)
      assert.is(c.migrations, listMigrations().length)
      assert.equal([c.passengers, c.ledger, c.company, c.offers, c.periods], [1, 1, 1, 3, 3])
      assert.is(c.trips, c.schedules * 31)
    } finally {
      await db.close()
    }
    for (const s of servers) {
      const r = await fetch(s.url + '/api/checkPassenger', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mobile: '01712345678', password: 'Demo@1234' }),
      })
      assert.is(r.status, 200)
    }
  } finally {
    for (const s of servers) s.kill('SIGTERM')
    for (const s of servers) assert.is(await s.exited, 0)
  }
})

pgTest('PostgreSQL: concurrent debits on separate connections never overdraw', async () => {
  const url = await pg.createDatabase('ledger')
  const db = await openDb({ databaseUrl: url, max: 20 })
  try {
    const deps = createDeps(db)
    await migrate(db, (tx) => seed(tx, deps, { daysAhead: 0 }))
    const [p] = await db.query<{ id: number }>(
      `INSERT INTO passengers (mobile, full_name, email, city, status, created_at) VALUES ('01811112222', 'X', 'x@example.com', 'Dhaka', 'ACTIVE', now()) RETURNING id`,
    )
    await db.transaction((tx) => credit(tx, { passengerId: p!.id, amount: 1000, kind: 'TOP_UP', description: 'Top-up', reservationId: null }))
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db.transaction(async (tx) => {
          await tx.query('SELECT pg_sleep(0.01)')
          return debit(tx, { passengerId: p!.id, amount: 150, kind: 'TICKET_PAYMENT', description: `Ticket ${i}`, reservationId: i + 1 })
        }),
      ),
    )
    assert.is(results.filter((r) => r !== null).length, 6)
    const [after] = await db.query<{ balance: number; sum: number; n: number }>(
      `SELECT p.balance, (SELECT sum(amount) FROM ledger WHERE passenger_id = p.id)::int AS sum, (SELECT count(*) FROM ledger WHERE passenger_id = p.id)::int AS n FROM passengers p WHERE p.id = $1`,
      [p!.id],
    )
    assert.equal(after, { balance: 100, sum: 100, n: 7 })
  } finally {
    await db.close()
  }
})

test.run()
