/**
 * PostgreSQL for the uvu tests: suites that report themselves skipped (a failure under CI) where there are no
 * PostgreSQL binaries, around the throwaway server of harness/postgres.ts.
 *
 *   import { pgSuite, startPostgres } from './pg.ts';
 *   const t = pgSuite('limits on PostgreSQL');
 *   t.before(async () => { const pg = await startPostgres(); … });
 *
 * Two server processes on one database (a limit must hold across processes): startServersOnPostgres.
 */
import { suite, type Test } from 'uvu'
import { postgresMissing, startPostgres, type TestPostgres } from '../../harness/postgres.ts'
import { type ServerProcess, startServer } from '../../harness/spawn-server.ts'
import { type Db, openDb } from '../db/db.ts'
import { requires } from './skip.ts'

export { postgresMissing, startPostgres, type TestPostgres } from '../../harness/postgres.ts'

/** `t` for tests that need PostgreSQL: without the binaries they are reported skipped (failed under CI), never passed. */
export function onPostgres<T>(t: Test<T>, suiteName: string): Test<T> {
  return requires(t, suiteName, postgresMissing())
}

/** A uvu suite whose every test needs PostgreSQL (see onPostgres). */
export function pgSuite(name: string): Test {
  return onPostgres(suite(name), name)
}

/** A fresh database on a throwaway PostgreSQL, server processes on it and a pool for the test's own queries. */
export interface ServersOnPostgres {
  pg: TestPostgres
  /** DATABASE_URL of the servers. */
  url: string
  /** The servers, in the order started (the first one migrated the database). */
  servers: ServerProcess[]
  db: Db
  /** Closes the pool, stops the servers (SIGTERM) and removes PostgreSQL; safe after a failed start. */
  stop(): Promise<void>
}

/**
 * Starts PostgreSQL, creates `database`, starts `processes` servers on it one after the other (the first migrates)
 * with `env` beside DATABASE_URL, and opens a small pool. A start that fails half-way stops what it started.
 */
export async function startServersOnPostgres(database: string, env: Record<string, string>, processes = 2): Promise<ServersOnPostgres> {
  const pg = await startPostgres()
  const servers: ServerProcess[] = []
  let db: Db | undefined
  const stop = async () => {
    await db?.close()
    for (const s of servers) await s.kill('SIGTERM')
    await pg.stop()
  }
  try {
    const url = await pg.createDatabase(database)
    for (let i = 0; i < processes; i++) servers.push(await startServer({ ...env, DATABASE_URL: url }))
    db = await openDb({ databaseUrl: url, max: 4 })
    return { pg, url, servers, db, stop }
  } catch (err) {
    await stop()
    throw err
  }
}
