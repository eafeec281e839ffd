/**
 * Trip search: the search data of docs/spec.md section 3 (tripDate, originCode,
 * destinationCode), the trip list, and the results' filters and sort.
 * The search lives in the URL; `searchQuery` / `applySearchQuery` convert.
 */
import { batch, computed, signal } from '@preact/signals-react'
import type { CoachType, TripSummary } from '../../contract/schemas.ts'
import { isCalendarDate } from '../../contract/values.ts'
import { requestError } from '../api/api-error.ts'
import { call } from '../api/index.ts'
import { now } from '../lib/clock.ts'
import { addDays, dhakaFields, todayInDhaka } from '../lib/dates.ts'
import { validateOriginDestination, type MessageId } from '../lib/validation.ts'
import { ui } from '../app-models.ts'
import { messageForError } from '../models/ui.ts'

/** Today's date in Asia/Dhaka, yyyy-LL-dd. */
const today = (): string => todayInDhaka(now())

export type SortKey = 'departure' | 'fare'
export type SearchStatus = 'idle' | 'loading' | 'done' | 'empty' | 'error'

/** A time-period filter as minutes after midnight in Dhaka, inclusive. */
export interface PeriodRange {
  from: number
  to: number
}

// ---------- state ----------

const originCodeState = signal('')
const destinationCodeState = signal('')
const tripDateState = signal(today())
const tripsState = signal<TripSummary[]>([])
const statusState = signal<SearchStatus>('idle')
/** The search the trip list answers (the form may have changed since). */
const searchedState = signal<{ originCode: string; destinationCode: string; tripDate: string } | null>(null)
/** Time-period value (`hh:mmAM-hh:mmPM`); '' is All. */
const timePeriodState = signal('')
/** Coach type filter; '' is every type. */
const coachTypeState = signal<CoachType | ''>('')
const sortState = signal<SortKey>('departure')
const submittedState = signal(false)
/** A round trip's part of the search (docs/architecture.md, Round trips): the return date, and on the way back the outbound booking. */
const roundTripState = signal<{ return?: string; outbound?: string }>({})

export const originCode = computed(() => originCodeState.value)
export const destinationCode = computed(() => destinationCodeState.value)
/** Journey date, yyyy-LL-dd in Asia/Dhaka (start of today by default). */
export const tripDate = computed(() => tripDateState.value)
export const trips = computed(() => tripsState.value)
export const status = computed(() => statusState.value)
export const searched = computed(() => searchedState.value)
export const timePeriod = computed(() => timePeriodState.value)
export const coachType = computed(() => coachTypeState.value)
export const sort = computed(() => sortState.value)
export const roundTrip = computed(() => roundTripState.value)

// ---------- computed ----------

/** The earliest date a search may ask for (today in Dhaka). */
export const minDate = computed(() => {
  // read the date so the minimum is re-evaluated when the form changes (midnight rollover)
  void tripDateState.value
  return today()
})

/** Field errors of the form (message ids); shown after a submit attempt or when both cities are the same. */
export const formErrors = computed(() => {
  const e: { originCode?: MessageId; destinationCode?: MessageId; tripDate?: MessageId } = {}
  const same = validateOriginDestination(originCodeState.value, destinationCodeState.value)
  if (same) e.destinationCode = same
  if (submittedState.value) {
    if (!originCodeState.value) e.originCode = 'searchForm.fromRequired'
    if (!destinationCodeState.value) e.destinationCode ??= 'searchForm.toRequired'
    if (!isIsoDate(tripDateState.value)) e.tripDate = 'searchForm.dateRequired'
    else if (tripDateState.value < today()) e.tripDate = 'searchForm.dateInPast'
  }
  return e
})

export const canSearch = computed(
  () =>
    !!originCodeState.value &&
    !!destinationCodeState.value &&
    originCodeState.value !== destinationCodeState.value &&
    isIsoDate(tripDateState.value) &&
    tripDateState.value >= today(),
)

