/**
 * PostgreSQL for the uvu tests: suites that report themselves skipped (a failure under CI) where there are no
 * PostgreSQL binaries, around the throwaway server of harness/postgres.ts.
 *
 *   import { pgSuite, startPostgres } from './pg.ts';
 *   const t = pgSuite('limits on PostgreSQL');
 *   t.before(async () => { const pg = await startPostgres(); … });
 */
import { suite, type Test } from 'uvu'
import { postgresMissing } from '../../harness/postgres.ts'
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
