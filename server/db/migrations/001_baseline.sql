-- The schema as migrations 001-021 left it, squashed into one baseline (tables, constraints and
-- indexes only). Every SQL function, view and trigger is in server/db/functions/, applied after
-- the migrations. A database migrated before the squash has version 001 already and skips this.

-- Reference data: cities, counters, routes, seat layouts, timetables and the trips made from them.
-- Cities, counters and routes no longer in the network file but named by trips or tickets stay,
-- withdrawn from the lists (active = false).
CREATE TABLE cities (
  code text PRIMARY KEY,
  name text NOT NULL,
  name_bn text NOT NULL,
  sort int NOT NULL,
  active boolean NOT NULL DEFAULT true
);

-- Boarding counters report at departure + offset_minutes, dropping counters at arrival + offset_minutes.
CREATE TABLE bus_stations (
  id serial PRIMARY KEY,
  city_code text NOT NULL REFERENCES cities,
  name text NOT NULL,
  address text NOT NULL,
  phone text NOT NULL,
  offset_minutes int NOT NULL,
  active boolean NOT NULL DEFAULT true,
  UNIQUE (city_code, name)
);

CREATE TABLE routes (
  id serial PRIMARY KEY,
  origin_code text REFERENCES cities,
  destination_code text REFERENCES cities,
  distance_km int,
  duration_minutes int,
  active boolean NOT NULL DEFAULT true,
  UNIQUE (origin_code, destination_code)
);

-- Layouts are imported by code. When the seats of a layout that sold tickets change, the old row
-- is kept (retired) for those tickets and a new version takes the code, so codes are unique among
-- current layouts only.
CREATE TABLE layouts (
  id serial PRIMARY KEY,
  name text NOT NULL,
  coach_type text NOT NULL CHECK (coach_type IN ('AC_BUSINESS', 'AC_STANDARD', 'NON_AC', 'SLEEPER')),
  rows int,
  columns int,
  aisle_columns int[] NOT NULL,
  decks text[] NOT NULL,
  code text NOT NULL,
  retired boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX layouts_current_code ON layouts (code) WHERE NOT retired;

CREATE TABLE layout_seats (
  layout_id int REFERENCES layouts,
  name text,
  row int,
  col int,
  deck text CHECK (deck IN ('LOWER', 'UPPER')),
  seat_type text CHECK (seat_type IN ('Standard', 'Business', 'Extra', 'Sleeper', 'Sleeper Horizontal')),
  PRIMARY KEY (layout_id, name)
);

-- A daily departure; trips are generated from schedules for each day it runs: ISO weekdays
-- (1 Monday .. 7 Sunday) between valid_from and valid_until (Asia/Dhaka dates).
CREATE TABLE schedules (
  id serial PRIMARY KEY,
  coach_code text NOT NULL UNIQUE,
  route_id int NOT NULL REFERENCES routes,
  layout_id int NOT NULL REFERENCES layouts,
  depart_time time NOT NULL,
  fares jsonb NOT NULL,
  weekdays int[] NOT NULL DEFAULT '{1,2,3,4,5,6,7}',
  valid_from date,
  valid_until date
);

CREATE TABLE trips (
  id serial PRIMARY KEY,
  trip_date date NOT NULL,
  coach_code text NOT NULL,
  route_id int NOT NULL REFERENCES routes,
  layout_id int NOT NULL REFERENCES layouts,
  departure_at timestamptz NOT NULL,
  arrival_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'CLOSED', 'OMITTED', 'CLOSED_FOR_CANCELLATION')),
  fares jsonb NOT NULL,
  UNIQUE (trip_date, coach_code)
);
CREATE INDEX trips_route_date ON trips (route_id, trip_date);

-- label_bn: the Bengali label (NULL shows the English one, marked as English).
CREATE TABLE time_periods (
  label text PRIMARY KEY,
  value text NOT NULL,
  integer_value int NOT NULL,
  sort int NOT NULL,
  label_bn text
);

CREATE TABLE announcements (
  id serial PRIMARY KEY,
  title text NOT NULL,
  title_bn text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  key text NOT NULL,
  CONSTRAINT announcements_key_key UNIQUE (key)
);

