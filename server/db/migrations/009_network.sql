-- The network as an imported data file (server/network/): natural keys for every
-- imported row, timetable days and validity, entries kept but withdrawn because
-- tickets refer to them, the generated-trip window and the log of imports.

-- Layouts are imported by code. When the seats of a layout that sold tickets
-- change, the old row is kept (retired) for those tickets and a new version takes
-- the code, so names and codes are unique among current layouts only.
ALTER TABLE layouts ADD COLUMN code text;
UPDATE layouts l SET code = CASE
  WHEN EXISTS (SELECT 1 FROM layouts o WHERE o.coach_type = l.coach_type AND o.id < l.id) THEN l.coach_type || '_' || l.id
  ELSE l.coach_type END;
ALTER TABLE layouts ALTER COLUMN code SET NOT NULL;
ALTER TABLE layouts ADD COLUMN retired boolean NOT NULL DEFAULT false;
ALTER TABLE layouts DROP CONSTRAINT layouts_name_key;
CREATE UNIQUE INDEX layouts_current_code ON layouts (code) WHERE NOT retired;

-- Cities, counters and routes no longer in the file but named by trips or
-- tickets stay, withdrawn from the lists.
ALTER TABLE cities ADD COLUMN active boolean NOT NULL DEFAULT true;
ALTER TABLE bus_stations ADD COLUMN active boolean NOT NULL DEFAULT true;
ALTER TABLE routes ADD COLUMN active boolean NOT NULL DEFAULT true;

-- ISO weekdays (1 Monday .. 7 Sunday) and the dates (Asia/Dhaka) a coach runs.
ALTER TABLE schedules
  ADD COLUMN weekdays int[] NOT NULL DEFAULT '{1,2,3,4,5,6,7}',
  ADD COLUMN valid_from date,
  ADD COLUMN valid_until date;

ALTER TABLE announcements ADD COLUMN key text;
UPDATE announcements SET key = 'announcement-' || id;
ALTER TABLE announcements ALTER COLUMN key SET NOT NULL;
ALTER TABLE announcements ADD CONSTRAINT announcements_key_key UNIQUE (key);

ALTER TABLE offers ADD COLUMN valid_from date;

-- The last day (Asia/Dhaka) for which trips were generated from the timetable:
-- the start-up and daily top-up do nothing while it covers today + TRIP_DAYS_AHEAD.
CREATE TABLE trip_generation (
  id int PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  through date NOT NULL
);

-- One row per import: which file (its SHA-256), when, and what it changed.
CREATE TABLE network_imports (
  id serial PRIMARY KEY,
  source text NOT NULL,
  sha256 text NOT NULL,
  report jsonb NOT NULL,
  imported_at timestamptz NOT NULL
);
