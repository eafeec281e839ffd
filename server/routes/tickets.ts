/**
 * Tickets: viewing a reservation (by id for its owner, or by PNR and PIN), the
 * passenger's list, cancelling a sold ticket with an SMS code (refund to the
 * balance) and resending the ticket e-mail.
 */
import type { FastifyInstance } from 'fastify';
import { OTP_RESEND_SECONDS } from '../../contract/schemas.ts';
import { AppError, handle, type Deps } from '../http.ts';
import { credit } from '../ledger.ts';
import { take, type Limit } from '../limits.ts';
import { verifyOtp, issueOtp } from '../otp.ts';
import {
  CANCEL_POLICY,
  cancelCharge,
  enqueueCancelNotice,
  findByPnr,
  loadReservations,
  maskMobile,
  mustLoadReservation,
  sendTicket,
  ticketEmail,
  type ReservationRow,
} from '../reservations.ts';
import { sha256 } from '../tokens.ts';
import { addMinutes, expireBookings, findTrip } from '../trips.ts';
import { parseId } from './reservations.ts';

// How long a code checked by POST /verifyCancelTicketOTP stays good for the cancel call.
const VERIFIED_CANCEL_MINUTES = 10;

/** Wrong PINs one PNR takes (all PNR and PIN routes together) before it is closed for a while. */
export const PIN_LIMIT: Limit = {
  bucket: 'pnr-pin',
  max: 10,
  windowMs: 15 * 60_000,
  reason: 'Too many wrong PINs for this PNR. Try again in {minutes} minutes.',
};

/** Ticket e-mails one PNR may send. */
export const RESEND_EMAIL_LIMIT: Limit = {
  bucket: 'pnr-resend-email',
  max: 3,
  windowMs: 60 * 60_000,
  reason: 'This ticket was e-mailed several times in the last hour. Try again in {minutes} minutes.',
};

/** Registers the tickets routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  handle(app, deps, 'reservationById', async (call) => {
    const id = parseId(call.params.id, 'id');
    const [row] = await deps.db.query<{ passenger_id: number | null }>('SELECT passenger_id FROM reservations WHERE id = $1', [id]);
    if (!row) throw new AppError('RESERVATION_NOT_FOUND');
    if (row.passenger_id !== call.auth!.passengerId) throw new AppError('RESERVATION_NOT_ACCESSIBLE');
    await expireBookings(deps.db, deps.now(), { reservationId: id });
    return mustLoadReservation(deps.db, id);
  });

  handle(app, deps, 'reservationByPnr', async (call) => {
    const r = await byPnr(deps, call.params.pnr, call.params.pin);
    return mustLoadReservation(deps.db, r.id);
  });

  handle(app, deps, 'myReservations', async (call) => {
    const passengerId = call.auth!.passengerId;
    const now = deps.now();
    await expireBookings(deps.db, now, { passengerId });
    // Upcoming trips first (soonest first), then past ones (latest first).
    const rows = await deps.db.query<{ id: number }>(
      `SELECT x.id FROM reservations x JOIN trips t ON t.id = x.trip_id
        WHERE x.passenger_id = $1
        ORDER BY (t.departure_at > $2) DESC,
                 CASE WHEN t.departure_at > $2 THEN t.departure_at END ASC,
                 t.departure_at DESC, x.id DESC
        LIMIT 200`,
      [passengerId, now],
    );
    return loadReservations(deps.db, rows.map((r) => r.id));
  });

  handle(app, deps, 'cancelInitialize', async (call) => {
    const now = deps.now();
    const r = await byPnr(deps, call.params.pnr, call.params.pin);
    const quote = await cancelQuote(deps, r, now);
    const mobile = await refundMobile(deps, r);
    const sent = await deps.db.transaction((tx) => issueOtp(tx, deps, { mobile, purpose: 'CANCEL_TICKET', ref: r.pnr! }));
    return {
      reservationId: r.id,
      refundAmount: quote.refund,
      cancellationCharge: quote.charge,
      chargePercent: quote.percent,
      policy: CANCEL_POLICY,
      otpSentTo: maskMobile(mobile),
      resendAfterSeconds: sent.resendAfterSeconds ?? OTP_RESEND_SECONDS,
    };
  });

  handle(app, deps, 'verifyCancelTicketOtp', async ({ body }) => {
    const now = deps.now();
    const r = await byPnr(deps, body.pnr, body.pin);
    await cancelQuote(deps, r, now);
    await verifyOtp(deps.db, deps, { mobile: await refundMobile(deps, r), purpose: 'CANCEL_TICKET', ref: r.pnr!, code: body.otp });
    // The code is consumed; remember it on the reservation so the cancel call can present it.
    await deps.db.query('UPDATE reservations SET cancel_otp_hash = $2, cancel_otp_expires_at = $3 WHERE id = $1 AND status = 1', [
      r.id,
      sha256(`${r.pnr}|${body.otp}`),
      addMinutes(now, VERIFIED_CANCEL_MINUTES),
    ]);
    return true;
  });

  handle(app, deps, 'cancel', async (call) => {
    const now = deps.now();
    const r = await byPnr(deps, call.params.pnr, call.params.pin);
    const quote = await cancelQuote(deps, r, now);
    const otp = call.params.otp;
    const preVerified =
      !!r.cancel_otp_hash && !!r.cancel_otp_expires_at && r.cancel_otp_expires_at > now && r.cancel_otp_hash === sha256(`${r.pnr}|${otp}`);
    if (!preVerified) await verifyOtp(deps.db, deps, { mobile: await refundMobile(deps, r), purpose: 'CANCEL_TICKET', ref: r.pnr!, code: otp });
    await deps.db.transaction(async (tx) => {
      // The status guard makes a double cancel refund once: only one update finds status 1.
      const done = await tx.query(
        `UPDATE reservations SET status = 5, canceled_at = $2, cancel_reason = 'TICKET_CANCELED', refund_amount = $3,
                cancellation_charge = $4, cancel_otp_hash = NULL, cancel_otp_expires_at = NULL
          WHERE id = $1 AND status = 1 RETURNING id`,
        [r.id, now, quote.refund, quote.charge],
      );
      if (done.length === 0) throw new AppError('RESERVATION_NOT_CANCELLABLE');
      await tx.query('UPDATE reservation_seats SET active = false WHERE reservation_id = $1', [r.id]);
      if (quote.refund > 0 && r.passenger_id != null) {
        await credit(tx, { passengerId: r.passenger_id, amount: quote.refund, kind: 'REFUND', description: `Refund for ticket ${r.pnr}`, reservationId: r.id, at: now });
      }
      await enqueueCancelNotice(tx, deps, r.id, quote.refund);
    });
    const out = await mustLoadReservation(deps.db, r.id);
    return out;
  });

  handle(app, deps, 'resendReservationEmail', async (call) => {
    const r = await byPnr(deps, call.params.pnr, call.params.pin);
    if (r.status !== 1) throw new AppError('RESERVATION_NOT_ACCESSIBLE', { reason: 'Only a sold ticket can be e-mailed.' });
    const out = await mustLoadReservation(deps.db, r.id);
    const email = await ticketEmail(deps.db, out, r.passenger_id);
    if (!email) throw new AppError('VALIDATION_FAILED', { reason: 'This reservation has no e-mail address.' });
    await take(deps.db, RESEND_EMAIL_LIMIT, r.pnr!, deps.now());
    await sendTicket(deps, out, { email, sms: false });
    return true;
  });
}

/**
 * The reservation of a PNR and PIN. Each try counts against the PNR's PIN_LIMIT and a
 * right PIN takes its try back, so after 10 wrong PINs in 15 minutes the PNR answers
 * TOO_MANY_ATTEMPTS, even for the right PIN, until the oldest wrong one is 15 minutes old.
 */
