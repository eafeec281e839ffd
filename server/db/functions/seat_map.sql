-- A trip's seat map with each seat's state (server/trips/trips.ts seatStates): sold (1, a
-- moved ticket's seats too) or booked and live (2) by the seat_taken rule, else 0, and its
-- unexpired lock. A PL/pgSQL function so its plan is made once per connection, not for every
-- seat map asked for (planning was a third of the query's cost on PGlite).
CREATE OR REPLACE FUNCTION seat_map(p_layout_id integer, p_trip_id integer, p_now timestamptz)
RETURNS TABLE (name text, "row" integer, col integer, deck text, seat_type text, status integer, holder text, expires_at timestamptz)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
    SELECT s.name::text, s.row::integer, s.col::integer, s.deck::text, s.seat_type::text,
           (CASE WHEN seat_taken(rs.active, x.status, x.expiration_time, p_now) THEN CASE WHEN x.status = 10 THEN 1 ELSE x.status END ELSE 0 END)::integer,
           k.holder, k.expires_at
      FROM layout_seats s
      LEFT JOIN reservation_seats rs ON rs.trip_id = p_trip_id AND rs.seat_name = s.name AND rs.active
      LEFT JOIN reservations x ON x.id = rs.reservation_id
      LEFT JOIN seat_locks k ON k.trip_id = p_trip_id AND k.seat_name = s.name AND k.expires_at > p_now
     WHERE s.layout_id = p_layout_id
     ORDER BY s.deck, s.row, s.col;
END;
$$;
