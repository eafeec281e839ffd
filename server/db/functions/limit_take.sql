-- Counts one event of an abuse limit (server/http/limits.ts take): under an advisory lock on (bucket, key),
-- held to the end of the caller's transaction, so simultaneous takes on any process are counted one after
-- the other and exactly p_max pass. Answers the new event's id and wait_seconds 0, or no id and the
-- seconds to wait (limit_wait) when the window is full: a refusal records nothing.
CREATE OR REPLACE FUNCTION limit_take(p_bucket text, p_key text, p_max integer, p_window interval, p_now timestamptz)
RETURNS TABLE (id bigint, wait_seconds integer) LANGUAGE plpgsql AS $$
DECLARE
  wait integer;
  new_id bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(p_bucket), hashtext(p_key));
  wait := limit_wait(p_bucket, p_key, p_max, p_window, p_now);
  IF wait > 0 THEN
    RETURN QUERY SELECT NULL::bigint, wait;
    RETURN;
  END IF;
  INSERT INTO limit_events (bucket, key, at) VALUES (p_bucket, p_key, p_now) RETURNING limit_events.id INTO new_id;
  RETURN QUERY SELECT new_id, 0;
END
$$;
