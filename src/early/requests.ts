/**
 * Early requests: the reads a page opened from a link needs first (the start-up lookups,
 * the trip search, the trip, the paid booking), sent by a small script inlined in every
 * HTML shell (src/early/start.ts, built by build.mjs) while the app's code is still on its
 * way. The fetch wrapper (src/api/client.ts) takes such an answer instead of asking again
 * only when its own request is the same one (method, URL, every header, body) and is made
 * within EARLY_MAX_AGE_MS; otherwise the early answer is left unused. On a slow phone the
 * page's data then no longer waits for the app's code to arrive and run; with the API on
 * another origin, its connection and CORS preflight are done by then too.
 */

/** A request as the fetch wrapper would make it. */
export interface EarlyRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
}

/** An early request on its way (`globalThis.__EARLY_REQUESTS__`). */
export interface EarlyEntry extends EarlyRequest {
  /** performance.now() when it was sent. */
  at: number
  response: Promise<Response>
}

/** The session-storage keys the shell's script reads (src/lib/storage.ts `storageKeys`; a test checks they agree). */
export const EARLY_KEYS = { token: 'token', language: 'language' } as const

/** How old an early answer may be when the app asks for it (older ones are never used). */
export const EARLY_MAX_AGE_MS = 20_000

/** What the requests depend on, read from the page's address, config.js and storage. */
export interface EarlyInput {
  pathname: string
  /** The query string, without `?`. */
  search: string
  /** The whole address (lookups are skipped when it contains `search`, as in src/stores/lookups.ts). */
  href: string
  apiBaseUrl: string
  token: string | null
  deviceId: string
  language: string
  /** Today in Asia/Dhaka, YYYY-MM-DD (asked only for a search link: time-zone data is slow to load). */
  today: () => string
}

/** The paths of src/stores/lookups.ts's start-up reads (contract/api.ts). */
const LOOKUPS = ['/originCities', '/destinationCities', '/timePeriods', '/announcements', '/offers']

const code = (v: string | null) => (v && /^[A-Z]{3}$/.test(v) ? v : '')

/** The requests the app will make first for `input`, in the order it makes them. */
export function earlyRequests(input: EarlyInput): EarlyRequest[] {
  const base = input.apiBaseUrl.replace(/\/$/, '')
  const headers = (kind: 'public' | 'get' | 'post'): Record<string, string> => {
    // the fetch wrapper's headers, in its order (src/api/client.ts): a public read carries no session or device
    const h: Record<string, string> = { Accept: 'application/json', 'Accept-Language': input.language }
    if (kind === 'public') return h
    h['X-Device-Id'] = input.deviceId
    if (input.token) h.Authorization = `Bearer ${input.token}`
    if (kind === 'post') h['Content-Type'] = 'application/json'
    return h
  }
  const get = (path: string, kind: 'public' | 'get' = 'get'): EarlyRequest => ({ method: 'GET', url: base + path, headers: headers(kind) })
  const post = (path: string, body: object): EarlyRequest => ({
    method: 'POST',
    url: base + path,
    headers: headers('post'),
    body: JSON.stringify(body),
  })
  const q = new URLSearchParams(input.search)
  const out: EarlyRequest[] = []
  // the results page of a shared link: its search starts before the lookups (src/main.tsx)
  if (input.pathname === '/search') {
    const originCode = code(q.get('from'))
    const destinationCode = code(q.get('to'))
    const tripDate = q.get('date') ?? ''
    // a link without a date searches today: left to the app, which knows the calendar
    if (originCode && destinationCode && originCode !== destinationCode && /^\d{4}-\d{2}-\d{2}$/.test(tripDate) && tripDate >= input.today()) {
      out.push(post('/reservation/tripSearch', { originCode, destinationCode, tripDate }))
    }
  }
  if (!input.href.includes('search')) out.push(...LOOKUPS.map((p) => get(p, 'public')))
  if (input.pathname === '/reservation') {
    const tripId = Number(q.get('tripId'))
    const originCode = code(q.get('from'))
    const destinationCode = code(q.get('to'))
    if (Number.isInteger(tripId) && tripId > 0 && originCode && destinationCode) {
      // src/stores/seat-choice.ts loadTrip: no boarding or dropping counter chosen yet
      out.push(post('/reservation/tripDetails', { tripId, originCode, destinationCode, originBusStationId: null, destinationBusStationId: null }))
    }
  }
  // a booking paid from the balance (signed in); a card payment's return is confirmed by the app
  if (input.pathname === '/reservation/success' && input.token && !q.get('paymentId')) {
    const id = Number(q.get('reservationId'))
    if (Number.isInteger(id) && id > 0) out.push(get(`/reservation/details/${id}`))
  }
  return out
}

/** The same request: method, URL, body and every header equal. */
export function sameRequest(a: EarlyRequest, b: EarlyRequest): boolean {
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
export function takeEarlyResponse(request: EarlyRequest, now = performance.now()): Promise<Response> | null {
  const list = globalThis.__EARLY_REQUESTS__
  if (!list) return null
  const i = list.findIndex((e) => sameRequest(e, request))
  if (i < 0) return null
  const [entry] = list.splice(i, 1)
  return now - entry!.at <= EARLY_MAX_AGE_MS ? entry!.response : null
}
