-- Real delivery of the outbox: each message is written PENDING in the transaction
-- that causes it, then a worker claims it (FOR UPDATE SKIP LOCKED, with a lease),
-- sends it and records the outcome. The e-mail's HTML and attachments are rendered
-- when the message is written, so the worker only sends.

-- Messages written before this migration went to the development outbox: they count as sent.
ALTER TABLE outbox_messages
  ADD COLUMN status text NOT NULL DEFAULT 'SENT' CHECK (status IN ('PENDING', 'SENDING', 'SENT', 'FAILED')),
  ADD COLUMN attempts int NOT NULL DEFAULT 0,
  ADD COLUMN next_attempt_at timestamptz,
  ADD COLUMN locked_until timestamptz,
  ADD COLUMN sent_at timestamptz,
  ADD COLUMN provider_message_id text,
  ADD COLUMN last_error text,
  ADD COLUMN html text,
  -- [{ "filename": "...", "contentType": "...", "content": "<base64>" }]
  ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]',
  -- The body with its one-time code masked; replaces the body once the message is sent or has failed.
  ADD COLUMN redacted_body text;
UPDATE outbox_messages SET sent_at = created_at;
ALTER TABLE outbox_messages ALTER COLUMN status SET DEFAULT 'PENDING';

-- What the worker claims: pending messages that are due, and sends whose lease ran out.
CREATE INDEX outbox_messages_due ON outbox_messages (next_attempt_at, id) WHERE status = 'PENDING';
CREATE INDEX outbox_messages_leased ON outbox_messages (locked_until, id) WHERE status = 'SENDING';

-- The language the passenger booked in: the ticket SMS and e-mail are written in it.
ALTER TABLE reservations ADD COLUMN language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'bn'));
