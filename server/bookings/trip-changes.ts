/**
 * The operator's bad day: a trip cancelled (hartal, flood, breakdown) or its passengers
 * moved to another coach of the same route and day (`npm run trip`, trip-command.ts).
 *
 * Each reservation is changed in a transaction of its own that also writes its refund and
 * its SMS and e-mail (outbox), and picks the reservation only while it is still on the trip
 * with a live status: a command run twice, or killed half-way and run again, refunds and
 * tells each passenger exactly once.
 *
 * - cancel: the trip is closed for sale (OMITTED) with the operator's reason in English and
 *   Bengali (trips.cancel_reason, cancel_reason_bn), its holds dropped; every sold or migrated
 *   ticket is cancelled (status `canceled`, TRIP_CANCELED, the operator's reason) and refunded in full,
 *   to where it was paid from (a card payment to the card, REFUND_TO permitting, a balance
 *   payment to the balance: refunds.ts); every unpaid booking is cancelled. From the moment the
 *   trip is closed, a passenger's own cancel takes the same terms (tickets.ts cancelTicket), never a fee.
 *   The reason in Bengali is required when a passenger of the trip booked in Bengali.
 * - move: the trip is closed for sale; every sold ticket moves to the other coach's trip
 *   (status `tripMigrated`, the same PNR and PIN), keeping its seat names where the new layout has them
 *   free, else on free seats side by side; `seatMap` names seats for old ones. Unpaid bookings
 *   are cancelled (the passenger can book the new coach). A ticket there is no room for stays
 *   and is reported: cancel the trip afterwards to refund it.
 */
import { reservationStatus } from '../../contract/schemas.ts'
import type { Queryable } from '../db/db.ts'
import type { TripReason } from '../delivery/ticket-messages.ts'
import type { Deps } from '../core.ts'
import { nudgeRefunds } from './refunds.ts'
import { cancelForTrip, enqueueTripChangeNotice } from './tickets.ts'
import { closeWaitlist } from '../waitlist/waitlist.ts'

/** A trip as the command shows it. */
export interface TripInfo {
  id: number
  tripDate: string
  coachCode: string
  routeId: number
  layoutId: number
  departureAt: Date
  status: string
  route: string
}

/** One reservation a change touches, and what happens to it. */
export interface Affected {
  id: number
  pnr: string | null
  status: number
  passengerName: string
  passengerMobile: string
  seats: string[]
  paidBy: 'CARD' | 'BALANCE' | null
  /** The refund (cancel), 0 for an unpaid booking. */
  refund: number
  /** The seats on the new trip (move), null when there is no room or it is cancelled. */
  newSeats: string[] | null
}

/** What a change did or (dry run) would do: only the reservations this run itself changed. */
export interface ChangeReport {
  trip: TripInfo
  target: TripInfo | null
  affected: Affected[]
  totalRefund: number
  /** Tickets a move left on the old trip (no room on the new one). */
  left: Affected[]
}

/** A reason the command refuses, said to the operator as it is. */
export class TripChangeError extends Error {}

const LIVE = [reservationStatus.sold, reservationStatus.booked, reservationStatus.tripMigrated]
const PAID: readonly number[] = [reservationStatus.sold, reservationStatus.tripMigrated]

async function loadTrip(q: Queryable, where: string, params: unknown[]): Promise<TripInfo | null> {
  const [t] = await q.query<{
    id: number
    trip_date: string
    coach_code: string
    route_id: number
    layout_id: number
    departure_at: Date
    status: string
    route: string
  }>(
    `SELECT t.id, t.trip_date::text AS trip_date, t.coach_code, t.route_id, t.layout_id, t.departure_at, t.status,
            r.origin_code || '-' || r.destination_code AS route
       FROM trips t JOIN routes r ON r.id = t.route_id WHERE ${where}`,
    params,
  )
  return t
    ? {
        id: t.id,
        tripDate: t.trip_date,
        coachCode: t.coach_code,
        routeId: t.route_id,
        layoutId: t.layout_id,
        departureAt: t.departure_at,
        status: t.status,
        route: t.route,
      }
    : null
}

/** The trip `tripId`, or TripChangeError. */
export async function findTripToChange(q: Queryable, tripId: number): Promise<TripInfo> {
  const trip = await loadTrip(q, 't.id = $1', [tripId])
  if (!trip) throw new TripChangeError(`No trip ${tripId}.`)
  return trip
}

