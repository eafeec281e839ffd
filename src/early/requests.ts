/**
 * Early requests: the reads a page opened from a link needs first (the start-up lookups,
 * the trip search, the trip, the paid booking), sent by a small script inlined in every
 * HTML shell (src/early/start.ts, built by build.mjs) while the app's code is still on its
 * way. The fetch wrapper (src/api/client.ts) takes such an answer instead of asking again
 * only when its own request is the same one (method, URL, every header, body) and is made
 * within EARLY_MAX_AGE_MS; otherwise the early answer is left unused. On a slow phone the
 * page's data then no longer waits for the app's code to arrive and run; with the API on
 * another origin, its connection and CORS preflight are done by then too. The requests are
 * built as the fetch wrapper builds them (src/api/wire.ts, contract/routes.ts), with the
 * bodies the stores send (src/lib/trip-ref.ts).
 */
import type { BodyOf } from '../../contract/api.ts'
import * as routes from '../../contract/routes.ts'
import { type Caller, type WireRequest, wireRequest } from '../api/wire.ts'
import { tripDetailsBody, tripRefFromQuery } from '../lib/trip-ref.ts'

/** An early request on its way (`globalThis.__EARLY_REQUESTS__`). */
export interface EarlyEntry extends WireRequest {
  /** performance.now() when it was sent. */
  at: number
  response: Promise<Response>
}

/** The session-storage keys the shell's script reads (src/lib/storage.ts `storageKeys`; a test checks they agree). */
export const EARLY_KEYS = { token: 'token', language: 'language' } as const

/** How old an early answer may be when the app asks for it (older ones are never used). */
export const EARLY_MAX_AGE_MS = 20_000

/** What the requests depend on, read from the page's address, config.js and storage: the caller (API base, language, device, session) and the page. */
export interface EarlyInput extends Caller {
  pathname: string
  /** The query string, without `?`. */
  search: string
  /** The whole address (lookups are skipped when it contains `search`, as in src/models/lookups.ts). */
  href: string
  /** Today in Asia/Dhaka, YYYY-MM-DD (asked only for a search link: time-zone data is slow to load). */
  today: () => string
}

/** src/models/lookups.ts's start-up reads, in its order. */
const LOOKUPS = [routes.originCities, routes.destinationCities, routes.timePeriods, routes.announcements, routes.offers]

const code = (v: string | null) => (v && /^[A-Z]{3}$/.test(v) ? v : '')

/** The requests the app will make first for `input`, in the order it makes them. */
export function earlyRequests(input: EarlyInput): WireRequest[] {
  const q = new URLSearchParams(input.search)
  const out: WireRequest[] = []
  // the results page of a shared link: its search starts before the lookups (src/main.tsx)
  if (input.pathname === '/search') {
    const originCode = code(q.get('from'))
    const destinationCode = code(q.get('to'))
    const tripDate = q.get('date') ?? ''
    // a link without a date searches today: left to the app, which knows the calendar
    if (originCode && destinationCode && originCode !== destinationCode && /^\d{4}-\d{2}-\d{2}$/.test(tripDate) && tripDate >= input.today()) {
      const body: BodyOf<'tripSearch'> = { originCode, destinationCode, tripDate }
      out.push(wireRequest(routes.tripSearch, input, { body }))
    }
  }
  if (!input.href.includes('search')) out.push(...LOOKUPS.map((route) => wireRequest(route, input)))
  const trip = input.pathname === '/reservation' ? tripRefFromQuery(input.search) : null
  // src/models/seat-page.ts loadTrip: no boarding or dropping counter chosen yet
  if (trip) out.push(wireRequest(routes.tripDetails, input, { body: tripDetailsBody(trip, null, null) }))
  // a booking paid from the balance (signed in); a card payment's return is confirmed by the app
  if (input.pathname === '/reservation/success' && input.token() && !q.get('paymentId')) {
    const id = Number(q.get('reservationId'))
    if (Number.isInteger(id) && id > 0) out.push(wireRequest(routes.reservationById, input, { params: { id } }))
  }
  return out
}

/** The same request: method, URL, body and every header equal. */
export function sameRequest(a: WireRequest, b: WireRequest): boolean {
  if (a.method !== b.method || a.url !== b.url || (a.body ?? '') !== (b.body ?? '')) return false
  const ka = Object.keys(a.headers)
  return ka.length === Object.keys(b.headers).length && ka.every((k) => a.headers[k] === b.headers[k])
}

declare global {
  var __EARLY_REQUESTS__: EarlyEntry[] | undefined
}

/**
 * The answer to `request` sent early, taken once (so a later identical request is asked
 * again), or null: none was sent, or it is older than EARLY_MAX_AGE_MS.
 */
export function takeEarlyResponse(request: WireRequest, now = performance.now()): Promise<Response> | null {
  const list = globalThis.__EARLY_REQUESTS__
  if (!list) return null
  const i = list.findIndex((e) => sameRequest(e, request))
  if (i < 0) return null
  const [entry] = list.splice(i, 1)
  return now - entry!.at <= EARLY_MAX_AGE_MS ? entry!.response : null
}
