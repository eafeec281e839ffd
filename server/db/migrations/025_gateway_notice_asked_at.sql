-- When the gateway's own signed notice (IPN, browser return) last asked SSLCommerz about the
-- payment: notices wait only for each other, so a page's status check (anyone who knows the
-- payment id) never makes the real return answer "pending".
ALTER TABLE payments ADD COLUMN gateway_notice_asked_at timestamptz;
