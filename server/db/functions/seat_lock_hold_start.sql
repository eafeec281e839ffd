-- Extending a seat hold before booking (server/trips/seat-locks.ts extendHold): each lock
-- remembers the expiry it was won with (first_expires_at) and how many times it was extended.
-- The maximum a hold may reach is counted from first_expires_at, so locking the seat again
-- (lock_seats keeps an unexpired lock's expiry) never buys time. A write that moves
-- expires_at without counting an extension is a new hold (lock_seats replacing an expired
-- lock, whoever wins it): it starts again from zero. The trigger keeps this true for any writer.
CREATE OR REPLACE FUNCTION seat_lock_hold_start() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.extensions := 0;
    NEW.first_expires_at := NEW.expires_at;
  ELSIF NEW.extensions = OLD.extensions AND NEW.expires_at IS DISTINCT FROM OLD.expires_at THEN
    NEW.extensions := 0;
    NEW.first_expires_at := NEW.expires_at;
  END IF;
  RETURN NEW;
END;
$$;

CREATE OR REPLACE TRIGGER seat_locks_hold_start BEFORE INSERT OR UPDATE ON seat_locks FOR EACH ROW EXECUTE FUNCTION seat_lock_hold_start();
