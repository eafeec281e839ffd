/** Lookup endpoints of SPEC section 7 (origin / destination cities, time periods, announcements, offers). */
import type { Announcement, City, Offer, TimePeriod } from '../../contract/schemas.ts'
import { call } from './client.ts'

/** GET /originCities */
export const getOriginCities = (): Promise<City[]> => call('originCities')
/** GET /destinationCities */
export const getDestinationCities = (): Promise<City[]> => call('destinationCities')
/** GET /timePeriods */
export const getTimePeriods = (): Promise<TimePeriod[]> => call('timePeriods')
/** GET /announcements */
export const getAnnouncements = (): Promise<Announcement[]> => call('announcements')
/** GET /offers */
export const getOffers = (): Promise<Offer[]> => call('offers')
