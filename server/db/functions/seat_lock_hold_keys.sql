-- The holder keys (hold_keys) of a seat lock: its passenger when signed in, and its address.
CREATE OR REPLACE FUNCTION seat_lock_hold_keys(p_holder text, p_address text) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT array_remove(ARRAY[
    CASE WHEN p_holder LIKE 'p:%' THEN p_holder END,
    CASE WHEN coalesce(p_address, '') <> '' THEN 'a:' || p_address END
  ], NULL)
$$;
