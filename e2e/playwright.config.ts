import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../harness/browser.ts'

const port = Number(process.env.E2E_PORT ?? 8790)
const baseURL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`
// a fresh embedded database per run, so tests start from the demo data
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-data-'))
const root = path.resolve(import.meta.dirname, '..')
// listing the tests (e2e/run-specs.ts does, to report them skipped) launches no browser
const listing = process.argv.includes('--list')

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // no retries: a test that fails once is a fault to find (tests holding seats use trips of their own)
  retries: 0,
  reporter: [['list'], ['json', { outputFile: process.env.E2E_REPORT ?? path.join(root, 'test-results', 'e2e.json') }]],
  // Playwright empties it at the start of a run: the e2e-pg step (e2e/on-postgres.ts, E2E_DATABASE_URL) keeps its own,
  // so an e2e failure's trace and screenshot are still there after npm test
  outputDir: path.join(root, 'test-results', process.env.E2E_DATABASE_URL ? 'artifacts-e2e-pg' : 'artifacts'),
  use: {
    baseURL,
    launchOptions: { executablePath: listing ? undefined : chromiumPath(), args: chromiumArgs },
    // A failed test keeps a trace of its actions, console and network. The page as it was at each action (DOM
    // snapshots) was a sixth of the step's time on every test, passed or not: only with E2E_TRACE=full.
    trace: process.env.E2E_TRACE === 'full' ? 'retain-on-failure' : { mode: 'retain-on-failure', snapshots: false, screenshots: false },
    screenshot: 'only-on-failure',
    // The app's service worker would answer the page's requests itself, past page.route() and
    // request counting: specs run without it, except e2e/offline.spec.ts and e2e/cdn.spec.ts, which test it.
    serviceWorkers: 'block',
  },
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: 'node --import tsx server/main.ts',
        cwd: root,
        url: `${baseURL}/api/originCities`,
        timeout: 120_000,
        reuseExistingServer: false,
        stdout: 'ignore',
        stderr: 'pipe',
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          NODE_ENV: 'test',
          PUBLIC_URL: baseURL,
          RATE_LIMIT_MAX: '100000',
          // sign-up, login and OTP tests of parallel workers share one address
          AUTH_RATE_LIMIT_MAX: '100000',
          // every browser of the run comes from 127.0.0.1
          HOLD_LIMIT_PER_ADDRESS: '100000',
          HOLD_LIMIT_PER_ADDRESS_TOTAL: '100000',
          SEAT_STREAMS_PER_ADDRESS: '100000',
          UNPAID_SEATS_PER_PASSENGER: '100000',
          // specs choose 5 seats (MAX_SEATS) as visitors; the per-date cap's own spec runs a server with it (e2e/seat-cap.spec.ts)
          SEATS_PER_PASSENGER_PER_DATE: '100000',
          SMS_LIMIT_PER_ADDRESS: '100000',
          ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
          ...(process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {}),
        },
      },
})
