/**
 * Imports a validated network file into the database, in the caller's transaction.
 * Rows are matched by their natural keys (city code, counter city + name, layout
 * code, route from + to, coach code, time-period label, coupon code, announcement
 * key), compared field by field, and only differences are written: the same file
 * twice changes nothing. Trips from today on are made to match the timetable,
 * except trips with reservations (any ticket or booking, even canceled) or seats on
 * hold: those are never changed or deleted, only reported.
 */
import { seatTypes } from '../../contract/schemas.ts'
import { pgArray, type Queryable } from '../db/db.ts'
import type { StationRow } from '../trips/lookups.ts'
import { addDays, calendarDays, dhakaDate } from '../lib/time.ts'
import { weekdayNames, type Network, type NetworkLayout } from './schema.ts'
import { DESIRED_TRIPS, generateTrips, setGeneratedThrough } from './trips.ts'
import { importRushDates } from './rush.ts'

/** What an import did to one kind of row. */
export interface Counts {
  added: number
  changed: number
  removed: number
  unchanged: number
}

/** What an import did to trips; `kept`: trips the timetable would change or drop but that have reservations. */
export interface TripCounts extends Counts {
  kept: number
}

/** The answer of `importNetwork`, also stored in `network_imports.report`. */
export interface ImportReport {
  company: Counts
  cities: Counts
  counters: Counts
  layouts: Counts
  routes: Counts
  timetable: Counts
  timePeriods: Counts
  offers: Counts
  announcements: Counts
  rushDates: Counts
  trips: TripCounts
  warnings: string[]
}

export interface ImportOptions {
  /** The import's clock: trips departing after it are made to match the timetable. */
  now: Date
  /** Trips are generated for today..today+daysAhead (Asia/Dhaka). */
  daysAhead: number
  /** Recorded in `network_imports` with the hash, when given. */
  source?: string
  sha256?: string
}

const counts = (): Counts => ({ added: 0, changed: 0, removed: 0, unchanged: 0 })

/** What the file wants against what is stored, matched by key: rows to add, rows to change (with the stored row), stored rows the file no longer has. */
interface RowDiff<R, W> {
  add: W[]
  change: { row: R; want: W }[]
  gone: R[]
}

/** Matches `wanted` to the stored `rows` by key; a pair for which `same` holds is counted unchanged in `c`. */
function diffRows<R, W>(
  rows: R[],
  rowKey: (r: R) => string,
  wanted: W[],
  wantKey: (w: W) => string,
  same: (row: R, want: W) => boolean,
  c: Counts,
): RowDiff<R, W> {
  const have = new Map(rows.map((r) => [rowKey(r), r]))
  const diff: RowDiff<R, W> = { add: [], change: [], gone: [] }
  for (const want of wanted) {
    const row = have.get(wantKey(want))
    if (!row) diff.add.push(want)
    else if (same(row, want)) c.unchanged++
    else diff.change.push({ row, want })
  }
  const keys = new Set(wanted.map(wantKey))
  diff.gone = rows.filter((r) => !keys.has(rowKey(r)))
  return diff
}

/** Runs `sql` once with one array parameter per column of `list` (read by `unnest`); nothing when `list` is empty. */
async function writeRows<T>(tx: Queryable, sql: string, list: T[], columns: ((t: T) => unknown)[]): Promise<void> {
  if (list.length > 0)
    await tx.query(
      sql,
      columns.map((col) => list.map(col)),
    )
}

/** True when the import added, changed or removed anything. */
export function reportChanged(r: ImportReport): boolean {
  return Object.values(r).some((c) => typeof c === 'object' && !Array.isArray(c) && c.added + c.changed + c.removed > 0)
}

/** The report as lines for a terminal. */
export function describeReport(r: ImportReport): string {
  const lines: string[] = []
  for (const [name, c] of Object.entries(r) as [string, Counts | string[]][]) {
    if (Array.isArray(c)) continue
    const parts = (['added', 'changed', 'removed', 'unchanged', 'kept'] as const)
      .filter((k) => (c as TripCounts)[k])
      .map((k) => `${(c as TripCounts)[k]} ${k}`)
    lines.push(`  ${name.padEnd(14)} ${parts.join(', ') || 'none'}`)
  }
  lines.push(reportChanged(r) ? 'The network was updated.' : 'Nothing changed.')
  if (r.warnings.length > 0) lines.push(`Warnings (${r.warnings.length}):`, ...r.warnings.map((w) => `  - ${w}`))
  return lines.join('\n')
}

