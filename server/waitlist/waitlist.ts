/**
 * The waitlist of a sold-out trip: a signed-in passenger waits for 1 to 4 seats; when seats free
 * up (a cancellation, an unpaid booking expiring, a lapsed seat hold, the operator adding seats)
 * the first whose need fits is offered them: held as the passenger's seat locks for
 * WAITLIST_OFFER_MINUTES (or _SECONDS) and told by SMS. An offer not booked in time passes to the next.
 * The offering itself is one SQL function under a per-trip advisory lock
 * (db/functions/waitlist_offer.sql), so any number of processes offer each seat once.
 */
import type { WaitlistEntry } from '../../contract/schemas.ts'
import { formatDate, formatTime } from '../../contract/dhaka-dates.ts'
import { AppError, type Deps } from '../core.ts'
import type { Queryable } from '../db/db.ts'
import { pgArray } from '../db/db.ts'
import type { Language } from '../delivery/ticket-messages.ts'
import { addTime, dhakaIsoOrNull } from '../lib/time.ts'
import { assertOnSale, findTrip } from '../trips/trips.ts'

interface EntryRow {
  id: number
  status: 'WAITING' | 'OFFERED' | 'BOOKED' | 'LAPSED'
  seats: number
  place: number | null
  offered_seats: unknown
  offer_expires_at: Date | null
}

/** The caller's newest entry on the trip's waitlist (one left by the passenger or closed with its trip is none); null when not on it. */
export async function waitlistEntryOf(q: Queryable, tripId: number, passengerId: number, now: Date): Promise<WaitlistEntry> {
  // An offer whose time has passed reads as lapsed before the next sweep records it.
  const [r] = await q.query<EntryRow>(
    `SELECT w.id, w.seats, w.offered_seats, w.offer_expires_at,
            CASE WHEN w.status = 'OFFERED' AND w.offer_expires_at <= $3 THEN 'LAPSED' ELSE w.status END AS status,
            CASE WHEN w.status = 'WAITING'
                 THEN (SELECT count(*)::int FROM waitlist o WHERE o.trip_id = w.trip_id AND o.status = 'WAITING' AND o.id <= w.id) END AS place
       FROM waitlist w WHERE w.trip_id = $1 AND w.passenger_id = $2 AND w.status NOT IN ('LEFT', 'CLOSED') ORDER BY w.id DESC LIMIT 1`,
    [tripId, passengerId, now],
  )
  if (!r) return null
  return {
    status: r.status,
    seats: r.seats,
    place: r.place,
    offeredSeats: r.status === 'OFFERED' ? pgArray(r.offered_seats) : [],
    offerExpiresAt: dhakaIsoOrNull(r.offer_expires_at),
  }
}

/**
 * Puts the passenger on the trip's waitlist for `seats` seats. TRIP_NOT_FOUND, TRIP_OMITTED,
 * TRIP_IS_CLOSED (cancelled or departed), TRIP_NOT_SOLD_OUT while any seat is free,
 * WAITLIST_ALREADY_JOINED when already waiting or offered.
 */
export async function joinWaitlist(
  deps: Deps,
  req: { tripId: number; passengerId: number; seats: number; language: Language; now: Date },
): Promise<WaitlistEntry> {
  const trip = await findTrip(deps.db, req.tripId)
  if (!trip) throw new AppError('TRIP_NOT_FOUND')
  assertOnSale(trip, req.now)
  const [free] = await deps.db.query<{ n: number }>('SELECT cardinality(free_seats($1, $2))::int AS n', [trip.id, req.now])
  if (free!.n > 0) throw new AppError('TRIP_NOT_SOLD_OUT')
  const added = await deps.db.query(
    `INSERT INTO waitlist (trip_id, passenger_id, seats, language, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (trip_id, passenger_id) WHERE status IN ('WAITING', 'OFFERED') DO NOTHING RETURNING id`,
    [trip.id, req.passengerId, req.seats, req.language, req.now],
  )
  if (added.length === 0) throw new AppError('WAITLIST_ALREADY_JOINED')
  return waitlistEntryOf(deps.db, trip.id, req.passengerId, req.now)
}

/**
 * Takes the passenger off the trip's waitlist; seats offered to them are released and offered
 * to the next at once. WAITLIST_NOT_JOINED when not waiting or offered.
 */
