/**
 * Reservations: the one mapper to the contract shape, PNR and PIN, the cancel
 * scheme, ownership checks and the ticket messages.
 */
import crypto from 'node:crypto';
import type { Reservation, SeatType, CoachType } from '../contract/schemas.ts';
import type { Queryable } from './db.ts';
import { getCompany } from './company.ts';
import { redeemCoupon } from './coupons.ts';
import { renderCancelEmail, renderCancelSms, renderTicketEmail, renderTicketSms, type Language } from './delivery/ticket-messages.ts';
import { AppError, type Deps } from './http.ts';
import { toDhakaIso } from './time.ts';
import { addMinutes, dhakaIsoOrNull } from './trips.ts';

/** A reservations row (the columns the handlers read). */
export interface ReservationRow {
  id: number;
  trip_id: number;
  passenger_id: number | null;
  status: number;
  pnr: string | null;
  pin: string | null;
  passenger_name: string;
  passenger_mobile: string;
  passenger_email: string | null;
  subtotal: number;
  discount: number;
  total: number;
  coupon_code: string | null;
  expiration_time: Date | null;
  max_expiration_time: Date | null;
  payment_method: 'CARD' | 'BALANCE' | null;
  paid_at: Date | null;
  canceled_at: Date | null;
  refund_amount: number | null;
  cancel_otp_hash: string | null;
  cancel_otp_expires_at: Date | null;
  created_at: Date;
  /** The language the passenger booked in (ticket messages are written in it). */
  language: 'en' | 'bn';
}

interface JoinedRow extends ReservationRow {
  trip_date: string;
  coach_code: string;
  coach_type: CoachType;
  layout_name: string;
  departure_at: Date;
  arrival_at: Date;
  o_code: string;
  o_name: string;
  o_name_bn: string;
  d_code: string;
  d_name: string;
  d_name_bn: string;
  b_id: number;
  b_name: string;
  b_city: string;
  b_address: string;
  b_phone: string;
  b_offset: number;
  e_id: number;
  e_name: string;
  e_city: string;
  e_address: string;
  e_phone: string;
  e_offset: number;
}

