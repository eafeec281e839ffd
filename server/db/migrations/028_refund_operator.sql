-- Refunds the operator finishes (npm run trip -- refund-retry / refund-done, server/bookings/refund-command.ts).
-- A refund done by hand outside the gateway (bank transfer, the gateway's panel) is DONE with the
-- operator's reference and name. A retried refund the gateway had accepted and then cancelled needs
-- a new refund_trans_id there: retry_round counts those retries and is appended to the id sent.
ALTER TABLE refunds ADD COLUMN manual_ref text;
ALTER TABLE refunds ADD COLUMN manual_by text;
ALTER TABLE refunds ADD COLUMN retry_round integer NOT NULL DEFAULT 0;
ALTER TABLE refunds ADD COLUMN retried_by text;
ALTER TABLE refunds ADD CONSTRAINT refunds_manual_check CHECK ((manual_ref IS NULL) = (manual_by IS NULL) AND (manual_ref IS NULL OR status = 'DONE'));
CREATE INDEX refunds_status_idx ON refunds (status, created_at);
