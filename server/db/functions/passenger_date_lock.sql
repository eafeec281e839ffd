-- Makes bookings of one passenger for one travel date take their turn, in every process: one
-- transaction-scoped advisory lock per key the per-date cap counts (passenger_date_seats.sql: the
-- account, its mobile, the traveller's mobile p_mobile), taken in one order so two bookings that
-- share keys never wait for each other in a circle.
CREATE OR REPLACE FUNCTION passenger_date_lock(p_passenger integer, p_mobile text, p_date date)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k text;
BEGIN
  FOR k IN
    SELECT DISTINCT keys.key FROM (
      SELECT 'p:' || p_passenger AS key
      UNION ALL SELECT 'm:' || p_mobile
      UNION ALL SELECT 'm:' || mobile FROM passengers WHERE id = p_passenger
    ) keys WHERE keys.key IS NOT NULL ORDER BY keys.key
  LOOP
    PERFORM pg_advisory_xact_lock(hashtext('passenger-date-seats'), hashtext(p_date::text || ' ' || k));
  END LOOP;
END
$$;
