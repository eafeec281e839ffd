/**
 * Trip search: the search data of docs/spec.md section 3 (tripDate, originCode,
 * destinationCode), the trip list, and the results' filters and sort.
 * The search lives in the URL; `searchQuery` / `applySearchQuery` convert.
 * Actions are the only writers; uvu makes a fresh instance in Node against `fakeApi` and `fakeClock`.
 */
import { batch, computed, createModel, type ModelConstructor, type ReadonlySignal, signal } from '@preact/signals-core'
import type { CoachType, TripSummary } from '../../contract/schemas.ts'
import { isCalendarDate } from '../../contract/values.ts'
import { requestError } from '../api/api-error.ts'
import { call } from '../api/index.ts'
import { now } from '../lib/clock.ts'
import { addDays, dhakaFields, todayInDhaka } from '../lib/dates.ts'
import { validateOriginDestination, type MessageId } from '../lib/validation.ts'
import { messageForError, type Notices } from './ui.ts'

/** Today's date in Asia/Dhaka, yyyy-LL-dd. */
const today = (): string => todayInDhaka(now())

// The contract's rule, so a date the form takes is one the server takes.
const isIsoDate = isCalendarDate

export type SortKey = 'departure' | 'fare'
export type SearchStatus = 'idle' | 'loading' | 'done' | 'empty' | 'error'

/** A time-period filter as minutes after midnight in Dhaka, inclusive. */
export interface PeriodRange {
  from: number
  to: number
}

/** The search data the server is asked. */
export interface SearchData {
  originCode: string
  destinationCode: string
  tripDate: string
}

/** The search form, its results and filters (read-only), and the actions that change them. */
export interface Search {
  originCode: ReadonlySignal<string>
  destinationCode: ReadonlySignal<string>
  /** Journey date, yyyy-LL-dd in Asia/Dhaka (start of today by default). */
  tripDate: ReadonlySignal<string>
  trips: ReadonlySignal<TripSummary[]>
  status: ReadonlySignal<SearchStatus>
  /** The search the trip list answers (the form may have changed since). */
  searched: ReadonlySignal<SearchData | null>
  /** Time-period value (`hh:mmAM-hh:mmPM`); '' is All. */
  timePeriod: ReadonlySignal<string>
  /** Coach type filter; '' is every type. */
  coachType: ReadonlySignal<CoachType | ''>
  sort: ReadonlySignal<SortKey>
  /** A round trip's part of the search (docs/architecture.md, Round trips): the return date, and on the way back the outbound booking. */
  roundTrip: ReadonlySignal<{ return?: string; outbound?: string }>
  /** The earliest date a search may ask for (today in Dhaka). */
  minDate: ReadonlySignal<string>
  /** Field errors of the form (message ids); shown after a submit attempt or when both cities are the same. */
  formErrors: ReadonlySignal<{ originCode?: MessageId; destinationCode?: MessageId; tripDate?: MessageId }>
  canSearch: ReadonlySignal<boolean>
  /** Coach types present in the trip list, in catalogue order. */
  coachTypesInResults: ReadonlySignal<CoachType[]>
  /** The trips after the time-period and coach-type filters, in the chosen order. */
  visibleTrips: ReadonlySignal<TripSummary[]>
  /** Sets the origin city code. */
  setOrigin(code: string): void
  /** Sets the destination city code. */
  setDestination(code: string): void
  /** Sets the journey date (yyyy-LL-dd). */
  setTripDate(date: string): void
  /** Sets the optional return date (yyyy-LL-dd; '' for a single journey). */
  setReturnDate(date: string): void
  /** Swaps origin and destination. */
  swapCities(): void
  /** Sets the time-period filter ('' or the All value clears it). */
  setTimePeriod(value: string): void
  /** Sets the coach-type filter ('' for every type). */
  setCoachType(value: CoachType | ''): void
  /** Sets the sort order. */
  setSort(value: SortKey): void
  /** Marks the form as submitted so required-field errors show; returns whether it may be searched. */
  submitForm(): boolean
  /** The URL query of the current form and filters: `from=DHK&to=CTG&date=2026-11-22[&period=…&coach=…&sort=fare]`. */
  searchQuery(opts?: { filters?: boolean }): string
  /** Fills the form and filters from a URL query (shared link, back, reload). Unknown values are ignored. */
  applySearchQuery(query: string | URLSearchParams): void
  /** Moves the journey date by `days` (previous or next day), never before today. Returns whether it moved. */
  shiftDay(days: number): boolean
  /**
   * POST /reservation/tripSearch with the form's values. An empty list or a
   * failure shows the error toast with the server's reason; the form keeps its values.
   */
  searchTrips(): Promise<SearchStatus>
  /**
   * A shared or reloaded results link: starts its trip search at app load, while the
   * results page's code is still loading; that page's first search takes it over.
   */
  searchFromLink(query: string): void
}

