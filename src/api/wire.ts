/**
 * How a call to a route goes on the wire: its URL, headers and body. The fetch wrapper
 * (./client.ts) sends exactly this; the shell's early requests (src/early/requests.ts) build
 * the same from the same code, so the app can take their answers. No zod here: the early
 * script is bundled alone and stays small.
 */
import { pathOf, type RouteWire } from '../../contract/routes.ts'

/** A request as the fetch wrapper sends it. */
export interface WireRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
}

/** Who asks: read only when the request carries it. */
export interface Caller {
  baseUrl: () => string
  /** The app's language, sent as Accept-Language (ticket e-mails and SMS follow it). */
  language: () => string
  deviceId: () => string
  token: () => string | null
  /** The waiting room's queue token (X-Queue-Token): a seat lock on a rush date needs its admission. */
  queueToken?: () => string | null
}

/** What one call adds to its route. */
export interface CallParts {
  body?: unknown
  params?: Record<string, string | number>
  /** The query string, without `?` (empty: none). */
  search?: string
}

/** A read that needs neither the session nor the device (contract `auth: 'none'`, GET). */
export function isPublicRead(route: Pick<RouteWire, 'method' | 'auth'>): boolean {
  return route.method === 'GET' && route.auth === 'none'
}

/** The request for `route` called with `parts` by `caller`. */
export function wireRequest(route: RouteWire, caller: Caller, parts: CallParts = {}): WireRequest {
  const url = caller.baseUrl().replace(/\/$/, '') + pathOf(route.path, parts.params) + (parts.search ? '?' + parts.search : '')
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': caller.language() }
  // A public read (GET, no session) carries only headers a browser sends across origins without
  // asking first (CORS-safelisted): with the API on another origin it needs no preflight.
  if (!isPublicRead(route)) {
    headers['X-Device-Id'] = caller.deviceId()
    const token = caller.token()
    if (token) headers.Authorization = `Bearer ${token}`
    // set by the seat page only, so other requests stay identical to the shell's early ones
    const queueToken = caller.queueToken?.()
    if (queueToken) headers['X-Queue-Token'] = queueToken
  }
  if (parts.body === undefined) return { method: route.method, url, headers }
  headers['Content-Type'] = 'application/json'
  return { method: route.method, url, headers, body: JSON.stringify(parts.body) }
}
