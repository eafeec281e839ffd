/**
 * Tickets: a booking sold (status `sold`) with a PNR and PIN, its SMS and e-mail, and
 * cancelling it with an SMS code under the cancel scheme (the refund goes back to
 * the card it was paid with, or to the balance: refunds.ts).
 */
import crypto from 'node:crypto'
import { reservationStatus, type Reservation } from '../../contract/schemas.ts'
import type { ReservationRow } from './bookings.ts'
import { getCompany } from '../company/company.ts'
import { redeemCoupon } from './coupons.ts'
import type { Queryable } from '../db/db.ts'
import {
  renderCancelEmail,
  renderCancelSms,
  renderSeatsCancelEmail,
  renderSeatsCancelSms,
  renderTicketEmail,
  renderTicketSms,
  renderTripChangeEmail,
  renderTripChangeSms,
  type Language,
  type RefundTo,
  type TripChange,
  type TripReason,
} from '../delivery/ticket-messages.ts'
import { AppError, type Deps } from '../core.ts'
import { nudgeRefunds, refundTicket } from './refunds.ts'
import { loadReservation } from './reservation-view.ts'
import { addTime, timeBetween } from '../lib/time.ts'
import { sha256 } from '../lib/tokens.ts'
import { findTrip } from '../trips/trips.ts'
import { issueTicketLink, TICKET_STATUSES, ticketLinkUrl } from './ticket-codes.ts'

export { TICKET_STATUSES } from './ticket-codes.ts'

/** The reservation of a PNR and PIN, or WRONG_PNR_PIN. */
export async function findByPnr(q: Queryable, pnr: string, pin: string): Promise<ReservationRow> {
  const rows = await q.query<ReservationRow>('SELECT * FROM reservations WHERE pnr = $1', [pnr.trim().toUpperCase()])
  const r = rows[0]
  if (!r?.pin || !safeEqual(r.pin, pin.trim())) throw new AppError('WRONG_PNR_PIN')
  return r
}

/** The passenger id of the reservation with this PNR (any case), or null. */
export async function pnrOwner(q: Queryable, pnr: string): Promise<number | null> {
  const rows = await q.query<{ passenger_id: number | null }>('SELECT passenger_id FROM reservations WHERE pnr = $1', [pnr.trim().toUpperCase()])
  return rows[0]?.passenger_id ?? null
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && crypto.timingSafeEqual(x, y)
}

// PNR alphabet without look-alikes (0/O, 1/I/L), so it reads well over the phone.
const PNR_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'

/** A random 10-character upper-case PNR. */
export function newPnr(): string {
  const bytes = crypto.randomBytes(10)
  let s = ''
  for (const b of bytes) s += PNR_ALPHABET[b % PNR_ALPHABET.length]
  return s
}

/** A random 4-digit PIN. */
export function newPin(): string {
  return String(crypto.randomInt(0, 10000)).padStart(4, '0')
}

/**
 * Turns a booking into a sold ticket (status `sold`) with a fresh PNR and PIN. Call inside the
 * transaction that holds the row lock; answers false when the row was no longer booked.
 * A coupon on the booking is redeemed here, its rules checked once more (coupons.ts):
 * a coupon error is thrown and the caller's transaction must roll back.
 */
export async function markSold(tx: Queryable, reservationId: number, method: 'CARD' | 'BALANCE', now: Date): Promise<boolean> {
  const [r] = await tx.query<{ passenger_id: number | null; coupon_code: string | null; subtotal: number }>(
    `SELECT passenger_id, coupon_code, subtotal FROM reservations WHERE id = $1 AND status = ${reservationStatus.booked}`,
    [reservationId],
  )
  if (!r) return false
  // A passenger's sales wait for each other, so a first-booking coupon sees the other sale.
  if (r.passenger_id != null) await tx.query('SELECT id FROM passengers WHERE id = $1 FOR UPDATE', [r.passenger_id])
  if (r.coupon_code) await redeemCoupon(tx, { id: reservationId, passengerId: r.passenger_id, subtotal: r.subtotal, couponCode: r.coupon_code }, now)
  const rows = await tx.query(
    `UPDATE reservations SET status = ${reservationStatus.sold}, pnr = $2, pin = $3, payment_method = $4, paid_at = $5
      WHERE id = $1 AND status = ${reservationStatus.booked} RETURNING id`,
    [reservationId, newPnr(), newPin(), method, now],
  )
  return rows.length === 1
}

