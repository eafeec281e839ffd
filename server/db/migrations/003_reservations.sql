-- Seat locks, reservations, their seats and card/top-up payments.
-- Race rules live in the schema: a seat lock is one row per (trip, seat) won by an
-- atomic upsert, and a seat can be in at most one active reservation_seats row.

CREATE TABLE IF NOT EXISTS seat_locks (
  trip_id integer NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
  seat_name text NOT NULL,
  -- 'p:<passengerId>' signed in, 'd:<X-Device-Id>' visitor, 'ip:<address>' visitor without a device id
  holder text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (trip_id, seat_name)
);
CREATE INDEX IF NOT EXISTS seat_locks_holder_idx ON seat_locks (holder, trip_id);

CREATE TABLE IF NOT EXISTS reservations (
  id serial PRIMARY KEY,
  trip_id integer NOT NULL REFERENCES trips(id),
  passenger_id integer REFERENCES passengers(id),
  -- SPEC reservation status codes: sold 1, booked 2, canceled 5
  status integer NOT NULL CHECK (status IN (1, 2, 3, 5, 10, 12, 13, 14)),
  pnr text UNIQUE,
  pin text,
  boarding_station_id integer NOT NULL REFERENCES bus_stations(id),
  dropping_station_id integer NOT NULL REFERENCES bus_stations(id),
  passenger_name text NOT NULL,
  passenger_mobile text NOT NULL,
  passenger_email text,
  subtotal integer NOT NULL CHECK (subtotal >= 0),
  discount integer NOT NULL DEFAULT 0 CHECK (discount >= 0),
  total integer NOT NULL CHECK (total >= 0),
  coupon_code text,
  expiration_time timestamptz,
  max_expiration_time timestamptz,
  payment_method text CHECK (payment_method IN ('CARD', 'BALANCE')),
  paid_at timestamptz,
  canceled_at timestamptz,
  -- EXPIRED (booking not paid in time), BOOKING_CANCELED (by the passenger), TICKET_CANCELED (sold ticket, refunded)
  cancel_reason text,
  refund_amount integer,
  cancellation_charge integer,
  -- Set by POST /verifyCancelTicketOTP (which consumes the code): lets the cancel call reuse that code for a while
  cancel_otp_hash text,
  cancel_otp_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS reservations_passenger_idx ON reservations (passenger_id);
CREATE INDEX IF NOT EXISTS reservations_trip_idx ON reservations (trip_id);
CREATE INDEX IF NOT EXISTS reservations_booked_expiry_idx ON reservations (expiration_time) WHERE status = 2;

CREATE TABLE IF NOT EXISTS reservation_seats (
  id serial PRIMARY KEY,
  reservation_id integer NOT NULL REFERENCES reservations(id) ON DELETE CASCADE,
  trip_id integer NOT NULL REFERENCES trips(id),
  seat_name text NOT NULL,
  seat_type text NOT NULL,
  fare integer NOT NULL CHECK (fare >= 0),
  active boolean NOT NULL DEFAULT true
);
-- Two bookings of one seat can never both commit.
CREATE UNIQUE INDEX IF NOT EXISTS reservation_seats_one_active ON reservation_seats (trip_id, seat_name) WHERE active;
CREATE INDEX IF NOT EXISTS reservation_seats_reservation_idx ON reservation_seats (reservation_id);

CREATE TABLE IF NOT EXISTS payments (
  id text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('RESERVATION', 'TOP_UP')),
  reservation_id integer REFERENCES reservations(id),
  passenger_id integer NOT NULL REFERENCES passengers(id),
  amount integer NOT NULL CHECK (amount > 0),
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'DECLINED')),
  -- APPROVED but not applied: the card was charged after the booking ended, so the amount went to the balance
  refunded boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  confirmed_at timestamptz
);
-- At most one pending card payment per reservation (double click, two tabs).
CREATE UNIQUE INDEX IF NOT EXISTS payments_one_pending ON payments (reservation_id) WHERE status = 'PENDING' AND purpose = 'RESERVATION';
CREATE INDEX IF NOT EXISTS payments_passenger_idx ON payments (passenger_id);
