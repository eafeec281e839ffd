-- Trips the operator cancels or moves (npm run trip: server/bookings/trip-changes.ts).
-- A cancelled or vacated trip is OMITTED: closed for sale (seat locks answer TRIP_OMITTED and
-- the live seat map reloads it). A cancelled trip's reservations get status 5 with
-- cancel_reason TRIP_CANCELED and the operator's words in operator_reason. A moved ticket
-- keeps its row, PNR and PIN: trip_id is the new trip, status 10 (trip migrated),
-- moved_from_trip_id the old one; cancelling it refunds in full (status 14).
ALTER TABLE reservations ADD COLUMN operator_reason text;
ALTER TABLE reservations ADD COLUMN moved_from_trip_id integer REFERENCES trips(id);
-- A trip's refund in the balance's history.
ALTER TABLE ledger DROP CONSTRAINT ledger_reason_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_reason_check CHECK (reason IN ('TICKET_CANCELED', 'BOOKING_ENDED', 'COUPON_REFUSED', 'TRIP_CANCELED'));

-- A migrated ticket (10) holds its seats as a sold one (1) does.
CREATE OR REPLACE FUNCTION seat_taken(p_active boolean, p_status integer, p_expiration_time timestamptz, p_now timestamptz)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_active AND (p_status IN (1, 10) OR (p_status = 2 AND p_expiration_time > p_now))
$$;

-- seat_map of migration 010: a migrated ticket's seats show as sold (1).
CREATE OR REPLACE FUNCTION seat_map(p_layout_id integer, p_trip_id integer, p_now timestamptz)
RETURNS TABLE (name text, "row" integer, col integer, deck text, seat_type text, status integer, holder text, expires_at timestamptz)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
    SELECT s.name::text, s.row::integer, s.col::integer, s.deck::text, s.seat_type::text,
           (CASE WHEN seat_taken(rs.active, x.status, x.expiration_time, p_now) THEN CASE WHEN x.status = 10 THEN 1 ELSE x.status END ELSE 0 END)::integer,
           k.holder, k.expires_at
      FROM layout_seats s
      LEFT JOIN reservation_seats rs ON rs.trip_id = p_trip_id AND rs.seat_name = s.name AND rs.active
      LEFT JOIN reservations x ON x.id = rs.reservation_id
      LEFT JOIN seat_locks k ON k.trip_id = p_trip_id AND k.seat_name = s.name AND k.expires_at > p_now
     WHERE s.layout_id = p_layout_id
     ORDER BY s.deck, s.row, s.col;
END;
$$;

-- seat_states of migration 011: a migrated ticket's seats are sold.
CREATE OR REPLACE FUNCTION seat_states(p_layout_id integer, p_trip_id integer, p_now timestamptz)
RETURNS TABLE (name text, state text, expires_at timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT s.name::text,
         CASE WHEN seat_taken(rs.active, x.status, x.expiration_time, p_now) THEN CASE WHEN x.status IN (1, 10) THEN 'sold' ELSE 'booked' END
              WHEN k.seat_name IS NOT NULL THEN 'held'
              ELSE 'available' END,
         CASE WHEN seat_taken(rs.active, x.status, x.expiration_time, p_now) THEN CASE WHEN x.status IN (1, 10) THEN NULL ELSE x.expiration_time END
              ELSE k.expires_at END
    FROM layout_seats s
    LEFT JOIN reservation_seats rs ON rs.trip_id = p_trip_id AND rs.seat_name = s.name AND rs.active
    LEFT JOIN reservations x ON x.id = rs.reservation_id
    LEFT JOIN seat_locks k ON k.trip_id = p_trip_id AND k.seat_name = s.name AND k.expires_at > p_now
   WHERE s.layout_id = p_layout_id AND s.name <> 'OPEN'
$$;
