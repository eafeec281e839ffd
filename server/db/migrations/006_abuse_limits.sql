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

-- Seat locks with per-address limits (replaces migration 004's functions; same rules
-- otherwise). A hold's expiry is fixed when the seat is first locked: locking a seat
-- one already holds keeps its expiry (only the booking's explicit extension moves
-- time). One client address holds at most p_limit_trip unexpired seats on a trip and
-- p_limit_total across trips; requests from one address are serialised by an
-- advisory lock on the address, so the count holds across server processes.
-- Answers as before, or {"error": "HOLD_LIMIT_EXCEEDED", "limit": n, "scope": "trip"|"total", "retry": seconds}.
DROP FUNCTION lock_seats_many(jsonb, integer, text);
DROP FUNCTION lock_seats(integer, date, text, text, text, text[], text[], integer, timestamptz, timestamptz, integer, text);

CREATE FUNCTION lock_seats(
  p_trip_id integer,
  p_trip_date date,
  p_coach_code text,
  p_origin text,
  p_destination text,
  p_names text[],
  p_holders text[],
  p_passenger_id integer,
  p_now timestamptz,
  p_expires timestamptz,
  p_max integer,
  p_open_seat text,
  p_address text,
  p_limit_trip integer,
  p_limit_total integer
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  t record;
  names text[];
  n integer;
  held text[];
  earliest timestamptz;
  wait integer;
BEGIN
  IF p_trip_id IS NOT NULL THEN
    SELECT tr.id, tr.layout_id, tr.status, tr.departure_at, r.origin_code, r.destination_code INTO t
      FROM trips tr JOIN routes r ON r.id = tr.route_id WHERE tr.id = p_trip_id;
  ELSE
    SELECT tr.id, tr.layout_id, tr.status, tr.departure_at, r.origin_code, r.destination_code INTO t
      FROM trips tr JOIN routes r ON r.id = tr.route_id WHERE tr.trip_date = p_trip_date AND tr.coach_code = p_coach_code;
  END IF;
  IF NOT FOUND OR t.origin_code <> p_origin OR t.destination_code <> p_destination THEN
    RETURN jsonb_build_object('error', 'TRIP_NOT_FOUND');
  END IF;
  IF t.status = 'OMITTED' THEN RETURN jsonb_build_object('error', 'TRIP_OMITTED'); END IF;
  IF t.status <> 'OPEN' OR t.departure_at <= p_now THEN RETURN jsonb_build_object('error', 'TRIP_IS_CLOSED'); END IF;

  -- distinct and sorted, so overlapping requests take row locks in one order (no deadlock)
  SELECT coalesce(array_agg(DISTINCT x ORDER BY x), '{}') INTO names FROM unnest(p_names) AS x WHERE x <> p_open_seat;
  IF cardinality(names) > 0 THEN
    SELECT count(*) INTO n FROM layout_seats WHERE layout_id = t.layout_id AND name = ANY(names);
    IF n <> cardinality(names) THEN RETURN jsonb_build_object('error', 'SEAT_NOT_FOUND'); END IF;
    IF p_address <> '' THEN PERFORM pg_advisory_xact_lock(hashtext('seat-hold-address'), hashtext(p_address)); END IF;
    BEGIN
      WITH won AS (
        INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at, address)
        SELECT t.id, x, p_holders[1], p_expires, p_address FROM unnest(names) AS x
        ON CONFLICT (trip_id, seat_name) DO UPDATE
          SET holder = EXCLUDED.holder,
              address = EXCLUDED.address,
              expires_at = CASE WHEN seat_locks.expires_at > p_now THEN seat_locks.expires_at ELSE EXCLUDED.expires_at END
         WHERE seat_locks.expires_at <= p_now OR seat_locks.holder = ANY(p_holders)
        RETURNING 1
      )
      SELECT count(*) INTO n FROM won;
      IF n <> cardinality(names) THEN RAISE EXCEPTION USING ERRCODE = 'SL001'; END IF;
      PERFORM 1 FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
        WHERE rs.trip_id = t.id AND rs.seat_name = ANY(names)
          AND rs.active AND (x.status = 1 OR (x.status = 2 AND x.expiration_time > p_now));
      IF FOUND THEN RAISE EXCEPTION USING ERRCODE = 'SL001'; END IF;
      SELECT count(*) INTO n FROM seat_locks WHERE trip_id = t.id AND holder = ANY(p_holders) AND expires_at > p_now;
      IF p_passenger_id IS NOT NULL THEN
        n := n + (SELECT count(*) FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
                   WHERE rs.trip_id = t.id AND rs.active AND x.passenger_id = p_passenger_id
                     AND x.status = 2 AND x.expiration_time > p_now);
      END IF;
      IF n > p_max THEN RAISE EXCEPTION USING ERRCODE = 'SL002'; END IF;
      IF p_address <> '' THEN
        SELECT count(*) INTO n FROM seat_locks WHERE address = p_address AND trip_id = t.id AND expires_at > p_now;
        IF n > p_limit_trip THEN RAISE EXCEPTION USING ERRCODE = 'SL003'; END IF;
        SELECT count(*) INTO n FROM seat_locks WHERE address = p_address AND expires_at > p_now;
        IF n > p_limit_total THEN RAISE EXCEPTION USING ERRCODE = 'SL004'; END IF;
      END IF;
    EXCEPTION
      -- another holder has a seat, or it is sold/booked; deadlock or serialization failure under contention
      WHEN SQLSTATE 'SL001' OR deadlock_detected OR serialization_failure THEN RETURN jsonb_build_object('lost', true);
      WHEN SQLSTATE 'SL002' THEN RETURN jsonb_build_object('error', 'MAX_SEAT_WARNING');
      WHEN SQLSTATE 'SL003' THEN
        SELECT ceil(extract(epoch FROM min(expires_at) - p_now))::int INTO wait
          FROM seat_locks WHERE address = p_address AND trip_id = t.id AND expires_at > p_now;
        RETURN jsonb_build_object('error', 'HOLD_LIMIT_EXCEEDED', 'limit', p_limit_trip, 'scope', 'trip', 'retry', wait);
      WHEN SQLSTATE 'SL004' THEN
        SELECT ceil(extract(epoch FROM min(expires_at) - p_now))::int INTO wait
          FROM seat_locks WHERE address = p_address AND expires_at > p_now;
        RETURN jsonb_build_object('error', 'HOLD_LIMIT_EXCEEDED', 'limit', p_limit_total, 'scope', 'total', 'retry', wait);
    END;
  END IF;

  SELECT array_agg(seat_name ORDER BY seat_name), min(expires_at) INTO held, earliest
    FROM seat_locks WHERE trip_id = t.id AND holder = ANY(p_holders) AND expires_at > p_now;
  RETURN jsonb_build_object('seatNames', coalesce(held, '{}'), 'earliest', earliest);