/** The cancel scheme: charge percent by hours to departure, or null when it is too late. */
export function cancelCharge(departure: Date, now: Date): { percent: number } | null {
  const hours = timeBetween(now, departure, 'hours')
  if (hours >= 48) return { percent: 10 }
  if (hours >= 24) return { percent: 25 }
  if (hours >= 6) return { percent: 50 }
  return null
}

/** The cancel policy as a sentence for the confirmation screen; `toCard`: card payments are refunded to the card (REFUND_TO=card). */
export function cancelPolicy(toCard: boolean): string {
  return (
    'Cancellation charge: 10% of the fare 48 hours or more before departure, 25% between 24 and 48 hours, 50% between 6 and 24 hours. ' +
    `Tickets cannot be cancelled less than 6 hours before departure. ${
      toCard
        ? 'The refund goes back to the card or mobile wallet you paid with, or to your account balance if you paid from it.'
        : 'The refund goes to your account balance.'
    }`
  )
}

/** Masks a mobile number for display: 017******89. */
export function maskMobile(m: string): string {
  if (m.length < 6) return m
  return m.slice(0, 3) + '*'.repeat(m.length - 5) + m.slice(-2)
}

/**
 * Writes the ticket SMS (to the reservation mobile, when `sms`) and e-mail (to `email`,
 * if any) into the outbox, in the language the passenger booked in. Pass `tx` to
 * write them in the caller's transaction.
 */
export async function sendTicket(deps: Deps, r: Reservation, opts: { email: string | null; sms: boolean; tx?: Queryable }): Promise<void> {
  const q = opts.tx ?? deps.db
  const lang = await reservationLanguage(q, r.id)
  const ctx = { company: await getCompany(q), appUrl: deps.config.appUrl, now: deps.now() }
  if (opts.sms) {
    const link = ticketLinkUrl(deps.config.appUrl, await issueTicketLink(q, r.id))
    await deps.outbox.send({ channel: 'SMS', to: r.passengerMobile, body: renderTicketSms(r, lang, link) }, q)
  }
  if (opts.email) {
    const mail = renderTicketEmail(r, lang, ctx)
    await deps.outbox.send(
      { channel: 'EMAIL', to: opts.email, subject: mail.subject, body: mail.text, html: mail.html, attachments: mail.attachments },
      q,
    )
  }
}

/** Writes a sold ticket's SMS and e-mail in `tx`, the transaction of the sale, so they are sent if and only if it commits. */
export async function enqueueTicket(tx: Queryable, deps: Deps, reservationId: number): Promise<void> {
  const r = await loadReservation(tx, reservationId)
  if (!r) return
  await sendTicket(deps, r, { email: await ticketEmail(tx, r, await ownerOf(tx, reservationId)), sms: true, tx })
}

/** Writes the cancellation SMS and e-mail of a cancelled ticket in `tx`, the transaction of the cancel. */
export async function enqueueCancelNotice(tx: Queryable, deps: Deps, reservationId: number, refund: number, to: RefundTo): Promise<void> {
  const r = await loadReservation(tx, reservationId)
  if (!r) return
  const lang = await reservationLanguage(tx, r.id)
  await deps.outbox.send({ channel: 'SMS', to: r.passengerMobile, body: renderCancelSms(r, lang, refund, to) }, tx)
  const email = await ticketEmail(tx, r, await ownerOf(tx, reservationId))
  if (email) {
    const mail = renderCancelEmail(r, lang, refund, { company: await getCompany(tx), appUrl: deps.config.appUrl, now: deps.now() }, to)
    await deps.outbox.send(
      { channel: 'EMAIL', to: email, subject: mail.subject, body: mail.text, html: mail.html, attachments: mail.attachments },
      tx,
    )
  }
}