export async function leaveWaitlist(deps: Deps, req: { tripId: number; passengerId: number; now: Date }): Promise<true> {
  const left = await deps.db.transaction(async (tx) => {
    const [row] = await tx.query<{ offered_seats: unknown }>(
      `UPDATE waitlist SET status = 'LEFT', ended_at = $3
        WHERE trip_id = $1 AND passenger_id = $2 AND status IN ('WAITING', 'OFFERED') RETURNING offered_seats`,
      [req.tripId, req.passengerId, req.now],
    )
    if (!row) return false
    const offered = row.offered_seats == null ? [] : pgArray(row.offered_seats)
    if (offered.length > 0) {
      await tx.query('DELETE FROM seat_locks WHERE trip_id = $1 AND seat_name = ANY($2::text[]) AND holder = $3', [
        req.tripId,
        offered,
        `p:${req.passengerId}`,
      ])
    }
    return true
  })
  if (!left) throw new AppError('WAITLIST_NOT_JOINED')
  await offerFreedSeats(deps, req.tripId)
  return true
}

/** One offer made: the entry, its passenger, the seats held for them and until when. */
export interface Offer {
  entryId: number
  passengerId: number
  seatNames: string[]
  expiresAt: Date
  language: Language
}

/**
 * Offers the trip's free seats to its waitlist (waitlist_offer.sql) and queues each new offer's
 * SMS in the same transaction: an offer and its one SMS commit together. Answers the offers made.
 */
export async function offerFreedSeats(deps: Deps, tripId: number): Promise<Offer[]> {
  const now = deps.now()
  const until = addTime(now, { seconds: deps.config.waitlistOfferSeconds })
  return deps.db.transaction(async (tx) => {
    const rows = await tx.query<{ entry_id: number; passenger_id: number; seat_names: unknown; expires_at: Date; language: Language }>(
      'SELECT * FROM waitlist_offer($1, $2, $3)',
      [tripId, now, until],
    )
    const offers = rows.map((r) => ({
      entryId: r.entry_id,
      passengerId: r.passenger_id,
      seatNames: pgArray(r.seat_names),
      expiresAt: r.expires_at,
      language: r.language,
    }))
    for (const o of offers) await sendOfferSms(deps, tx, tripId, o)
    return offers
  })
}

/** offerFreedSeats after a change that freed seats: a failure is logged, never the change's; the sweep offers them later. */
export async function offerFreedSeatsSafely(deps: Deps, tripId: number, log: (msg: string) => void = console.error): Promise<void> {
  try {
    await offerFreedSeats(deps, tripId)
  } catch (err) {
    log(`[waitlist] trip ${tripId}: ${(err as Error).message}`)
  }
}

/** Runs offerFreedSeats for every trip with someone waiting or offered; answers how many offers were made. */
export async function offerAllWaitlists(deps: Deps): Promise<number> {
  // a departed trip's list is over: it is never read again
  const trips = await deps.db.query<{ trip_id: number }>(
    "SELECT DISTINCT w.trip_id FROM waitlist w JOIN trips t ON t.id = w.trip_id WHERE w.status IN ('WAITING', 'OFFERED') AND t.departure_at > $1",
    [deps.now()],
  )
  let n = 0
  for (const t of trips) n += (await offerFreedSeats(deps, t.trip_id)).length
  return n
}

/** Sweeps every waitlist now and every WAITLIST_SWEEP_SECONDS (seats freed by time: lapsed holds, expired bookings); answers a stop function. */
export function startWaitlistSweep(deps: Deps, log: (msg: string) => void = console.error): () => void {
  let running = false
  const run = async () => {
    if (running) return
    running = true
    try {
      await offerAllWaitlists(deps)
    } catch (err) {
      log(`[waitlist] ${(err as Error).message}`)
    } finally {
      running = false
    }
  }
  void run()
  const timer = setInterval(run, deps.config.waitlistSweepSeconds * 1000)
  timer.unref()
  return () => clearInterval(timer)
}

const offerText: Record<Language, (p: { seats: string; coach: string; route: string; when: string; until: string; link: string }) => string> = {
  en: (p) => `Waitlist: seats ${p.seats} on coach ${p.coach} (${p.route}, ${p.when}) are held for you until ${p.until}. Book them at ${p.link}`,
  bn: (p) => `অপেক্ষা তালিকা: কোচ ${p.coach} (${p.route}, ${p.when})-এর আসন ${p.seats} আপনার জন্য ${p.until} পর্যন্ত রাখা হয়েছে। বুক করুন: ${p.link}`,
}

