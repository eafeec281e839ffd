-- The abuse limits' one rule (server/http/limits.ts): at most p_max events of a bucket per key in the
-- p_window before p_now. Answers how long until one more event fits, in whole seconds (at least 1), or 0
-- when it fits now. limit_take counts with it; queue_join's per-address token limit goes through
-- limit_take, so a change to the rule is made here once.
CREATE OR REPLACE FUNCTION limit_wait(p_bucket text, p_key text, p_max integer, p_window interval, p_now timestamptz)
RETURNS integer LANGUAGE plpgsql STABLE AS $$
DECLARE
  nth_last timestamptz;
BEGIN
  -- the p_max-th newest event of the window: while it is in the window, one more would be one too many
  SELECT at INTO nth_last FROM limit_events
   WHERE bucket = p_bucket AND key = p_key AND at > p_now - p_window
   ORDER BY at DESC OFFSET p_max - 1 LIMIT 1;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  RETURN greatest(1, ceil(extract(epoch FROM nth_last + p_window - p_now)))::integer;
END
$$;