/** Writes the SMS and e-mail telling the passenger what the operator did to the trip, in `tx`, the transaction of the change. */
export async function enqueueTripChangeNotice(tx: Queryable, deps: Deps, reservationId: number, change: TripChange): Promise<void> {
  const r = await loadReservation(tx, reservationId)
  if (!r) return
  const lang = await reservationLanguage(tx, r.id)
  const ctx = { company: await getCompany(tx), appUrl: deps.config.appUrl, now: deps.now() }
  await deps.outbox.send({ channel: 'SMS', to: r.passengerMobile, body: renderTripChangeSms(r, lang, change, ctx) }, tx)
  const email = await ticketEmail(tx, r, await ownerOf(tx, reservationId))
  if (email) {
    const mail = renderTripChangeEmail(r, lang, change, ctx)
    await deps.outbox.send(
      { channel: 'EMAIL', to: email, subject: mail.subject, body: mail.text, html: mail.html, attachments: mail.attachments },
      tx,
    )
  }
}

/** The language reservation `id` was booked in (its messages are written in it). */
export async function reservationLanguage(q: Queryable, id: number): Promise<Language> {
  const [row] = await q.query<{ language: Language }>('SELECT language FROM reservations WHERE id = $1', [id])
  return row?.language === 'bn' ? 'bn' : 'en'
}

async function ownerOf(q: Queryable, id: number): Promise<number | null> {
  const [row] = await q.query<{ passenger_id: number | null }>('SELECT passenger_id FROM reservations WHERE id = $1', [id])
  return row?.passenger_id ?? null
}

/** The address the ticket e-mail goes to: the reservation's, else the passenger's. */
export async function ticketEmail(q: Queryable, r: Reservation, passengerId: number | null): Promise<string | null> {
  if (r.passengerEmail) return r.passengerEmail
  if (passengerId == null) return null
  const rows = await q.query<{ email: string | null }>('SELECT email FROM passengers WHERE id = $1', [passengerId])
  return rows[0]?.email || null
}

/** The passenger's reservations: upcoming trips first (soonest first), then past ones (latest first); at most 200. */
export async function passengerReservationIds(q: Queryable, passengerId: number, now: Date): Promise<number[]> {
  const rows = await q.query<{ id: number }>(
    `SELECT x.id FROM reservations x JOIN trips t ON t.id = x.trip_id
      WHERE x.passenger_id = $1
      ORDER BY (t.departure_at > $2) DESC,
               CASE WHEN t.departure_at > $2 THEN t.departure_at END ASC,
               t.departure_at DESC, x.id DESC
      LIMIT 200`,
    [passengerId, now],
  )
  return rows.map((r) => r.id)
}

/** What cancelling a ticket (or some of its seats, `part`) now costs: the charge percent and amount, and the refund. */
export interface CancelQuote {
  percent: number
  charge: number
  refund: number
  /** The seats cancelled on their own, or null for the whole ticket (no seats named, or all its live seats). */
  part: SeatsPart | null
}

/** Some live seats of a ticket and their share of its fare: their fares, and the coupon discount on them. */
export interface SeatsPart {
  ids: number[]
  names: string[]
  fare: number
  discount: number
}

/**
 * The refund quote for cancelling a sold ticket now, or the reason it cannot be cancelled;
 * `seats` names some of its seats (checked: VALIDATION_FAILED), which alone are quoted.
 */
