/** Lookup lists the app loads on start: cities, time periods, counters, routes, announcements, offers, company. */
import type { FastifyInstance } from 'fastify'
import { getCompany } from '../company/company.ts'
import { AppError, type Deps } from '../core.ts'
import { handle } from '../http/handle.ts'
import { activeRoutes, announcements, citiesWithRoutes, currentOffers, routeStations, timePeriods } from '../trips/lookups.ts'

/** Registers the lookup routes. */
export function register(app: FastifyInstance, deps: Deps): void {
  const db = deps.db

  handle(app, deps, 'originCities', async () => citiesWithRoutes(db, 'origin'))
  handle(app, deps, 'destinationCities', async () => citiesWithRoutes(db, 'destination'))
  handle(app, deps, 'timePeriods', async () => timePeriods(db))
  handle(app, deps, 'routes', async () => activeRoutes(db))
  handle(app, deps, 'announcements', async () => announcements(db))
  handle(app, deps, 'offers', async () => currentOffers(db, deps.now()))
  handle(app, deps, 'company', async () => getCompany(db))

  handle(app, deps, 'busStations', async ({ body }) => {
    if (body.originCode === body.destinationCode) {
      throw new AppError('VALIDATION_FAILED', { fields: [{ path: 'destinationCode', message: 'Origin and destination must differ' }] })
    }
    return routeStations(db, body)
  })
}
