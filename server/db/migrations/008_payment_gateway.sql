-- Card payments through a real gateway (SSLCommerz) next to the development sandbox:
-- which gateway took each payment, what the gateway answered, why a payment was
-- declined, and payments held for review (the gateway flagged them as risky).

ALTER TABLE payments ADD COLUMN provider text NOT NULL DEFAULT 'sandbox' CHECK (provider IN ('sandbox', 'sslcommerz'));
-- The gateway's payment page (GatewayPageURL) and session key: a double click gets the same page.
ALTER TABLE payments ADD COLUMN gateway_url text;
ALTER TABLE payments ADD COLUMN gateway_session text;
-- The validation the decision was taken on (val_id, its status, risk_level 0 safe / 1 risky).
ALTER TABLE payments ADD COLUMN gateway_val_id text;
ALTER TABLE payments ADD COLUMN gateway_status text;
ALTER TABLE payments ADD COLUMN risk_level integer;
-- Why a payment was declined (amount or currency that disagrees, failed at the gateway...).
ALTER TABLE payments ADD COLUMN decline_reason text;
-- Last time the reconciliation pass asked the gateway about this payment.
ALTER TABLE payments ADD COLUMN checked_at timestamptz;
-- When an operator approved or declined a payment held for review.
ALTER TABLE payments ADD COLUMN reviewed_at timestamptz;

-- REVIEW: paid at the gateway but flagged as risky; nothing is sold or credited until an operator decides.
ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check CHECK (status IN ('PENDING', 'APPROVED', 'DECLINED', 'REVIEW'));

-- The reconciliation pass reads the pending gateway payments oldest first.
CREATE INDEX payments_gateway_pending_idx ON payments (created_at) WHERE status = 'PENDING' AND provider = 'sslcommerz';
CREATE INDEX payments_review_idx ON payments (created_at) WHERE status = 'REVIEW';