/** Trips with reservations (any, even canceled) or unexpired holds: an import never changes or deletes them. */
const IN_USE = (trip: string, now: string) =>
  `(EXISTS (SELECT 1 FROM reservations x WHERE x.trip_id = ${trip}.id) OR EXISTS (SELECT 1 FROM seat_locks k WHERE k.trip_id = ${trip}.id AND k.expires_at > ${now}))`

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Fares with their keys in catalogue order, so equal fares compare equal. */
function canonicalFares(f: Partial<Record<string, number>> | string): Record<string, number> {
  const o = typeof f === 'string' ? (JSON.parse(f) as Record<string, number>) : f
  const out: Record<string, number> = {}
  for (const t of seatTypes) if (o[t] !== undefined) out[t] = Number(o[t])
  return out
}

/** Imports `net`; answers what it added, changed, removed and left alone, and what it could not change. */
export async function importNetwork(tx: Queryable, net: Network, opts: ImportOptions): Promise<ImportReport> {
  const today = dhakaDate(opts.now)
  const report: ImportReport = {
    company: counts(),
    cities: counts(),
    counters: counts(),
    layouts: counts(),
    routes: counts(),
    timetable: counts(),
    timePeriods: counts(),
    offers: counts(),
    announcements: counts(),
    rushDates: counts(),
    trips: { ...counts(), kept: 0 },
    warnings: [],
  }
  const ctx: Ctx = { tx, net, now: opts.now, today, report }

  await importCompany(ctx)
  const cityRows = await importCities(ctx)
  const counterRows = await importCounters(ctx)
  const layouts = await importLayouts(ctx)
  const routes = await importRoutes(ctx)
  await importTimetable(ctx, routes.ids, layouts.ids)
  await reconcileTrips(ctx, opts.daysAhead)
  await withdrawRoutes(ctx, routes.gone)
  await withdrawCounters(ctx, counterRows)
  await withdrawLayouts(ctx, layouts.gone)
  await withdrawCities(ctx, cityRows)
  await importTimePeriods(ctx)
  await importOffers(ctx)
  await importAnnouncements(ctx)
  await importRushDates(tx, net.rushDates, report.rushDates)

  if (opts.source !== undefined) {
    await tx.query('INSERT INTO network_imports (source, sha256, report, imported_at) VALUES ($1, $2, $3::jsonb, $4)', [
      opts.source,
      opts.sha256 ?? '',
      JSON.stringify(report),
      opts.now,
    ])
  }
  return report
}

interface Ctx {
  tx: Queryable
  net: Network
  now: Date
  today: string
  report: ImportReport
}

async function importCompany({ tx, net, report }: Ctx): Promise<void> {
  const c = net.company
  const [row] = await tx.query<{ name: string; phone: string; email: string }>('SELECT name, phone, email FROM company WHERE id = 1')
  if (!row) {
    await tx.query('INSERT INTO company (id, name, phone, email) VALUES (1, $1, $2, $3)', [c.name, c.phone, c.email])
    report.company.added++
  } else if (row.name !== c.name || row.phone !== c.phone || row.email !== c.email) {
    await tx.query('UPDATE company SET name = $1, phone = $2, email = $3 WHERE id = 1', [c.name, c.phone, c.email])
    report.company.changed++
  } else {
    report.company.unchanged++
  }
}

interface CityRow {
  code: string
  name: string
  name_bn: string
  sort: number
  active: boolean
}

async function importCities({ tx, net, report }: Ctx): Promise<CityRow[]> {
  const rows = await tx.query<CityRow>('SELECT code, name, name_bn, sort, active FROM cities')
  const wanted = net.cities.map((c, i): CityRow => ({ code: c.code, name: c.name, name_bn: c.nameBn, sort: i + 1, active: true }))
  const { add, change } = diffRows(
    rows,
    (r) => r.code,
    wanted,
    (w) => w.code,
    (r, w) => r.name === w.name && r.name_bn === w.name_bn && r.sort === w.sort && r.active,
    report.cities,
  )
  const columns = [(c: CityRow) => c.code, (c: CityRow) => c.name, (c: CityRow) => c.name_bn, (c: CityRow) => c.sort]
  await writeRows(
    tx,
    'INSERT INTO cities (code, name, name_bn, sort) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[])',
    add,
    columns,
  )
  await writeRows(
    tx,
    `UPDATE cities c SET name = u.name, name_bn = u.name_bn, sort = u.sort, active = true
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS u(code, name, name_bn, sort) WHERE c.code = u.code`,
    change.map((c) => c.want),
    columns,
  )
  report.cities.added += add.length
  report.cities.changed += change.length
  return rows
}

interface CounterRow extends StationRow {
  active: boolean
}

const counterKey = (city: string, name: string) => `${city}\u0000${name}`

