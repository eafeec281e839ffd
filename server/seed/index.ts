/**
 * What every start adds in the migration transaction. Production: only the trips
 * of the days that entered the window (the network comes from `npm run import`),
 * and the demo passenger and demo sales a development start may have left taken
 * out. Development and tests: the demo network, passenger and sales as well.
 */
import type { Queryable } from '../db/db.ts'
import type { Deps } from '../core.ts'
import { topUpTrips } from '../network/trips.ts'
import { seedDemoNetwork } from './demo-network.ts'
import { DEMO_PASSENGER, lockOutDemoPassenger, seedPassengers } from './passengers.ts'
import { removeDemoSales, seedReservations } from './demo-sales.ts'

export interface SeedOptions {
  /** Days after today that get trips (default TRIP_DAYS_AHEAD). */
  daysAhead?: number
}

/** Runs the start-up seeding (idempotent: safe on every start). */
export async function seed(tx: Queryable, deps: Deps, opts: SeedOptions = {}): Promise<void> {
  const now = deps.now()
  const daysAhead = opts.daysAhead ?? deps.config.tripDaysAhead
  if (deps.config.production) {
    const lockedOut = await lockOutDemoPassenger(tx)
    const removed = await removeDemoSales(tx, now)
    if (lockedOut || removed > 0) {
      console.warn(
        `Production: the demo passenger ${DEMO_PASSENGER.mobile} can no longer sign in; ${removed} demo sale(s) removed (left by a development start).`,
      )
    }
    await topUpTrips(tx, now, daysAhead)
    return
  }
  await seedDemoNetwork(tx, now, daysAhead)
  await topUpTrips(tx, now, daysAhead)
  await seedPassengers(tx, now)
  await seedReservations(tx, deps)
}
