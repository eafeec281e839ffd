-- "A booking is still live": unpaid (reservation status 2, booked) and its hold not ended at
-- p_now. The one SQL spelling of the rule (server/bookings/bookings.ts bookingLive is the
-- TypeScript one); seat_taken, address_holds, lock_seats and the server's queries call it.
-- A single-expression LANGUAGE sql function without STRICT: the planner inlines it, so the
-- plans (and the partial indexes on status = 2) are those of the expression written out.
CREATE OR REPLACE FUNCTION booking_live(p_status integer, p_expiration_time timestamptz, p_now timestamptz)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_status = 2 AND p_expiration_time > p_now
$$;
