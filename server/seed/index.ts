/** All demo data, in dependency order: reference data, passengers, reservations. */
import type { Queryable } from '../db.ts';
import type { Deps } from '../http.ts';
import { seedCore } from './core.ts';
import { seedPassengers } from './passengers.ts';
import { seedReservations } from './reservations.ts';

export interface SeedOptions {
  /** Days after today that get trips (default 30). */
  daysAhead?: number;
}

/** Runs every seeder in the migration transaction (idempotent: safe on every start). */
export async function seed(tx: Queryable, deps: Deps, opts: SeedOptions = {}): Promise<void> {
  const now = deps.now();
  await seedCore(tx, now, opts.daysAhead);
  await seedPassengers(tx, now);
  await seedReservations(tx, deps);
}
