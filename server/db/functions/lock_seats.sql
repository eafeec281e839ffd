-- Seat locking in one round trip (server/trips/seat-locks.ts calls it): find the trip and
-- check its route and sale state, check the seat names against the layout, then win every
-- seat or none with one upsert that only replaces an expired lock or the caller's own,
-- re-check taken seats after it (a statement's fresh snapshot sees bookings committed while
-- the upsert waited), the per-holder cap (p_max, counting the passenger's live bookings)
-- and the per-address limits (address_holds: p_limit_trip on the trip, p_limit_total across
-- trips; requests from one address are serialised by an advisory lock on it).
-- A hold's expiry is fixed when the seat is first locked: locking a seat one already holds
-- keeps its expiry. A seat's new lock ends no later than the caller's first booking or first
-- lock of it (first_holds, recorded here for locks); once a first booking's time has passed
-- the seat cannot be held again by the same passenger or address until its keep_until.
-- A seat another transaction is locking or booking right now is lost at once, not waited for
-- (server/db/README.md, "Locks that lose at once").
-- A lost round rolls back its sub-transaction, so no seat of the request stays locked.
-- Answers {"error": CODE} | {"error": "SALE_NOT_OPEN", "opens": instant} | {"error": "HOLD_LIMIT_EXCEEDED", "limit": n, "scope": "trip"|"total", "retry": s}
-- | {"error": "HOLD_ENDED", "retry": s} | {"lost": true} | {"seatNames": [...], "earliest": instant|null}.
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
  keys text[] := hold_keys(p_passenger_id, p_address);
  ended timestamptz;
  opens timestamptz;
  patience text := current_setting('lock_timeout');
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
  -- sale hours (issue 30, migration 040): nothing is held before the trip goes on sale, by the server's clock
  SELECT sale_opens_at INTO opens FROM trips WHERE id = t.id AND sale_opens_at > p_now;
  IF FOUND THEN RETURN jsonb_build_object('error', 'SALE_NOT_OPEN', 'opens', opens); END IF;

  -- distinct and sorted, so overlapping requests take row locks in one order (no deadlock)
  SELECT coalesce(array_agg(DISTINCT x ORDER BY x), '{}') INTO names FROM unnest(p_names) AS x WHERE x <> p_open_seat;
  IF cardinality(names) > 0 THEN
    SELECT count(*) INTO n FROM layout_seats WHERE layout_id = t.layout_id AND name = ANY(names);
    IF n <> cardinality(names) THEN RETURN jsonb_build_object('error', 'SEAT_NOT_FOUND'); END IF;
    IF p_address <> '' THEN PERFORM pg_advisory_xact_lock(hashtext('seat-hold-address'), hashtext(p_address)); END IF;
    SELECT max(keep_until) INTO ended FROM first_holds
     WHERE trip_id = t.id AND seat_name = ANY(names) AND holder_key = ANY(keys) AND keep_until > p_now AND expires_at <= p_now
       AND kind = 'booking';
    IF ended IS NOT NULL THEN
      RETURN jsonb_build_object('error', 'HOLD_ENDED', 'retry', ceil(extract(epoch FROM ended - p_now))::int);
    END IF;
    BEGIN
      -- lose at once (issue 30): a seat another transaction is locking or booking counts as taken, so a loser
      -- never queues (with its pooled connection) behind the winner; only the table (a start replacing its
      -- triggers) and the caller's own unexpired locks are waited for, so a re-lock of one's own seats still wins;
      -- 10 ms, not 1: PostgreSQL's brief internal waits (another insert extending the table) are no contest
      LOCK TABLE seat_locks IN ROW EXCLUSIVE MODE;
      PERFORM 1 FROM seat_locks WHERE trip_id = t.id AND seat_name = ANY(names) AND holder = ANY(p_holders) AND expires_at > p_now
        ORDER BY seat_name FOR UPDATE;
      PERFORM set_config('lock_timeout', '10ms', true);
      WITH won AS (
        INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at, address)
        SELECT t.id, x, p_holders[1],
               least(p_expires, (SELECT min(h.expires_at) FROM first_holds h
                                  WHERE h.trip_id = t.id AND h.seat_name = x AND h.holder_key = ANY(keys) AND h.keep_until > p_now)),
               p_address
          FROM unnest(names) AS x
        ON CONFLICT (trip_id, seat_name) DO UPDATE
          SET holder = EXCLUDED.holder,
              address = EXCLUDED.address,
              expires_at = CASE WHEN seat_locks.expires_at > p_now THEN seat_locks.expires_at ELSE EXCLUDED.expires_at END
         WHERE seat_locks.expires_at <= p_now OR seat_locks.holder = ANY(p_holders)
        RETURNING 1
      )
      SELECT count(*) INTO n FROM won;
      PERFORM set_config('lock_timeout', patience, true);
      IF n <> cardinality(names) THEN RAISE EXCEPTION USING ERRCODE = 'SL001'; END IF;
      PERFORM 1 FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
        WHERE rs.trip_id = t.id AND rs.seat_name = ANY(names)
          AND seat_taken(rs.active, x.status, x.expiration_time, p_now);
      IF FOUND THEN RAISE EXCEPTION USING ERRCODE = 'SL001'; END IF;
      SELECT count(*) INTO n FROM seat_locks WHERE trip_id = t.id AND holder = ANY(p_holders) AND expires_at > p_now;
      IF p_passenger_id IS NOT NULL THEN
        n := n + (SELECT count(*) FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
                   WHERE rs.trip_id = t.id AND rs.active AND x.passenger_id = p_passenger_id
                     AND booking_live(x.status, x.expiration_time, p_now));
      END IF;
      IF n > p_max THEN RAISE EXCEPTION USING ERRCODE = 'SL002'; END IF;
      IF p_address <> '' THEN
        SELECT seats INTO n FROM address_holds(p_address, t.id, p_now);
        IF n > p_limit_trip THEN RAISE EXCEPTION USING ERRCODE = 'SL003'; END IF;
        SELECT seats INTO n FROM address_holds(p_address, NULL, p_now);
        IF n > p_limit_total THEN RAISE EXCEPTION USING ERRCODE = 'SL004'; END IF;
      END IF;
      -- the first lock of each seat by this passenger and address, until it ends
      INSERT INTO first_holds (holder_key, trip_id, seat_name, kind, expires_at, max_expires_at, keep_until)
      SELECT k, t.id, l.seat_name, 'lock', l.expires_at, l.expires_at, l.expires_at
        FROM seat_locks l CROSS JOIN unnest(keys) AS k
       WHERE l.trip_id = t.id AND l.seat_name = ANY(names)
      ON CONFLICT (trip_id, seat_name, holder_key, kind) DO UPDATE
        SET expires_at = EXCLUDED.expires_at, max_expires_at = EXCLUDED.max_expires_at, keep_until = EXCLUDED.keep_until
       WHERE first_holds.keep_until <= p_now;
    EXCEPTION
      -- another holder has a seat, or it is sold/booked, or being locked right now; deadlock or serialization failure under contention
      WHEN SQLSTATE 'SL001' OR lock_not_available OR deadlock_detected OR serialization_failure THEN RETURN jsonb_build_object('lost', true);
      WHEN SQLSTATE 'SL002' THEN RETURN jsonb_build_object('error', 'MAX_SEAT_WARNING');
      WHEN SQLSTATE 'SL003' THEN
        SELECT ceil(extract(epoch FROM first_end - p_now))::int INTO wait FROM address_holds(p_address, t.id, p_now);
        RETURN jsonb_build_object('error', 'HOLD_LIMIT_EXCEEDED', 'limit', p_limit_trip, 'scope', 'trip', 'retry', wait);
      WHEN SQLSTATE 'SL004' THEN
        SELECT ceil(extract(epoch FROM first_end - p_now))::int INTO wait FROM address_holds(p_address, NULL, p_now);
        RETURN jsonb_build_object('error', 'HOLD_LIMIT_EXCEEDED', 'limit', p_limit_total, 'scope', 'total', 'retry', wait);
    END;
  END IF;

  SELECT array_agg(seat_name ORDER BY seat_name), min(expires_at) INTO held, earliest
    FROM seat_locks WHERE trip_id = t.id AND holder = ANY(p_holders) AND expires_at > p_now;
  RETURN jsonb_build_object('seatNames', coalesce(held, '{}'), 'earliest', earliest);
END;
$$;
