/**
 * The network file's `rushDates` (server/queue/): travel dates on a route sold through the
 * waiting room, each with the instant its queue opens. Kept apart from schema.ts and import.ts,
 * which call these three.
 */
import { z } from 'zod'
import { isCalendarDate, isInstant } from '../../contract/values.ts'
import type { Queryable } from '../db/db.ts'
import { addDays, dhakaDayStart } from '../lib/time.ts'
import { markRushDate, saleHourOf } from '../queue/rush-dates.ts'

/** One entry of `rushDates`. */
export const rushDateSchema = z
  .strictObject({
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date yyyy-mm-dd')
      .refine(isCalendarDate, 'is not a calendar date')
      .describe('Travel date (Asia/Dhaka) sold through the waiting room'),
    from: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be three capital letters, e.g. DHK')
      .describe('Origin city code (a route from-to must exist)'),
    to: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be three capital letters, e.g. DHK')
      .describe('Destination city code'),
    opensAt: z
      .string()
      .refine(isInstant, 'must be a date and time with its offset, e.g. 2026-03-20T08:00:00+06:00')
      .optional()
      .describe(
        "When the queue opens: who joins before it is drawn in random order at this instant; left out, the sale hour of the route's trips that date (saleOpens)",
      ),
    admitPerMinute: z
      .union([z.number().int().min(1).max(100_000), z.literal('auto')])
      .optional()
      .describe('Passengers admitted per minute, or "auto": as many a minute as seats are free; QUEUE_ADMIT_PER_MINUTE when left out'),
    admitMinutes: z
      .number()
      .int()
      .min(1)
      .max(240)
      .optional()
      .describe('Minutes an admitted passenger has to hold seats; QUEUE_ADMIT_MINUTES when left out'),
  })
  .describe('A travel date on one route sold through the waiting room (docs/operating.md "Rush dates")')

/** What the entries of `rushDates` say about the rest of the file: the route exists, one entry per route and date, opening before the date ends. */
export function checkRushDates(entries: unknown[], routes: Map<string, number>, add: (path: (string | number)[], message: string) => void): void {
  const seen = new Map<string, number>()
  entries.forEach((raw, i) => {
    const e = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
    const [date, from, to, opensAt] = [e.date, e.from, e.to, e.opensAt].map((v) => (typeof v === 'string' ? v : undefined))
    if (from && to && !routes.has(`${from}-${to}`)) add(['rushDates', i], `no route from ${from} to ${to} in routes`)
    if (date && from && to) {
      const k = `${date} ${from}-${to}`
      const first = seen.get(k)
      if (first !== undefined) add(['rushDates', i], `${from}-${to} on ${date} is also rushDates[${first}]`)
      else seen.set(k, i)
    }
    if (date && isCalendarDate(date) && opensAt && isInstant(opensAt) && Date.parse(opensAt) >= dhakaDayStart(addDays(date, 1)).getTime())
      add(['rushDates', i, 'opensAt'], `${opensAt} is after the travel date ${date} has ended`)
  })
}

/** Makes the rush dates marked by earlier imports match the file; those marked by the command are left alone. */
export async function importRushDates(
  tx: Queryable,
  entries: z.output<typeof rushDateSchema>[],
  c: { added: number; changed: number; removed: number; unchanged: number },
): Promise<void> {
  const keys = entries.map((e) => `${e.date} ${e.from} ${e.to}`)
  const gone = await tx.query(
    `DELETE FROM rush_dates WHERE source = 'network' AND NOT (trip_date::text || ' ' || origin_code || ' ' || destination_code = ANY($1::text[])) RETURNING 1`,
    [keys],
  )
  c.removed += gone.length
  const have = await tx.query<{
    k: string
    opens_at: Date
    admit_per_minute: number | null
    admit_auto: boolean
    admit_minutes: number | null
    source: string
  }>(
    "SELECT trip_date::text || ' ' || origin_code || ' ' || destination_code AS k, opens_at, admit_per_minute, admit_auto, admit_minutes, source FROM rush_dates",
  )
  for (const e of entries) {
    const row = have.find((h) => h.k === `${e.date} ${e.from} ${e.to}`)
    const key = { tripDate: e.date, originCode: e.from, destinationCode: e.to }
    const opensAt = e.opensAt ? new Date(e.opensAt) : await saleHourOf(tx, key)
    if (!opensAt) throw new Error(`rushDates: ${e.from}-${e.to} on ${e.date} has no opensAt and its trips no sale hour (saleOpens)`)
    const want = { opensAt, admitPerMinute: e.admitPerMinute ?? null, admitMinutes: e.admitMinutes ?? null }
    if (
      row &&
      row.source === 'network' &&
      row.opens_at.getTime() === want.opensAt.getTime() &&
      (row.admit_auto ? 'auto' : row.admit_per_minute) === want.admitPerMinute &&
      row.admit_minutes === want.admitMinutes
    ) {
      c.unchanged++
      continue
    }
    await markRushDate(tx, { ...key, ...want }, 'network')
    if (row) c.changed++
    else c.added++
  }
}