-- Coupon rules are checked when applied and again in the transaction that sells.
CREATE TABLE offers (
  id serial PRIMARY KEY,
  title text NOT NULL,
  title_bn text NOT NULL,
  description text NOT NULL,
  coupon_code text NOT NULL UNIQUE,
  discount_percent int NOT NULL CHECK (discount_percent > 0 AND discount_percent <= 100),
  max_discount int NOT NULL CHECK (max_discount >= 0),
  valid_until date NOT NULL,
  first_booking_only boolean NOT NULL DEFAULT false,
  max_uses_per_passenger int CHECK (max_uses_per_passenger > 0),
  max_uses_total int CHECK (max_uses_total > 0),
  min_fare int NOT NULL DEFAULT 0 CHECK (min_fare >= 0),
  valid_from date,
  description_bn text
);

CREATE TABLE company (
  id int PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  name text NOT NULL,
  phone text NOT NULL,
  email text NOT NULL
);

CREATE TABLE contact_messages (
  id serial PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  mobile text,
  subject text NOT NULL,
  message text NOT NULL,
  created_at timestamptz NOT NULL
);

-- Every SMS and e-mail, written PENDING in the transaction that causes it; a worker claims it
-- (FOR UPDATE SKIP LOCKED, with a lease), sends it and records the outcome. The e-mail's HTML and
-- attachments are rendered when the message is written, so the worker only sends.
CREATE TABLE outbox_messages (
  id bigserial PRIMARY KEY,
  channel text NOT NULL CHECK (channel IN ('SMS', 'EMAIL')),
  "to" text NOT NULL,
  subject text,
  body text NOT NULL,
  code text,
  created_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SENDING', 'SENT', 'FAILED')),
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  locked_until timestamptz,
  sent_at timestamptz,
  provider_message_id text,
  last_error text,
  html text,
  -- [{ "filename": "...", "contentType": "...", "content": "<base64>" }]
  attachments jsonb NOT NULL DEFAULT '[]',
  -- The body with its one-time code masked; replaces the body once the message is sent or has failed.
  redacted_body text,
  -- Which SMS provider the message is with (0: SMS_PROVIDER, 1: SMS_FALLBACK_PROVIDER; it only
  -- ever moves from 0 to 1), and the provider of its last attempt (e.g. sslwireless, smtp).
  route smallint NOT NULL DEFAULT 0 CHECK (route IN (0, 1)),
  provider text
);
CREATE INDEX outbox_messages_to ON outbox_messages ("to", id);
-- What the worker claims: pending messages that are due, and sends whose lease ran out.
CREATE INDEX outbox_messages_due ON outbox_messages (next_attempt_at, id) WHERE status = 'PENDING';
CREATE INDEX outbox_messages_leased ON outbox_messages (locked_until, id) WHERE status = 'SENDING';

-- Passengers, their sessions, one-time codes, password resets and balance ledger.
CREATE TABLE passengers (
  id serial PRIMARY KEY,
  mobile text UNIQUE NOT NULL CHECK (mobile ~ '^01[3-9][0-9]{8}$'),
  full_name text NOT NULL,
  email text NOT NULL,
  city text NOT NULL,
  password_hash text,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'ACTIVE', 'INACTIVE')),
  balance int NOT NULL DEFAULT 0 CHECK (balance >= 0),
  password_changed_at timestamptz,
  created_at timestamptz NOT NULL
);

CREATE TABLE sessions (
  id bigserial PRIMARY KEY,
  passenger_id int NOT NULL REFERENCES passengers ON DELETE CASCADE,
  token_hash text UNIQUE NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX sessions_passenger ON sessions (passenger_id);

-- One live code per (mobile, purpose, ref): a new code replaces the old one.
CREATE TABLE otps (
  id bigserial PRIMARY KEY,
  mobile text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('SIGNUP', 'LOGIN', 'RESET_PASSWORD', 'CANCEL_TICKET')),
  ref text NOT NULL DEFAULT '',
  code_hash text NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  sent_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  UNIQUE (mobile, purpose, ref)
);

CREATE TABLE password_resets (
  token_hash text PRIMARY KEY,
  passenger_id int NOT NULL REFERENCES passengers ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);

-- reason: why the row was written, so the app says it in the passenger's language
-- (`description` is the English text, still written for older readers).
CREATE TABLE ledger (
  id bigserial PRIMARY KEY,
  passenger_id int NOT NULL REFERENCES passengers,
  amount int NOT NULL,
  balance_after int NOT NULL,
  kind text NOT NULL CHECK (kind IN ('TOP_UP', 'TICKET_PAYMENT', 'REFUND', 'OPENING')),
  description text NOT NULL,
  reservation_id int,
  created_at timestamptz NOT NULL,
  reason text,
  CONSTRAINT ledger_reason_check CHECK (reason IN ('TICKET_CANCELED', 'BOOKING_ENDED', 'COUPON_REFUSED', 'TRIP_CANCELED'))
);
CREATE INDEX ledger_passenger_time ON ledger (passenger_id, created_at);

