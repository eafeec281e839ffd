-- Offers a trip's freed seats to its waitlist (server/waitlist/waitlist.ts), once across
-- processes: runs under an advisory lock on the trip, so two processes sweeping at once offer
-- each seat once. First ends the offers that are over (their time passed, or their seats are
-- no longer held for the passenger): BOOKED when the passenger booked an offered seat, else
-- LAPSED. Then, while the trip is on sale, gives the free seats (not taken by the seat_taken
-- rule, not locked) in seat-map order to waiting entries in the order they joined, each whose
-- need fits what is left: seat locks for 'p:<passengerId>' until p_until (never after
-- departure), which the live seat map shows held to everyone else. Answers the new offers.
CREATE OR REPLACE FUNCTION waitlist_offer(p_trip_id integer, p_now timestamptz, p_until timestamptz)
RETURNS TABLE (entry_id integer, passenger_id integer, seat_names text[], expires_at timestamptz, language text)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  t record;
  e record;
  free text[];
  take text[];
  n integer;
  ends timestamptz;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('waitlist-offer'), p_trip_id);
  UPDATE waitlist w
     SET status = CASE WHEN EXISTS (
                         SELECT 1 FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
                          WHERE rs.trip_id = w.trip_id AND rs.seat_name = ANY(w.offered_seats) AND rs.active
                            AND x.passenger_id = w.passenger_id AND x.created_at >= w.offered_at)
                       THEN 'BOOKED' ELSE 'LAPSED' END,
         ended_at = p_now
   WHERE w.trip_id = p_trip_id AND w.status = 'OFFERED'
     AND (w.offer_expires_at <= p_now OR NOT EXISTS (
           SELECT 1 FROM seat_locks l
            WHERE l.trip_id = w.trip_id AND l.seat_name = ANY(w.offered_seats)
              AND l.holder = 'p:' || w.passenger_id AND l.expires_at > p_now));

  SELECT tr.status, tr.departure_at INTO t FROM trips tr WHERE tr.id = p_trip_id;
  IF NOT FOUND OR t.status <> 'OPEN' OR t.departure_at <= p_now THEN RETURN; END IF;
  PERFORM 1 FROM waitlist w WHERE w.trip_id = p_trip_id AND w.status = 'WAITING';
  IF NOT FOUND THEN RETURN; END IF;
  ends := least(p_until, t.departure_at);

  free := free_seats(p_trip_id, p_now);

  FOR e IN SELECT w.id, w.passenger_id, w.seats, w.language FROM waitlist w
            WHERE w.trip_id = p_trip_id AND w.status = 'WAITING' ORDER BY w.id LOOP
    EXIT WHEN cardinality(free) = 0;
    CONTINUE WHEN e.seats > cardinality(free);
    take := free[1:e.seats];
    free := free[e.seats + 1:];
    BEGIN
      -- a seat locked or sold since the read above (a seat lock or an operator's move) is not offered
      WITH won AS (
        INSERT INTO seat_locks (trip_id, seat_name, holder, expires_at, address)
        SELECT p_trip_id, x, 'p:' || e.passenger_id, ends, '' FROM unnest(take) AS x
        ON CONFLICT (trip_id, seat_name) DO UPDATE
          SET holder = EXCLUDED.holder, address = '', expires_at = EXCLUDED.expires_at
         WHERE seat_locks.expires_at <= p_now
        RETURNING 1
      )
      SELECT count(*) INTO n FROM won;
      IF n <> cardinality(take) THEN RAISE EXCEPTION USING ERRCODE = 'WL001'; END IF;
      PERFORM 1 FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
        WHERE rs.trip_id = p_trip_id AND rs.seat_name = ANY(take) AND seat_taken(rs.active, x.status, x.expiration_time, p_now);
      IF FOUND THEN RAISE EXCEPTION USING ERRCODE = 'WL001'; END IF;
      UPDATE waitlist w SET status = 'OFFERED', offered_seats = take, offered_at = p_now, offer_expires_at = ends WHERE w.id = e.id;
      entry_id := e.id; passenger_id := e.passenger_id; seat_names := take; expires_at := ends; language := e.language;
      RETURN NEXT;
    EXCEPTION
      -- taken meanwhile: the next sweep sees it
      WHEN SQLSTATE 'WL001' THEN RETURN;
    END;
  END LOOP;
END;
$$;
