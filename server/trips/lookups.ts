/**
 * The operator's reference data: cities, bus stations (counters) with their reporting
 * times, routes, time periods, announcements and current offers, and the checks the
 * trip and booking routes make on cities and stations.
 */
import type { BusStation, City, Offer, TimePeriod } from '../../contract/schemas.ts'
import type { Queryable } from '../db/db.ts'
import { AppError } from '../core.ts'
import { addTime, dhakaDate, toDhakaIso } from '../lib/time.ts'

interface CityRow {
  code: string
  name: string
  name_bn: string
}

/** Active cities that have an active route starting (`origin`) or ending (`destination`) there. */
export async function citiesWithRoutes(q: Queryable, side: 'origin' | 'destination'): Promise<City[]> {
  const column = side === 'origin' ? 'origin_code' : 'destination_code'
  const rows = await q.query<CityRow>(
    `SELECT c.code, c.name, c.name_bn FROM cities c
      WHERE c.active AND EXISTS (SELECT 1 FROM routes r WHERE r.${column} = c.code AND r.active)
      ORDER BY c.sort, c.name`,
  )
  return rows.map((r) => ({ code: r.code, name: r.name, nameBn: r.name_bn }))
}

/** The time periods of the search form. */
export async function timePeriods(q: Queryable): Promise<TimePeriod[]> {
  return q.query('SELECT label, label_bn AS "labelBn", value, integer_value AS "integerValue" FROM time_periods ORDER BY sort')
}

/** Active routes. */
export async function activeRoutes(
  q: Queryable,
): Promise<{ id: number; originCode: string; destinationCode: string; distanceKm: number; durationMinutes: number }[]> {
  return q.query(
    `SELECT id, origin_code AS "originCode", destination_code AS "destinationCode",
            distance_km AS "distanceKm", duration_minutes AS "durationMinutes"
       FROM routes WHERE active ORDER BY origin_code, destination_code`,
  )
}

/** Active announcements. */
export async function announcements(q: Queryable): Promise<{ id: number; title: string; titleBn: string }[]> {
  return q.query('SELECT id, title, title_bn AS "titleBn" FROM announcements WHERE active ORDER BY id')
}

/** Offers valid on the Dhaka date of `now`. */
export async function currentOffers(q: Queryable, now: Date): Promise<Offer[]> {
  return q.query<Offer>(
    `SELECT id, title, title_bn AS "titleBn", description, description_bn AS "descriptionBn", coupon_code AS "couponCode",
            discount_percent AS "discountPercent", max_discount AS "maxDiscount", valid_until AS "validUntil"
       FROM offers WHERE valid_until >= $1::date AND (valid_from IS NULL OR valid_from <= $1::date) ORDER BY valid_until, id`,
    [dhakaDate(now)],
  )
}

/** A bus_stations row as the lists read it. */
export interface StationRow {
  id: number
  city_code: string
  name: string
  address: string
  phone: string
  offset_minutes: number
}

/** The active stations of the cities, in reporting order (offset, then id). */
export async function activeStations(q: Queryable, cityCodes: string[]): Promise<StationRow[]> {
  return q.query<StationRow>(
    'SELECT id, city_code, name, address, phone, offset_minutes FROM bus_stations WHERE city_code = ANY($1::text[]) AND active ORDER BY offset_minutes, id',
    [cityCodes],
  )
}

/** A trip's two cities as queries select them (`o.code AS o_code, o.name AS o_name, …` from the route's cities). */
export interface TripCityColumns {
  o_code: string
  o_name: string
  o_name_bn: string
  d_code: string
  d_name: string
  d_name_bn: string
}

/** A station's reporting time: `offsetMinutes` from the trip's departure (boarding) or arrival (dropping). */
export function stationTime(base: Date, offsetMinutes: number): string {
  return toDhakaIso(addTime(base, { minutes: offsetMinutes }))
}

/** Throws CITY_NOT_FOUND unless every code is a city. */
export async function assertCities(q: Queryable, codes: string[]): Promise<void> {
  const rows = await q.query<{ code: string }>('SELECT code FROM cities WHERE code = ANY($1::text[])', [codes])
  if (new Set(rows.map((r) => r.code)).size !== new Set(codes).size) throw new AppError('CITY_NOT_FOUND')
}

/** BUS_STATION_NOT_FOUND unless the station (when given, or when required) is an active one in the city. */
export async function assertStation(q: Queryable, id: number | null | undefined, cityCode: string, required = false): Promise<void> {
  if (id == null) {
    if (required) throw new AppError('BUS_STATION_NOT_FOUND')
    return
  }
  const rows = await q.query('SELECT 1 FROM bus_stations WHERE id = $1 AND city_code = $2 AND active', [id, cityCode])
  if (rows.length === 0) throw new AppError('BUS_STATION_NOT_FOUND')
}

/**
 * The boarding and dropping stations of a route, each with its reporting time when a
 * trip of that route and date is named: CITY_NOT_FOUND, ROUTE_NOT_FOUND, TRIP_NOT_FOUND.
 */
export async function routeStations(
  q: Queryable,
  ask: { originCode: string; destinationCode: string; tripDate: string; tripId?: number | null },
): Promise<{ boarding: BusStation[]; dropping: BusStation[] }> {
  await assertCities(q, [ask.originCode, ask.destinationCode])
  const [route] = await q.query<{ id: number }>('SELECT id FROM routes WHERE origin_code = $1 AND destination_code = $2', [
    ask.originCode,
    ask.destinationCode,
  ])
  if (!route) throw new AppError('ROUTE_NOT_FOUND')
  let trip: { departure_at: Date; arrival_at: Date } | undefined
  if (ask.tripId != null) {
    ;[trip] = await q.query<{ departure_at: Date; arrival_at: Date }>(
      'SELECT departure_at, arrival_at FROM trips WHERE id = $1 AND route_id = $2 AND trip_date = $3::date',
      [ask.tripId, route.id, ask.tripDate],
    )
    if (!trip) throw new AppError('TRIP_NOT_FOUND')
  }
  const stations = await activeStations(q, [ask.originCode, ask.destinationCode])
  const toStation = (s: StationRow, base: Date | undefined): BusStation => ({
    id: s.id,
    name: s.name,
    cityCode: s.city_code,
    address: s.address,
    phone: s.phone,
    time: base ? stationTime(base, s.offset_minutes) : null,
  })
  return {
    boarding: stations.filter((s) => s.city_code === ask.originCode).map((s) => toStation(s, trip?.departure_at)),
    dropping: stations.filter((s) => s.city_code === ask.destinationCode).map((s) => toStation(s, trip?.arrival_at)),
  }
}
