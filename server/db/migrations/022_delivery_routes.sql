-- Settings the server keeps for itself, one row each: `installation_id` (written once, at the first
-- start, by server/delivery/installation.ts) goes into every message id a provider sees, so ids from
-- two databases on one provider account never collide.
CREATE TABLE settings (
  name text PRIMARY KEY,
  value text NOT NULL
);

-- A one-time code: its SMS goes to the fallback provider after the first failed attempt.
ALTER TABLE outbox_messages ADD COLUMN urgent boolean NOT NULL DEFAULT false;
UPDATE outbox_messages SET urgent = true WHERE redacted_body IS NOT NULL AND status IN ('PENDING', 'SENDING');

-- Each provider's health, shared by every process: failures in a row (a success resets it) and, once
-- they reach the limit, until when messages go around it to the fallback provider.
CREATE TABLE delivery_providers (
  provider text PRIMARY KEY,
  failures_in_a_row int NOT NULL DEFAULT 0,
  open_until timestamptz,
  last_error text
);

-- Sends, failures and failovers by provider since the database was made (/metrics reads them, so
-- every process reports the same): `event` is sent, failed or failover, `reason` says which kind.
CREATE TABLE delivery_counts (
  channel text NOT NULL,
  provider text NOT NULL,
  event text NOT NULL CHECK (event IN ('sent', 'failed', 'failover')),
  reason text NOT NULL DEFAULT '',
  n bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (channel, provider, event, reason)
);
