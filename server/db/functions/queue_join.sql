-- Joins the waiting room of a rush date, or finds the place the caller has (server/queue/queue.ts
-- joinQueue says the rules): the signed-in passenger's place, else the token's (claimed by the
-- passenger when it has none). A caller without a valid token (p_token_hash unknown, or its place
-- another passenger's) is issued p_new_token_hash, at most p_devices_max an address in
-- p_devices_window (the 'queue-device' limit of server/http/limits.ts, taken with limit_take).
-- p_again: an expired admission's place goes to the back of the queue.
-- One call instead of a dozen statements in a transaction: a crowd of joins holds each pooled
-- connection for one round trip (issue 30, sale day).
-- Answers joined (false: no such rush date), token ('given': the caller's, 'new': p_new_token_hash),
-- and wait_seconds: > 0 when the address has used its tokens (nothing was written).
CREATE OR REPLACE FUNCTION queue_join(
  p_trip_date date, p_origin text, p_destination text, p_passenger integer, p_token_hash text,
  p_new_token_hash text, p_address text, p_now timestamptz, p_again boolean,
  p_devices_max integer, p_devices_window interval)
RETURNS TABLE (joined boolean, token text, wait_seconds integer) LANGUAGE plpgsql AS $$
DECLARE
  r record;
  hash text := p_token_hash;
  place_id bigint;
  place_passenger integer;
  wait integer;
BEGIN
  SELECT id, opens_at INTO r FROM rush_dates
   WHERE trip_date = p_trip_date AND origin_code = p_origin AND destination_code = p_destination;
  IF NOT FOUND THEN
    RETURN QUERY SELECT false, 'given'::text, 0;
    RETURN;
  END IF;
  -- two tabs (or processes) joining for one passenger or token are handled one after the other
  IF p_passenger IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('queue-passenger'), p_passenger);
  END IF;
  IF hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM queue_devices WHERE token_hash = hash) THEN
    hash := NULL;
  END IF;
  IF hash IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('queue-token'), hashtext(hash));
  END IF;
  SELECT q.id, q.passenger_id INTO place_id, place_passenger FROM queue_places q
   WHERE q.rush_id = r.id AND (q.passenger_id = p_passenger OR q.token_hash = hash)
   ORDER BY q.passenger_id = p_passenger DESC NULLS LAST LIMIT 1;
  -- a token whose place another passenger signed in with is that passenger's: this one gets its own
  IF place_passenger IS NOT NULL AND place_passenger IS DISTINCT FROM p_passenger THEN
    IF p_passenger IS NULL THEN
      RETURN QUERY SELECT true, 'given'::text, 0;
      RETURN;
    END IF;
    place_id := NULL;
    hash := NULL;
  END IF;
  IF hash IS NULL THEN
    -- limit_take: the limit's one rule, its lock and its event
    SELECT t.wait_seconds INTO wait FROM limit_take('queue-device', p_address, p_devices_max, p_devices_window, p_now) t;
    IF wait > 0 THEN
      RETURN QUERY SELECT false, 'new'::text, wait;
      RETURN;
    END IF;
    hash := p_new_token_hash;
    INSERT INTO queue_devices (token_hash, address, issued_at) VALUES (hash, p_address, p_now);
  END IF;
  IF place_id IS NULL THEN
    INSERT INTO queue_places (rush_id, token_hash, passenger_id, joined_at, draw)
    VALUES (r.id, hash, p_passenger, p_now,
            CASE WHEN p_now < r.opens_at THEN random() ELSE 1 + extract(epoch FROM p_now - r.opens_at)::double precision END)
    ON CONFLICT DO NOTHING;
  ELSE
    IF p_passenger IS NOT NULL AND place_passenger IS NULL THEN
      UPDATE queue_places SET passenger_id = p_passenger WHERE id = place_id;
    END IF;
    IF p_again THEN
      UPDATE queue_places SET joined_at = p_now, admitted_at = NULL, admitted_until = NULL, rank = NULL,
             draw = 1 + extract(epoch FROM p_now - r.opens_at)::double precision
       WHERE id = place_id AND admitted_until <= p_now AND p_now >= r.opens_at;
    END IF;
  END IF;
  RETURN QUERY SELECT true, CASE WHEN hash = p_token_hash THEN 'given' ELSE 'new' END, 0;
END
$$;
