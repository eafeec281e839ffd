/**
 * Migrations 001–021 were squashed into `001_baseline.sql` (tables, constraints, indexes) and
 * `server/db/functions/` (one file per SQL function, with its triggers). The schema they built is
 * kept as a catalog in fixtures/schema-before-baseline.json; these tests prove the squash changed
 * nothing, on PGlite and on PostgreSQL 15, that a database built by the old migrations starts on
 * this code as a fresh one does, and that rules stay out of migrations.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type Db, openDb } from '../db/db.ts'
import { listFunctions, listMigrations, migrate } from '../db/migrate.ts'
import { tempDir } from '../test/helpers.ts'
import { pgSuite, startPostgres, type TestPostgres } from '../test/pg.ts'
import { type Catalog, catalog } from '../test/schema-catalog.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const before = JSON.parse(fs.readFileSync(path.join(here, '..', 'test', 'fixtures', 'schema-before-baseline.json'), 'utf8')) as {
  migrations: string[]
  functionFiles: Record<string, string>
  catalog: Catalog
}

/** The old definition of function `name` and its triggers, as the catalog of the 21 migrations has them. */
function oldDefinition(name: string): string {
  const fn = before.catalog.functions!.filter((d) => d.startsWith(`CREATE OR REPLACE FUNCTION public.${name}(`))
  const triggers = before.catalog.triggers!.filter((d) => d.endsWith(`EXECUTE FUNCTION ${name}()`))
  return [...fn, ...triggers].join(';\n') + ';\n'
}

/**
 * Migration 001 alone, and the function files as they were at the squash: a file changed since
 * (a rule changed on purpose) is replaced by its old definition, so this proof holds for good.
 */
function squashTimeDirs(): { migrations: string; functions: string } {
  const root = tempDir('baseline-')
  const migrations = path.join(root, 'migrations')
  const functions = path.join(root, 'functions')
  fs.mkdirSync(migrations)
  fs.mkdirSync(functions)
  const baseline = listMigrations()[0]!
  fs.writeFileSync(path.join(migrations, baseline.name), baseline.sql)
  const current = new Map(listFunctions().map((f) => [f.name, f]))
  for (const [name, sha256] of Object.entries(before.functionFiles)) {
    const file = current.get(name)
    fs.writeFileSync(path.join(functions, `${name}.sql`), file?.sha256 === sha256 ? file.sql : oldDefinition(name))
  }
  return { migrations, functions }
}

async function baselineCatalog(db: Db): Promise<Catalog> {
  const dirs = squashTimeDirs()
  assert.equal(await migrate(db, undefined, dirs.migrations, { functions: dirs.functions }), ['001_baseline.sql'])
  return catalog(db)
}

/**
 * A database as migrations 001–021 left it: their tables (the baseline's, proven the same), their
 * functions and triggers, their rows in schema_migrations, and no schema_functions.
 */
async function buildOld(db: Db): Promise<void> {
  const migrations = tempDir('old-migrations-')
  const baseline = listMigrations()[0]!
  fs.writeFileSync(path.join(migrations, baseline.name), baseline.sql)
  await migrate(db, undefined, migrations, { functions: null })
  const functions = Object.keys(before.functionFiles)
  const order = listFunctions().filter((f) => functions.includes(f.name))
  for (const f of order) await db.exec(oldDefinition(f.name))
  await db.exec('DROP TABLE schema_functions; DELETE FROM schema_migrations')
  for (const name of before.migrations) await db.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [name.slice(0, 3), name])
}

test('the baseline and the function files build exactly the schema migrations 001–021 built (PGlite)', async () => {
  const db = await openDb({ dataDir: tempDir(), databaseUrl: '' })
  try {
    assert.equal(await baselineCatalog(db), before.catalog)
  } finally {
    await db.close()
  }
})

