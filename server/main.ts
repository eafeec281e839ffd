/**
 * Server entry: opens the database (PGlite in DATA_DIR, or PostgreSQL by
 * DATABASE_URL), migrates and seeds, then listens on HOST:PORT.
 * Every environment variable it reads (config.ts, and PORT, HOST, DATA_DIR, DIST_DIR
 * here) is in docs/configuration.md.
 */
import { performance } from 'node:perf_hooks'
import { buildApp } from './app.ts'
import { describeProblems, readConfig } from './config.ts'
import { DataDirLockedError, openDb, type Db } from './db/db.ts'
import { createDeps } from './deps.ts'
import { createTransports } from './delivery/transports.ts'
import { sendTimeoutFor, startDeliveryWorker } from './delivery/worker.ts'
import { startHousekeeping } from './housekeeping.ts'
import { migrate } from './db/migrate.ts'
import { startGatewayJobs } from './bookings/gateways/index.ts'
import { startTripTopUp } from './network/trips.ts'
import { seed } from './seed/index.ts'
import { startWaitlistSweep } from './waitlist/waitlist.ts'

async function main(): Promise<void> {
  const started = performance.now()
  // Checked before anything else, so a misconfigured production start fails at once.
  const { config, problems } = readConfig()
  if (problems.length > 0) {
    console.error(describeProblems(problems, config.production))
    process.exit(1)
  }
  const port = Number(process.env.PORT ?? 8080)
  const host = process.env.HOST || '127.0.0.1'
  const dataDir = process.env.DATA_DIR ?? '.data'
  let db: Db
  try {
    db = await openDb({ dataDir })
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message)
      process.exit(1)
    }
    throw err
  }
  const deps = createDeps(db, { config })
  await migrate(db, (tx) => seed(tx, deps))
  let worker: ReturnType<typeof startDeliveryWorker> | null = null
  const transports = createTransports(deps.config, { timeoutMs: sendTimeoutFor(deps.config.deliveryLeaseSeconds * 1000) })
  // The SMTP login is tried at once: a wrong SMTP_URL or password is logged now, and /readyz
  // reports the mail channel down until a check (repeated) or a send works.
  void transports.EMAIL.check?.()
  const app = await buildApp(deps, {
    ...(process.env.DIST_DIR ? { distDir: process.env.DIST_DIR } : {}),
    readiness: {
      'delivery worker': () => worker?.running() ?? false,
      'mail channel (SMTP)': () => transports.EMAIL.healthy?.() ?? true,
    },
  })
  const stopHousekeeping = startHousekeeping(db, deps.now)
  worker = startDeliveryWorker(deps, transports)
  // Pending card payments whose callback never came are settled at start and every minute.
  const stopGatewayJobs = startGatewayJobs(deps)
  const stopTripTopUp = startTripTopUp(db, deps.now, config.tripDaysAhead)
  // Seats freed by time (lapsed holds, expired unpaid bookings) go to the waitlists.
  const stopWaitlistSweep = startWaitlistSweep(deps)

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    console.log(`${signal}: shutting down`)
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    try {
      stopHousekeeping()
      stopGatewayJobs()
      stopTripTopUp()
      stopWaitlistSweep()
      await app.close()
    } finally {
      // The sends in flight finish and are recorded before the database closes.
      await worker.stop()
      await db.close()
      process.exit(0)
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  await app.listen({ port, host })
  const where = db.kind === 'pglite' ? `pglite ${dataDir}` : 'postgres'
  console.log(`Ready on http://localhost:${port} (database: ${where}) in ${Math.round(performance.now() - started)} ms`)
}

main().catch((err) => {
  console.error('Failed to start:', err instanceof Error ? err.message : err)
  process.exit(1)
})
