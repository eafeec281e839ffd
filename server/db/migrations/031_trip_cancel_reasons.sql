-- The operator's cancellation of a trip (npm run trip -- cancel, server/bookings/trip-changes.ts)
-- is recorded on the trip when it starts, with the reason in English and in Bengali (issue 32):
-- a passenger's own cancel once the trip is being cancelled takes the operator's terms (full
-- refund, the operator's reason) however far the command has got, and a passenger who booked in
-- Bengali reads the reason in Bengali.
ALTER TABLE trips ADD COLUMN cancel_reason text;
ALTER TABLE trips ADD COLUMN cancel_reason_bn text;
ALTER TABLE reservations ADD COLUMN operator_reason_bn text;
