/**
 * Schema migrations: `migrations/NNN_name.sql` applied in order and recorded in
 * `schema_migrations`, then demo data, all in one transaction holding an advisory
 * lock, so several processes starting together against one PostgreSQL run each
 * migration once and never see a half-built schema.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Db, Tx } from './db.ts'

/** Advisory lock key shared by every process migrating this database. */
export const MIGRATION_LOCK_KEY = 728_431_906

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

export interface Migration {
  version: string
  name: string
  sql: string
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
 * Applies pending migrations, then runs `after` (seeding) in the same transaction
 * under the same lock. Answers the names of the migrations it applied.
 */
export async function migrate(db: Db, after?: (tx: Tx) => Promise<void>, dir?: string): Promise<string[]> {
  const migrations = listMigrations(dir)
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY])
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const done = new Set((await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version))
    const applied: string[] = []
    for (const m of migrations) {
      if (done.has(m.version)) continue
      try {
        await tx.exec(m.sql)
      } catch (err) {
        throw new Error(`migration ${m.name} failed: ${(err as Error).message}`, { cause: err })
      }
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name])
      applied.push(m.name)
    }
    if (after) await after(tx)
    return applied
  })
}