/** The trip of coach `coachCode` on `trip`'s route and day, open for sale, or TripChangeError. */
export async function findTargetTrip(q: Queryable, trip: TripInfo, coachCode: string): Promise<TripInfo> {
  const target = await loadTrip(q, 't.route_id = $1 AND t.trip_date = $2 AND t.coach_code = $3', [trip.routeId, trip.tripDate, coachCode])
  if (!target) throw new TripChangeError(`No trip of coach ${coachCode} on ${trip.route} on ${trip.tripDate}.`)
  if (target.id === trip.id) throw new TripChangeError(`Coach ${coachCode} is the trip itself.`)
  if (target.status !== 'OPEN')
    throw new TripChangeError(`The trip of coach ${coachCode} on ${trip.tripDate} is not open for sale (${target.status}).`)
  return target
}

interface Row {
  id: number
  pnr: string | null
  status: number
  language: string
  passenger_id: number | null
  passenger_name: string
  passenger_mobile: string
  payment_method: 'CARD' | 'BALANCE' | null
  total: number
  seats: string[] | string
}

const seatNames = (v: string[] | string): string[] =>
  Array.isArray(v)
    ? v
    : v
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean)

/** The live reservations on `tripId` (all of them, or just `id`), row-locked when `forUpdate`. */
async function liveReservations(q: Queryable, tripId: number, opts: { id?: number; forUpdate?: boolean } = {}): Promise<Row[]> {
  return q.query<Row>(
    `SELECT x.id, x.pnr, x.status, x.language, x.passenger_id, x.passenger_name, x.passenger_mobile, x.payment_method, x.total,
            ARRAY(SELECT rs.seat_name FROM reservation_seats rs WHERE rs.reservation_id = x.id AND rs.active ORDER BY rs.id) AS seats
       FROM reservations x
      WHERE x.trip_id = $1 AND x.status = ANY($2::int[]) ${opts.id ? 'AND x.id = $3' : ''}
      ORDER BY x.id ${opts.forUpdate ? 'FOR UPDATE' : ''}`,
    opts.id ? [tripId, LIVE, opts.id] : [tripId, LIVE],
  )
}

function affected(r: Row, refund: number, newSeats: string[] | null): Affected {
  return {
    id: r.id,
    pnr: r.pnr,
    status: r.status,
    passengerName: r.passenger_name,
    passengerMobile: r.passenger_mobile,
    seats: seatNames(r.seats),
    paidBy: r.payment_method,
    refund,
    newSeats,
  }
}

/** Hooks for tests: called after each reservation's transaction commits. */
export interface ChangeHooks {
  afterEach?: (reservationId: number) => void | Promise<void>
}

/**
 * Cancels `tripId` with the operator's `reason` (see the module comment); with `dryRun`
 * it only answers who would be affected and how much would be refunded. A reason without
 * Bengali text is refused (TripChangeError) when a passenger of the trip booked in Bengali.
 */
export async function cancelTrip(
  deps: Deps,
  tripId: number,
  reason: string | TripReason,
  opts: { dryRun?: boolean; hooks?: ChangeHooks } = {},
): Promise<ChangeReport> {
  const db = deps.db
  const why = typeof reason === 'string' ? { en: reason, bn: null } : reason
  const trip = await findTripToChange(db, tripId)
  const planned = await liveReservations(db, trip.id)
  const inBengali = planned.filter((r) => r.language === 'bn').length
  if (inBengali > 0 && !why.bn)
    throw new TripChangeError(
      `${inBengali} reservation(s) of trip ${trip.id} were booked in Bengali: give the reason in Bengali too (--reason-bn "<text>"), so they read it in their language.`,
    )
  if (opts.dryRun) {
    const plan = planned.map((r) => affected(r, PAID.includes(r.status) ? r.total : 0, null))
    return { trip, target: null, affected: plan, totalRefund: plan.reduce((a, r) => a + r.refund, 0), left: [] }
  }
  await closeForSale(deps, trip.id, why, null)
  // read again after the close: a booking made meanwhile is cancelled too
  const rows = await liveReservations(db, trip.id)
  const done: Affected[] = []
  for (const r of rows) {
    const a = await db.transaction((tx) => cancelOne(tx, deps, trip.id, r.id, why))
    if (!a) continue
    done.push(a)
    await opts.hooks?.afterEach?.(r.id)
  }
  // Refunds to the card are sent by the server's refund worker (at once when it runs in this process).
  nudgeRefunds(deps)
  return { trip, target: null, affected: done, totalRefund: done.reduce((a, r) => a + r.refund, 0), left: [] }
}

