/**
 * Schema migrations, then SQL functions, then demo data, all in one transaction holding an
 * advisory lock, so several processes starting together against one PostgreSQL run each
 * migration once and never see a half-built schema.
 *
 * Migrations (`migrations/NNN_name.sql`) hold tables, indexes, constraints and data changes;
 * each is applied once, in order, and recorded in `schema_migrations`. Functions
 * (`functions/<name>.sql`: one SQL function or view, with the triggers that call it) hold
 * the rules: `CREATE OR REPLACE`, applied after all migrations whenever a file differs from
 * what was last applied (recorded in `schema_functions`) or a migration ran.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Db, Tx } from './db.ts'

/** Advisory lock key shared by every process migrating this database. */
export const MIGRATION_LOCK_KEY = 728_431_906

const here = path.dirname(fileURLToPath(import.meta.url))
const migrationsDir = path.join(here, 'migrations')
const functionsDir = path.join(here, 'functions')

export interface Migration {
  version: string
  name: string
  sql: string
}

/** One file of `functions/`: `name` is the function (or view) it defines. */
export interface SqlFunction {
  name: string
  sql: string
  sha256: string
}

/** The migration files in apply order. */
export function listMigrations(dir = migrationsDir): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: f.slice(0, 3), name: f, sql: fs.readFileSync(path.join(dir, f), 'utf8') }))
}

/**
 * The function files in apply order: each after every file whose name its SQL mentions
 * (a LANGUAGE sql function is checked when created, so its callees must exist), else by name.
 */
export function listFunctions(dir = functionsDir): SqlFunction[] {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => {
      const sql = fs.readFileSync(path.join(dir, f), 'utf8')
      return { name: f.slice(0, -4), sql, sha256: createHash('sha256').update(sql).digest('hex') }
    })
  const needs = new Map(
    files.map((f) => {
      const code = f.sql.replace(/--[^\n]*/g, '')
      return [f.name, new Set(files.filter((g) => g.name !== f.name && new RegExp(`\\b${g.name}\\b`).test(code)).map((g) => g.name))]
    }),
  )
  const ordered: SqlFunction[] = []
  while (ordered.length < files.length) {
    const next = files.find((f) => !ordered.includes(f) && [...needs.get(f.name)!].every((n) => ordered.some((o) => o.name === n)))
    if (!next) {
      const left = files.filter((f) => !ordered.includes(f)).map((f) => f.name)
      throw new Error(`functions ${left.join(', ')} refer to each other in a circle: no order creates callees first`)
    }
    ordered.push(next)
  }
  return ordered
}

/** Where `migrate` reads its files; `functions: null` applies no functions (a schema built by old migrations). */
export interface MigrateDirs {
  functions?: string | null
}

/**
 * Applies pending migrations, then the function files if any differs from what was last applied
 * or a migration ran, then runs `after` (seeding), all in one transaction under one lock.
 * Answers the names of the migrations it applied.
 */
export async function migrate(db: Db, after?: (tx: Tx) => Promise<void>, dir?: string, dirs: MigrateDirs = {}): Promise<string[]> {
  const migrations = listMigrations(dir)
  const functionsFrom = dirs.functions === undefined ? functionsDir : dirs.functions
  const functions = functionsFrom === null ? [] : listFunctions(functionsFrom)
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY])
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE IF NOT EXISTS schema_functions (
      name text PRIMARY KEY,
      sha256 text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const rows = await tx.query<{ version: string; name: string }>('SELECT version, name FROM schema_migrations')
    const done = new Set(rows.map((r) => r.version))
    // 001_core.sql .. 021 were squashed into 001_baseline.sql: a database they left half-way has no baseline to skip to
    if (rows.some((r) => r.name === '001_core.sql') && !done.has('021')) {
      const last = [...done].sort().at(-1)
      throw new Error(`this database was migrated before the baseline and stopped at migration ${last}: build it again from an empty database`)
    }
    const applied: string[] = []
    for (const m of migrations) {
      if (done.has(m.version)) continue
      await run(tx, `migration ${m.name}`, m.sql)
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name])
      applied.push(m.name)
    }
    if (functionsFrom !== null) await applyFunctions(tx, functions, applied.length > 0)
    if (after) await after(tx)
    return applied
  })
}

/** Runs every function file in order when `force` or when any differs from `schema_functions`, and records them. */
async function applyFunctions(tx: Tx, functions: SqlFunction[], force: boolean): Promise<void> {
  const recorded = await tx.query<{ name: string; sha256: string }>('SELECT name, sha256 FROM schema_functions')
  const key = (files: { name: string; sha256: string }[]) =>
    files
      .map((f) => `${f.name}:${f.sha256}`)
      .sort()
      .join()
  // unchanged files are not run again: replacing a trigger locks its table against other processes' writes
  if (!force && key(recorded) === key(functions)) return
  for (const f of functions) await run(tx, `function ${f.name}.sql`, f.sql)
  await tx.exec('DELETE FROM schema_functions')
  for (const f of functions) await tx.query('INSERT INTO schema_functions (name, sha256) VALUES ($1, $2)', [f.name, f.sha256])
}

/** Runs one file's SQL; a failure names the file. */
async function run(tx: Tx, file: string, sql: string): Promise<void> {
  try {
    await tx.exec(sql)
  } catch (err) {
    throw new Error(`${file} failed: ${(err as Error).message}`, { cause: err })
  }
}