END;
$$;

-- Several lock requests in one call, each won or lost on its own exactly as if it came
-- alone, in order. The address locks of the whole batch are taken first, in one order,
-- so two batches never wait for each other's address in opposite orders.
-- Each element: {tripId, tripDate, coachCode, originCode, destinationCode, seatNames,
-- holders, passengerId, now, expires, address}.
CREATE FUNCTION lock_seats_many(p_requests jsonb, p_max integer, p_open_seat text, p_limit_trip integer, p_limit_total integer)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  r jsonb;
  res jsonb;
  k integer;
  answers jsonb := '[]';
BEGIN
  FOR k IN SELECT DISTINCT hashtext(value->>'address') FROM jsonb_array_elements(p_requests)
            WHERE coalesce(value->>'address', '') <> '' ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(hashtext('seat-hold-address'), k);
  END LOOP;
  FOR r IN SELECT value FROM jsonb_array_elements(p_requests) LOOP
    BEGIN
      res := lock_seats(
        (r->>'tripId')::integer, (r->>'tripDate')::date, r->>'coachCode', r->>'originCode', r->>'destinationCode',
        ARRAY(SELECT jsonb_array_elements_text(r->'seatNames')), ARRAY(SELECT jsonb_array_elements_text(r->'holders')),
        (r->>'passengerId')::integer, (r->>'now')::timestamptz, (r->>'expires')::timestamptz, p_max, p_open_seat,
        coalesce(r->>'address', ''), p_limit_trip, p_limit_total);
    EXCEPTION WHEN OTHERS THEN
      res := jsonb_build_object('failed', SQLSTATE, 'message', SQLERRM);
    END;
    answers := answers || jsonb_build_array(res);
  END LOOP;
  RETURN answers;
END;
$$;
