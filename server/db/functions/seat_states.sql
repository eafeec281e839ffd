-- What the live seat map says of each seat of a trip at p_now: sold or booked (the seat_taken
-- rule; a moved ticket's seats are sold), else held (an unexpired lock), else available; with
-- when that ends by itself (a hold's or an unpaid booking's expiry), null for sold and
-- available. Never who holds it. The OPEN placeholder is no seat.
CREATE OR REPLACE FUNCTION seat_states(p_layout_id integer, p_trip_id integer, p_now timestamptz)
RETURNS TABLE (name text, state text, expires_at timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT s.name::text,
         CASE WHEN seat_taken(rs.active, x.status, x.expiration_time, p_now) THEN CASE WHEN x.status IN (1, 10) THEN 'sold' ELSE 'booked' END
              WHEN k.seat_name IS NOT NULL THEN 'held'
              ELSE 'available' END,
         CASE WHEN seat_taken(rs.active, x.status, x.expiration_time, p_now) THEN CASE WHEN x.status IN (1, 10) THEN NULL ELSE x.expiration_time END
              ELSE k.expires_at END
    FROM layout_seats s
    LEFT JOIN reservation_seats rs ON rs.trip_id = p_trip_id AND rs.seat_name = s.name AND rs.active
    LEFT JOIN reservations x ON x.id = rs.reservation_id
    LEFT JOIN seat_locks k ON k.trip_id = p_trip_id AND k.seat_name = s.name AND k.expires_at > p_now
   WHERE s.layout_id = p_layout_id AND s.name <> 'OPEN'
$$;
