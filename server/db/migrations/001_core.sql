-- Core reference data: cities, counters, routes, seat layouts, schedules, trips,
-- lookups shown by the app, contact messages and the outbox.

CREATE TABLE cities (
  code text PRIMARY KEY,
  name text NOT NULL,
  name_bn text NOT NULL,
  sort int NOT NULL
);

-- Boarding counters report at departure + offset_minutes, dropping counters at arrival + offset_minutes.
CREATE TABLE bus_stations (
  id serial PRIMARY KEY,
  city_code text NOT NULL REFERENCES cities,
  name text NOT NULL,
  address text NOT NULL,
  phone text NOT NULL,
  offset_minutes int NOT NULL,
  UNIQUE (city_code, name)
);

CREATE TABLE routes (
  id serial PRIMARY KEY,
  origin_code text REFERENCES cities,
  destination_code text REFERENCES cities,
  distance_km int,
  duration_minutes int,
  UNIQUE (origin_code, destination_code)
);

CREATE TABLE layouts (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  coach_type text NOT NULL CHECK (coach_type IN ('AC_BUSINESS', 'AC_STANDARD', 'NON_AC', 'SLEEPER')),
  rows int,
  columns int,
  aisle_columns int[] NOT NULL,
  decks text[] NOT NULL
);

CREATE TABLE layout_seats (
  layout_id int REFERENCES layouts,
  name text,
  row int,
  col int,
  deck text CHECK (deck IN ('LOWER', 'UPPER')),
  seat_type text CHECK (seat_type IN ('Standard', 'Business', 'Extra', 'Sleeper', 'Sleeper Horizontal')),
  PRIMARY KEY (layout_id, name)
);

-- A daily departure; trips are generated from schedules for each day.
CREATE TABLE schedules (
  id serial PRIMARY KEY,
  coach_code text NOT NULL UNIQUE,
  route_id int NOT NULL REFERENCES routes,
  layout_id int NOT NULL REFERENCES layouts,
  depart_time time NOT NULL,
  fares jsonb NOT NULL
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

CREATE TABLE time_periods (
  label text PRIMARY KEY,
  value text NOT NULL,
  integer_value int NOT NULL,
  sort int NOT NULL
);

CREATE TABLE announcements (
  id serial PRIMARY KEY,
  title text NOT NULL,
  title_bn text NOT NULL,
  active boolean NOT NULL DEFAULT true
);

CREATE TABLE offers (
  id serial PRIMARY KEY,
  title text NOT NULL,
  title_bn text NOT NULL,
  description text NOT NULL,
  coupon_code text NOT NULL UNIQUE,
  discount_percent int NOT NULL CHECK (discount_percent > 0 AND discount_percent <= 100),
  max_discount int NOT NULL CHECK (max_discount >= 0),
  valid_until date NOT NULL
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

CREATE TABLE outbox_messages (
  id bigserial PRIMARY KEY,
  channel text NOT NULL CHECK (channel IN ('SMS', 'EMAIL')),
  "to" text NOT NULL,
  subject text,
  body text NOT NULL,
  code text,
  created_at timestamptz NOT NULL
);
CREATE INDEX outbox_messages_to ON outbox_messages ("to", id);
