/** Migrations, SQL functions and demo data on PGlite and on a real PostgreSQL 15 with several processes starting together. */
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openDb, type Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import { credit, debit } from '../account/ledger.ts'
import { listFunctions, listMigrations, migrate } from '../db/migrate.ts'
import { seed } from '../seed/index.ts'
import { addDays, dhakaDate } from '../lib/time.ts'
import { onPostgres, startPostgres, type TestPostgres } from '../test/pg.ts'
import { spawnServer } from '../test/proc.ts'
import { tempDir } from '../test/helpers.ts'

const counts = async (db: Db) => {
  const [r] = await db.query(`SELECT
    (SELECT count(*) FROM schema_migrations)::int AS migrations, (SELECT count(*) FROM schema_functions)::int AS functions, (SELECT count(*) FROM cities)::int AS cities,
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
    assert.is(names[0], '001_baseline.sql')
    assert.equal(await migrate(db, (tx) => seed(tx, deps)), names)
    const first = await counts(db)
    assert.is(first.migrations, names.length)
    assert.is(first.functions, listFunctions().length)
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

/** A migrations folder and a functions folder in a fresh temporary directory, and a PGlite database beside them. */
async function scratch(migrations: Record<string, string>, functions: Record<string, string>) {
  const dir = tempDir()
  const dirs = { migrations: path.join(dir, 'migrations'), functions: path.join(dir, 'functions') }
  for (const [kind, files] of [
    ['migrations', migrations],
    ['functions', functions],
  ] as const) {
    fs.mkdirSync(dirs[kind])
    for (const [name, sql] of Object.entries(files)) fs.writeFileSync(path.join(dirs[kind], name), sql)
  }
  const db = await openDb({ dataDir: path.join(dir, 'db'), databaseUrl: '' })
  const write = (kind: 'migrations' | 'functions', name: string, sql: string) => fs.writeFileSync(path.join(dirs[kind], name), sql)
  return { db, dirs, write, migrate: () => migrate(db, undefined, dirs.migrations, { functions: dirs.functions }) }
}

const sqlFunction = (name: string, body: string) => `CREATE OR REPLACE FUNCTION ${name}() RETURNS int LANGUAGE sql AS $$ ${body} $$;`

test('PGlite: function files run after every migration, callees first whatever their names', async () => {
  const s = await scratch(
    { '001_a.sql': 'CREATE TABLE a (x int);', '002_b.sql': 'INSERT INTO a VALUES (1), (2);' },
    // a LANGUAGE sql body is checked at creation: a_outer fails unless b_inner and table a exist
    { 'a_outer.sql': sqlFunction('a_outer', 'SELECT b_inner() + (SELECT count(*)::int FROM a)'), 'b_inner.sql': sqlFunction('b_inner', 'SELECT 10') },
  )
  try {
    assert.equal(
      listFunctions(s.dirs.functions).map((f) => f.name),
      ['b_inner', 'a_outer'],
    )
    assert.equal(await s.migrate(), ['001_a.sql', '002_b.sql'])
    const [r] = await s.db.query<{ v: number }>('SELECT a_outer() AS v')
    assert.is(r!.v, 12)
  } finally {
    await s.db.close()
  }
})

test('PGlite: a failing function file rolls back the migrations with it', async () => {
  const s = await scratch({ '001_a.sql': 'CREATE TABLE a (x int);' }, { 'broken.sql': sqlFunction('broken', 'SELECT x FROM nowhere') })
  try {
    let failed = ''
    await s.migrate().catch((e: Error) => (failed = e.message))
    assert.match(failed, /function broken\.sql failed/)
    const tables = await s.db.query(
      `SELECT table_name FROM information_schema.tables WHERE table_name IN ('a', 'schema_migrations', 'schema_functions')`,
    )
    assert.is(tables.length, 0)
  } finally {
    await s.db.close()
  }
})

test('PGlite: unchanged function files are not run again; a changed file, or a migration, runs them all', async () => {
  const s = await scratch(
    { '001_a.sql': 'CREATE TABLE a (x int);' },
    { 'f.sql': sqlFunction('f', 'SELECT 1'), 'g.sql': sqlFunction('g', 'SELECT f() + 1') },
  )
  const version = async () =>
    (await s.db.query<{ v: string }>(`SELECT string_agg(xmin::text, ',' ORDER BY proname) AS v FROM pg_proc WHERE proname IN ('f', 'g')`))[0]!.v
  const g = async () => (await s.db.query<{ v: number }>('SELECT g() AS v'))[0]!.v
  try {
    await s.migrate()
    const first = await version()
    assert.equal(await s.migrate(), [])
    assert.is(await version(), first, 'a start with the same files writes no function')
    s.write('functions', 'f.sql', sqlFunction('f', 'SELECT 5'))
    await s.migrate()
    assert.is(await g(), 6)
    assert.is.not(await version(), first)
    // a migration that replaces a function (none should) is overruled by the file
    s.write('migrations', '002_b.sql', sqlFunction('f', 'SELECT 100'))
    assert.equal(await s.migrate(), ['002_b.sql'])
    assert.is(await g(), 6)
  } finally {
    await s.db.close()
  }
})

test('PGlite: function files that call each other in a circle are refused by name', () => {
  const dir = tempDir()
  fs.writeFileSync(path.join(dir, 'p.sql'), sqlFunction('p', 'SELECT q()'))
  fs.writeFileSync(path.join(dir, 'q.sql'), sqlFunction('q', 'SELECT p()'))
  fs.writeFileSync(path.join(dir, 'r.sql'), sqlFunction('r', 'SELECT 1'))
  assert.throws(() => listFunctions(dir), /functions p, q refer to each other in a circle/)
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
      assert.is(c.functions, listFunctions().length)
      const [f] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'`,
      )
      assert.is(f!.n, listFunctions().length)
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
