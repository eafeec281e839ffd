-- Extending a seat hold before booking (server/trips/seat-locks.ts extendHold): each lock
-- remembers the expiry it was won with (first_expires_at) and how many times it was extended.
-- The maximum a hold may reach is counted from first_expires_at, so locking the seat again
-- (lock_seats keeps an unexpired lock's expiry) never buys time. A write that moves
-- expires_at without counting an extension is a new hold (lock_seats replacing an expired
-- lock, whoever wins it), unless its holder's first-lock record (first_holds kind 'lock', by
-- passenger or address) still lasts: then it continues that hold, with its extensions and the
-- end it was first won with, so a release and re-lock resets neither. The trigger keeps this
-- true for any writer.
CREATE OR REPLACE FUNCTION seat_lock_hold_start() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  used integer;
  first_end timestamptz;
BEGIN
  IF TG_OP = 'INSERT' OR (NEW.extensions = OLD.extensions AND NEW.expires_at IS DISTINCT FROM OLD.expires_at) THEN
    SELECT max(h.extensions), min(h.max_expires_at) INTO used, first_end FROM first_holds h
     WHERE h.trip_id = NEW.trip_id AND h.seat_name = NEW.seat_name AND h.kind = 'lock'
       AND h.holder_key = ANY(seat_lock_hold_keys(NEW.holder, NEW.address)) AND h.keep_until >= NEW.expires_at;
    NEW.extensions := coalesce(used, 0);
    NEW.first_expires_at := least(coalesce(first_end, NEW.expires_at), NEW.expires_at);
  END IF;
  RETURN NEW;
END;
$$;

CREATE OR REPLACE TRIGGER seat_locks_hold_start BEFORE INSERT OR UPDATE ON seat_locks FOR EACH ROW EXECUTE FUNCTION seat_lock_hold_start();