interface TripSmsRow {
  mobile: string
  coach_code: string
  trip_date: string
  departure_at: Date
  origin: string
  destination: string
  from_en: string
  from_bn: string
  to_en: string
  to_bn: string
}

/** The trip's coach, cities and departure and the passenger's mobile, as a waitlist SMS names them. */
async function tripForSms(tx: Queryable, tripId: number, passengerId: number): Promise<TripSmsRow | undefined> {
  const [t] = await tx.query<TripSmsRow>(
    `SELECT p.mobile, t.coach_code, t.trip_date::text AS trip_date, t.departure_at, r.origin_code AS origin, r.destination_code AS destination,
            o.name AS from_en, o.name_bn AS from_bn, d.name AS to_en, d.name_bn AS to_bn
       FROM trips t JOIN routes r ON r.id = t.route_id JOIN cities o ON o.code = r.origin_code JOIN cities d ON d.code = r.destination_code
       JOIN passengers p ON p.id = $2
      WHERE t.id = $1`,
    [tripId, passengerId],
  )
  return t
}

const routeText = (t: TripSmsRow, language: Language) => (language === 'bn' ? `${t.from_bn} থেকে ${t.to_bn}` : `${t.from_en} to ${t.to_en}`)
const whenText = (t: TripSmsRow, language: Language) => `${formatDate(t.departure_at, language)} ${formatTime(t.departure_at, language)}`

async function sendOfferSms(deps: Deps, tx: Queryable, tripId: number, o: Offer): Promise<void> {
  const t = await tripForSms(tx, tripId, o.passengerId)
  if (!t) return
  const query = new URLSearchParams({ tripId: String(tripId), from: t.origin, to: t.destination, date: t.trip_date })
  const body = offerText[o.language]({
    seats: o.seatNames.join(', '),
    coach: t.coach_code,
    route: routeText(t, o.language),
    when: whenText(t, o.language),
    until: formatTime(o.expiresAt, o.language),
    link: `${deps.config.appUrl}/reservation?${query}`,
  })
  await deps.outbox.send({ channel: 'SMS', to: t.mobile, body }, tx)
}

type ClosedText = (p: { coach: string; route: string; when: string; movedTo: string | null; link: string }) => string
const closedText: Record<Language, ClosedText> = {
  en: (p) =>
    `Waitlist: coach ${p.coach} (${p.route}, ${p.when}) ${p.movedTo ? `will not run; its passengers travel on coach ${p.movedTo}` : 'was cancelled by the operator'}. Your waitlist place has ended. Other coaches: ${p.link}`,
  bn: (p) =>
    `অপেক্ষা তালিকা: কোচ ${p.coach} (${p.route}, ${p.when}) ${p.movedTo ? `চলবে না; এর যাত্রীরা কোচ ${p.movedTo}-এ যাবেন` : 'অপারেটর বাতিল করেছেন'}। আপনার অপেক্ষা তালিকার জায়গা শেষ হয়েছে। অন্য কোচ: ${p.link}`,
}

/**
 * Ends the waitlist of a trip the operator cancels (`movedTo` null) or whose passengers go on coach `movedTo`: every
 * place still waiting or offered becomes CLOSED and its passenger is told by SMS, in the transaction that closes the
 * trip (a place is closed, and told, once however many commands run). Answers how many places ended.
 */
export async function closeWaitlist(deps: Deps, tx: Queryable, tripId: number, movedTo: string | null): Promise<number> {
  const ended = await tx.query<{ passenger_id: number; language: Language }>(
    "UPDATE waitlist SET status = 'CLOSED', ended_at = $2 WHERE trip_id = $1 AND status IN ('WAITING', 'OFFERED') RETURNING passenger_id, language",
    [tripId, deps.now()],
  )
  for (const e of ended) {
    const t = await tripForSms(tx, tripId, e.passenger_id)
    if (!t) continue
    const query = new URLSearchParams({ from: t.origin, to: t.destination, date: t.trip_date })
    const body = closedText[e.language]({
      coach: t.coach_code,
      route: routeText(t, e.language),
      when: whenText(t, e.language),
      movedTo,
      link: `${deps.config.appUrl}/search?${query}`,
    })
    await deps.outbox.send({ channel: 'SMS', to: t.mobile, body }, tx)
  }
  return ended.length
}
