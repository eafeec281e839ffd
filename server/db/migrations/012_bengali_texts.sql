-- Texts in the passenger's language where they are ours: an offer's Bengali description and a
-- time period's Bengali label (both optional in the network file: NULL shows the English one,
-- marked as English), and why a ledger row was written, so the app says it in the passenger's
-- language instead of the English `description` (kept, and still written, for older readers).
ALTER TABLE offers ADD COLUMN description_bn text;
ALTER TABLE time_periods ADD COLUMN label_bn text;
ALTER TABLE ledger ADD COLUMN reason text CHECK (reason IN ('TICKET_CANCELED', 'BOOKING_ENDED', 'COUPON_REFUSED'));

-- Rows written before this migration: the reason their English text names.
UPDATE ledger SET reason = 'TICKET_CANCELED' WHERE kind = 'REFUND' AND description LIKE 'Refund for ticket %';
UPDATE ledger SET reason = 'BOOKING_ENDED' WHERE kind = 'REFUND' AND description = 'Card payment received after the booking ended';
UPDATE ledger SET reason = 'COUPON_REFUSED' WHERE kind = 'REFUND' AND description = 'Card payment refunded: the coupon could no longer be used';
