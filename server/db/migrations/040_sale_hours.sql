-- Sale hours (issue 30): the trips of a travel date D go on sale at a set time of day in
-- Asia/Dhaka, a number of days before D, as the network file says (a route's saleOpens, or a
-- timetable entry's own). The import stores the rule each timetable entry ends up with;
-- trip generation turns it into the instant each trip goes on sale. NULL: always on sale.
ALTER TABLE schedules
  ADD COLUMN sale_days_before integer,
  ADD COLUMN sale_opens time,
  ADD CONSTRAINT schedules_sale_hours CHECK ((sale_days_before IS NULL) = (sale_opens IS NULL) AND sale_days_before >= 0);

-- When the trip goes on sale: seat locks and bookings before it are refused (lock_seats,
-- server/trips/trips.ts assertSaleOpen), the server's clock deciding. NULL: on sale.
ALTER TABLE trips ADD COLUMN sale_opens_at timestamptz;