-- Seat locks, reservations, their seats and card/top-up payments.
-- Race rules live in the schema: a seat lock is one row per (trip, seat) won by an
-- atomic upsert, and a seat can be in at most one active reservation_seats row.
CREATE TABLE seat_locks (
  trip_id integer NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
  seat_name text NOT NULL,
  -- 'p:<passengerId>' signed in, 'd:<X-Device-Id>' visitor, 'ip:<address>' visitor without a device id
  holder text NOT NULL,
  expires_at timestamptz NOT NULL,
  -- The client address (IPv4, or the /64 of IPv6) that took the hold.
  address text NOT NULL DEFAULT '',
  -- How many times the hold was extended, and the expiry it was won with: the maximum a hold may
  -- reach counts from first_expires_at (kept true by the trigger of seat_lock_hold_start).
  extensions integer NOT NULL DEFAULT 0,
  first_expires_at timestamptz,
  PRIMARY KEY (trip_id, seat_name)
);
CREATE INDEX seat_locks_holder_idx ON seat_locks (holder, trip_id);
CREATE INDEX seat_locks_address_idx ON seat_locks (address, expires_at);

CREATE TABLE reservations (
  id serial PRIMARY KEY,
  trip_id integer NOT NULL REFERENCES trips(id),
  passenger_id integer REFERENCES passengers(id),
  -- SPEC reservation status codes: sold 1, booked 2, canceled 5, trip migrated 10...
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
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The language the passenger booked in: the ticket SMS and e-mail are written in it.
  language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'bn')),
  -- The client address the booking was made from: the seats of its unpaid bookings count toward its hold limits.
  address text NOT NULL DEFAULT '',
  -- A trip the operator cancelled or moved (server/bookings/trip-changes.ts): their words, and
  -- for a moved ticket (status 10) the trip it was moved from.
  operator_reason text,
  moved_from_trip_id integer REFERENCES trips(id)
);
CREATE INDEX reservations_passenger_idx ON reservations (passenger_id);
CREATE INDEX reservations_trip_idx ON reservations (trip_id);
CREATE INDEX reservations_booked_expiry_idx ON reservations (expiration_time) WHERE status = 2;
CREATE INDEX reservations_unpaid_address_idx ON reservations (address, expiration_time) WHERE status = 2;

CREATE TABLE reservation_seats (
  id serial PRIMARY KEY,
  reservation_id integer NOT NULL REFERENCES reservations(id) ON DELETE CASCADE,
  trip_id integer NOT NULL REFERENCES trips(id),
  seat_name text NOT NULL,
  seat_type text NOT NULL,
  fare integer NOT NULL CHECK (fare >= 0),
  active boolean NOT NULL DEFAULT true
);
-- Two bookings of one seat can never both commit.
CREATE UNIQUE INDEX reservation_seats_one_active ON reservation_seats (trip_id, seat_name) WHERE active;
CREATE INDEX reservation_seats_reservation_idx ON reservation_seats (reservation_id);

-- Card payments through the development sandbox or SSLCommerz. REVIEW: paid at the gateway but
-- flagged as risky; nothing is sold or credited until an operator decides.
CREATE TABLE payments (
  id text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('RESERVATION', 'TOP_UP')),
  reservation_id integer REFERENCES reservations(id),
  passenger_id integer NOT NULL REFERENCES passengers(id),
  amount integer NOT NULL CHECK (amount > 0),
  status text NOT NULL DEFAULT 'PENDING',
  -- APPROVED but not applied: the card was charged after the booking ended, so the amount went to the balance
  refunded boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  confirmed_at timestamptz,
  provider text NOT NULL DEFAULT 'sandbox' CHECK (provider IN ('sandbox', 'sslcommerz')),
  -- The gateway's payment page (GatewayPageURL) and session key: a double click gets the same page.
  gateway_url text,
  gateway_session text,
  -- The validation the decision was taken on (val_id, its status, risk_level 0 safe / 1 risky).
  gateway_val_id text,
  gateway_status text,
  risk_level integer,
  -- Why a payment was declined (amount or currency that disagrees, failed at the gateway...).
  decline_reason text,
  -- Last time the reconciliation pass asked the gateway about this payment.
  checked_at timestamptz,
  -- When an operator approved or declined a payment held for review.
  reviewed_at timestamptz,
  -- SHA-256 hashes of the result tokens of the browser tabs that started the payment: only they see its full result.
  result_token_hashes text[] NOT NULL DEFAULT '{}',
  -- When a request last asked SSLCommerz about this payment: asked at most once per few seconds across processes.
  gateway_asked_at timestamptz,
  -- What SSLCommerz's refund API needs, kept when the payment is validated.
  bank_tran_id text,
  gateway_amount text,
  store_amount text,
  CONSTRAINT payments_status_check CHECK (status IN ('PENDING', 'APPROVED', 'DECLINED', 'REVIEW'))
);
-- At most one pending card payment per reservation (double click, two tabs).
CREATE UNIQUE INDEX payments_one_pending ON payments (reservation_id) WHERE status = 'PENDING' AND purpose = 'RESERVATION';
CREATE INDEX payments_passenger_idx ON payments (passenger_id);
-- The reconciliation pass reads the pending gateway payments oldest first.
CREATE INDEX payments_gateway_pending_idx ON payments (created_at) WHERE status = 'PENDING' AND provider = 'sslcommerz';
CREATE INDEX payments_review_idx ON payments (created_at) WHERE status = 'REVIEW';

