/** Trip search and trip details with the seat map. */
import type { FastifyInstance } from 'fastify'
import { bookedUnpaidCount } from '../bookings/bookings.ts'
import { dateSeatLimit } from '../bookings/date-cap.ts'
import { AppError, type Deps } from '../core.ts'
import { handle } from '../http/handle.ts'
import { assertCities, assertStation } from '../trips/lookups.ts'
import { memoized } from '../lib/memo.ts'
import { isRushDate } from '../queue/rush-dates.ts'
import { holdersOf } from '../trips/seat-locks.ts'
import { dhakaDate } from '../lib/time.ts'
import { assertOnSale, assertRoute, findTrip, onSaleAt, searchTrips, seatStates, toTripDetails, tripStatusNow } from '../trips/trips.ts'

/** Seconds a shared cache (CDN, proxy) may answer a rush date's trip search from its copy. */
const RUSH_SEARCH_SHARED_CACHE_S = 5

/** Registers the trip routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  // Popular searches are answered from memory for a moment (config.searchCacheMs):
  // seat counts in results may lag by that long; the seat map is always fresh.
  // Concurrent identical searches share one query.
  const cacheMs = () => deps.config.searchCacheMs ?? 0
  const cachedSearch = memoized(
    async (q: { originCode: string; destinationCode: string; tripDate: string; now: Date }) => {
      await assertCities(deps.db, [q.originCode, q.destinationCode])
      const [rows, rush] = await Promise.all([searchTrips(deps.db, q.originCode, q.destinationCode, q.tripDate, q.now), isRushDate(deps.db, q)])
      return { rows, rush }
    },
    { ttlMs: cacheMs, max: 1000, key: (q) => `${q.originCode}|${q.destinationCode}|${q.tripDate}` },
  )

  handle(app, deps, 'tripSearch', async ({ body, reply }) => {
    const now = deps.now()
    if (body.originCode === body.destinationCode) {
      throw new AppError('VALIDATION_FAILED', { fields: [{ path: 'destinationCode', message: 'Origin and destination must differ' }] })
    }
    if (body.tripDate < dhakaDate(now)) throw new AppError('TRIP_IS_NOT_AVAILABLE')
    const { rows, rush } = await cachedSearch({ ...body, now })
    // a rush date's crowd asks the same few questions: a CDN or proxy may answer them for a few seconds (the queue guards the seats)
    if (rush) reply.header('cache-control', `public, max-age=0, s-maxage=${RUSH_SEARCH_SHARED_CACHE_S}`)
    return onSaleAt(rows, now)
  })

  // Trip rows (times, route, fares, layout) change only with the timetable: the seat
  // map reads them from memory for as long as searches are cached; seats, and whether the
  // trip is still on sale (the operator may cancel it: npm run trip), are always fresh.
  const cachedTrip = memoized((id: number) => findTrip(deps.db, id), { ttlMs: cacheMs, max: 5000 })

  handle(app, deps, 'tripDetails', async (call) => {
    const { body } = call
    const now = deps.now()
    const trip = await cachedTrip(body.tripId)
    if (!trip) throw new AppError('TRIP_NOT_FOUND')
    assertRoute(trip, body.originCode, body.destinationCode)
    assertOnSale(trip, now)
    await assertStation(deps.db, body.originBusStationId, trip.origin_code)
    await assertStation(deps.db, body.destinationBusStationId, trip.destination_code)
    const [states, booked, status, dateCap] = await Promise.all([
      seatStates(deps.db, trip, now),
      bookedUnpaidCount(deps.db, trip.id, call.auth?.passengerId ?? null, now),
      tripStatusNow(deps.db, trip.id),
      dateSeatLimit(deps.db, deps.config.seatsPerPassengerPerDate, call.auth?.passengerId ?? null, trip.trip_date, now),
    ])
    // the row in memory may predate the operator closing the trip: the live seat map's reload comes at once
    if (status !== trip.status) assertOnSale({ ...trip, status: status ?? 'OMITTED' }, now)
    return toTripDetails(trip, states, holdersOf(call), booked, now, dateCap)
  })
}
