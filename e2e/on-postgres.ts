/**
 * Runs browser specs against the real server on a throwaway PostgreSQL 15
 * server instead of the embedded database: `node --import tsx e2e/on-postgres.ts [spec...]`.
 * Used by `npm test` for the booking journey (defaults to e2e/booking.spec.ts).
 * Without Chromium or PostgreSQL binaries each test is reported skipped (a failure under CI).
 */
import { postgresMissing, startPostgres } from '../harness/postgres.ts'
import { chromiumMissing } from '../harness/browser.ts'
import { exitWhenWritten } from '../scripts/exit-when-written.mjs'
import { runSpecs } from './run-specs.ts'

const specs = process.argv.slice(2).length ? process.argv.slice(2) : ['e2e/booking.spec.ts']
const step = 'e2e-pg'
const missing = chromiumMissing() ?? postgresMissing()
let code = 1
if (missing) {
  code = await runSpecs({ step, specs, missing })
} else {
  const pg = await startPostgres()
  try {
    const url = await pg.createDatabase('e2e')
    code = await runSpecs({ step, specs, missing: null, env: { E2E_DATABASE_URL: url, E2E_PORT: process.env.E2E_PG_PORT ?? '8791' } })
  } finally {
    await pg.stop()
  }
}
await exitWhenWritten(code)
