/**
 * Rush dates as the operator marks them: in the network file (`rushDates`, imported with
 * source 'network') or by `npm run trip -- rush` during a sale (source 'command').
 */
import type { Queryable } from '../db/db.ts'

/** One rush date: the route and travel date, its opening instant (null: the sale hour of its trips), its rate ('auto': from seats free) and admission minutes (null: the server's defaults). */
export interface RushDate {
  tripDate: string
  originCode: string
  destinationCode: string
  opensAt: Date | null
  admitPerMinute: number | 'auto' | null
  admitMinutes: number | null
}

/** A rush_dates row as read. */
export interface RushRow {
  trip_date: string
  origin_code: string
  destination_code: string
  opens_at: Date
  admit_per_minute: number | null
  admit_auto: boolean
  admit_minutes: number | null
}

/** When the route's trips of that date go on sale (their sale hour, the network file's saleOpens); null when they always are. */
export async function saleHourOf(q: Queryable, key: { tripDate: string; originCode: string; destinationCode: string }): Promise<Date | null> {
  const [row] = await q.query<{ opens: Date | null }>(
    `SELECT min(t.sale_opens_at) AS opens FROM trips t JOIN routes ro ON ro.id = t.route_id
      WHERE t.trip_date = $1 AND ro.origin_code = $2 AND ro.destination_code = $3`,
    [key.tripDate, key.originCode, key.destinationCode],
  )
  return row?.opens ?? null
}

/** Whether the route's trips of that date sell through a waiting room. */
export async function isRushDate(q: Queryable, key: { tripDate: string; originCode: string; destinationCode: string }): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM rush_dates WHERE trip_date = $1 AND origin_code = $2 AND destination_code = $3', [
    key.tripDate,
    key.originCode,
    key.destinationCode,
  ])
  return rows.length > 0
}

/**
 * Marks (or changes) a rush date; answers whether it was new. People already queued keep their places and draws.
 * Without an opening instant the queue opens at the sale hour of the route's trips that date; throws when they have none.
 */
export async function markRushDate(q: Queryable, given: RushDate, source: 'network' | 'command'): Promise<boolean> {
  const opensAt = given.opensAt ?? (await saleHourOf(q, given))
  if (!opensAt)
    throw new Error(
      `${given.originCode}-${given.destinationCode} on ${given.tripDate} has no sale hour (saleOpens in the network file): give the queue's opening instant`,
    )
  const r = { ...given, opensAt }
  const [row] = await q.query<{ added: boolean }>(
    `INSERT INTO rush_dates (trip_date, origin_code, destination_code, opens_at, admit_per_minute, admit_auto, admit_minutes, source)
     VALUES ($1, $2, $3, $4, $5, $8, $6, $7)
     ON CONFLICT (trip_date, origin_code, destination_code) DO UPDATE
       SET opens_at = EXCLUDED.opens_at, admit_per_minute = EXCLUDED.admit_per_minute, admit_auto = EXCLUDED.admit_auto,
           admit_minutes = EXCLUDED.admit_minutes, source = EXCLUDED.source
     RETURNING xmax = 0 AS added`,
    [
      r.tripDate,
      r.originCode,
      r.destinationCode,
      r.opensAt,
      r.admitPerMinute === 'auto' ? null : r.admitPerMinute,
      r.admitMinutes,
      source,
      r.admitPerMinute === 'auto',
    ],
  )
  return row!.added
}

/** Ends a rush date and its queue (seat locks need no admission any more); answers whether there was one. */
export async function unmarkRushDate(q: Queryable, key: { tripDate: string; originCode: string; destinationCode: string }): Promise<boolean> {
  const rows = await q.query('DELETE FROM rush_dates WHERE trip_date = $1 AND origin_code = $2 AND destination_code = $3 RETURNING 1', [
    key.tripDate,
    key.originCode,
    key.destinationCode,
  ])
  return rows.length > 0
}

/** Every rush date with its queue: source, places waiting and admitted. */
export async function listRushDates(q: Queryable): Promise<(RushDate & { opensAt: Date; source: string; waiting: number; admitted: number })[]> {
  const rows = await q.query<RushRow & { source: string; waiting: number; admitted: number }>(
    `SELECT r.trip_date::text, r.origin_code, r.destination_code, r.opens_at, r.admit_per_minute, r.admit_auto, r.admit_minutes, r.source,
            count(p.id) FILTER (WHERE p.admitted_at IS NULL)::int AS waiting, count(p.admitted_at)::int AS admitted
       FROM rush_dates r LEFT JOIN queue_places p ON p.rush_id = r.id
      GROUP BY r.id ORDER BY r.trip_date, r.origin_code, r.destination_code`,
  )
  return rows.map((r) => ({
    tripDate: r.trip_date,
    originCode: r.origin_code,
    destinationCode: r.destination_code,
    opensAt: r.opens_at,
    admitPerMinute: r.admit_auto ? 'auto' : r.admit_per_minute,
    admitMinutes: r.admit_minutes,
    source: r.source,
    waiting: r.waiting,
    admitted: r.admitted,
  }))
}
