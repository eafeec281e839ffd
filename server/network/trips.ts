/**
 * Trips generated from the timetable (`schedules`): one per coach and day it runs,
 * for today..today+TRIP_DAYS_AHEAD in Asia/Dhaka. `trip_generation.through` says how
 * far that has been done, so the start-up and hourly top-up cost one small query
 * until a new day needs its trips.
 */
import type { Db, Queryable } from '../db/db.ts'
import { MIGRATION_LOCK_KEY } from '../db/migrate.ts'
import { addDays, calendarDays, dhakaDate } from '../lib/time.ts'

/**
 * The trips the timetable asks for on the days `$1` (date[]) with weekdays `$2`
 * (int[]): a coach runs on a day when the weekday is one of its own and the day is
 * within its valid_from..valid_until; it departs at its time in Asia/Dhaka, and goes
 * on sale at its sale time in Asia/Dhaka, sale_days_before days earlier (NULL: always).
 */
export const DESIRED_TRIPS = `
  SELECT d.day AS trip_date, s.id AS schedule_id, s.coach_code, s.route_id, s.layout_id,
         (d.day + s.depart_time) AT TIME ZONE 'Asia/Dhaka' AS departure_at,
         ((d.day + s.depart_time) AT TIME ZONE 'Asia/Dhaka') + make_interval(mins => r.duration_minutes) AS arrival_at,
         s.fares,
         ((d.day - s.sale_days_before) + s.sale_opens) AT TIME ZONE 'Asia/Dhaka' AS sale_opens_at
    FROM unnest($1::date[], $2::int[]) AS d(day, weekday)
    JOIN schedules s ON d.weekday = ANY(s.weekdays)
                    AND (s.valid_from IS NULL OR d.day >= s.valid_from)
                    AND (s.valid_until IS NULL OR d.day <= s.valid_until)
    JOIN routes r ON r.id = s.route_id`

/** Inserts the timetable's trips of days first..last that do not exist yet; answers how many. */
export async function generateTrips(q: Queryable, first: string, last: string): Promise<number> {
  if (last < first) return 0
  const { dates, weekdays } = calendarDays(first, last)
  // NOT EXISTS first, so trips already there cost no sequence number; ON CONFLICT for a racing process.
  const rows = await q.query(
    `INSERT INTO trips (trip_date, coach_code, route_id, layout_id, departure_at, arrival_at, fares, sale_opens_at)
     SELECT d.trip_date, d.coach_code, d.route_id, d.layout_id, d.departure_at, d.arrival_at, d.fares, d.sale_opens_at
       FROM (${DESIRED_TRIPS}) d
      WHERE NOT EXISTS (SELECT 1 FROM trips t WHERE t.trip_date = d.trip_date AND t.coach_code = d.coach_code)
      ORDER BY d.trip_date, d.schedule_id
     ON CONFLICT (trip_date, coach_code) DO NOTHING
     RETURNING 1`,
    [dates, weekdays],
  )
  return rows.length
}

/** Records that trips exist through `last`. */
export async function setGeneratedThrough(q: Queryable, last: string): Promise<void> {
  await q.query(
    `INSERT INTO trip_generation (id, through) VALUES (1, $1::date)
     ON CONFLICT (id) DO UPDATE SET through = EXCLUDED.through WHERE trip_generation.through IS DISTINCT FROM EXCLUDED.through`,
    [last],
  )
}

/**
 * Generates the trips of the days that entered the window today..today+daysAhead
 * since the last generation; one small query when there are none. Answers how many
 * trips it added. Run inside a transaction holding the migration lock.
 */
export async function topUpTrips(q: Queryable, now: Date, daysAhead: number): Promise<number> {
  const today = dhakaDate(now)
  const last = addDays(today, daysAhead)
  const [state] = await q.query<{ through: string | null; timetable: boolean }>(
    'SELECT (SELECT through::text FROM trip_generation) AS through, EXISTS (SELECT 1 FROM schedules) AS timetable',
  )
  const through = state?.through ?? null
  if (through !== null && through >= last) return 0
  let added = 0
  if (state?.timetable) {
    const first = through !== null && through >= today ? addDays(through, 1) : today
    added = await generateTrips(q, first, last)
  }
  await setGeneratedThrough(q, last)
  return added
}

/**
 * Runs `topUpTrips` every hour (the day rolls over at Dhaka midnight, whatever the
 * server's clock zone), each in its own transaction under the migration lock so it
 * never interleaves with an import; answers a stop function.
 */
export function startTripTopUp(
  db: Db,
  now: () => Date,
  daysAhead: number,
  { everyMs = 3_600_000, log = console.error }: { everyMs?: number; log?: (msg: string) => void } = {},
): () => void {
  const run = async () => {
    const [state] = await db.query<{ through: string | null }>('SELECT through::text FROM trip_generation')
    if (state?.through && state.through >= addDays(dhakaDate(now()), daysAhead)) return
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY])
      await topUpTrips(tx, now(), daysAhead)
    })
  }
  const timer = setInterval(() => void run().catch((err: Error) => log(`[trips] top-up failed: ${err.message}`)), everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
