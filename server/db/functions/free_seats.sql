-- The seats of a trip anyone could lock at p_now, in seat-map order: neither taken (the
-- seat_taken rule) nor held by an unexpired lock; never the OPEN placeholder. The waitlist
-- (waitlist_offer, server/waitlist/waitlist.ts) calls a trip with none sold out.
CREATE OR REPLACE FUNCTION free_seats(p_trip_id integer, p_now timestamptz) RETURNS text[]
LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(s.name::text ORDER BY s.deck, s.row, s.col), '{}')
    FROM trips t JOIN layout_seats s ON s.layout_id = t.layout_id
   WHERE t.id = p_trip_id AND s.name <> 'OPEN'
     AND NOT EXISTS (SELECT 1 FROM reservation_seats rs JOIN reservations x ON x.id = rs.reservation_id
                      WHERE rs.trip_id = t.id AND rs.seat_name = s.name AND seat_taken(rs.active, x.status, x.expiration_time, p_now))
     AND NOT EXISTS (SELECT 1 FROM seat_locks k WHERE k.trip_id = t.id AND k.seat_name = s.name AND k.expires_at > p_now)
$$;
