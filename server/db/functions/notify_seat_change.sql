-- The live seat map (server/trips/seat-events.ts). Every write that can change what a trip's
-- seat map shows notifies channel seat_events with '<tripId>:<transaction id>', from the
-- triggers below, so every writer (present and future, in any server process or the network
-- import) notifies. pg_notify is transactional: delivered to listeners at commit, never for a
-- rollback, and one transaction's identical payloads are folded into one. Each server process
-- then reads the trip's seat states (seat_states) and sends its own streams what changed.
CREATE OR REPLACE FUNCTION notify_seat_change() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE OR REPLACE TRIGGER seat_locks_notify_write AFTER INSERT OR DELETE ON seat_locks
  FOR EACH ROW EXECUTE FUNCTION notify_seat_change();
CREATE OR REPLACE TRIGGER seat_locks_notify_update AFTER UPDATE ON seat_locks
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION notify_seat_change();

-- A booking's seats, and their release (cancellation, expiry sweep).
CREATE OR REPLACE TRIGGER reservation_seats_notify_write AFTER INSERT OR DELETE ON reservation_seats
  FOR EACH ROW EXECUTE FUNCTION notify_seat_change();
CREATE OR REPLACE TRIGGER reservation_seats_notify_update AFTER UPDATE ON reservation_seats
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION notify_seat_change();

-- Sale, cancellation, expiry, a booking's time extended or cut (coupon and PIN columns do not show on a seat map).
CREATE OR REPLACE TRIGGER reservations_notify_update AFTER UPDATE ON reservations
  FOR EACH ROW WHEN (
    OLD.status IS DISTINCT FROM NEW.status
    OR OLD.expiration_time IS DISTINCT FROM NEW.expiration_time
    OR OLD.trip_id IS DISTINCT FROM NEW.trip_id
  ) EXECUTE FUNCTION notify_seat_change();

-- The trip itself changed (network import: times, fares, layout, status) or is gone: seat pages reload it.
CREATE OR REPLACE TRIGGER trips_notify_update AFTER UPDATE ON trips
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION notify_seat_change();
CREATE OR REPLACE TRIGGER trips_notify_delete AFTER DELETE ON trips
  FOR EACH ROW EXECUTE FUNCTION notify_seat_change();
