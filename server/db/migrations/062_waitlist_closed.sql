-- A waitlist place ends with its trip: CLOSED when the operator cancels the trip or moves its passengers to another coach.
ALTER TABLE waitlist DROP CONSTRAINT waitlist_status_check;
ALTER TABLE waitlist ADD CONSTRAINT waitlist_status_check CHECK (status IN ('WAITING', 'OFFERED', 'BOOKED', 'LAPSED', 'LEFT', 'CLOSED'));
