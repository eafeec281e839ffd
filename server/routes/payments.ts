/**
 * Paying for a booking (card via the sandbox gateway, or balance), the payment
 * result pages, balance top-ups, and the sandbox gateway itself.
 */
import type { FastifyInstance } from 'fastify';
import { registerGateway } from '../gateway.ts';
import { AppError, handle, type Deps } from '../http.ts';
import { debit } from '../ledger.ts';
import { assertLiveBooking, enqueueTicket, lockOwnReservation, markSold, mustLoadReservation } from '../reservations.ts';
import { expireBookings } from '../trips.ts';
import { confirmPayment, declinePending, findPayment, gatewayPath, newPaymentId, paymentResult, type PaymentRow } from '../payments.ts';

/** Registers the payments routes and the sandbox gateway. */
export function register(app: FastifyInstance, deps: Deps): void {
  registerGateway(app, deps);

  handle(app, deps, 'payment', async (call) => {
    const passengerId = call.auth!.passengerId;
    const id = call.body.reservationId;
    const now = deps.now();
    const paymentId = await deps.db.transaction(async (tx) => {
      const r = await lockOwnReservation(tx, id, passengerId);
      assertLiveBooking(r, now);
      const [pending] = await tx.query<PaymentRow>("SELECT * FROM payments WHERE reservation_id = $1 AND status = 'PENDING'", [id]);
      // Double click or a second tab: the same payment, unless the amount changed since.
      if (pending && pending.amount === r.total) return pending.id;
      if (pending) await declinePending(tx, id, now);
      if (r.total <= 0) throw new AppError('VALIDATION_FAILED', { reason: 'Nothing to pay by card: pay from balance.' });
      const pid = newPaymentId();
      await tx.query(
        "INSERT INTO payments (id, purpose, reservation_id, passenger_id, amount, created_at) VALUES ($1, 'RESERVATION', $2, $3, $4, $5)",
        [pid, id, passengerId, r.total, now],
      );
      return pid;
    });
    return { paymentId, redirectUrl: gatewayPath(paymentId) };
  });

  handle(app, deps, 'topUp', async (call) => {
    const pid = newPaymentId();
    await deps.db.query("INSERT INTO payments (id, purpose, passenger_id, amount, created_at) VALUES ($1, 'TOP_UP', $2, $3, $4)", [
      pid,
      call.auth!.passengerId,
      call.body.amount,
      deps.now(),
    ]);
    return { paymentId: pid, redirectUrl: gatewayPath(pid) };
  });

  handle(app, deps, 'paymentSuccess', async ({ body }) => {
    const p = await findPayment(deps.db, body.paymentId);
    if (p.status === 'APPROVED' && !p.confirmed_at) await confirmPayment(deps, p.id);
    if (p.reservation_id != null) await expireBookings(deps.db, deps.now(), { reservationId: p.reservation_id });
    return paymentResult(deps.db, p.id);
  });

  handle(app, deps, 'paymentFailure', async ({ body }) => {
    const p = await findPayment(deps.db, body.paymentId);
    await deps.db.query("UPDATE payments SET status = 'DECLINED', decided_at = $2 WHERE id = $1 AND status = 'PENDING'", [p.id, deps.now()]);
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