/** Takes the trip off sale (cancelled with `cancel`, or its passengers moved to coach `movedTo`) and ends its waitlist. */
async function closeForSale(deps: Deps, tripId: number, cancel: TripReason | null, movedTo: string | null): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await tx.query("UPDATE trips SET status = 'OMITTED' WHERE id = $1 AND status <> 'OMITTED'", [tripId])
    if (cancel) await tx.query('UPDATE trips SET cancel_reason = $2, cancel_reason_bn = $3 WHERE id = $1', [tripId, cancel.en, cancel.bn])
    await tx.query('DELETE FROM seat_locks WHERE trip_id = $1', [tripId])
    await closeWaitlist(deps, tx, tripId, movedTo)
  })
}

/** Cancels one reservation of the trip, refunds it in full and writes its notice; null when it was no longer live. */
async function cancelOne(tx: Queryable, deps: Deps, tripId: number, id: number, reason: TripReason): Promise<Affected | null> {
  const [r] = await liveReservations(tx, tripId, { id, forUpdate: true })
  if (!r) return null
  return affected(r, await cancelForTrip(tx, deps, r, reason), null)
}

interface LayoutSeat {
  name: string
  row: number
  col: number
  deck: string
  seat_type: string
}

/** Seats of the target trip free now: in the layout, not taken, not held. */
async function freeSeatsOf(q: Queryable, target: TripInfo, now: Date): Promise<LayoutSeat[]> {
  return q.query<LayoutSeat>(
    `SELECT s.name, s.row, s.col, s.deck, s.seat_type FROM layout_seats s
      WHERE s.layout_id = $1 AND s.name <> 'OPEN'
        AND NOT EXISTS (SELECT 1 FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
                         WHERE rs.trip_id = $2 AND rs.seat_name = s.name AND seat_taken(rs.active, x.status, x.expiration_time, $3))
        AND NOT EXISTS (SELECT 1 FROM seat_locks k WHERE k.trip_id = $2 AND k.seat_name = s.name AND k.expires_at > $3)
      ORDER BY s.deck, s.row, s.col`,
    [target.layoutId, target.id, now],
  )
}

/**
 * The seats a ticket of `want` seats gets among `free`: its own names (through `seatMap`)
 * when all of them are free, else `n` free seats side by side in one row of one deck, else
 * the first `n` free seats; null when fewer than `n` are free. Seats named in `keep` (other
 * passengers of the trip still to move, who may keep those names) are used last.
 */
export function chooseSeats(want: string[], free: LayoutSeat[], seatMap: Record<string, string> = {}, keep: string[] = []): string[] | null {
  const n = want.length
  if (free.length < n) return null
  const byName = new Map(free.map((s) => [s.name, s]))
  const named = want.map((w) => seatMap[w] ?? w)
  if (new Set(named).size === n && named.every((s) => byName.has(s))) return named
  const spare = free.filter((s) => !keep.includes(s.name))
  return sideBySide(spare, n) ?? sideBySide(free, n) ?? (spare.length >= n ? spare : free).slice(0, n).map((s) => s.name)
}

function sideBySide(free: LayoutSeat[], n: number): string[] | null {
  const rows = new Map<string, LayoutSeat[]>()
  for (const s of free) {
    const key = `${s.deck}|${s.row}`
    rows.set(key, [...(rows.get(key) ?? []), s])
  }
  for (const seats of rows.values()) {
    // consecutive columns (an aisle is a column without seats, so it breaks a run)
    for (let i = 0; i + n <= seats.length; i++) {
      const run = seats.slice(i, i + n)
      if (run.every((s, j) => j === 0 || s.col === run[j - 1]!.col + 1)) return run.map((s) => s.name)
    }
  }
  return null
}

/**
 * Moves `tripId`'s passengers to coach `toCoach` of the same route and day (see the module
 * comment); with `dryRun` it only answers who would go where.
 */
