/**
 * Paying for a booking (card through the configured gateway, or balance), the
 * payment result pages, balance top-ups, and the gateway's own callback routes.
 */
import type { FastifyInstance } from 'fastify';
import { assertCouponUsable } from '../coupons.ts';
import { AppError, handle, type Deps } from '../http.ts';
import { debit } from '../ledger.ts';
import { createGateway, gatewayFor } from '../payment-gateways/index.ts';
import { assertLiveBooking, enqueueTicket, lockOwnReservation, markSold, mustLoadReservation } from '../reservations.ts';
import { expireBookings } from '../trips.ts';
import { assertNotUnderReview, declinePending, findPayment, newPaymentId, paymentResult, type PaymentRow } from '../payments.ts';

/** Registers the payments routes and the configured gateway's routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  const gateway = createGateway(deps);
  gateway.register(app);

  handle(app, deps, 'payment', async (call) => {
    const passengerId = call.auth!.passengerId;
    const id = call.body.reservationId;
    const now = deps.now();
    if (!gateway.provider) throw new AppError('PAYMENT_GATEWAY_UNAVAILABLE');
    const { payment, reused } = await deps.db.transaction(async (tx) => {
      const r = await lockOwnReservation(tx, id, passengerId);
      assertLiveBooking(r, now);
      await assertNotUnderReview(tx, id);
      // Learn now, not after paying, that the coupon was used up meanwhile.
      await assertCouponUsable(tx, r);
      const [pending] = await tx.query<PaymentRow>("SELECT * FROM payments WHERE reservation_id = $1 AND status = 'PENDING'", [id]);
      // Double click or a second tab: the same payment, unless the amount or the gateway changed since (or it cannot be resumed).
      if (pending && pending.amount === r.total && pending.provider === gateway.provider && gateway.canReuse(pending, now)) return { payment: pending, reused: true };
      if (pending) await declinePending(tx, id, now);
      if (r.total <= 0) throw new AppError('VALIDATION_FAILED', { reason: 'Nothing to pay by card: pay from balance.' });
      if (r.total < gateway.minAmount) throw new AppError('VALIDATION_FAILED', { reason: `Card payments start at ${gateway.minAmount} Tk: pay from balance.` });
      const [row] = await tx.query<PaymentRow>(
        "INSERT INTO payments (id, purpose, reservation_id, passenger_id, amount, created_at, provider) VALUES ($1, 'RESERVATION', $2, $3, $4, $5, $6) RETURNING *",
        [newPaymentId(), id, passengerId, r.total, now, gateway.provider],
      );
      return { payment: row!, reused: false };
    });
    const { redirectUrl } = await gateway.open(payment, { reused });
    return { paymentId: payment.id, redirectUrl };
  });

  handle(app, deps, 'topUp', async (call) => {
    if (!gateway.provider) throw new AppError('PAYMENT_GATEWAY_UNAVAILABLE');
    const [payment] = await deps.db.query<PaymentRow>(
      "INSERT INTO payments (id, purpose, passenger_id, amount, created_at, provider) VALUES ($1, 'TOP_UP', $2, $3, $4, $5) RETURNING *",
      [newPaymentId(), call.auth!.passengerId, call.body.amount, deps.now(), gateway.provider],
    );
    const { redirectUrl } = await gateway.open(payment!, { reused: false });
    return { paymentId: payment!.id, redirectUrl };
  });

  handle(app, deps, 'paymentSuccess', async ({ body }) => {
    const p = await findPayment(deps.db, body.paymentId);
    await gatewayFor(deps, p).refresh(p);
    if (p.reservation_id != null) await expireBookings(deps.db, deps.now(), { reservationId: p.reservation_id });
    return paymentResult(deps.db, p.id);
  });

  handle(app, deps, 'paymentFailure', async ({ body }) => {
    const p = await findPayment(deps.db, body.paymentId);
    await gatewayFor(deps, p).abandon(p);
    if (p.reservation_id != null) await expireBookings(deps.db, deps.now(), { reservationId: p.reservation_id });
    return paymentResult(deps.db, p.id);
  });

  handle(app, deps, 'payFromBalance', async (call) => {
    const passengerId = call.auth!.passengerId;
    const id = call.body.reservationId;
    const now = deps.now();
    await expireBookings(deps.db, now, { reservationId: id });
    await deps.db.transaction(async (tx) => {
      const r = await lockOwnReservation(tx, id, passengerId);
      assertLiveBooking(r, now);
      // A card payment held for review may still be accepted: the ticket must not be paid twice.
      await assertNotUnderReview(tx, r.id);
      // A fully discounted booking has nothing to debit (the ledger takes positive amounts only).
      if (r.total > 0) {
        const balance = await debit(tx, {
          passengerId,
          amount: r.total,
          kind: 'TICKET_PAYMENT',
          description: `Ticket payment, booking ${r.id}`,
          reservationId: r.id,
          at: now,
        });
        if (balance === null) throw new AppError('INSUFFICIENT_BALANCE');
      }
      if (!(await markSold(tx, r.id, 'BALANCE', now))) throw new AppError('BOOKING_NOT_FOUND');
      // A card payment left open in another tab must not charge for a ticket already paid.
      await declinePending(tx, r.id, now);
      await enqueueTicket(tx, deps, r.id);
    });
    return mustLoadReservation(deps.db, id);
  });
}
