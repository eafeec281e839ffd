-- Refunds to the card (server/bookings/refunds.ts). What SSLCommerz's refund API needs is kept
-- when a payment is validated: its bank_tran_id and the amounts it reported.
ALTER TABLE payments ADD COLUMN bank_tran_id text;
ALTER TABLE payments ADD COLUMN gateway_amount text;
ALTER TABLE payments ADD COLUMN store_amount text;

-- One refund per card payment (the unique payment_id: money goes back once, to the card or to the
-- balance, never both). id is the refund_trans_id sent to SSLCommerz: a retry of the same refund,
-- from any process, is the same request there. PENDING: not yet accepted by the gateway; SENT:
-- accepted (refund_ref_id), its status is polled; DONE: refunded; FAILED: refused after its
-- retries, or cancelled by the gateway: listed for the operator (npm run trip -- refunds).
CREATE TABLE refunds (
  id text PRIMARY KEY,
  payment_id text NOT NULL UNIQUE REFERENCES payments(id),
  reservation_id integer REFERENCES reservations(id),
  passenger_id integer REFERENCES passengers(id),
  provider text NOT NULL CHECK (provider IN ('sandbox', 'sslcommerz')),
  amount integer NOT NULL CHECK (amount > 0),
  reason text NOT NULL CHECK (reason IN ('TICKET_CANCELED', 'TRIP_CANCELED', 'REVIEW_DECLINED', 'BOOKING_ENDED', 'COUPON_REFUSED')),
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SENT', 'DONE', 'FAILED')),
  refund_ref_id text,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  lease_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  sent_at timestamptz,
  done_at timestamptz
);
CREATE INDEX refunds_due_idx ON refunds (next_attempt_at) WHERE status IN ('PENDING', 'SENT');
CREATE INDEX refunds_reservation_idx ON refunds (reservation_id);