async function byPnr(deps: Deps, pnr: string | undefined, pin: string | undefined): Promise<ReservationRow> {
  if (!pnr || !pin || !/^[A-Za-z0-9]{1,20}$/.test(pnr) || !/^\d{4}$/.test(pin)) throw new AppError('WRONG_PNR_PIN');
  const slot = await take(deps.db, PIN_LIMIT, pnr.trim().toUpperCase(), deps.now());
  try {
    const r = await findByPnr(deps.db, pnr, pin);
    await slot.release();
    return r;
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'WRONG_PNR_PIN')) await slot.release();
    throw err;
  }
}

/** The refund quote for cancelling a sold ticket now, or the reason it cannot be cancelled. */
async function cancelQuote(deps: Deps, r: ReservationRow, now: Date): Promise<{ percent: number; charge: number; refund: number }> {
  if (r.status !== 1) throw new AppError('RESERVATION_NOT_CANCELLABLE');
  const trip = await findTrip(deps.db, r.trip_id);
  if (!trip) throw new AppError('TRIP_NOT_FOUND');
  if (trip.status === 'CLOSED_FOR_CANCELLATION') throw new AppError('TRIP_CLOSED_FOR_CANCELLATION');
  const c = cancelCharge(trip.departure_at, now);
  if (!c) throw new AppError('RESERVATION_CANCEL_TIME_EXPIRED');
  const charge = Math.round((r.total * c.percent) / 100);
  return { percent: c.percent, charge, refund: r.total - charge };
}

/** The cancel code goes to the account holder's mobile (the refund goes to that balance). */
async function refundMobile(deps: Deps, r: ReservationRow): Promise<string> {
  if (r.passenger_id != null) {
    const [p] = await deps.db.query<{ mobile: string }>('SELECT mobile FROM passengers WHERE id = $1', [r.passenger_id]);
    if (p) return p.mobile;
  }
  return r.passenger_mobile;
}
