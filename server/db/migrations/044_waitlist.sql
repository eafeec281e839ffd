-- The waitlist of a sold-out trip (issue 30 item 4, server/waitlist/): a signed-in passenger
-- waits for 1 to 4 seats; when seats free up the first whose need fits is offered them
-- (waitlist_offer.sql): the seats are held for the passenger as seat locks (holder
-- 'p:<passengerId>') until offer_expires_at, then the offer ends (BOOKED or LAPSED) and passes on.
CREATE TABLE waitlist (
  id serial PRIMARY KEY,
  trip_id integer NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
  passenger_id integer NOT NULL REFERENCES passengers(id) ON DELETE CASCADE,
  seats integer NOT NULL CHECK (seats BETWEEN 1 AND 4),
  -- the language of the offer's SMS (the passenger's when joining)
  language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'bn')),
  status text NOT NULL DEFAULT 'WAITING' CHECK (status IN ('WAITING', 'OFFERED', 'BOOKED', 'LAPSED', 'LEFT')),
  offered_seats text[],
  offered_at timestamptz,
  offer_expires_at timestamptz,
  created_at timestamptz NOT NULL,
  ended_at timestamptz
);
-- one place per passenger per trip while waiting or offered
CREATE UNIQUE INDEX waitlist_one_place ON waitlist (trip_id, passenger_id) WHERE status IN ('WAITING', 'OFFERED');
-- the sweep's and the queue's order: live entries of a trip by id
CREATE INDEX waitlist_live ON waitlist (trip_id, id) WHERE status IN ('WAITING', 'OFFERED');
