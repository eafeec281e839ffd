/** Lookup lists the app loads on start: cities, time periods, counters, routes, announcements, offers, company. */
import type { FastifyInstance } from 'fastify';
import type { BusStation, City, Offer } from '../../contract/schemas.ts';
import { getCompany } from '../company.ts';
import { AppError, handle, type Deps } from '../http.ts';
import { dhakaDate, toDhakaIso } from '../time.ts';

interface CityRow {
  code: string;
  name: string;
  name_bn: string;
}
const toCity = (r: CityRow): City => ({ code: r.code, name: r.name, nameBn: r.name_bn });

interface StationRow {
  id: number;
  city_code: string;
  name: string;
  address: string;
  phone: string;
  offset_minutes: number;
}

function citiesWithRoutes(side: 'origin_code' | 'destination_code') {
  return `SELECT c.code, c.name, c.name_bn FROM cities c
           WHERE c.active AND EXISTS (SELECT 1 FROM routes r WHERE r.${side} = c.code AND r.active)
           ORDER BY c.sort, c.name`;
}

/** Registers the lookup routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  const db = deps.db;

  handle(app, deps, 'originCities', async () => (await db.query<CityRow>(citiesWithRoutes('origin_code'))).map(toCity));
  handle(app, deps, 'destinationCities', async () => (await db.query<CityRow>(citiesWithRoutes('destination_code'))).map(toCity));

  handle(app, deps, 'timePeriods', async () =>
    db.query<{ label: string; value: string; integerValue: number }>(
      'SELECT label, value, integer_value AS "integerValue" FROM time_periods ORDER BY sort',
    ),
  );

  handle(app, deps, 'routes', async () =>
    db.query<{ id: number; originCode: string; destinationCode: string; distanceKm: number; durationMinutes: number }>(
      `SELECT id, origin_code AS "originCode", destination_code AS "destinationCode",
              distance_km AS "distanceKm", duration_minutes AS "durationMinutes"
         FROM routes WHERE active ORDER BY origin_code, destination_code`,
    ),
  );

  handle(app, deps, 'announcements', async () =>
    db.query<{ id: number; title: string; titleBn: string }>('SELECT id, title, title_bn AS "titleBn" FROM announcements WHERE active ORDER BY id'),
  );

  handle(app, deps, 'offers', async () =>
    db.query<Offer>(
      `SELECT id, title, title_bn AS "titleBn", description, coupon_code AS "couponCode",
              discount_percent AS "discountPercent", max_discount AS "maxDiscount", valid_until AS "validUntil"
         FROM offers WHERE valid_until >= $1::date AND (valid_from IS NULL OR valid_from <= $1::date) ORDER BY valid_until, id`,
      [dhakaDate(deps.now())],
    ),
  );

  handle(app, deps, 'company', async () => getCompany(db));

  handle(app, deps, 'busStations', async ({ body }) => {
    if (body.originCode === body.destinationCode) {
      throw new AppError('VALIDATION_FAILED', { fields: [{ path: 'destinationCode', message: 'Origin and destination must differ' }] });
    }
    const cities = await db.query<{ code: string }>('SELECT code FROM cities WHERE code = ANY($1::text[])', [[body.originCode, body.destinationCode]]);
    if (cities.length < 2) throw new AppError('CITY_NOT_FOUND');
    const [route] = await db.query<{ id: number }>('SELECT id FROM routes WHERE origin_code = $1 AND destination_code = $2', [
      body.originCode,
      body.destinationCode,
    ]);
    if (!route) throw new AppError('ROUTE_NOT_FOUND');

    let trip: { departure_at: Date; arrival_at: Date } | undefined;
    if (body.tripId != null) {
      [trip] = await db.query<{ departure_at: Date; arrival_at: Date }>(
        'SELECT departure_at, arrival_at FROM trips WHERE id = $1 AND route_id = $2 AND trip_date = $3::date',
        [body.tripId, route.id, body.tripDate],
      );
      if (!trip) throw new AppError('TRIP_NOT_FOUND');
    }
    const stations = await db.query<StationRow>(
      'SELECT id, city_code, name, address, phone, offset_minutes FROM bus_stations WHERE city_code = ANY($1::text[]) AND active ORDER BY offset_minutes, id',
      [[body.originCode, body.destinationCode]],
    );
    const at = (base: Date | undefined, offset: number) => (base ? toDhakaIso(base.getTime() + offset * 60_000) : null);
    const toStation = (s: StationRow, base: Date | undefined): BusStation => ({
      id: s.id,
      name: s.name,
      cityCode: s.city_code,
      address: s.address,
      phone: s.phone,
      time: at(base, s.offset_minutes),
    });
    return {
      boarding: stations.filter((s) => s.city_code === body.originCode).map((s) => toStation(s, trip?.departure_at)),
      dropping: stations.filter((s) => s.city_code === body.destinationCode).map((s) => toStation(s, trip?.arrival_at)),
    };
  });
}
