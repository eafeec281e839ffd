-- A waiting room's status poll reads the caller's place instead of counting the places ahead of it
-- (issue 30, server/queue/queue.ts). The once-a-second refresh (refreshRush) numbers the waiting
-- places in queue order (draw, id) and stores each one's rank = rank_base + its number; rank_base
-- grows by each refresh's admissions, so places that only move up as the front is admitted keep
-- their rank and are not rewritten. A waiting place's number is rank - rank_base.
-- A place joined since (rank NULL) is behind the last one numbered, (ranked_draw, ranked_id):
-- waiting + its order among the few waiting behind that one.
-- No index names rank: updating it stays a HOT update (fillfactor leaves room on each page).
ALTER TABLE queue_places ADD COLUMN rank integer;
ALTER TABLE queue_places SET (fillfactor = 80);
ALTER TABLE rush_dates ADD COLUMN rank_base integer NOT NULL DEFAULT 0;
ALTER TABLE rush_dates ADD COLUMN ranked_draw double precision;
ALTER TABLE rush_dates ADD COLUMN ranked_id bigint;
