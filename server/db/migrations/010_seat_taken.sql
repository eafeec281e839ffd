-- The one "seat is taken" rule: a seat is taken when it has an active reservation_seats
-- row whose reservation is sold (status 1), or booked (2) and not expired at p_now.
-- seat_map, lock_seats, the trip search and the booking's conflict check all call it.
-- A single-expression LANGUAGE sql function without STRICT, so the planner inlines it
-- into each caller's query: the plans (and their index use) are those of the
-- expression written out, as before.
CREATE FUNCTION seat_taken(p_active boolean, p_status integer, p_expiration_time timestamptz, p_now timestamptz)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_active AND (p_status = 1 OR (p_status = 2 AND p_expiration_time > p_now))
$$;

-- seat_map of migration 005, its state from seat_taken.
CREATE OR REPLACE FUNCTION seat_map(p_layout_id integer, p_trip_id integer, p_now timestamptz)
RETURNS TABLE (name text, "row" integer, col integer, deck text, seat_type text, status integer, holder text, expires_at timestamptz)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
    SELECT s.name::text, s.row::integer, s.col::integer, s.deck::text, s.seat_type::text,
           (CASE WHEN seat_taken(rs.active, x.status, x.expiration_time, p_now) THEN x.status ELSE 0 END)::integer,
           k.holder, k.expires_at
      FROM layout_seats s
      LEFT JOIN reservation_seats rs ON rs.trip_id = p_trip_id AND rs.seat_name = s.name AND rs.active
      LEFT JOIN reservations x ON x.id = rs.reservation_id
      LEFT JOIN seat_locks k ON k.trip_id = p_trip_id AND k.seat_name = s.name AND k.expires_at > p_now
     WHERE s.layout_id = p_layout_id
     ORDER BY s.deck, s.row, s.col;
END;
$$;

-- lock_seats of migration 006, its sold-or-booked check from seat_taken; nothing else changed.
CREATE OR REPLACE FUNCTION lock_seats(
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
          AND seat_taken(rs.active, x.status, x.expiration_time, p_now);
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
