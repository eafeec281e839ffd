-- The holder keys of a caller (first_holds.holder_key): its passenger and its client address.
CREATE OR REPLACE FUNCTION hold_keys(p_passenger_id integer, p_address text) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT array_remove(ARRAY[
    CASE WHEN p_passenger_id IS NOT NULL THEN 'p:' || p_passenger_id END,
    CASE WHEN coalesce(p_address, '') <> '' THEN 'a:' || p_address END
  ], NULL)
$$;
