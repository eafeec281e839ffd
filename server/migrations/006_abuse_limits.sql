-- Abuse limits kept in the database, so they hold across server processes:
-- attempt counters, the client address of each seat hold, pending sign-ups bound
-- to the browser that started them, and the rules of each coupon.

-- One row per counted event (a wrong PIN, a sent code, a contact message...):
-- a limit is "at most N events of this bucket and key in the last window".
CREATE TABLE limit_events (
  id bigserial PRIMARY KEY,
  bucket text NOT NULL,
  key text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX limit_events_bucket_key_at ON limit_events (bucket, key, at);
CREATE INDEX limit_events_at ON limit_events (at);

-- The client address (IPv4, or the /64 of IPv6) that took each hold.
ALTER TABLE seat_locks ADD COLUMN address text NOT NULL DEFAULT '';
CREATE INDEX seat_locks_address_idx ON seat_locks (address, expires_at);

-- A sign-up waiting for its SMS code. The passenger row is created only when the
-- code sent for THIS registration is confirmed with its token, so a second
-- registration of the same mobile never changes the first one's details.
CREATE TABLE registrations (
  id bigserial PRIMARY KEY,
  token_hash text UNIQUE NOT NULL,
  mobile text NOT NULL CHECK (mobile ~ '^01[3-9][0-9]{8}$'),
  full_name text NOT NULL,
  email text NOT NULL,
  city text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX registrations_mobile_idx ON registrations (mobile);

-- Sign-ups left half-done by the old flow: their details may be an attacker's, so
-- they start over (nothing else refers to a PENDING passenger).
DELETE FROM passengers p WHERE p.status = 'PENDING'
  AND NOT EXISTS (SELECT 1 FROM reservations x WHERE x.passenger_id = p.id)
  AND NOT EXISTS (SELECT 1 FROM ledger l WHERE l.passenger_id = p.id)
  AND NOT EXISTS (SELECT 1 FROM payments y WHERE y.passenger_id = p.id);

-- Coupon rules, checked when applied and again in the transaction that sells.
ALTER TABLE offers
  ADD COLUMN first_booking_only boolean NOT NULL DEFAULT false,
  ADD COLUMN max_uses_per_passenger int CHECK (max_uses_per_passenger > 0),
  ADD COLUMN max_uses_total int CHECK (max_uses_total > 0),
  ADD COLUMN min_fare int NOT NULL DEFAULT 0 CHECK (min_fare >= 0);
UPDATE offers SET first_booking_only = true, max_uses_per_passenger = 1 WHERE coupon_code = 'FIRST50';

-- One row per sold reservation that used a coupon (its use is counted here).
CREATE TABLE coupon_redemptions (
  reservation_id int PRIMARY KEY REFERENCES reservations(id),
  offer_id int NOT NULL REFERENCES offers(id),
  passenger_id int REFERENCES passengers(id),
  created_at timestamptz NOT NULL
);
CREATE INDEX coupon_redemptions_offer_idx ON coupon_redemptions (offer_id, passenger_id);
