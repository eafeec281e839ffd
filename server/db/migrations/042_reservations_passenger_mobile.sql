-- The per-date seat cap (SEATS_PER_PASSENGER_PER_DATE, functions/passenger_date_seats.sql) finds a
-- mobile number's bookings by the traveller's mobile written on them.
CREATE INDEX reservations_passenger_mobile_idx ON reservations (passenger_mobile);
