/**
 * The server on an open database: migrates and seeds, builds the app, starts the background jobs
 * and listens. `stop` ends all of it but the database, so `npm run dev` (scripts/dev-server.ts)
 * serves changed server code again on the database it keeps open, and server/main.ts closes it.
 */
import { performance } from 'node:perf_hooks'
import { buildApp } from './app.ts'
import { describeProblems, readConfig } from './config.ts'
import type { Db } from './db/db.ts'
import { migrate } from './db/migrate.ts'
import { createDeps } from './deps.ts'
import { createTransports } from './delivery/transports.ts'
import { sendTimeoutFor, startDeliveryWorker } from './delivery/worker.ts'
import { startHousekeeping } from './housekeeping.ts'
import { startGatewayJobs } from './bookings/gateways/index.ts'
import { startTripTopUp } from './network/trips.ts'
import { seed } from './seed/index.ts'
import { startWaitlistSweep } from './waitlist/waitlist.ts'

/** Where the server listens, and what `Ready on` names as its database. */
export interface ServeOptions {
  port: number
  host: string
  /** The database as the ready line names it (`pglite .data`, `postgres`). */
  where: string
  /** Started at (performance.now()), for the ready line's time. */
  started?: number
}

/** A running server: `stop` closes the app, the jobs and the delivery worker (sends in flight finish), not the database. */
export interface Served {
  stop(): Promise<void>
}

/** Serves on `db` (misconfiguration throws, naming every problem). */
export async function serve(db: Db, opts: ServeOptions): Promise<Served> {
  const started = opts.started ?? performance.now()
  const { config, problems } = readConfig()
  if (problems.length > 0) throw new Error(describeProblems(problems, config.production))
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
  const running = worker

  const stop = async () => {
    try {
      stopHousekeeping()
      stopGatewayJobs()
      stopTripTopUp()
      stopWaitlistSweep()
      await app.close()
    } finally {
      // The sends in flight finish and are recorded before the database closes.
      await running.stop()
    }
  }
  try {
    await app.listen({ port: opts.port, host: opts.host })
  } catch (err) {
    await stop()
    throw err
  }
  console.log(`Ready on http://localhost:${opts.port} (database: ${opts.where}) in ${Math.round(performance.now() - started)} ms`)
  return { stop }
}