export async function cancelQuote(q: Queryable, r: ReservationRow, now: Date, seats?: string[] | null): Promise<CancelQuote> {
  if (r.status !== reservationStatus.sold && r.status !== reservationStatus.tripMigrated) throw new AppError('RESERVATION_NOT_CANCELLABLE')
  const trip = await findTrip(q, r.trip_id)
  if (!trip) throw new AppError('TRIP_NOT_FOUND')
  const part = seats ? await seatsPart(q, r, seats) : null
  const due = part ? part.fare - part.discount : r.total
  // the operator is cancelling the trip (or has): the passenger's cancel is the operator's, refunded in full
  if (await tripCancellation(q, r.trip_id)) return { percent: 0, charge: 0, refund: due, part }
  // moved to another coach by the operator: the passenger may refuse it, for the whole fare, until it leaves
  if (r.status === reservationStatus.tripMigrated) {
    if (trip.departure_at <= now) throw new AppError('RESERVATION_CANCEL_TIME_EXPIRED')
    return { percent: 0, charge: 0, refund: due, part }
  }
  if (trip.status === 'CLOSED_FOR_CANCELLATION') throw new AppError('TRIP_CLOSED_FOR_CANCELLATION')
  const c = cancelCharge(trip.departure_at, now)
  if (!c) throw new AppError('RESERVATION_CANCEL_TIME_EXPIRED')
  const charge = Math.round((due * c.percent) / 100)
  return { percent: c.percent, charge, refund: due - charge, part }
}

/**
 * Seats `names` of live ticket `r` with their share of its fare, or null when they are all its
 * live seats (the whole ticket). The coupon discount is shared by fare, so the seats kept keep
 * theirs and the last seats cancelled take what is left of it.
 */
async function seatsPart(q: Queryable, r: ReservationRow, names: string[]): Promise<SeatsPart | null> {
  const rows = await q.query<{ id: number; seat_name: string; fare: number; active: boolean }>(
    'SELECT id, seat_name, fare, active FROM reservation_seats WHERE reservation_id = $1 AND trip_id = $2 ORDER BY id',
    [r.id, r.trip_id],
  )
  const live = rows.filter((x) => x.active)
  const bad = (message: string) => new AppError('VALIDATION_FAILED', { fields: [{ path: 'seats', message }] })
  if (names.length === 0) throw bad('Name at least one seat')
  for (const n of names) {
    if (live.some((x) => x.seat_name === n)) continue
    throw bad(rows.some((x) => x.seat_name === n) ? `Seat ${n} is already cancelled` : `Seat ${n} is not on this ticket`)
  }
  if (names.length === live.length) return null
  const chosen = live.filter((x) => names.includes(x.seat_name))
  const fare = chosen.reduce((a, x) => a + x.fare, 0)
  const discount = r.subtotal > 0 ? Math.min(fare, r.discount, Math.round((r.discount * fare) / r.subtotal)) : 0
  return { ids: chosen.map((x) => x.id), names: chosen.map((x) => x.seat_name), fare, discount }
}

/** The mobile the cancel code goes to: the account holder's (the refund goes to that balance), else the reservation's. */
export async function refundMobile(q: Queryable, r: ReservationRow): Promise<string> {
  if (r.passenger_id != null) {
    const [p] = await q.query<{ mobile: string }>('SELECT mobile FROM passengers WHERE id = $1', [r.passenger_id])
    if (p) return p.mobile
  }
  return r.passenger_mobile
}

// How long a code checked by POST /verifyCancelTicketOTP stays good for the cancel call.
const VERIFIED_CANCEL_MINUTES = 10

const cancelCodeHash = (pnr: string | null, code: string) => sha256(`${pnr}|${code}`)

/** Remembers on a sold ticket that `code` was verified (and consumed), so the cancel call may present it for a while. */
export async function rememberCancelCode(q: Queryable, r: ReservationRow, code: string, now: Date): Promise<void> {
  await q.query('UPDATE reservations SET cancel_otp_hash = $2, cancel_otp_expires_at = $3 WHERE id = $1 AND status = ANY($4::int[])', [
    r.id,
    cancelCodeHash(r.pnr, code),
    addTime(now, { minutes: VERIFIED_CANCEL_MINUTES }),
    TICKET_STATUSES,
  ])
}

/** True when `code` is the ticket's remembered cancel code and still good at `now`. */
export function cancelCodeRemembered(r: ReservationRow, code: string, now: Date): boolean {
  return !!r.cancel_otp_hash && !!r.cancel_otp_expires_at && r.cancel_otp_expires_at > now && r.cancel_otp_hash === cancelCodeHash(r.pnr, code)
}

