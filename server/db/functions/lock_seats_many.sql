-- Several lock requests in one call (server/batch.ts gathers requests that arrive while a
-- call is running), each won or lost on its own exactly as if it came alone, in order. The
-- address locks of the whole batch are taken first, in one order, so two batches never wait
-- for each other's address in opposite orders. Each element: {tripId, tripDate, coachCode,
-- originCode, destinationCode, seatNames, holders, passengerId, now, expires, address}.
-- Answers an array of lock_seats answers; an unexpected error fails only its own request:
-- {"failed": SQLSTATE, "message": text}.
CREATE OR REPLACE FUNCTION lock_seats_many(p_requests jsonb, p_max integer, p_open_seat text, p_limit_trip integer, p_limit_total integer)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  r jsonb;
  res jsonb;
  k integer;
  answers jsonb := '[]';
BEGIN
  FOR k IN SELECT DISTINCT hashtext(value->>'address') FROM jsonb_array_elements(p_requests)
            WHERE coalesce(value->>'address', '') <> '' ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(hashtext('seat-hold-address'), k);
  END LOOP;
  FOR r IN SELECT value FROM jsonb_array_elements(p_requests) LOOP
    BEGIN
      res := lock_seats(
        (r->>'tripId')::integer, (r->>'tripDate')::date, r->>'coachCode', r->>'originCode', r->>'destinationCode',
        ARRAY(SELECT jsonb_array_elements_text(r->'seatNames')), ARRAY(SELECT jsonb_array_elements_text(r->'holders')),
        (r->>'passengerId')::integer, (r->>'now')::timestamptz, (r->>'expires')::timestamptz, p_max, p_open_seat,
        coalesce(r->>'address', ''), p_limit_trip, p_limit_total);
    EXCEPTION WHEN OTHERS THEN
      res := jsonb_build_object('failed', SQLSTATE, 'message', SQLERRM);
    END;
    answers := answers || jsonb_build_array(res);
  END LOOP;
  RETURN answers;
END;
$$;
