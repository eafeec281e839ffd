/**
 * Demo reference data. The static part is written once (first start); offers
 * are kept valid and trips are topped up to cover today..today+30 on every
 * start, in one cheap statement each.
 */
import type { Queryable } from '../db.ts';
import { addDays, dhakaDate } from '../time.ts';
import * as data from './core-data.ts';
import { layouts } from './layouts.ts';

/** Days after today that always have trips. */
export const TRIP_DAYS_AHEAD = 30;

/** Seeds the static data when missing, refreshes offers and tops up trips. */
export async function seedCore(tx: Queryable, now: Date, daysAhead = TRIP_DAYS_AHEAD): Promise<void> {
  const today = dhakaDate(now);
  const seeded = await tx.query('SELECT 1 FROM cities LIMIT 1');
  if (seeded.length === 0) await seedReference(tx, today);
  await tx.query('UPDATE offers SET valid_until = $2::date WHERE coupon_code = ANY($1::text[]) AND valid_until < $2::date', [
    data.offers.map((o) => o.couponCode),
    addDays(today, 30),
  ]);
  await topUpTrips(tx, today, daysAhead);
}

/** Inserts the trips of every schedule for each day of today..today+daysAhead that has none; answers how many. */
export async function topUpTrips(tx: Queryable, today: string, daysAhead = TRIP_DAYS_AHEAD): Promise<number> {
  const last = addDays(today, daysAhead);
  const [have] = await tx.query<{ days: number; schedules: number }>(
    `SELECT (SELECT count(DISTINCT trip_date) FROM trips WHERE trip_date BETWEEN $1::date AND $2::date) AS days,
            (SELECT count(*) FROM schedules) AS schedules`,
    [today, last],
  );
  if (!have || have.schedules === 0 || have.days >= daysAhead + 1) return 0;
  const rows = await tx.query(
    `INSERT INTO trips (trip_date, coach_code, route_id, layout_id, departure_at, arrival_at, fares)
     SELECT d::date, s.coach_code, s.route_id, s.layout_id,
            (d::date + s.depart_time) AT TIME ZONE 'Asia/Dhaka',
            ((d::date + s.depart_time) AT TIME ZONE 'Asia/Dhaka') + make_interval(mins => r.duration_minutes),
            s.fares
       FROM generate_series($1::date, $2::date, interval '1 day') AS d
      CROSS JOIN schedules s
       JOIN routes r ON r.id = s.route_id
     ON CONFLICT (trip_date, coach_code) DO NOTHING
     RETURNING id`,
    [today, last],
  );
  return rows.length;
}

function fares(key: data.LayoutKey, km: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [type, perKm] of Object.entries(data.farePerKm[key])) out[type] = Math.max(200, Math.round((km * perKm) / 10) * 10);
  return out;
}

async function seedReference(tx: Queryable, today: string): Promise<void> {
  const c = data.cities;
  await tx.query(
    `INSERT INTO cities (code, name, name_bn, sort) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[])`,
    [c.map((x) => x.code), c.map((x) => x.name), c.map((x) => x.nameBn), c.map((_, i) => i + 1)],
  );

  const st = Object.entries(data.stations).flatMap(([city, list], ci) =>
    list.map(([name, address], i) => ({ city, name, address, phone: `0961${String(ci + 1).padStart(2, '0')}-${String(100001 + i * 111)}`, offset: data.stationOffsets[i] ?? 0 })),
  );
  await tx.query(
    `INSERT INTO bus_stations (city_code, name, address, phone, offset_minutes)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[])`,
    [st.map((x) => x.city), st.map((x) => x.name), st.map((x) => x.address), st.map((x) => x.phone), st.map((x) => x.offset)],
  );

  const routes = data.roads.flatMap(([a, b, km, min]) => [
    [a, b, km, min],
    [b, a, km, min],
  ]) as [string, string, number, number][];
  const routeRows = await tx.query<{ id: number; origin_code: string; destination_code: string; distance_km: number }>(
    `INSERT INTO routes (origin_code, destination_code, distance_km, duration_minutes)
     SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[])
     RETURNING id, origin_code, destination_code, distance_km`,
    [routes.map((r) => r[0]), routes.map((r) => r[1]), routes.map((r) => r[2]), routes.map((r) => r[3])],
  );

  const layoutIds = new Map<data.LayoutKey, number>();
  for (const l of layouts) {
    const [row] = await tx.query<{ id: number }>(
      'INSERT INTO layouts (name, coach_type, rows, columns, aisle_columns, decks) VALUES ($1, $2, $3, $4, $5::int[], $6::text[]) RETURNING id',
      [l.name, l.key, l.rows, l.columns, l.aisleColumns, l.decks],
    );
    layoutIds.set(l.key, row!.id);
    await tx.query(
      `INSERT INTO layout_seats (layout_id, name, row, col, deck, seat_type)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::int[], $5::text[], $6::text[])`,
      [row!.id, l.seats.map((s) => s.name), l.seats.map((s) => s.row), l.seats.map((s) => s.col), l.seats.map((s) => s.deck), l.seats.map((s) => s.seatType)],
    );
  }

  const sched: { code: string; routeId: number; layoutId: number; time: string; fares: string }[] = [];
  let n = 101;
  for (const r of routeRows.sort((x, y) => x.id - y.id)) {
    const dhaka = r.origin_code === 'DHK' || r.destination_code === 'DHK';
    for (const [time, key0] of dhaka ? data.dhakaDepartures : data.otherDepartures) {
      // an overnight sleeper makes no sense on a 2-3 hour road
      const key = key0 === 'SLEEPER' && r.distance_km < 150 ? 'NON_AC' : key0;
      sched.push({
        code: `${n++}-${r.origin_code}-${r.destination_code}`,
        routeId: r.id,
        layoutId: layoutIds.get(key)!,
        time,
        fares: JSON.stringify(fares(key, r.distance_km)),
      });
    }
  }
  await tx.query(
    `INSERT INTO schedules (coach_code, route_id, layout_id, depart_time, fares)
     SELECT code, route_id, layout_id, t::time, f::jsonb FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[]) AS u(code, route_id, layout_id, t, f)`,
    [sched.map((s) => s.code), sched.map((s) => s.routeId), sched.map((s) => s.layoutId), sched.map((s) => s.time), sched.map((s) => s.fares)],
  );

  const tp = data.timePeriods;
  await tx.query(
    'INSERT INTO time_periods (label, value, integer_value, sort) SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[])',
    [tp.map((t) => t.label), tp.map((t) => t.value), tp.map((t) => t.integerValue), tp.map((_, i) => i + 1)],
  );
  for (const a of data.announcements) await tx.query('INSERT INTO announcements (title, title_bn) VALUES ($1, $2)', [a.title, a.titleBn]);
  for (const o of data.offers) {
    await tx.query(
      `INSERT INTO offers (title, title_bn, description, coupon_code, discount_percent, max_discount, valid_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7::date) ON CONFLICT (coupon_code) DO NOTHING`,
      [o.title, o.titleBn, o.description, o.couponCode, o.discountPercent, o.maxDiscount, addDays(today, o.validDays)],
    );
  }
  await tx.query('INSERT INTO company (id, name, phone, email) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO NOTHING', [
    data.companyRow.name,
    data.companyRow.phone,
    data.companyRow.email,
  ]);
}
