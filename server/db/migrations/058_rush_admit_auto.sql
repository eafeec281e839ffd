-- A rush date whose admission rate follows its seats left (issue 30 item 2, server/queue/queue.ts):
-- each minute as many passengers as seats are free at that moment, so the rate falls as seats are
-- held and stops when none are free. admit_per_minute is then NULL.
ALTER TABLE rush_dates ADD COLUMN admit_auto boolean NOT NULL DEFAULT false;