-- Abuse limits kept in the database, so they hold across server processes. One row per counted
-- event (a wrong PIN, a sent code, a contact message...): a limit is "at most N events of this
-- bucket and key in the last window".
CREATE TABLE limit_events (
  id bigserial PRIMARY KEY,
  bucket text NOT NULL,
  key text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX limit_events_bucket_key_at ON limit_events (bucket, key, at);
CREATE INDEX limit_events_at ON limit_events (at);

-- A sign-up waiting for its SMS code. The passenger row is created only when the code sent for
-- THIS registration is confirmed with its token, so a second registration of the same mobile
-- never changes the first one's details.
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

-- One row per sold reservation that used a coupon (its use is counted here).
CREATE TABLE coupon_redemptions (
  reservation_id int PRIMARY KEY REFERENCES reservations(id),
  offer_id int NOT NULL REFERENCES offers(id),
  passenger_id int REFERENCES passengers(id),
  created_at timestamptz NOT NULL
);
CREATE INDEX coupon_redemptions_offer_idx ON coupon_redemptions (offer_id, passenger_id);

-- The last day (Asia/Dhaka) for which trips were generated from the timetable: the start-up and
-- daily top-up do nothing while it covers today + TRIP_DAYS_AHEAD.
CREATE TABLE trip_generation (
  id int PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  through date NOT NULL
);

-- One row per network import: which file (its SHA-256), when, and what it changed.
CREATE TABLE network_imports (
  id serial PRIMARY KEY,
  source text NOT NULL,
  sha256 text NOT NULL,
  report jsonb NOT NULL,
  imported_at timestamptz NOT NULL
);

-- Per holder key ('p:<passengerId>' or 'a:<address>'), trip and seat: when the first booking
-- (kind 'booking') or seat lock ('lock') of that seat by the key ends, the latest it could end,
-- and until when that is remembered (keep_until). A new hold of the seat by the same passenger
-- or address ends no later (lock_seats, server/bookings/bookings.ts).
CREATE TABLE first_holds (
  holder_key text NOT NULL,
  trip_id integer NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
  seat_name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('booking', 'lock')),
  expires_at timestamptz NOT NULL,
  max_expires_at timestamptz NOT NULL,
  keep_until timestamptz NOT NULL,
  PRIMARY KEY (trip_id, seat_name, holder_key, kind)
);
CREATE INDEX first_holds_keep_until_idx ON first_holds (keep_until);

-- The live seat-map streams open now, one row each, with the client address that opened it: one
-- address may keep at most SEAT_STREAMS_PER_ADDRESS open on all server processes together. A
-- process deletes a row when its stream ends and renews the lease of its open rows with every
-- heartbeat; a row whose lease has run out (its process died) no longer counts.
CREATE TABLE seat_streams (
  id bigserial PRIMARY KEY,
  address text NOT NULL,
  trip_id integer NOT NULL,
  opened_at timestamptz NOT NULL,
  lease_until timestamptz NOT NULL
);
CREATE INDEX seat_streams_address_idx ON seat_streams (address, lease_until);
CREATE INDEX seat_streams_lease_idx ON seat_streams (lease_until);

-- Refunds to the card (server/bookings/refunds.ts), one per card payment (money goes back once,
-- to the card or to the balance, never both). id is the refund_trans_id sent to SSLCommerz: a
-- retry of the same refund, from any process, is the same request there. PENDING: not yet
-- accepted by the gateway; SENT: accepted (refund_ref_id), its status is polled; DONE: refunded;
-- FAILED: refused after its retries, or cancelled by the gateway: listed for the operator.
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
