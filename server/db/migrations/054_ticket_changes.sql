-- A passenger's change of a sold ticket to another trip of its route (issue 31 item 2,
-- server/bookings/ticket-change.ts). A change paid on the gateway's page waits as PENDING, its new
-- seats held by the passenger's seat locks until expires_at; DONE when the ticket moved (its PNR
-- and PIN kept), ABANDONED when a later change replaced it or its payment came too late (refunded).
-- amount: what the passenger pays (> 0) or gets back (< 0): new fare less the ticket's, plus charge.
CREATE TABLE ticket_changes (
  id serial PRIMARY KEY,
  reservation_id integer NOT NULL REFERENCES reservations(id),
  from_trip_id integer NOT NULL REFERENCES trips(id),
  to_trip_id integer NOT NULL REFERENCES trips(id),
  seat_names text[] NOT NULL,
  holders text[] NOT NULL,
  subtotal integer NOT NULL CHECK (subtotal >= 0),
  discount integer NOT NULL CHECK (discount >= 0),
  charge integer NOT NULL CHECK (charge >= 0),
  amount integer NOT NULL,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DONE', 'ABANDONED')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  done_at timestamptz
);
CREATE INDEX ticket_changes_reservation_idx ON ticket_changes (reservation_id);
-- The checker's revocation list reads the changes off a day's trips.
CREATE INDEX ticket_changes_from_trip_idx ON ticket_changes (from_trip_id) WHERE status = 'DONE';

-- A gateway payment of a change's difference: purpose CHANGE, for its ticket (reservation_id) and change.
ALTER TABLE payments ADD COLUMN change_id integer REFERENCES ticket_changes(id);
ALTER TABLE payments DROP CONSTRAINT payments_purpose_check;
ALTER TABLE payments ADD CONSTRAINT payments_purpose_check CHECK (purpose IN ('RESERVATION', 'TOP_UP', 'CHANGE'));

-- A change's difference refunded (TICKET_CHANGED), to the balance or the card.
ALTER TABLE ledger DROP CONSTRAINT ledger_reason_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_reason_check CHECK (reason IN ('TICKET_CANCELED', 'BOOKING_ENDED', 'COUPON_REFUSED', 'TRIP_CANCELED', 'TICKET_CHANGED'));
ALTER TABLE refunds DROP CONSTRAINT refunds_reason_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_reason_check
  CHECK (reason IN ('TICKET_CANCELED', 'TRIP_CANCELED', 'REVIEW_DECLINED', 'BOOKING_ENDED', 'COUPON_REFUSED', 'TICKET_CHANGED'));
