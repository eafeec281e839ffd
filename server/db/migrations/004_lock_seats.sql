-- Seat locking in one round trip (server/seat-locks.ts calls it; same rules as before):
-- find the trip and check its route and sale state, check the seat names against the
-- layout, then win every seat or none with one upsert that only replaces an expired
-- lock or the caller's own, re-check sold/booked seats after it (a statement's fresh
-- snapshot sees bookings committed while the upsert waited) and the 5-seat cap.
-- A lost round rolls back its sub-transaction, so no seat of the request stays locked.
-- Answers {"error": CODE} | {"lost": true} | {"seatNames": [...], "earliest": instant|null}.
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
  p_open_seat text
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  t record;
  names text[];
  n integer;
  held text[];
  earliest timestamptz;
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
    BEGIN
      WITH won AS (
        INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at)
        SELECT t.id, x, p_holders[1], p_expires FROM unnest(names) AS x
        ON CONFLICT (trip_id, seat_name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
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
    EXCEPTION
      -- another holder has a seat, or it is sold/booked; deadlock or serialization failure under contention
      WHEN SQLSTATE 'SL001' OR deadlock_detected OR serialization_failure THEN RETURN jsonb_build_object('lost', true);
      WHEN SQLSTATE 'SL002' THEN RETURN jsonb_build_object('error', 'MAX_SEAT_WARNING');
    END;
  END IF;

  SELECT array_agg(seat_name ORDER BY seat_name), min(expires_at) INTO held, earliest
    FROM seat_locks WHERE trip_id = t.id AND holder = ANY(p_holders) AND expires_at > p_now;
  RETURN jsonb_build_object('seatNames', coalesce(held, '{}'), 'earliest', earliest);
END;
$$;

-- Several lock requests in one call, each won or lost on its own exactly as if it came
-- alone, in order (server/batch.ts gathers requests that arrive while a call is running).
-- Each element: {tripId, tripDate, coachCode, originCode, destinationCode, seatNames,
-- holders, passengerId, now, expires}. Answers an array of lock_seats answers; an
-- unexpected error fails only its own request: {"failed": SQLSTATE, "message": text}.
CREATE OR REPLACE FUNCTION lock_seats_many(p_requests jsonb, p_max integer, p_open_seat text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  r jsonb;
  res jsonb;
  answers jsonb := '[]';
BEGIN
  FOR r IN SELECT value FROM jsonb_array_elements(p_requests) LOOP
    BEGIN
      res := lock_seats(
        (r->>'tripId')::integer, (r->>'tripDate')::date, r->>'coachCode', r->>'originCode', r->>'destinationCode',
        ARRAY(SELECT jsonb_array_elements_text(r->'seatNames')), ARRAY(SELECT jsonb_array_elements_text(r->'holders')),
        (r->>'passengerId')::integer, (r->>'now')::timestamptz, (r->>'expires')::timestamptz, p_max, p_open_seat);
    EXCEPTION WHEN OTHERS THEN
      res := jsonb_build_object('failed', SQLSTATE, 'message', SQLERRM);
    END;
    answers := answers || jsonb_build_array(res);
  END LOOP;
  RETURN answers;
END;
$$;
