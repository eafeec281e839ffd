/** Trip search and trip details with the seat map. */
import type { FastifyInstance } from 'fastify'
import { bookedUnpaidCount } from '../bookings/bookings.ts'
import { dateSeatLimit } from '../bookings/date-cap.ts'
import { AppError, type Deps } from '../core.ts'
import { handle } from '../http/handle.ts'
import { assertCities, assertStation } from '../trips/lookups.ts'
import { memoized } from '../trips/memo.ts'
import { holdersOf } from '../trips/seat-locks.ts'
import { dhakaDate } from '../lib/time.ts'
import { assertOnSale, assertRoute, findTrip, onSaleAt, searchTrips, seatStates, toTripDetails, tripStatusNow } from '../trips/trips.ts'

/** Registers the trip routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  // Popular searches are answered from memory for a moment (config.searchCacheMs):
  // seat counts in results may lag by that long; the seat map is always fresh.
  // Concurrent identical searches share one query.
  const cacheMs = () => deps.config.searchCacheMs ?? 0
  const cachedSearch = memoized(
    async (q: { originCode: string; destinationCode: string; tripDate: string; now: Date }) => {
      await assertCities(deps.db, [q.originCode, q.destinationCode])
      return searchTrips(deps.db, q.originCode, q.destinationCode, q.tripDate, q.now)
    },
    { ttlMs: cacheMs, max: 1000, key: (q) => `${q.originCode}|${q.destinationCode}|${q.tripDate}` },
  )

  handle(app, deps, 'tripSearch', async ({ body }) => {
    const now = deps.now()
    if (body.originCode === body.destinationCode) {
      throw new AppError('VALIDATION_FAILED', { fields: [{ path: 'destinationCode', message: 'Origin and destination must differ' }] })
    }
    if (body.tripDate < dhakaDate(now)) throw new AppError('TRIP_IS_NOT_AVAILABLE')
    return onSaleAt(await cachedSearch({ ...body, now }), now)
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