/**
 * Cancels a sold ticket, or its seats `seats` (the rest of it stays valid), at the refund quoted
 * under its row lock: frees the seats, refunds them (a card payment to the card, REFUND_TO
 * permitting, else the account holder's balance: refundTicket) and writes the cancellation
 * notice, in one transaction. A refund to the card is sent by the refund worker, started here at
 * once. Once the operator is cancelling the trip, the whole ticket is cancelled on the operator's
 * terms (cancelWithTrip). Answers the quote it cancelled at (null: the operator's).
 */
export async function cancelTicket(deps: Deps, r: ReservationRow, now: Date, seats?: string[] | null): Promise<CancelQuote | null> {
  const quote = await deps.db.transaction(async (tx) => {
    if (await cancelWithTrip(tx, deps, r.id)) return null
    // Quoted again under the row lock (cancelWithTrip took it): another cancel of this ticket, whole or
    // of some seats, has committed before this reads, so no seat is cancelled or refunded twice.
    const [locked] = await tx.query<ReservationRow>('SELECT * FROM reservations WHERE id = $1', [r.id])
    const quote = await cancelQuote(tx, locked ?? r, now, seats)
    if (quote.part) {
      await cancelPart(tx, deps, locked!, quote, quote.part, now)
      return quote
    }
    // A ticket the operator moved (tripMigrated) becomes tripMigratedCanceled, any other canceled; the charge adds to earlier seats' charges.
    await tx.query(
      `UPDATE reservations SET status = CASE WHEN status = $5::int THEN $6::int ELSE $7::int END, canceled_at = $2, cancel_reason = 'TICKET_CANCELED',
              refund_amount = $3, cancellation_charge = coalesce(cancellation_charge, 0) + $4, cancel_otp_hash = NULL, cancel_otp_expires_at = NULL
        WHERE id = $1`,
      [r.id, now, quote.refund, quote.charge, reservationStatus.tripMigrated, reservationStatus.tripMigratedCanceled, reservationStatus.canceled],
    )
    await tx.query('UPDATE reservation_seats SET active = false WHERE reservation_id = $1', [r.id])
    const to = await refundTicket(tx, deps, r, {
      amount: quote.refund,
      reason: 'TICKET_CANCELED',
      description: `Refund for ticket ${r.pnr}`,
      now,
    })
    await enqueueCancelNotice(tx, deps, r.id, quote.refund, to)
    return quote
  })
  nudgeRefunds(deps)
  return quote
}

/** Cancels `part`, some live seats of locked ticket `r`: the seats freed, the ticket's fare less their share, their refund and notice. */
async function cancelPart(tx: Queryable, deps: Deps, r: ReservationRow, quote: CancelQuote, part: SeatsPart, now: Date): Promise<void> {
  await tx.query('UPDATE reservation_seats SET active = false, canceled_at = $2 WHERE id = ANY($1::int[])', [part.ids, now])
  // A new code for the next cancel: the one just used has done its work. The ticket's QR codes signed before now
  // name the cancelled seats: the checker's revocation list refuses them (ticket_changed_at).
  await tx.query(
    `UPDATE reservations SET subtotal = subtotal - $2, discount = discount - $3, total = total - $4,
            cancellation_charge = coalesce(cancellation_charge, 0) + $5, cancel_otp_hash = NULL, cancel_otp_expires_at = NULL,
            ticket_changed_at = $6
      WHERE id = $1`,
    [r.id, part.fare, part.discount, part.fare - part.discount, quote.charge, now],
  )
  const to = await refundTicket(tx, deps, r, {
    amount: quote.refund,
    reason: 'TICKET_CANCELED',
    description: `Refund for seats ${part.names.join(', ')} of ticket ${r.pnr}`,
    now,
    part: part.ids[0],
  })
  const view = await loadReservation(tx, r.id)
  if (!view) return
  const lang = await reservationLanguage(tx, r.id)
  await deps.outbox.send({ channel: 'SMS', to: view.passengerMobile, body: renderSeatsCancelSms(view, lang, part.names, quote.refund, to) }, tx)
  const email = await ticketEmail(tx, view, r.passenger_id)
  if (email) {
    const ctx = { company: await getCompany(tx), appUrl: deps.config.appUrl, now }
    const mail = renderSeatsCancelEmail(view, lang, part.names, quote.refund, ctx, to)
    await deps.outbox.send(
      { channel: 'EMAIL', to: email, subject: mail.subject, body: mail.text, html: mail.html, attachments: mail.attachments },
      tx,
    )
  }
}

