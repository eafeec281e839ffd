-- Where a gateway payment's money came from, as SSLCommerz's validation answer says (card_brand,
-- card_type, card_issuer), never as the browser says: every later message names where a refund goes
-- ("your bKash wallet"). paid_with: card, bkash, nagad, rocket, wallet (another mobile wallet) or bank
-- (internet banking); paid_issuer: SSLCommerz's card_issuer as written. asked_with: the passenger's
-- choice on our page (the multi_card_name sent), so a pending payment is handed out again only for
-- the same choice. NULL on payments from before, which messages call "your card".
ALTER TABLE payments ADD COLUMN asked_with text CHECK (asked_with IN ('card', 'bkash', 'nagad', 'rocket'));
ALTER TABLE payments ADD COLUMN paid_with text CHECK (paid_with IN ('card', 'bkash', 'nagad', 'rocket', 'wallet', 'bank'));
ALTER TABLE payments ADD COLUMN paid_issuer text;
