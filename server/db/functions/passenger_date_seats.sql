-- Seats one passenger has for one travel date, as the per-date cap counts them
-- (SEATS_PER_PASSENGER_PER_DATE, server/bookings/date-cap.ts): sold, moved-here and live unpaid
-- seats (seat_taken) on every trip of p_date. The passenger is the account p_passenger and each
-- mobile number: the account's own and p_mobile (the traveller's mobile of a booking being made).
-- A booking counts toward its account, its account's mobile and the traveller's mobile written on
-- it; the answer is the largest count over those keys, so neither a second account nor a shared
-- traveller mobile gets past the cap.
CREATE OR REPLACE FUNCTION passenger_date_seats(p_passenger integer, p_mobile text, p_date date, p_now timestamptz)
RETURNS integer LANGUAGE sql STABLE AS $$
  WITH mobiles AS (
    SELECT DISTINCT k.m FROM (SELECT p_mobile AS m UNION ALL SELECT mobile FROM passengers WHERE id = p_passenger) k WHERE k.m IS NOT NULL
  ), candidates AS (
    SELECT id FROM reservations WHERE passenger_id = p_passenger
    UNION SELECT id FROM reservations WHERE passenger_mobile IN (SELECT m FROM mobiles)
    UNION SELECT x.id FROM reservations x JOIN passengers a ON a.id = x.passenger_id WHERE a.mobile IN (SELECT m FROM mobiles)
  ), seats AS (
    SELECT x.passenger_id, x.passenger_mobile, a.mobile AS account_mobile
      FROM candidates c
      JOIN reservations x ON x.id = c.id
      LEFT JOIN passengers a ON a.id = x.passenger_id
      JOIN reservation_seats rs ON rs.reservation_id = x.id
      JOIN trips t ON t.id = rs.trip_id
     WHERE t.trip_date = p_date AND seat_taken(rs.active, x.status, x.expiration_time, p_now)
  )
  SELECT greatest(
    0,
    (SELECT count(*) FROM seats WHERE passenger_id = p_passenger),
    (SELECT count(*) FROM mobiles JOIN seats s ON s.passenger_mobile = mobiles.m OR s.account_mobile = mobiles.m
      GROUP BY mobiles.m ORDER BY 1 DESC LIMIT 1)
  )::int
$$;
