-- Passengers, their sessions, one-time codes, password resets and balance ledger.

CREATE TABLE passengers (
  id serial PRIMARY KEY,
  mobile text UNIQUE NOT NULL CHECK (mobile ~ '^01[3-9][0-9]{8}$'),
  full_name text NOT NULL,
  email text NOT NULL,
  city text NOT NULL,
  password_hash text,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'ACTIVE', 'INACTIVE')),
  balance int NOT NULL DEFAULT 0 CHECK (balance >= 0),
  password_changed_at timestamptz,
  created_at timestamptz NOT NULL
);

CREATE TABLE sessions (
  id bigserial PRIMARY KEY,
  passenger_id int NOT NULL REFERENCES passengers ON DELETE CASCADE,
  token_hash text UNIQUE NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX sessions_passenger ON sessions (passenger_id);

-- One live code per (mobile, purpose, ref): a new code replaces the old one.
CREATE TABLE otps (
  id bigserial PRIMARY KEY,
  mobile text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('SIGNUP', 'LOGIN', 'RESET_PASSWORD', 'CANCEL_TICKET')),
  ref text NOT NULL DEFAULT '',
  code_hash text NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  sent_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  UNIQUE (mobile, purpose, ref)
);

CREATE TABLE password_resets (
  token_hash text PRIMARY KEY,
  passenger_id int NOT NULL REFERENCES passengers ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);

CREATE TABLE ledger (
  id bigserial PRIMARY KEY,
  passenger_id int NOT NULL REFERENCES passengers,
  amount int NOT NULL,
  balance_after int NOT NULL,
  kind text NOT NULL CHECK (kind IN ('TOP_UP', 'TICKET_PAYMENT', 'REFUND', 'OPENING')),
  description text NOT NULL,
  reservation_id int,
  created_at timestamptz NOT NULL
);
CREATE INDEX ledger_passenger_time ON ledger (passenger_id, created_at);
