-- The live seat-map streams open now, one row each, with the client address (IPv4, or
-- the /64 of IPv6) that opened it: one address may keep at most SEAT_STREAMS_PER_ADDRESS
-- open on all server processes together. A process deletes a row when its stream ends
-- and renews the lease of its open rows with every heartbeat; a row whose lease has run
-- out (its process died) no longer counts and is deleted by the next process to look.
CREATE TABLE seat_streams (
  id bigserial PRIMARY KEY,
  address text NOT NULL,
  trip_id integer NOT NULL,
  opened_at timestamptz NOT NULL,
  lease_until timestamptz NOT NULL
);
CREATE INDEX seat_streams_address_idx ON seat_streams (address, lease_until);
CREATE INDEX seat_streams_lease_idx ON seat_streams (lease_until);
