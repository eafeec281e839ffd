-- The one "seat is taken" rule: a seat is taken when it has an active reservation_seats row
-- whose reservation is sold (status 1), moved to this trip by the operator (10, held as a sold
-- one), or booked and still live (booking_live). seat_map, seat_states, lock_seats, the trip
-- search and the booking's conflict check all call it. A single-expression LANGUAGE sql
-- function without STRICT, so the planner inlines it into each caller's query.
CREATE OR REPLACE FUNCTION seat_taken(p_active boolean, p_status integer, p_expiration_time timestamptz, p_now timestamptz)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_active AND (p_status IN (1, 10) OR booking_live(p_status, p_expiration_time, p_now))
$$;
