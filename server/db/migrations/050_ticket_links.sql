-- The ticket SMS's link (server/bookings/ticket-codes.ts): only the SHA-256 of its token is kept,
-- so a database copy opens no ticket; a new ticket SMS replaces it, and clearing it revokes the link.
ALTER TABLE reservations ADD COLUMN link_token_hash text;
CREATE UNIQUE INDEX reservations_link_token_idx ON reservations (link_token_hash) WHERE link_token_hash IS NOT NULL;
-- When a live ticket's seats or trip last changed: its QR codes signed before then are on the checker's revocation list.
ALTER TABLE reservations ADD COLUMN ticket_changed_at timestamptz;