/** Loads reservations in the contract shape, in the order of `ids` (missing ids are skipped). */
export async function loadReservations(q: Queryable, ids: number[]): Promise<Reservation[]> {
  if (ids.length === 0) return [];
  const rows = await q.query<JoinedRow>(
    `SELECT x.*, t.trip_date::text AS trip_date, t.coach_code, l.coach_type, l.name AS layout_name, t.departure_at, t.arrival_at,
            o.code AS o_code, o.name AS o_name, o.name_bn AS o_name_bn,
            d.code AS d_code, d.name AS d_name, d.name_bn AS d_name_bn,
            b.id AS b_id, b.name AS b_name, b.city_code AS b_city, b.address AS b_address, b.phone AS b_phone, b.offset_minutes AS b_offset,
            e.id AS e_id, e.name AS e_name, e.city_code AS e_city, e.address AS e_address, e.phone AS e_phone, e.offset_minutes AS e_offset
       FROM reservations x
       JOIN trips t ON t.id = x.trip_id
       JOIN routes r ON r.id = t.route_id
       JOIN layouts l ON l.id = t.layout_id
       JOIN cities o ON o.code = r.origin_code
       JOIN cities d ON d.code = r.destination_code
       JOIN bus_stations b ON b.id = x.boarding_station_id
       JOIN bus_stations e ON e.id = x.dropping_station_id
      WHERE x.id = ANY($1::int[])`,
    [ids],
  );
  const seats = await q.query<{ reservation_id: number; seat_name: string; seat_type: SeatType; fare: number }>(
    'SELECT reservation_id, seat_name, seat_type, fare FROM reservation_seats WHERE reservation_id = ANY($1::int[]) ORDER BY id',
    [ids],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((rid) => {
    const r = byId.get(rid);
    if (!r) return [];
    const own = seats.filter((s) => s.reservation_id === rid).map((s) => ({ name: s.seat_name, seatType: s.seat_type, fare: s.fare }));
    return [toReservation(r, own)];
  });
}

/** Loads one reservation in the contract shape, or null. */
export async function loadReservation(q: Queryable, id: number): Promise<Reservation | null> {
  return (await loadReservations(q, [id]))[0] ?? null;
}

/** Like loadReservation, throwing RESERVATION_NOT_FOUND when absent. */
export async function mustLoadReservation(q: Queryable, id: number): Promise<Reservation> {
  const r = await loadReservation(q, id);
  if (!r) throw new AppError('RESERVATION_NOT_FOUND');
  return r;
}

function toReservation(r: JoinedRow, seats: Reservation['seats']): Reservation {
  return {
    id: r.id,
    status: r.status,
    pnr: r.pnr,
    pin: r.pin,
    tripId: r.trip_id,
    tripDate: r.trip_date,
    coach: { code: r.coach_code, type: r.coach_type, name: r.layout_name },
    origin: { code: r.o_code, name: r.o_name, nameBn: r.o_name_bn },
    destination: { code: r.d_code, name: r.d_name, nameBn: r.d_name_bn },
    departureTime: toDhakaIso(r.departure_at),
    arrivalTime: toDhakaIso(r.arrival_at),
    boardingStation: {
      id: r.b_id,
      name: r.b_name,
      cityCode: r.b_city,
      address: r.b_address,
      phone: r.b_phone,
      time: toDhakaIso(addMinutes(r.departure_at, r.b_offset ?? 0)),
    },
    droppingStation: {
      id: r.e_id,
      name: r.e_name,
      cityCode: r.e_city,
      address: r.e_address,
      phone: r.e_phone,
      time: toDhakaIso(addMinutes(r.arrival_at, r.e_offset ?? 0)),
    },
    seats,
    passengerName: r.passenger_name,
    passengerMobile: r.passenger_mobile,
    passengerEmail: r.passenger_email,
    fare: { subtotal: r.subtotal, discount: r.discount, total: r.total, couponCode: r.coupon_code },
    expirationTime: r.status === 2 ? dhakaIsoOrNull(r.expiration_time) : null,
    maxExpirationTime: r.status === 2 ? dhakaIsoOrNull(r.max_expiration_time) : null,
    paymentMethod: r.payment_method,
    paidAt: dhakaIsoOrNull(r.paid_at),
    canceledAt: dhakaIsoOrNull(r.canceled_at),
    refundAmount: r.refund_amount,
    createdAt: toDhakaIso(r.created_at),
  };
}

/**
 * Locks and returns the caller's reservation row (`FOR UPDATE`, so use inside a transaction).
 * RESERVATION_NOT_FOUND when absent, RESERVATION_NOT_ACCESSIBLE when another passenger's.
 */
export async function lockOwnReservation(tx: Queryable, id: number, passengerId: number): Promise<ReservationRow> {
  const rows = await tx.query<ReservationRow>('SELECT * FROM reservations WHERE id = $1 FOR UPDATE', [id]);
  const r = rows[0];
  if (!r) throw new AppError('RESERVATION_NOT_FOUND');
  if (r.passenger_id !== passengerId) throw new AppError('RESERVATION_NOT_ACCESSIBLE');
  return r;
}

/** Throws BOOKING_NOT_FOUND unless the row is a booking that has not expired at `now`. */
export function assertLiveBooking(r: ReservationRow, now: Date): void {
  if (r.status === 1) throw new AppError('PAYMENT_ALREADY_COMPLETED');
  if (r.status !== 2 || !r.expiration_time || r.expiration_time.getTime() <= now.getTime()) throw new AppError('BOOKING_NOT_FOUND');
}

/** Finds a reservation id by PNR and PIN, or throws WRONG_PNR_PIN. */
export async function findByPnr(q: Queryable, pnr: string, pin: string): Promise<ReservationRow> {
  const rows = await q.query<ReservationRow>('SELECT * FROM reservations WHERE pnr = $1', [pnr.trim().toUpperCase()]);
  const r = rows[0];
  if (!r || !r.pin || !safeEqual(r.pin, pin.trim())) throw new AppError('WRONG_PNR_PIN');
  return r;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

// PNR alphabet without look-alikes (0/O, 1/I/L), so it reads well over the phone.
const PNR_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A random 10-character upper-case PNR. */
export function newPnr(): string {
  const bytes = crypto.randomBytes(10);
  let s = '';
  for (const b of bytes) s += PNR_ALPHABET[b % PNR_ALPHABET.length];
  return s;
}

/** A random 4-digit PIN. */
export function newPin(): string {
  return String(crypto.randomInt(0, 10000)).padStart(4, '0');
}

/**
 * Turns a booking into a sold ticket (status 1) with a fresh PNR and PIN. Call inside the
 * transaction that holds the row lock; answers false when the row was no longer booked.
 * A coupon on the booking is redeemed here, its rules checked once more (coupons.ts):
 * a coupon error is thrown and the caller's transaction must roll back.
 */
export async function markSold(tx: Queryable, reservationId: number, method: 'CARD' | 'BALANCE', now: Date): Promise<boolean> {
  const [r] = await tx.query<{ passenger_id: number | null; coupon_code: string | null; subtotal: number }>(
    'SELECT passenger_id, coupon_code, subtotal FROM reservations WHERE id = $1 AND status = 2',
    [reservationId],
  );
  if (!r) return false;
  // A passenger's sales wait for each other, so a first-booking coupon sees the other sale.
  if (r.passenger_id != null) await tx.query('SELECT id FROM passengers WHERE id = $1 FOR UPDATE', [r.passenger_id]);
  if (r.coupon_code) await redeemCoupon(tx, { id: reservationId, passengerId: r.passenger_id, subtotal: r.subtotal, couponCode: r.coupon_code }, now);
  const rows = await tx.query(
    `UPDATE reservations SET status = 1, pnr = $2, pin = $3, payment_method = $4, paid_at = $5
      WHERE id = $1 AND status = 2 RETURNING id`,
    [reservationId, newPnr(), newPin(), method, now],
  );
  return rows.length === 1;
}

/** The cancel scheme: charge percent by hours to departure, or null when it is too late. */
export function cancelCharge(departure: Date, now: Date): { percent: number } | null {
  const hours = (departure.getTime() - now.getTime()) / 3_600_000;
  if (hours >= 48) return { percent: 10 };
  if (hours >= 24) return { percent: 25 };
  if (hours >= 6) return { percent: 50 };
  return null;
}

/** The cancel policy as a sentence for the confirmation screen. */
export const CANCEL_POLICY =
  'Cancellation charge: 10% of the fare 48 hours or more before departure, 25% between 24 and 48 hours, 50% between 6 and 24 hours. ' +
  'Tickets cannot be cancelled less than 6 hours before departure. The refund goes to your account balance.';

/** Masks a mobile number for display: 017******89. */
export function maskMobile(m: string): string {
  if (m.length < 6) return m;
  return m.slice(0, 3) + '*'.repeat(m.length - 5) + m.slice(-2);
}

/**
 * Writes the ticket SMS (to the reservation mobile, when `sms`) and e-mail (to `email`,
 * if any) into the outbox, in the language the passenger booked in. Pass `tx` to
 * write them in the caller's transaction.
 */
export async function sendTicket(deps: Deps, r: Reservation, opts: { email: string | null; sms: boolean; tx?: Queryable }): Promise<void> {
  const q = opts.tx ?? deps.db;
  const lang = await reservationLanguage(q, r.id);
  const ctx = { company: await getCompany(q), appUrl: deps.config.appUrl, now: deps.now() };
  if (opts.sms) await deps.outbox.send({ channel: 'SMS', to: r.passengerMobile, body: renderTicketSms(r, lang, ctx) }, q);
  if (opts.email) {
    const mail = renderTicketEmail(r, lang, ctx);
    await deps.outbox.send({ channel: 'EMAIL', to: opts.email, subject: mail.subject, body: mail.text, html: mail.html, attachments: mail.attachments }, q);
  }
}

/** Writes a sold ticket's SMS and e-mail in `tx`, the transaction of the sale, so they are sent if and only if it commits. */
export async function enqueueTicket(tx: Queryable, deps: Deps, reservationId: number): Promise<void> {
  const r = await loadReservation(tx, reservationId);
  if (!r) return;
  await sendTicket(deps, r, { email: await ticketEmail(tx, r, await ownerOf(tx, reservationId)), sms: true, tx });
}

/** Writes the cancellation SMS and e-mail of a cancelled ticket in `tx`, the transaction of the cancel. */
export async function enqueueCancelNotice(tx: Queryable, deps: Deps, reservationId: number, refund: number): Promise<void> {
  const r = await loadReservation(tx, reservationId);
  if (!r) return;
  const lang = await reservationLanguage(tx, r.id);
  await deps.outbox.send({ channel: 'SMS', to: r.passengerMobile, body: renderCancelSms(r, lang, refund) }, tx);
  const email = await ticketEmail(tx, r, await ownerOf(tx, reservationId));
  if (email) {
    const mail = renderCancelEmail(r, lang, refund, { company: await getCompany(tx), appUrl: deps.config.appUrl, now: deps.now() });
    await deps.outbox.send({ channel: 'EMAIL', to: email, subject: mail.subject, body: mail.text, html: mail.html, attachments: mail.attachments }, tx);
  }
}

async function reservationLanguage(q: Queryable, id: number): Promise<Language> {
  const [row] = await q.query<{ language: Language }>('SELECT language FROM reservations WHERE id = $1', [id]);
  return row?.language === 'bn' ? 'bn' : 'en';
}

async function ownerOf(q: Queryable, id: number): Promise<number | null> {
  const [row] = await q.query<{ passenger_id: number | null }>('SELECT passenger_id FROM reservations WHERE id = $1', [id]);
  return row?.passenger_id ?? null;
}

/** The address the ticket e-mail goes to: the reservation's, else the passenger's. */
export async function ticketEmail(q: Queryable, r: Reservation, passengerId: number | null): Promise<string | null> {
  if (r.passengerEmail) return r.passengerEmail;
  if (passengerId == null) return null;
  const rows = await q.query<{ email: string | null }>('SELECT email FROM passengers WHERE id = $1', [passengerId]);
  return rows[0]?.email || null;
}

/** Writes the ticket SMS and e-mail after a sale (in their own transaction); failures are logged, never undo the sale. */
export async function notifySold(deps: Deps, reservationId: number): Promise<void> {
  try {
    await deps.db.transaction((tx) => enqueueTicket(tx, deps, reservationId));
  } catch (err) {
    console.error(`[reservations] ticket messages of reservation ${reservationId} not written:`, (err as Error).message);
  }
}
