-- Seats one client address holds unpaid at p_now: its unexpired seat locks plus the seats
-- of its live unpaid bookings, on trip p_trip_id (NULL: all trips); and when the first of
-- them ends (for a Retry-After). The per-address limits count this, at seat lock
-- (lock_seats) and at booking (server/bookings/bookings.ts), both under the address's
-- advisory lock.
CREATE OR REPLACE FUNCTION address_holds(p_address text, p_trip_id integer, p_now timestamptz, OUT seats integer, OUT first_end timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT count(*)::integer, min(e) FROM (
    SELECT expires_at AS e FROM seat_locks
     WHERE address = p_address AND expires_at > p_now AND (p_trip_id IS NULL OR trip_id = p_trip_id)
    UNION ALL
    SELECT x.expiration_time FROM reservations x JOIN reservation_seats rs ON rs.reservation_id = x.id
     WHERE x.address = p_address AND booking_live(x.status, x.expiration_time, p_now) AND rs.active
       AND (p_trip_id IS NULL OR rs.trip_id = p_trip_id)
  ) h
$$;
