-- SMS through a second provider: `route` says which provider a message is with (0: SMS_PROVIDER,
-- 1: SMS_FALLBACK_PROVIDER; it only ever moves from 0 to 1, so each provider has a message at
-- most once), and `provider` names the provider of its last attempt (e.g. sslwireless, smtp).
ALTER TABLE outbox_messages
  ADD COLUMN route smallint NOT NULL DEFAULT 0 CHECK (route IN (0, 1)),
  ADD COLUMN provider text;