async function importCounters({ tx, net, report }: Ctx): Promise<CounterRow[]> {
  const rows = await tx.query<CounterRow>('SELECT id, city_code, name, address, phone, offset_minutes, active FROM bus_stations')
  type Want = Omit<CounterRow, 'id' | 'active'>
  const wanted = net.cities.flatMap((c) =>
    c.counters.map((k): Want => ({ city_code: c.code, name: k.name, address: k.address, phone: k.phone, offset_minutes: k.offsetMinutes })),
  )
  const key = (r: Want) => counterKey(r.city_code, r.name)
  const { add, change } = diffRows(
    rows,
    key,
    wanted,
    key,
    (r, w) => r.address === w.address && r.phone === w.phone && r.offset_minutes === w.offset_minutes && r.active,
    report.counters,
  )
  await writeRows(
    tx,
    `INSERT INTO bus_stations (city_code, name, address, phone, offset_minutes)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[])`,
    add,
    [(c) => c.city_code, (c) => c.name, (c) => c.address, (c) => c.phone, (c) => c.offset_minutes],
  )
  await writeRows(
    tx,
    `UPDATE bus_stations b SET address = u.address, phone = u.phone, offset_minutes = u.offset_minutes, active = true
       FROM unnest($1::int[], $2::text[], $3::text[], $4::int[]) AS u(id, address, phone, offset_minutes) WHERE b.id = u.id`,
    change,
    [(c) => c.row.id, (c) => c.want.address, (c) => c.want.phone, (c) => c.want.offset_minutes],
  )
  report.counters.added += add.length
  report.counters.changed += change.length
  return rows
}

interface LayoutRow {
  id: number
  code: string
  name: string
  coach_type: string
  rows: number
  columns: number
  aisle_columns: unknown
  decks: unknown
}

interface SeatRow {
  layout_id: number
  name: string
  row: number
  col: number
  deck: string
  seat_type: string
}

/** The parts of a layout that tickets depend on (all but its name), in a comparable form. */
function layoutShape(l: {
  coachType: string
  rows: number
  columns: number
  aisleColumns: number[]
  decks: string[]
  seats: { name: string; row: number; col: number; deck: string; seatType: string }[]
}): string {
  const seats = [...l.seats].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((s) => [s.name, s.row, s.col, s.deck, s.seatType])
  return JSON.stringify([l.coachType, l.rows, l.columns, [...l.aisleColumns].sort((a, b) => a - b), l.decks, seats])
}

async function insertLayout(tx: Queryable, l: NetworkLayout): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    'INSERT INTO layouts (code, name, coach_type, rows, columns, aisle_columns, decks) VALUES ($1, $2, $3, $4, $5, $6::int[], $7::text[]) RETURNING id',
    [l.code, l.name, l.coachType, l.rows, l.columns, l.aisleColumns, l.decks],
  )
  await insertSeats(tx, row!.id, l)
  return row!.id
}

async function insertSeats(tx: Queryable, layoutId: number, l: NetworkLayout): Promise<void> {
  const s = l.seats
  await tx.query(
    `INSERT INTO layout_seats (layout_id, name, row, col, deck, seat_type)
     SELECT $1, * FROM unnest($2::text[], $3::int[], $4::int[], $5::text[], $6::text[])`,
    [layoutId, s.map((x) => x.name), s.map((x) => x.row), s.map((x) => x.col), s.map((x) => x.deck), s.map((x) => x.seatType)],
  )
}

/**
 * A layout whose seats (or coach type, rows, columns, aisles, decks) change while
 * trips with reservations use it becomes a new version: the old row is retired and
 * keeps its seats for those trips, the new one takes the code and every other trip.
 * Without such trips it is changed in place.
 */
/** Ids by code, and the ids of current layouts the file no longer has. */
interface Imported {
  ids: Map<string, number>
  gone: number[]
}