/** Coach types present in the trip list, in catalogue order. */
export const coachTypesInResults = computed(() => {
  const seen = new Set(tripsState.value.map((t) => t.coachType))
  return (['AC_BUSINESS', 'AC_STANDARD', 'NON_AC', 'SLEEPER'] as const).filter((c) => seen.has(c))
})

/** The trips after the time-period and coach-type filters, in the chosen order. */
export const visibleTrips = computed(() => {
  const range = parsePeriod(timePeriodState.value)
  const type = coachTypeState.value
  const list = tripsState.value.filter((t) => {
    if (type && t.coachType !== type) return false
    if (range) {
      const f = dhakaFields(t.departureTime)
      const m = f.hour * 60 + f.minute
      if (m < range.from || m > range.to) return false
    }
    return true
  })
  const byDeparture = (a: TripSummary, b: TripSummary) => Date.parse(a.departureTime) - Date.parse(b.departureTime)
  return list.sort(sortState.value === 'fare' ? (a, b) => a.fareFrom - b.fareFrom || byDeparture(a, b) : byDeparture)
})

// ---------- actions ----------

/** Sets the origin city code. */
export function setOrigin(code: string): void {
  originCodeState.value = code
}

/** Sets the destination city code. */
export function setDestination(code: string): void {
  destinationCodeState.value = code
}

/** Sets the journey date (yyyy-LL-dd). */
export function setTripDate(date: string): void {
  tripDateState.value = date
}

/** Sets the optional return date (yyyy-LL-dd; '' for a single journey). */
export function setReturnDate(date: string): void {
  roundTripState.value = isIsoDate(date) ? { return: date } : {}
}

/** Swaps origin and destination. */
export function swapCities(): void {
  batch(() => {
    const o = originCodeState.value
    originCodeState.value = destinationCodeState.value
    destinationCodeState.value = o
  })
}

/** Sets the time-period filter ('' or the All value clears it). */
export function setTimePeriod(value: string): void {
  timePeriodState.value = value
}

/** Sets the coach-type filter ('' for every type). */
export function setCoachType(value: CoachType | ''): void {
  coachTypeState.value = value
}

/** Sets the sort order. */
export function setSort(value: SortKey): void {
  sortState.value = value
}

/** Marks the form as submitted so required-field errors show; returns whether it may be searched. */
export function submitForm(): boolean {
  submittedState.value = true
  return canSearch.value
}

/** The URL query of the current form and filters: `from=DHK&to=CTG&date=2026-11-22[&period=…&coach=…&sort=fare]`. */
export function searchQuery(opts: { filters?: boolean } = {}): string {
  const q = new URLSearchParams({ from: originCodeState.value, to: destinationCodeState.value, date: tripDateState.value })
  if (opts.filters) {
    if (timePeriodState.value) q.set('period', timePeriodState.value)
    if (coachTypeState.value) q.set('coach', coachTypeState.value)
    if (sortState.value !== 'departure') q.set('sort', sortState.value)
  }
  for (const [k, v] of Object.entries(roundTripState.value)) q.set(k, v)
  return q.toString()
}

/** Fills the form and filters from a URL query (shared link, back, reload). Unknown values are ignored. */
export function applySearchQuery(query: string | URLSearchParams): void {
  const q = typeof query === 'string' ? new URLSearchParams(query) : query
  const code = (v: string | null) => (v && /^[A-Z]{3}$/.test(v) ? v : '')
  batch(() => {
    originCodeState.value = code(q.get('from'))
    destinationCodeState.value = code(q.get('to'))
    const d = q.get('date')
    tripDateState.value = d && isIsoDate(d) ? d : today()
    timePeriodState.value = parsePeriod(q.get('period') ?? '') ? q.get('period')! : ''
    const c = q.get('coach')
    coachTypeState.value = c === 'AC_BUSINESS' || c === 'AC_STANDARD' || c === 'NON_AC' || c === 'SLEEPER' ? c : ''
    sortState.value = q.get('sort') === 'fare' ? 'fare' : 'departure'
    const r = q.get('return') ?? ''
    const o = q.get('outbound') ?? ''
    roundTripState.value = { ...(isIsoDate(r) ? { return: r } : {}), ...(/^\d{1,9}$/.test(o) ? { outbound: o } : {}) }
  })
}

