-- A seat hold released and locked again by the same passenger or address is the same hold
-- (issue 32): its extensions and the end it was first won with carry over, so the count of
-- MAX_HOLD_EXTENSIONS and the MAX_HOLD_MINUTES ceiling hold across a release.
--
-- The first lock's record (first_holds kind 'lock', migration 013) keeps both: `extensions`,
-- counted by extendHold (server/trips/seat-locks.ts), which also moves the record's end to the
-- extended one, and `max_expires_at`, which for a lock is the end it was first won with (never
-- moved). A lock inserted
-- (or an expired one taken over) while such a record of its holder lasts at least as long
-- continues that hold: lock_seats caps the new end at the record's, so the record still lasts
-- exactly when the hold is the same.
ALTER TABLE first_holds ADD COLUMN extensions integer NOT NULL DEFAULT 0;

-- The holder keys (hold_keys) of a seat lock: its passenger when signed in, and its address.
CREATE FUNCTION seat_lock_hold_keys(p_holder text, p_address text) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT array_remove(ARRAY[
    CASE WHEN p_holder LIKE 'p:%' THEN p_holder END,
    CASE WHEN coalesce(p_address, '') <> '' THEN 'a:' || p_address END
  ], NULL)
$$;

-- seat_lock_hold_start of migration 017: a new hold takes the extensions and first end of its
-- holder's live first-lock record, if any, instead of starting from zero.
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