/**
 * Creates a trip search, its toasts given through `ui`: the app makes one, kept while it runs (src/app/app-search.ts),
 * so the form keeps its values between pages.
 */
export const SearchModel: ModelConstructor<Search, [Notices]> = createModel((ui: Notices): Search => {
  const originCode = signal('')
  const destinationCode = signal('')
  const tripDate = signal(today())
  const trips = signal<TripSummary[]>([])
  const status = signal<SearchStatus>('idle')
  const searched = signal<SearchData | null>(null)
  const timePeriod = signal('')
  const coachType = signal<CoachType | ''>('')
  const sort = signal<SortKey>('departure')
  const submitted = signal(false)
  const roundTrip = signal<{ return?: string; outbound?: string }>({})
  // the latest search started (its answer wins), the one under way (joined), and a results link's (taken over by the page)
  let seq = 0
  let inflight: { key: string; promise: Promise<SearchStatus> } | null = null
  let linkSearch: string | null = null

  const minDate = computed(() => {
    // read the date so the minimum is re-evaluated when the form changes (midnight rollover)
    void tripDate.value
    return today()
  })

  const formErrors = computed(() => {
    const e: { originCode?: MessageId; destinationCode?: MessageId; tripDate?: MessageId } = {}
    const same = validateOriginDestination(originCode.value, destinationCode.value)
    if (same) e.destinationCode = same
    if (submitted.value) {
      if (!originCode.value) e.originCode = 'searchForm.fromRequired'
      if (!destinationCode.value) e.destinationCode ??= 'searchForm.toRequired'
      if (!isIsoDate(tripDate.value)) e.tripDate = 'searchForm.dateRequired'
      else if (tripDate.value < today()) e.tripDate = 'searchForm.dateInPast'
    }
    return e
  })

  const canSearch = computed(
    () =>
      !!originCode.value &&
      !!destinationCode.value &&
      originCode.value !== destinationCode.value &&
      isIsoDate(tripDate.value) &&
      tripDate.value >= today(),
  )

  const coachTypesInResults = computed(() => {
    const seen = new Set(trips.value.map((t) => t.coachType))
    return (['AC_BUSINESS', 'AC_STANDARD', 'NON_AC', 'SLEEPER'] as const).filter((c) => seen.has(c))
  })

  const visibleTrips = computed(() => {
    const range = parsePeriod(timePeriod.value)
    const type = coachType.value
    const list = trips.value.filter((t) => {
      if (type && t.coachType !== type) return false
      if (range) {
        const f = dhakaFields(t.departureTime)
        const m = f.hour * 60 + f.minute
        if (m < range.from || m > range.to) return false
      }
      return true
    })
    const byDeparture = (a: TripSummary, b: TripSummary) => Date.parse(a.departureTime) - Date.parse(b.departureTime)
    return list.sort(sort.value === 'fare' ? (a, b) => a.fareFrom - b.fareFrom || byDeparture(a, b) : byDeparture)
  })

  const applySearchQuery = (query: string | URLSearchParams) => {
    const q = typeof query === 'string' ? new URLSearchParams(query) : query
    const code = (v: string | null) => (v && /^[A-Z]{3}$/.test(v) ? v : '')
    batch(() => {
      originCode.value = code(q.get('from'))
      destinationCode.value = code(q.get('to'))
      const d = q.get('date')
      tripDate.value = d && isIsoDate(d) ? d : today()
      timePeriod.value = parsePeriod(q.get('period') ?? '') ? q.get('period')! : ''
      const c = q.get('coach')
      coachType.value = c === 'AC_BUSINESS' || c === 'AC_STANDARD' || c === 'NON_AC' || c === 'SLEEPER' ? c : ''
      sort.value = q.get('sort') === 'fare' ? 'fare' : 'departure'
      const r = q.get('return') ?? ''
      const o = q.get('outbound') ?? ''
      roundTrip.value = { ...(isIsoDate(r) ? { return: r } : {}), ...(/^\d{1,9}$/.test(o) ? { outbound: o } : {}) }
    })
  }

  const runSearch = async (body: SearchData): Promise<SearchStatus> => {
    const mine = ++seq
    batch(() => {
      status.value = 'loading'
      searched.value = body
    })
    try {
      const list = await call('tripSearch', { body })
      // a newer search has started: its answer wins
      if (mine !== seq) return status.value
      batch(() => {
        trips.value = list
        status.value = list.length ? 'done' : 'empty'
      })
      if (!list.length) ui.toastError({ id: 'error.TRIP_IS_NOT_AVAILABLE' })
    } catch (err) {
      if (mine !== seq) return status.value
      batch(() => {
        trips.value = []
        status.value = requestError(err).code === 'TRIP_IS_NOT_AVAILABLE' ? 'empty' : 'error'
      })
      ui.toastError(messageForError(err))
    }
    return status.value
  }

  const searchTrips = (): Promise<SearchStatus> => {
    const body = { originCode: originCode.value, destinationCode: destinationCode.value, tripDate: tripDate.value }
    if (!canSearch.value) return Promise.resolve(status.value)
    // the same search already under way (started at app load for a shared link): join it
    const key = JSON.stringify(body)
    if (inflight?.key === key) return inflight.promise
    // the results page opening on a shared link takes over the answer of the search started at load
    const takeOver = linkSearch === key
    linkSearch = null
    if (takeOver && (status.value === 'done' || status.value === 'empty')) return Promise.resolve(status.value)
    const promise = runSearch(body)
    inflight = { key, promise }
    void promise.finally(() => {
      if (inflight?.promise === promise) inflight = null
    })
    return promise
  }

  return {
    originCode,
    destinationCode,
    tripDate,
    trips,
    status,
    searched,
    timePeriod,
    coachType,
    sort,
    roundTrip,
    minDate,
    formErrors,
    canSearch,
    coachTypesInResults,
    visibleTrips,
    applySearchQuery,
    searchTrips,

    setOrigin(code) {
      originCode.value = code
    },

    setDestination(code) {
      destinationCode.value = code
    },

    setTripDate(date) {
      tripDate.value = date
    },

    setReturnDate(date) {
      roundTrip.value = isIsoDate(date) ? { return: date } : {}
    },

    swapCities() {
      batch(() => {
        const o = originCode.value
        originCode.value = destinationCode.value
        destinationCode.value = o
      })
    },

    setTimePeriod(value) {
      timePeriod.value = value
    },

    setCoachType(value) {
      coachType.value = value
    },

    setSort(value) {
      sort.value = value
    },

    submitForm() {
      submitted.value = true
      return canSearch.value
    },

    searchQuery(opts = {}) {
      const q = new URLSearchParams({ from: originCode.value, to: destinationCode.value, date: tripDate.value })
      if (opts.filters) {
        if (timePeriod.value) q.set('period', timePeriod.value)
        if (coachType.value) q.set('coach', coachType.value)
        if (sort.value !== 'departure') q.set('sort', sort.value)
      }
      for (const [k, v] of Object.entries(roundTrip.value)) q.set(k, v)
      return q.toString()
    },

    shiftDay(days) {
      const next = addDays(tripDate.value, days)
      if (next < today()) return false
      tripDate.value = next
      return true
    },

    searchFromLink(query) {
      applySearchQuery(query)
      if (!canSearch.value) return
      void searchTrips()
      linkSearch = inflight?.key ?? null
    },
  }
})

/** Parses a time-period value such as `04:00AM-11:59AM` into minutes; null for '' or unreadable values. */
export function parsePeriod(value: string): PeriodRange | null {
  const m = /^(\d{1,2}):(\d{2})\s*([AP]M)\s*-\s*(\d{1,2}):(\d{2})\s*([AP]M)$/i.exec(value.trim())
  if (!m) return null
  const mins = (h: string, mm: string, ap: string) => ((Number(h) % 12) + (ap.toUpperCase() === 'PM' ? 12 : 0)) * 60 + Number(mm)
  return { from: mins(m[1]!, m[2]!, m[3]!), to: mins(m[4]!, m[5]!, m[6]!) }
}