/** Moves the journey date by `days` (previous or next day), never before today. Returns whether it moved. */
export function shiftDay(days: number): boolean {
  const next = addDays(tripDateState.value, days)
  if (next < today()) return false
  tripDateState.value = next
  return true
}

let searchSeq = 0

/**
 * POST /reservation/tripSearch with the form's values. An empty list or a
 * failure shows the error toast with the server's reason; the form keeps its values.
 */
export function searchTrips(): Promise<SearchStatus> {
  const body = { originCode: originCodeState.value, destinationCode: destinationCodeState.value, tripDate: tripDateState.value }
  if (!canSearch.value) return Promise.resolve(statusState.value)
  // the same search already under way (started at app load for a shared link): join it
  const key = JSON.stringify(body)
  if (inflight?.key === key) return inflight.promise
  // the results page opening on a shared link takes over the answer of the search started at load
  const takeOver = linkSearch === key
  linkSearch = null
  if (takeOver && (statusState.value === 'done' || statusState.value === 'empty')) return Promise.resolve(statusState.value)
  const promise = runSearch(body)
  inflight = { key, promise }
  void promise.finally(() => {
    if (inflight?.promise === promise) inflight = null
  })
  return promise
}

let inflight: { key: string; promise: Promise<SearchStatus> } | null = null
let linkSearch: string | null = null

/**
 * A shared or reloaded results link: starts its trip search at app load, while the
 * results page's code is still loading; that page's first search takes it over.
 */
export function searchFromLink(query: string): void {
  applySearchQuery(query)
  if (!canSearch.value) return
  void searchTrips()
  linkSearch = inflight?.key ?? null
}

async function runSearch(body: { originCode: string; destinationCode: string; tripDate: string }): Promise<SearchStatus> {
  const seq = ++searchSeq
  batch(() => {
    statusState.value = 'loading'
    searchedState.value = body
  })
  try {
    const list = await call('tripSearch', { body })
    // a newer search has started: its answer wins
    if (seq !== searchSeq) return statusState.value
    batch(() => {
      tripsState.value = list
      statusState.value = list.length ? 'done' : 'empty'
    })
    if (!list.length) ui.toastError({ id: 'error.TRIP_IS_NOT_AVAILABLE' })
  } catch (err) {
    if (seq !== searchSeq) return statusState.value
    batch(() => {
      tripsState.value = []
      statusState.value = requestError(err).code === 'TRIP_IS_NOT_AVAILABLE' ? 'empty' : 'error'
    })
    ui.toastError(messageForError(err))
  }
  return statusState.value
}

// ---------- helpers ----------

// The contract's rule, so a date the form takes is one the server takes.
const isIsoDate = isCalendarDate

/** Parses a time-period value such as `04:00AM-11:59AM` into minutes; null for '' or unreadable values. */
export function parsePeriod(value: string): PeriodRange | null {
  const m = /^(\d{1,2}):(\d{2})\s*([AP]M)\s*-\s*(\d{1,2}):(\d{2})\s*([AP]M)$/i.exec(value.trim())
  if (!m) return null
  const mins = (h: string, mm: string, ap: string) => ((Number(h) % 12) + (ap.toUpperCase() === 'PM' ? 12 : 0)) * 60 + Number(mm)
  return { from: mins(m[1]!, m[2]!, m[3]!), to: mins(m[4]!, m[5]!, m[6]!) }
}