async function importLayouts({ tx, net, now, report }: Ctx): Promise<Imported> {
  const rows = await tx.query<LayoutRow>('SELECT id, code, name, coach_type, rows, columns, aisle_columns, decks FROM layouts WHERE NOT retired')
  const seats = await tx.query<SeatRow>('SELECT layout_id, name, row, col, deck, seat_type FROM layout_seats WHERE layout_id = ANY($1::int[])', [
    rows.map((r) => r.id),
  ])
  const seatsOf = new Map<number, SeatRow[]>()
  for (const s of seats) (seatsOf.get(s.layout_id) ?? seatsOf.set(s.layout_id, []).get(s.layout_id)!).push(s)
  const have = new Map(rows.map((r) => [r.code, r]))
  const ids = new Map<string, number>()
  for (const l of net.layouts) {
    const row = have.get(l.code)
    if (!row) {
      ids.set(l.code, await insertLayout(tx, l))
      report.layouts.added++
      continue
    }
    const current = layoutShape({
      coachType: row.coach_type,
      rows: row.rows,
      columns: row.columns,
      aisleColumns: pgArray(row.aisle_columns).map(Number),
      decks: pgArray(row.decks),
      seats: (seatsOf.get(row.id) ?? []).map((s) => ({ name: s.name, row: s.row, col: s.col, deck: s.deck, seatType: s.seat_type })),
    })
    if (current === layoutShape(l)) {
      ids.set(l.code, row.id)
      if (row.name !== l.name) {
        await tx.query('UPDATE layouts SET name = $2 WHERE id = $1', [row.id, l.name])
        report.layouts.changed++
      } else {
        report.layouts.unchanged++
      }
      continue
    }
    report.layouts.changed++
    const [use] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM trips t WHERE t.layout_id = $1 AND ${IN_USE('t', '$2')}`, [
      row.id,
      now,
    ])
    if (use!.n > 0) {
      await tx.query('UPDATE layouts SET retired = true WHERE id = $1', [row.id])
      ids.set(l.code, await insertLayout(tx, l))
      report.warnings.push(
        `layout ${l.code}: its seats changed; ${use!.n} trip(s) with reservations or held seats keep the previous seat plan, every other trip from today on gets the new one`,
      )
    } else {
      await tx.query(
        'UPDATE layouts SET name = $2, coach_type = $3, rows = $4, columns = $5, aisle_columns = $6::int[], decks = $7::text[] WHERE id = $1',
        [row.id, l.name, l.coachType, l.rows, l.columns, l.aisleColumns, l.decks],
      )
      await tx.query('DELETE FROM layout_seats WHERE layout_id = $1', [row.id])
      await insertSeats(tx, row.id, l)
      ids.set(l.code, row.id)
    }
  }
  return { ids, gone: rows.filter((r) => !ids.has(r.code)).map((r) => r.id) }
}

interface RouteRow {
  id: number
  origin_code: string
  destination_code: string
  distance_km: number
  duration_minutes: number
  active: boolean
}

const routeKey = (from: string, to: string) => `${from}-${to}`

async function importRoutes({ tx, net, report }: Ctx): Promise<Imported> {
  const rows = await tx.query<RouteRow>('SELECT id, origin_code, destination_code, distance_km, duration_minutes, active FROM routes ORDER BY id')
  const rowKey = (r: { origin_code: string; destination_code: string }) => routeKey(r.origin_code, r.destination_code)
  const { add, change, gone } = diffRows(
    rows,
    rowKey,
    net.routes,
    (r) => routeKey(r.from, r.to),
    (row, r) => row.distance_km === r.distanceKm && row.duration_minutes === r.durationMinutes && row.active,
    report.routes,
  )
  const goneIds = gone.map((r) => r.id)
  const ids = new Map(rows.filter((r) => !goneIds.includes(r.id)).map((r) => [rowKey(r), r.id]))
  if (add.length > 0) {
    const inserted = await tx.query<{ id: number; origin_code: string; destination_code: string }>(
      `INSERT INTO routes (origin_code, destination_code, distance_km, duration_minutes)
       SELECT a, b, km, min FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]) WITH ORDINALITY AS u(a, b, km, min, n) ORDER BY n
       RETURNING id, origin_code, destination_code`,
      [add.map((r) => r.from), add.map((r) => r.to), add.map((r) => r.distanceKm), add.map((r) => r.durationMinutes)],
    )
    for (const r of inserted) ids.set(rowKey(r), r.id)
  }
  await writeRows(
    tx,
    `UPDATE routes r SET distance_km = u.km, duration_minutes = u.min, active = true
       FROM unnest($1::int[], $2::int[], $3::int[]) AS u(id, km, min) WHERE r.id = u.id`,
    change,
    [(c) => c.row.id, (c) => c.want.distanceKm, (c) => c.want.durationMinutes],
  )
  report.routes.added += add.length
  report.routes.changed += change.length
  return { ids, gone: goneIds }
}

interface ScheduleRow {
  id: number
  coach_code: string
  route_id: number
  layout_id: number
  departs: string
  weekdays: unknown
  valid_from: string | null
  valid_until: string | null
  fares: Record<string, number> | string
  sale_days_before: number | null
  sale_opens: string | null
}

async function importTimetable({ tx, net, report }: Ctx, routeIds: Map<string, number>, layoutIds: Map<string, number>): Promise<void> {
  const rows = await tx.query<ScheduleRow>(
    `SELECT id, coach_code, route_id, layout_id, to_char(depart_time, 'HH24:MI') AS departs, weekdays,
            valid_from::text AS valid_from, valid_until::text AS valid_until, fares,
            sale_days_before, to_char(sale_opens, 'HH24:MI') AS sale_opens
       FROM schedules`,
  )
  type Want = {
    code: string
    route: number
    layout: number
    departs: string
    weekdays: number[]
    from: string | null
    until: string | null
    fares: string
    saleDays: number | null
    saleAt: string | null
  }
  const routeSales = new Map(net.routes.map((r) => [routeKey(r.from, r.to), r.saleOpens]))
  const wanted = net.timetable.map((d): Want => {
    // the entry's own sale hour (null: always on sale), else its route's
    const sale = d.saleOpens !== undefined ? d.saleOpens : routeSales.get(routeKey(d.from, d.to))
    return {
      code: d.coachCode,
      route: routeIds.get(routeKey(d.from, d.to))!,
      layout: layoutIds.get(d.layout)!,
      departs: d.departs,
      weekdays: d.weekdays.map((w) => weekdayNames.indexOf(w) + 1).sort((a, b) => a - b),
      from: d.validFrom ?? null,
      until: d.validUntil ?? null,
      fares: JSON.stringify(canonicalFares(d.fares)),
      saleDays: sale?.daysBefore ?? null,
      saleAt: sale?.at ?? null,
    }
  })
  const { add, change, gone } = diffRows(
    rows,
    (r) => r.coach_code,
    wanted,
    (w) => w.code,
    (row, want) =>
      row.route_id === want.route &&
      row.layout_id === want.layout &&
      row.departs === want.departs &&
      sameJson(
        pgArray(row.weekdays)
          .map(Number)
          .sort((a, b) => a - b),
        want.weekdays,
      ) &&
      row.valid_from === want.from &&
      row.valid_until === want.until &&
      JSON.stringify(canonicalFares(row.fares)) === want.fares &&
      row.sale_days_before === want.saleDays &&
      row.sale_opens === want.saleAt,
    report.timetable,
  )
  if (gone.length > 0) await tx.query('DELETE FROM schedules WHERE id = ANY($1::int[])', [gone.map((r) => r.id)])
  // Weekdays travel as '{1,2,3}' texts: unnest cannot take an array of arrays of different lengths.
  const columns = (id: (w: Want) => number) => [
    id,
    (w: Want) => w.code,
    (w: Want) => w.route,
    (w: Want) => w.layout,
    (w: Want) => w.departs,
    (w: Want) => `{${w.weekdays.join(',')}}`,
    (w: Want) => w.from,
    (w: Want) => w.until,
    (w: Want) => w.fares,
    (w: Want) => w.saleDays,
    (w: Want) => w.saleAt,
  ]
  const unnest = `unnest($1::int[], $2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::date[], $8::date[], $9::text[], $10::int[], $11::text[])
                  WITH ORDINALITY AS u(id, code, route, layout, departs, weekdays, valid_from, valid_until, fares, sale_days, sale_at, n)`
  await writeRows(
    tx,
    `INSERT INTO schedules (coach_code, route_id, layout_id, depart_time, weekdays, valid_from, valid_until, fares, sale_days_before, sale_opens)
     SELECT code, route, layout, departs::time, weekdays::int[], valid_from, valid_until, fares::jsonb, sale_days, sale_at::time FROM ${unnest} ORDER BY n`,
    add,
    columns(() => 0),
  )
  const idOf = new Map(change.map((c) => [c.want, c.row.id]))
  await writeRows(
    tx,
    `UPDATE schedules s SET route_id = u.route, layout_id = u.layout, depart_time = u.departs::time, weekdays = u.weekdays::int[],
            valid_from = u.valid_from, valid_until = u.valid_until, fares = u.fares::jsonb,
            sale_days_before = u.sale_days, sale_opens = u.sale_at::time
       FROM ${unnest} WHERE s.id = u.id`,
    change.map((c) => c.want),
    columns((w) => idOf.get(w)!),
  )
  report.timetable.added += add.length
  report.timetable.changed += change.length
  report.timetable.removed += gone.length
}

/**
 * Makes trips departing after `now` match the timetable (updated, deleted) and
 * generates the missing ones of today..today+daysAhead. Trips in use are only
 * reported. The trips to change are locked first, so a reservation or hold
 * committed by another process meanwhile is seen before anything is written.
 */
async function reconcileTrips({ tx, now, today, report }: Ctx, daysAhead: number): Promise<void> {
  const last = addDays(today, daysAhead)
  const [future] = await tx.query<{ n: number; last: string | null }>(
    'SELECT count(*)::int AS n, max(trip_date)::text AS last FROM trips WHERE departure_at > $1',
    [now],
  )
  if (future!.n > 0) {
    // every future trip's day is compared, also beyond the window (TRIP_DAYS_AHEAD may have shrunk)
    const { dates, weekdays } = calendarDays(today, future!.last! > last ? future!.last! : last)
    const differs = `(d.coach_code IS NULL OR t.route_id <> d.route_id OR t.layout_id <> d.layout_id OR t.departure_at <> d.departure_at
                      OR t.arrival_at <> d.arrival_at OR t.fares <> d.fares)`
    const locked = await tx.query<{ id: number }>(
      `SELECT t.id FROM trips t LEFT JOIN (${DESIRED_TRIPS}) d ON d.trip_date = t.trip_date AND d.coach_code = t.coach_code
        WHERE t.departure_at > $3 AND ${differs} ORDER BY t.id FOR UPDATE OF t`,
      [dates, weekdays, now],
    )
    // A sale hour moves on every future trip, one with reservations too (its tickets stay as they are);
    // the trips changed for other reasons below take theirs with the rest.
    const resold = await tx.query<{ id: number; kept: boolean }>(
      `UPDATE trips t SET sale_opens_at = d.sale_opens_at FROM (${DESIRED_TRIPS}) d
        WHERE t.departure_at > $3 AND d.trip_date = t.trip_date AND d.coach_code = t.coach_code
          AND t.sale_opens_at IS DISTINCT FROM d.sale_opens_at AND NOT (t.id = ANY($4::int[]) AND NOT ${IN_USE('t', '$3')})
        RETURNING t.id, t.id = ANY($4::int[]) AS kept`,
      [dates, weekdays, now, locked.map((r) => r.id)],
    )
    const saleOnly = resold.filter((r) => !r.kept).length
    report.trips.changed += saleOnly
    report.trips.unchanged += future!.n - locked.length - saleOnly
    if (locked.length > 0) {
      const rows = await tx.query<{
        id: number
        trip_date: string
        coach_code: string
        dropped: boolean
        reserved: boolean
        held: boolean
        what: string
      }>(
        `SELECT t.id, t.trip_date::text AS trip_date, t.coach_code, d.coach_code IS NULL AS dropped,
                EXISTS (SELECT 1 FROM reservations x WHERE x.trip_id = t.id) AS reserved,
                EXISTS (SELECT 1 FROM seat_locks k WHERE k.trip_id = t.id AND k.expires_at > $3) AS held,
                concat_ws(', ', CASE WHEN t.departure_at <> d.departure_at OR t.arrival_at <> d.arrival_at THEN 'times' END,
                                CASE WHEN t.fares <> d.fares THEN 'fares' END,
                                CASE WHEN t.layout_id <> d.layout_id THEN 'layout' END,
                                CASE WHEN t.route_id <> d.route_id THEN 'route' END) AS what
           FROM trips t LEFT JOIN (${DESIRED_TRIPS}) d ON d.trip_date = t.trip_date AND d.coach_code = t.coach_code
          WHERE t.id = ANY($4::int[]) ORDER BY t.trip_date, t.departure_at, t.coach_code`,
        [dates, weekdays, now, locked.map((r) => r.id)],
      )
      const update: number[] = []
      const drop: number[] = []
      for (const r of rows) {
        if (r.reserved || r.held) {
          report.trips.kept++
          const why = r.reserved ? 'has reservations' : 'has seats on hold'
          report.warnings.push(
            r.dropped
              ? `trip ${r.trip_date} ${r.coach_code} ${why}: it stays, although the timetable no longer runs it that day`
              : `trip ${r.trip_date} ${r.coach_code} ${why}: it keeps its old ${r.what}`,
          )
        } else if (r.dropped) {
          drop.push(r.id)
        } else {
          update.push(r.id)
        }
      }
      if (update.length > 0) {
        await tx.query(
          `UPDATE trips t SET route_id = d.route_id, layout_id = d.layout_id, departure_at = d.departure_at, arrival_at = d.arrival_at, fares = d.fares,
                              sale_opens_at = d.sale_opens_at
             FROM (${DESIRED_TRIPS}) d WHERE t.id = ANY($3::int[]) AND d.trip_date = t.trip_date AND d.coach_code = t.coach_code`,
          [dates, weekdays, update],
        )
      }
      // expired holds go with the trip (ON DELETE CASCADE); the rows were checked for live ones above
      if (drop.length > 0) await tx.query('DELETE FROM trips WHERE id = ANY($1::int[])', [drop])
      report.trips.changed += update.length
      report.trips.removed += drop.length
    }
  }
  report.trips.added += await generateTrips(tx, today, last)
  await setGeneratedThrough(tx, last)
}

/** Routes the file no longer has: deleted when no trip ever used them, else withdrawn from the lists. */
async function withdrawRoutes({ tx, report }: Ctx, gone: number[]): Promise<void> {
  if (gone.length === 0) return
  const deleted = await tx.query(
    `DELETE FROM routes r WHERE r.id = ANY($1::int[]) AND NOT EXISTS (SELECT 1 FROM trips t WHERE t.route_id = r.id)
       AND NOT EXISTS (SELECT 1 FROM schedules s WHERE s.route_id = r.id) RETURNING 1`,
    [gone],
  )
  const withdrawn = await tx.query('UPDATE routes SET active = false WHERE id = ANY($1::int[]) AND active RETURNING 1', [gone])
  report.routes.removed += deleted.length + withdrawn.length
}

/** Counters the file no longer has: deleted when no ticket names them, else withdrawn from the lists. */
async function withdrawCounters({ tx, net, report }: Ctx, rows: CounterRow[]): Promise<void> {
  const wanted = new Set(net.cities.flatMap((c) => c.counters.map((k) => counterKey(c.code, k.name))))
  const gone = rows.filter((r) => !wanted.has(counterKey(r.city_code, r.name))).map((r) => r.id)
  if (gone.length === 0) return
  const deleted = await tx.query(
    `DELETE FROM bus_stations b WHERE b.id = ANY($1::int[])
       AND NOT EXISTS (SELECT 1 FROM reservations x WHERE x.boarding_station_id = b.id OR x.dropping_station_id = b.id) RETURNING 1`,
    [gone],
  )
  const withdrawn = await tx.query('UPDATE bus_stations SET active = false WHERE id = ANY($1::int[]) AND active RETURNING 1', [gone])
  report.counters.removed += deleted.length + withdrawn.length
}

/** Layouts the file no longer has: deleted when no trip uses them, else retired. */
async function withdrawLayouts({ tx, report }: Ctx, gone: number[]): Promise<void> {
  if (gone.length === 0) return
  const unused = await tx.query<{ id: number }>(
    `SELECT l.id FROM layouts l WHERE l.id = ANY($1::int[])
        AND NOT EXISTS (SELECT 1 FROM trips t WHERE t.layout_id = l.id) AND NOT EXISTS (SELECT 1 FROM schedules s WHERE s.layout_id = l.id)`,
    [gone],
  )
  const unusedIds = unused.map((r) => r.id)
  if (unusedIds.length > 0) {
    await tx.query('DELETE FROM layout_seats WHERE layout_id = ANY($1::int[])', [unusedIds])
    await tx.query('DELETE FROM layouts WHERE id = ANY($1::int[])', [unusedIds])
  }
  await tx.query('UPDATE layouts SET retired = true WHERE id = ANY($1::int[]) AND NOT retired', [gone.filter((id) => !unusedIds.includes(id))])
  report.layouts.removed += gone.length
}

/** Cities the file no longer has: deleted when nothing refers to them, else withdrawn from the lists. */
async function withdrawCities({ tx, net, report }: Ctx, rows: CityRow[]): Promise<void> {
  const wanted = new Set(net.cities.map((c) => c.code))
  const gone = rows.filter((r) => !wanted.has(r.code)).map((r) => r.code)
  if (gone.length === 0) return
  const deleted = await tx.query(
    `DELETE FROM cities c WHERE c.code = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM routes r WHERE r.origin_code = c.code OR r.destination_code = c.code)
       AND NOT EXISTS (SELECT 1 FROM bus_stations b WHERE b.city_code = c.code) RETURNING 1`,
    [gone],
  )
  const withdrawn = await tx.query('UPDATE cities SET active = false WHERE code = ANY($1::text[]) AND active RETURNING 1', [gone])
  report.cities.removed += deleted.length + withdrawn.length
}

async function importTimePeriods({ tx, net, report }: Ctx): Promise<void> {
  const rows = await tx.query<{ label: string; label_bn: string | null; value: string; integer_value: number; sort: number }>(
    'SELECT label, label_bn, value, integer_value, sort FROM time_periods',
  )
  const wanted = net.timePeriods.map((p, i) => ({
    label: p.label,
    label_bn: p.labelBn ?? null,
    value: p.value,
    integer_value: p.integerValue,
    sort: i + 1,
  }))
  const { add, change, gone } = diffRows(
    rows,
    (r) => r.label,
    wanted,
    (w) => w.label,
    (r, w) => r.label_bn === w.label_bn && r.value === w.value && r.integer_value === w.integer_value && r.sort === w.sort,
    report.timePeriods,
  )
  // removed first, then changed, then added: a label that stays, or a new one, may take over a removed one's integerValue
  if (gone.length > 0) await tx.query('DELETE FROM time_periods WHERE label = ANY($1::text[])', [gone.map((r) => r.label)])
  for (const { want: p } of change) {
    await tx.query('UPDATE time_periods SET label_bn = $2, value = $3, integer_value = $4, sort = $5 WHERE label = $1', [
      p.label,
      p.label_bn,
      p.value,
      p.integer_value,
      p.sort,
    ])
  }
  for (const p of add) {
    await tx.query('INSERT INTO time_periods (label, label_bn, value, integer_value, sort) VALUES ($1, $2, $3, $4, $5)', [
      p.label,
      p.label_bn,
      p.value,
      p.integer_value,
      p.sort,
    ])
  }
  report.timePeriods.removed += gone.length
  report.timePeriods.changed += change.length
  report.timePeriods.added += add.length
}

interface OfferRow {
  id: number
  coupon_code: string
  title: string
  title_bn: string
  description: string
  description_bn: string | null
  discount_percent: number
  max_discount: number
  valid_from: string | null
  valid_until: string
  first_booking_only: boolean
  max_uses_per_passenger: number | null
  max_uses_total: number | null
  min_fare: number
}

const offerColumns =
  'title, title_bn, description, description_bn, coupon_code, discount_percent, max_discount, valid_from, valid_until, first_booking_only, max_uses_per_passenger, max_uses_total, min_fare'

/** A stored offer's values in the order of `offerColumns`. */
const storedOffer = (r: OfferRow) => [
  r.title,
  r.title_bn,
  r.description,
  r.description_bn,
  r.coupon_code,
  r.discount_percent,
  r.max_discount,
  r.valid_from,
  r.valid_until,
  r.first_booking_only,
  r.max_uses_per_passenger,
  r.max_uses_total,
  r.min_fare,
]

/** Offers the file no longer has end yesterday when a reservation used them, else they are deleted. */
async function importOffers({ tx, net, today, report }: Ctx): Promise<void> {
  const rows = await tx.query<OfferRow>(
    `SELECT id, coupon_code, title, title_bn, description, description_bn, discount_percent, max_discount, valid_from::text AS valid_from,
            valid_until::text AS valid_until, first_booking_only, max_uses_per_passenger, max_uses_total, min_fare
       FROM offers`,
  )
  const wanted = net.offers.map((o) => [
    o.title,
    o.titleBn,
    o.description,
    o.descriptionBn ?? null,
    o.couponCode,
    o.discountPercent,
    o.maxDiscount,
    o.validFrom ?? null,
    o.validUntil,
    o.firstBookingOnly,
    o.maxUsesPerPassenger ?? null,
    o.maxUsesTotal ?? null,
    o.minFare,
  ])
  const { add, change, gone } = diffRows(
    rows,
    (r) => r.coupon_code.toUpperCase(),
    wanted,
    (w) => String(w[4]),
    (r, w) => sameJson(storedOffer(r), w),
    report.offers,
  )
  for (const want of add) {
    await tx.query(`INSERT INTO offers (${offerColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::date, $9::date, $10, $11, $12, $13)`, want)
  }
  for (const { row, want } of change) {
    await tx.query(`UPDATE offers SET (${offerColumns}) = ($2, $3, $4, $5, $6, $7, $8, $9::date, $10::date, $11, $12, $13, $14) WHERE id = $1`, [
      row.id,
      ...want,
    ])
  }
  report.offers.added += add.length
  report.offers.changed += change.length
  if (gone.length === 0) return
  const goneIds = gone.map((r) => r.id)
  const used = `(EXISTS (SELECT 1 FROM coupon_redemptions c WHERE c.offer_id = o.id) OR EXISTS (SELECT 1 FROM reservations x WHERE upper(x.coupon_code) = upper(o.coupon_code)))`
  const deleted = await tx.query(`DELETE FROM offers o WHERE o.id = ANY($1::int[]) AND NOT ${used} RETURNING 1`, [goneIds])
  const ended = await tx.query('UPDATE offers SET valid_until = $2::date WHERE id = ANY($1::int[]) AND valid_until >= $3::date RETURNING 1', [
    goneIds,
    addDays(today, -1),
    today,
  ])
  report.offers.removed += deleted.length + ended.length
}

async function importAnnouncements({ tx, net, report }: Ctx): Promise<void> {
  const rows = await tx.query<{ id: number; key: string; title: string; title_bn: string; active: boolean }>(
    'SELECT id, key, title, title_bn, active FROM announcements',
  )
  const { add, change, gone } = diffRows(
    rows,
    (r) => r.key,
    net.announcements,
    (a) => a.key,
    (r, a) => r.title === a.title && r.title_bn === a.titleBn && r.active === a.active,
    report.announcements,
  )
  for (const a of add) {
    await tx.query('INSERT INTO announcements (key, title, title_bn, active) VALUES ($1, $2, $3, $4)', [a.key, a.title, a.titleBn, a.active])
  }
  for (const { row, want: a } of change) {
    await tx.query('UPDATE announcements SET title = $2, title_bn = $3, active = $4 WHERE id = $1', [row.id, a.title, a.titleBn, a.active])
  }
  if (gone.length > 0) await tx.query('DELETE FROM announcements WHERE id = ANY($1::int[])', [gone.map((r) => r.id)])
  report.announcements.added += add.length
  report.announcements.changed += change.length
  report.announcements.removed += gone.length
}
