-- The fair waiting room of a rush date (server/queue/): a travel date on one route that sells
-- through a queue. Passengers who join before opens_at are drawn in random order at the hour,
-- later ones queue behind in arrival order; the front is admitted at admit_per_minute, each for
-- admit_minutes, and seat locks on the route that date need an unexpired admission.
--
-- source: 'network' rows are kept by `npm run import` (the file's rushDates), 'command' rows by
-- `npm run trip -- rush` and left alone by imports. admit_per_minute NULL: QUEUE_ADMIT_PER_MINUTE, admit_minutes NULL: QUEUE_ADMIT_MINUTES.
-- admit_clock: how far the admission allowance has been spent (starts at opens_at);
-- checked_at, seats_free, seats_unbooked, waiting: the last refresh (at most one per second,
-- by whichever process claims the row), so a status poll reads them instead of counting.
CREATE TABLE rush_dates (
  id serial PRIMARY KEY,
  trip_date date NOT NULL,
  origin_code text NOT NULL REFERENCES cities,
  destination_code text NOT NULL REFERENCES cities,
  opens_at timestamptz NOT NULL,
  admit_per_minute integer CHECK (admit_per_minute BETWEEN 1 AND 100000),
  admit_minutes integer CHECK (admit_minutes BETWEEN 1 AND 240),
  source text NOT NULL CHECK (source IN ('network', 'command')),
  admit_clock timestamptz,
  checked_at timestamptz,
  seats_free integer,
  seats_unbooked integer,
  waiting integer NOT NULL DEFAULT 0,
  UNIQUE (trip_date, origin_code, destination_code)
);

-- Queue tokens the server issued (the client keeps one per browser, shared by its tabs); only the
-- SHA-256 is stored. A place is joined with one, so a made-up token joins nothing.
CREATE TABLE queue_devices (
  token_hash text PRIMARY KEY,
  address text NOT NULL,
  issued_at timestamptz NOT NULL
);

-- One place per device (token) and per signed-in passenger on each rush date. draw orders the
-- queue: random() in [0, 1) for a place joined before opens_at, 1 + seconds after opens_at for a
-- later one (ties by id). admitted_until: the admission's end.
CREATE TABLE queue_places (
  id bigserial PRIMARY KEY,
  rush_id integer NOT NULL REFERENCES rush_dates ON DELETE CASCADE,
  token_hash text NOT NULL REFERENCES queue_devices ON DELETE CASCADE,
  passenger_id integer REFERENCES passengers ON DELETE SET NULL,
  joined_at timestamptz NOT NULL,
  draw double precision NOT NULL,
  admitted_at timestamptz,
  admitted_until timestamptz,
  UNIQUE (rush_id, token_hash)
);
CREATE UNIQUE INDEX queue_places_passenger ON queue_places (rush_id, passenger_id) WHERE passenger_id IS NOT NULL;
CREATE INDEX queue_places_waiting ON queue_places (rush_id, draw, id) WHERE admitted_at IS NULL;
