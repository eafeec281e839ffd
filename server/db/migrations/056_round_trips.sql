-- Round trips (issue 31 item 4, server/bookings/round-trips.ts): a return booking names the
-- outbound booking it returns from; each is its own ticket (own PNR, cancelled or changed alone).
ALTER TABLE reservations ADD COLUMN outbound_reservation_id integer REFERENCES reservations(id);
CREATE INDEX reservations_outbound_idx ON reservations (outbound_reservation_id) WHERE outbound_reservation_id IS NOT NULL;

-- One payment for both legs: `reservation_id` is the outbound booking, `return_reservation_id` the
-- return booking it pays too (its amount is both totals); refunds of either ticket go back through it.
ALTER TABLE payments ADD COLUMN return_reservation_id integer REFERENCES reservations(id);
CREATE INDEX payments_return_idx ON payments (return_reservation_id) WHERE return_reservation_id IS NOT NULL;
