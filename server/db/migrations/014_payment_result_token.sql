-- Security issue 21, items 4 and 5.
-- The payment result in full (PNR, PIN, mobile, balance) goes only to the browser tab that started the
-- payment: it gets a random result token when the payment opens (a second tab reusing the
-- pending payment gets its own); only their SHA-256 hashes are kept here.
ALTER TABLE payments ADD COLUMN result_token_hashes text[] NOT NULL DEFAULT '{}';
-- When a request last asked SSLCommerz about this payment (validation or transaction query): however
-- many callbacks arrive, across processes, the gateway is asked at most once per few seconds.
ALTER TABLE payments ADD COLUMN gateway_asked_at timestamptz;