/** The operator's reason when trip `tripId` is being cancelled (npm run trip, trip-changes.ts) or was, else null; `lock` waits for a cancel being recorded. */
export async function tripCancellation(q: Queryable, tripId: number, lock = false): Promise<TripReason | null> {
  const [t] = await q.query<{ cancel_reason: string | null; cancel_reason_bn: string | null }>(
    `SELECT cancel_reason, cancel_reason_bn FROM trips WHERE id = $1 ${lock ? 'FOR SHARE' : ''}`,
    [tripId],
  )
  return t?.cancel_reason ? { en: t.cancel_reason, bn: t.cancel_reason_bn } : null
}

/** A live reservation as the operator's cancel of its trip needs it. */
interface ForTrip {
  id: number
  status: number
  total: number
  passenger_id: number | null
  pnr: string | null
  payment_method: 'CARD' | 'BALANCE' | null
}

/**
 * Cancels live reservation `r` (row-locked by the caller) because the operator cancels its trip:
 * status `canceled`, TRIP_CANCELED with the operator's reason, a ticket refunded in full (no
 * charge) to where it was paid from, and the operator's notice. Answers the refund.
 */
export async function cancelForTrip(tx: Queryable, deps: Deps, r: ForTrip, reason: TripReason): Promise<number> {
  const now = deps.now()
  const paid = TICKET_STATUSES.includes(r.status)
  const refund = paid ? r.total : 0
  await tx.query(
    `UPDATE reservations SET status = $2, canceled_at = $3, cancel_reason = 'TRIP_CANCELED', operator_reason = $4, operator_reason_bn = $6,
            refund_amount = $5, cancellation_charge = 0, cancel_otp_hash = NULL, cancel_otp_expires_at = NULL
      WHERE id = $1`,
    [r.id, reservationStatus.canceled, now, reason.en, paid ? refund : null, reason.bn],
  )
  await tx.query('UPDATE reservation_seats SET active = false WHERE reservation_id = $1', [r.id])
  const refundTo = await refundTicket(tx, deps, r, {
    amount: refund,
    reason: 'TRIP_CANCELED',
    description: `Refund for ticket ${r.pnr}: trip cancelled by the operator`,
    now,
  })
  await enqueueTripChangeNotice(tx, deps, r.id, paid ? { kind: 'canceled', reason, refund, refundTo } : { kind: 'bookingCanceled', reason })
  return refund
}

/**
 * A passenger's own cancel of ticket `id` in `tx`, once its trip is being cancelled by the
 * operator: done on the operator's terms (cancelForTrip). False when the trip is not being
 * cancelled; the trip row stays share-locked to the end of `tx`, so the operator's cancel, whose
 * first write is to that row, starts either before this (and decides) or after it.
 */
async function cancelWithTrip(tx: Queryable, deps: Deps, id: number): Promise<boolean> {
  const [r] = await tx.query<ForTrip & { trip_id: number; cancel_reason: string | null }>(
    'SELECT id, status, total, passenger_id, pnr, payment_method, trip_id, cancel_reason FROM reservations WHERE id = $1 FOR UPDATE',
    [id],
  )
  if (!r) return false
  const reason = await tripCancellation(tx, r.trip_id, true)
  if (!reason) return false
  if (TICKET_STATUSES.includes(r.status)) {
    await cancelForTrip(tx, deps, r, reason)
    return true
  }
  // cancelled by the operator's command a moment before: what the passenger asked for is done
  return r.cancel_reason === 'TRIP_CANCELED'
}