test('a database built by migrations 001–021 starts on this code with the schema of a fresh one', async () => {
  const old = await openDb({ dataDir: tempDir(), databaseUrl: '' })
  const fresh = await openDb({ dataDir: tempDir(), databaseUrl: '' })
  try {
    await buildOld(old)
    assert.equal(
      await migrate(old),
      listMigrations()
        .slice(1)
        .map((m) => m.name),
      'the baseline is skipped, later migrations run',
    )
    await migrate(fresh)
    assert.equal(await catalog(old), await catalog(fresh))
    const [n] = await old.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_functions')
    assert.is(n!.n, listFunctions().length)
  } finally {
    await old.close()
    await fresh.close()
  }
})

test('a database that migrations 001–021 left half-way is refused, not half-built', async () => {
  const db = await openDb({ dataDir: tempDir(), databaseUrl: '' })
  try {
    await buildOld(db)
    await db.query(`DELETE FROM schema_migrations WHERE version > '013'`)
    let failed = ''
    await migrate(db).catch((e: Error) => (failed = e.message))
    assert.match(failed, /migrated before the baseline and stopped at migration 013/)
  } finally {
    await db.close()
  }
})

test('no migration holds a function, view or trigger: they live in server/db/functions/', () => {
  const migrations = listMigrations()
  assert.ok(migrations.length > 0)
  for (const m of migrations) {
    const code = m.sql.replace(/--[^\n]*/g, '')
    assert.not.match(code, /CREATE\s+(OR\s+REPLACE\s+)?(FUNCTION|PROCEDURE|VIEW|MATERIALIZED\s+VIEW|TRIGGER)\b/i, m.name)
  }
})

test('each function file replaces the function or view it is named after, and can run again', () => {
  const files = listFunctions()
  assert.ok(files.length >= 10)
  for (const f of files) {
    const code = f.sql.replace(/--[^\n]*/g, '')
    const defined = [...code.matchAll(/CREATE\s+(OR\s+REPLACE\s+)?(FUNCTION|PROCEDURE|VIEW)\s+(\w+)/gi)]
    assert.equal(
      defined.map((d) => d[3]),
      [f.name],
      `${f.name}.sql defines ${f.name} once`,
    )
    assert.ok(defined[0]![1], `${f.name}.sql says CREATE OR REPLACE`)
    assert.not.match(code, /CREATE\s+TRIGGER/i, `${f.name}.sql: CREATE OR REPLACE TRIGGER`)
  }
  // callees first: a LANGUAGE sql function is checked when it is created
  const order = files.map((f) => f.name)
  for (const [callee, caller] of [
    ['booking_live', 'seat_taken'],
    ['seat_taken', 'seat_states'],
    ['address_holds', 'lock_seats'],
    ['lock_seats', 'lock_seats_many'],
  ]) {
    assert.ok(order.indexOf(callee!) < order.indexOf(caller!), `${callee} before ${caller}`)
  }
})

test('the database holds exactly the functions of the files, one signature each', async () => {
  const db = await openDb({ dataDir: tempDir(), databaseUrl: '' })
  try {
    await migrate(db)
    const rows = await db.query<{ name: string }>(
      `SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
       UNION ALL SELECT viewname FROM pg_views WHERE schemaname = 'public' ORDER BY 1`,
    )
    assert.equal(
      rows.map((r) => r.name),
      listFunctions()
        .map((f) => f.name)
        .sort(),
    )
  } finally {
    await db.close()
  }
})

test.run()

const real = pgSuite('baseline on PostgreSQL')
let pg: TestPostgres | undefined

real.before(async () => {
  pg = await startPostgres()
})

real.after(async () => {
  await pg?.stop()
})

real('PostgreSQL: the baseline and the function files build exactly the schema migrations 001–021 built', async () => {
  const db = await openDb({ databaseUrl: await pg!.createDatabase('baseline'), max: 2 })
  try {
    assert.equal(await baselineCatalog(db), before.catalog)
  } finally {
    await db.close()
  }
})

real.run()
