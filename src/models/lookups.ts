/**
 * Lookup lists fetched on app load (docs/spec.md section 4), one set for the app (src/app-models.ts): origin cities,
 * destination cities, time periods (with "All" first), announcements and offers. Skipped when the URL contains
 * `search` (the search page loads what it needs). Actions are the only writers; uvu makes a fresh instance in Node.
 */
import { batch, createModel, type ModelConstructor, type ReadonlySignal, signal } from '@preact/signals-core'
import type { Announcement, City, Offer, TimePeriod } from '../../contract/schemas.ts'
import { call } from '../api/index.ts'

/** First entry of the time-period list. */
export const ALL_TIME_PERIOD: TimePeriod = { label: 'All', labelBn: null, value: '04:00AM-11:59PM', integerValue: 0 }

/** The lists, read-only, and the load. */
export interface Lookups {
  originCities: ReadonlySignal<City[]>
  destinationCities: ReadonlySignal<City[]>
  /** Time periods, "All" (04:00AM-11:59PM) first. */
  timePeriods: ReadonlySignal<TimePeriod[]>
  announcements: ReadonlySignal<Announcement[]>
  offers: ReadonlySignal<Offer[]>
  /** True once a load has finished (whatever failed). */
  lookupsLoaded: ReadonlySignal<boolean>
  /**
   * Fetches every lookup list in parallel (a load already under way is shared). A failed list keeps what it had
   * (SPEC: failed announcements keep the existing list); the lists are marked loaded whatever failed, so the search
   * form shows even offline. Never rejects.
   */
  loadLookups(): Promise<void>
  /** App start-up: loads the lookups unless `url` contains `search`. */
  startLookups(url: string): Promise<void>
}

/** True when the app-load fetch should run for this URL (SPEC: not when it contains `search`). */
export function shouldLoadLookups(url: string): boolean {
  return !url.includes('search')
}

/** Puts "All" first and drops any other entry with the same value. */
export function withAllPeriod(list: TimePeriod[]): TimePeriod[] {
  return [ALL_TIME_PERIOD, ...list.filter((p) => p.value !== ALL_TIME_PERIOD.value)]
}

/** A city's name by its code in the UI language (the code itself until the lists have loaded). */
export function cityName(lists: Pick<Lookups, 'originCities' | 'destinationCities'>, code: string, bn: boolean): string {
  const c = lists.originCities.value.find((x) => x.code === code) ?? lists.destinationCities.value.find((x) => x.code === code)
  return c ? (bn ? c.nameBn : c.name) : code
}

/** Creates the app's lookup lists (src/app-models.ts), empty until loaded. */
export const LookupsModel: ModelConstructor<Lookups> = createModel((): Lookups => {
  const originCities = signal<City[]>([])
  const destinationCities = signal<City[]>([])
  const timePeriods = signal<TimePeriod[]>([ALL_TIME_PERIOD])
  const announcements = signal<Announcement[]>([])
  const offers = signal<Offer[]>([])
  const lookupsLoaded = signal(false)
  // the load under way: app start-up and the page that needs the lists ask once between them
  const loading = signal<Promise<void> | null>(null)

  const fetchLookups = async () => {
    const [origins, destinations, periods, news, deals] = await Promise.allSettled([
      call('originCities'),
      call('destinationCities'),
      call('timePeriods'),
      call('announcements'),
      call('offers'),
    ])
    batch(() => {
      if (origins.status === 'fulfilled') originCities.value = origins.value
      if (destinations.status === 'fulfilled') destinationCities.value = destinations.value
      if (periods.status === 'fulfilled') timePeriods.value = withAllPeriod(periods.value)
      if (news.status === 'fulfilled') announcements.value = news.value
      if (deals.status === 'fulfilled') offers.value = deals.value
      lookupsLoaded.value = true
    })
  }

  const loadLookups = () =>
    (loading.value ??= fetchLookups().finally(() => {
      loading.value = null
    }))

  return {
    originCities,
    destinationCities,
    timePeriods,
    announcements,
    offers,
    lookupsLoaded,
    loadLookups,
    startLookups: (url) => (shouldLoadLookups(url) ? loadLookups() : Promise.resolve()),
  }
})
