-- The live seat map (server/seat-events.ts). Every write that can change what a trip's seat
-- map shows notifies channel seat_events with '<tripId>:<transaction id>', from triggers, so
-- every writer (present and future, in any server process or the network import) notifies.
-- pg_notify is transactional: delivered to listeners at commit, never for a rollback, and one
-- transaction's identical payloads are folded into one. Each server process then reads the
-- trip's seat states (seat_states below) and sends its own streams what changed.
CREATE FUNCTION notify_seat_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v text := pg_current_xact_id()::text;
BEGIN
  IF TG_TABLE_NAME = 'trips' THEN
    PERFORM pg_notify('seat_events', OLD.id || ':' || v);
  ELSE
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('seat_events', OLD.trip_id || ':' || v); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('seat_events', NEW.trip_id || ':' || v); END IF;
  END IF;
  RETURN NULL;
END;
$$;

-- Holds: taken, extended, released, spent by a booking, swept.
CREATE TRIGGER seat_locks_notify_write AFTER INSERT OR DELETE ON seat_locks
  FOR EACH ROW EXECUTE FUNCTION notify_seat_change();
CREATE TRIGGER seat_locks_notify_update AFTER UPDATE ON seat_locks
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION notify_seat_change();

-- A booking's seats, and their release (cancellation, expiry sweep).
CREATE TRIGGER reservation_seats_notify_write AFTER INSERT OR DELETE ON reservation_seats
  FOR EACH ROW EXECUTE FUNCTION notify_seat_change();
CREATE TRIGGER reservation_seats_notify_update AFTER UPDATE ON reservation_seats
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION notify_seat_change();

-- Sale, cancellation, expiry, a booking's time extended or cut (coupon and PIN columns do not show on a seat map).
CREATE TRIGGER reservations_notify_update AFTER UPDATE ON reservations
  FOR EACH ROW WHEN (
    OLD.status IS DISTINCT FROM NEW.status
    OR OLD.expiration_time IS DISTINCT FROM NEW.expiration_time
    OR OLD.trip_id IS DISTINCT FROM NEW.trip_id
  ) EXECUTE FUNCTION notify_seat_change();

-- The trip itself changed (network import: times, fares, layout, status) or is gone: seat pages reload it.
CREATE TRIGGER trips_notify_update AFTER UPDATE ON trips
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION notify_seat_change();
CREATE TRIGGER trips_notify_delete AFTER DELETE ON trips
  FOR EACH ROW EXECUTE FUNCTION notify_seat_change();

-- What the live seat map says of each seat of a trip at p_now: sold or booked (the seat_taken
-- rule), else held (an unexpired lock), else available; with when that ends by itself (a hold's
-- or an unpaid booking's expiry), null for sold and available. Never who holds it. The OPEN
-- placeholder is no seat.
CREATE FUNCTION seat_states(p_layout_id integer, p_trip_id integer, p_now timestamptz)
RETURNS TABLE (name text, state text, expires_at timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT s.name::text,
         CASE WHEN seat_taken(rs.active, x.status, x.expiration_time, p_now) THEN CASE WHEN x.status = 1 THEN 'sold' ELSE 'booked' END
              WHEN k.seat_name IS NOT NULL THEN 'held'
              ELSE 'available' END,
         CASE WHEN seat_taken(rs.active, x.status, x.expiration_time, p_now) THEN CASE WHEN x.status = 1 THEN NULL ELSE x.expiration_time END
              ELSE k.expires_at END
    FROM layout_seats s
    LEFT JOIN reservation_seats rs ON rs.trip_id = p_trip_id AND rs.seat_name = s.name AND rs.active
    LEFT JOIN reservations x ON x.id = rs.reservation_id
    LEFT JOIN seat_locks k ON k.trip_id = p_trip_id AND k.seat_name = s.name AND k.expires_at > p_now
   WHERE s.layout_id = p_layout_id AND s.name <> 'OPEN'
$$;
