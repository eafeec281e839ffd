-- Cancelling some seats of a ticket (issue 31 item 3, server/bookings/tickets.ts cancelSeats).
-- A seat cancelled on its own: inactive, with when. The rest of its ticket stays live; its
-- subtotal, discount and total shrink by the seats' share.
ALTER TABLE reservation_seats ADD COLUMN canceled_at timestamptz;

-- A card payment may be refunded in parts (one per partial cancel, then the rest): `part` is 0
-- for the whole or remaining refund, else the first reservation_seats id of the seats it refunds,
-- so each part is still written once (refunds.ts queueCardRefund) and their sum is checked there.
ALTER TABLE refunds ADD COLUMN part integer NOT NULL DEFAULT 0;
ALTER TABLE refunds DROP CONSTRAINT refunds_payment_id_key;
CREATE UNIQUE INDEX refunds_payment_part ON refunds (payment_id, part);
