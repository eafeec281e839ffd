/**
 * Lookup lists fetched on app load (docs/spec.md section 4): origin cities, destination
 * cities, time periods (with "All" first), announcements and offers. Skipped
 * when the URL contains `search` (the search page loads what it needs).
 */
import { batch, computed, signal } from '@preact/signals-react'
import type { Announcement, City, Offer, TimePeriod } from '../../contract/schemas.ts'
import { call } from '../api/index.ts'

/** First entry of the time-period list. */
export const ALL_TIME_PERIOD: TimePeriod = { label: 'All', labelBn: null, value: '04:00AM-11:59PM', integerValue: 0 }

// ---------- state ----------

const originCitiesState = signal<City[]>([])
const destinationCitiesState = signal<City[]>([])
const timePeriodsState = signal<TimePeriod[]>([ALL_TIME_PERIOD])
const announcementsState = signal<Announcement[]>([])
const offersState = signal<Offer[]>([])
const loadedState = signal(false)

export const originCities = computed(() => originCitiesState.value)
export const destinationCities = computed(() => destinationCitiesState.value)
/** Time periods, "All" (04:00AM-11:59PM) first. */
export const timePeriods = computed(() => timePeriodsState.value)
export const announcements = computed(() => announcementsState.value)
export const offers = computed(() => offersState.value)
/** True once a load has finished (whatever failed). */
export const lookupsLoaded = computed(() => loadedState.value)

/** A city's name by its code in the UI language (the code itself until the lists have loaded). */
export function cityName(code: string, bn: boolean): string {
  const c = originCitiesState.value.find((x) => x.code === code) ?? destinationCitiesState.value.find((x) => x.code === code)
  return c ? (bn ? c.nameBn : c.name) : code
}

// ---------- actions ----------

/** True when the app-load fetch should run for this URL (SPEC: not when it contains `search`). */
export function shouldLoadLookups(url: string): boolean {
  return !url.includes('search')
}

/** Puts "All" first and drops any other entry with the same value. */
export function withAllPeriod(list: TimePeriod[]): TimePeriod[] {
  return [ALL_TIME_PERIOD, ...list.filter((p) => p.value !== ALL_TIME_PERIOD.value)]
}

// the load under way: app start-up and the page that needs the lists ask once between them
let loading: Promise<void> | null = null

/**
 * Fetches every lookup list in parallel (a load already under way is shared). A
 * failed list keeps what it had (SPEC: failed announcements keep the existing list);
 * the lists are marked loaded whatever failed, so the search form shows even offline. Never rejects.
 */
export function loadLookups(): Promise<void> {
  loading ??= fetchLookups().finally(() => {
    loading = null
  })
  return loading
}

async function fetchLookups(): Promise<void> {
  const [origins, destinations, periods, news, deals] = await Promise.allSettled([
    call('originCities'),
    call('destinationCities'),
    call('timePeriods'),
    call('announcements'),
    call('offers'),
  ])
  batch(() => {
    if (origins.status === 'fulfilled') originCitiesState.value = origins.value
    if (destinations.status === 'fulfilled') destinationCitiesState.value = destinations.value
    if (periods.status === 'fulfilled') timePeriodsState.value = withAllPeriod(periods.value)
    if (news.status === 'fulfilled') announcementsState.value = news.value
    if (deals.status === 'fulfilled') offersState.value = deals.value
    loadedState.value = true
  })
}

/** App start-up: loads the lookups unless `url` contains `search`. */
export function startLookups(url: string): Promise<void> {
  return shouldLoadLookups(url) ? loadLookups() : Promise.resolve()
}

/** Test helper. */
export function resetLookups(): void {
  batch(() => {
    originCitiesState.value = []
    destinationCitiesState.value = []
    timePeriodsState.value = [ALL_TIME_PERIOD]
    announcementsState.value = []
    offersState.value = []
    loadedState.value = false
  })
}