export async function moveTrip(
  deps: Deps,
  tripId: number,
  toCoach: string,
  opts: { seatMap?: Record<string, string>; dryRun?: boolean; hooks?: ChangeHooks } = {},
): Promise<ChangeReport> {
  const db = deps.db
  const trip = await findTripToChange(db, tripId)
  const target = await findTargetTrip(db, trip, toCoach)
  const rows = await liveReservations(db, trip.id)
  const report: ChangeReport = { trip, target, affected: [], totalRefund: 0, left: [] }
  if (opts.dryRun) {
    // the plan as if each ticket took its seats in turn
    let free = await freeSeatsOf(db, target, deps.now())
    for (const [i, r] of rows.entries()) {
      if (!PAID.includes(r.status)) {
        report.affected.push(affected(r, 0, null))
        continue
      }
      const keep = rows.slice(i + 1).flatMap((o) => (PAID.includes(o.status) ? seatNames(o.seats) : []))
      const seats = chooseSeats(seatNames(r.seats), free, opts.seatMap, keep)
      const a = affected(r, 0, seats)
      report.affected.push(a)
      if (!seats) report.left.push(a)
      else free = free.filter((s) => !seats.includes(s.name))
    }
    return report
  }
  await closeForSale(deps, trip.id, null, target.coachCode)
  for (const r of rows) {
    const outcome = await db.transaction((tx) => moveOne(tx, deps, trip, target, r.id, opts.seatMap ?? {}))
    if (outcome === 'gone') continue
    const a = affected(r, 0, outcome === 'no-room' || outcome === 'canceled' ? null : outcome)
    report.affected.push(a)
    if (outcome === 'no-room') report.left.push(a)
    await opts.hooks?.afterEach?.(r.id)
  }
  return report
}

async function moveOne(
  tx: Queryable,
  deps: Deps,
  trip: TripInfo,
  target: TripInfo,
  id: number,
  seatMap: Record<string, string>,
): Promise<string[] | 'gone' | 'no-room' | 'canceled'> {
  const [r] = await liveReservations(tx, trip.id, { id, forUpdate: true })
  if (!r) return 'gone'
  const now = deps.now()
  if (!PAID.includes(r.status)) {
    const reason = {
      en: `Coach ${trip.coachCode} does not run; coach ${target.coachCode} runs instead`,
      bn: `কোচ ${trip.coachCode} চলবে না; এর বদলে কোচ ${target.coachCode} চলবে`,
    }
    await tx.query(
      `UPDATE reservations SET status = $2, canceled_at = $3, cancel_reason = 'TRIP_CANCELED', operator_reason = $4, operator_reason_bn = $5
        WHERE id = $1`,
      [r.id, reservationStatus.canceled, now, reason.en, reason.bn],
    )
    await tx.query('UPDATE reservation_seats SET active = false WHERE reservation_id = $1', [r.id])
    await enqueueTripChangeNotice(tx, deps, r.id, { kind: 'bookingCanceled', reason })
    return 'canceled'
  }
  // the target trip's row is the queue: two moves into it (two processes) choose seats one after the other
  await tx.query('SELECT id FROM trips WHERE id = $1 FOR UPDATE', [target.id])
  const others = await liveReservations(tx, trip.id)
  const keep = others.filter((o) => o.id !== r.id && PAID.includes(o.status)).flatMap((o) => seatNames(o.seats))
  const seats = chooseSeats(seatNames(r.seats), await freeSeatsOf(tx, target, now), seatMap, keep)
  if (!seats) return 'no-room'
  const old = await tx.query<{ seat_name: string; fare: number }>(
    'SELECT seat_name, fare FROM reservation_seats WHERE reservation_id = $1 AND active ORDER BY id',
    [r.id],
  )
  await tx.query('UPDATE reservation_seats SET active = false WHERE reservation_id = $1', [r.id])
  await tx.query(
    `INSERT INTO reservation_seats (reservation_id, trip_id, seat_name, seat_type, fare)
     SELECT $1, $2, u.name, s.seat_type, u.fare FROM unnest($3::text[], $4::int[]) WITH ORDINALITY AS u(name, fare, n)
       JOIN layout_seats s ON s.layout_id = $5 AND s.name = u.name ORDER BY u.n`,
    [r.id, target.id, seats, old.map((s) => s.fare), target.layoutId],
  )
  await tx.query('UPDATE reservations SET trip_id = $2, moved_from_trip_id = $3, status = $4 WHERE id = $1', [
    r.id,
    target.id,
    trip.id,
    reservationStatus.tripMigrated,
  ])
  await enqueueTripChangeNotice(tx, deps, r.id, { kind: 'moved' })
  return seats
}
