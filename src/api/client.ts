/**
 * The fetch wrapper of docs/spec.md section 7: API base from the runtime config, Accept
 * JSON, bearer token when stored, X-Device-Id, 60 s time-out, and the 401 reset
 * of docs/spec.md section 4 (never on the login page itself). No answer is
 * NO_INTERNET_CONNECTION when the browser is offline and SERVICE_UNREACHABLE when
 * it is online (the API is down, or refuses this origin); reads are asked again first. It reads the contract's
 * route table without its schemas (contract/routes.ts), so no zod comes with it; stores
 * call it through `call` in `./index.ts`, never directly.
 */
import type { BodyOf, ResponseOf, RouteName } from '../../contract/api.ts'
import * as routes from '../../contract/routes.ts'
import { fallbackErrors, isFallbackCode } from '../../contract/fallback-errors.ts'
import { ApiError } from './api-error.ts'
import { takeEarlyResponse } from '../early/requests.ts'
import { type Caller, type CallParts, wireRequest } from './wire.ts'

/** What the wrapper needs from its surroundings (`configureApi` in `./index.ts` sets them): who asks, and how. */
export interface ApiEnv extends Caller {
  /** Current path, to skip the 401 reset on the login page and remember where to return. */
  currentPath: () => string
  /** Clears the session and sends the user to /login (docs/spec.md section 4). */
  onUnauthorized: (path: string) => void
  fetch: typeof fetch
  timeoutMs: number
  /** False when the browser knows it has no network (navigator.onLine). */
  online: () => boolean
  /** The waits before each repeat of a read that could not reach the service. */
  retryDelaysMs: readonly number[]
}

export interface CallOptions<N extends RouteName> extends Omit<CallParts, 'search'> {
  body?: BodyOf<N>
  query?: Record<string, string | number | undefined>
  signal?: AbortSignal
  /** Keep the request alive while the page unloads (seat release). */
  keepalive?: boolean
  /** A 401 here is expected and must not reset the session (LOGOUT with an expired token). */
  ignoreUnauthorized?: boolean
}

/** Calls contract route `name` in `env` and returns its `data`, or throws ApiError. */
export async function request<N extends RouteName>(env: ApiEnv, name: N, opts: CallOptions<N> = {}): Promise<ResponseOf<N>> {
  // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the wrapper sends any route, so it keeps every one
  const wire = wireRequest(routes[name], env, { ...opts, search: queryString(opts.query) })
  const { url, headers, body } = wire

  const timeout = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    timeout.abort()
  }, env.timeoutMs)
  const onAbort = () => timeout.abort()
  opts.signal?.addEventListener('abort', onAbort)

  const init: RequestInit = { method: wire.method, headers, body, signal: timeout.signal, keepalive: opts.keepalive }
  // the same request sent by the page's shell before the app had loaded (src/early/requests.ts)
  const early = takeEarlyResponse(wire)
  let answer: Answer
  try {
    answer = await send(env, url, init, early)
    // a read is asked again while the browser is online; a booking, payment or code is never repeated on its own
    for (const wait of RETRIED.has(name) ? env.retryDelaysMs : []) {
      if (answer !== 'unreachable' || !env.online()) break
      await pause(wait, timeout.signal)
      answer = await send(env, url, init)
    }
  } catch (err) {
    if (timedOut) throw new ApiError('REQUEST_TIMEOUT', fallbackErrors.REQUEST_TIMEOUT.reason, 0)
    throw err
  } finally {
    clearTimeout(timer)
    opts.signal?.removeEventListener('abort', onAbort)
  }
  if (answer === 'unreachable') throw connectionError(env)
  const { res, json } = answer

  if (res.status === 401 && !opts.ignoreUnauthorized) {
    const path = env.currentPath()
    if (!isLoginPath(path)) env.onUnauthorized(path)
  }
  if (!res.ok) {
    const e = (json as { error?: { code?: unknown; reason?: unknown; fields?: unknown; values?: unknown } } | null)?.error
    const code = typeof e?.code === 'string' ? e.code : res.status === 401 ? 'INVALID_SESSION' : 'INTERNAL_ERROR'
    // the contract's error always has a reason; an answer without one (a proxy's page) keeps its code, which the app's messages name
    const reason = typeof e?.reason === 'string' ? e.reason : isFallbackCode(code) ? fallbackErrors[code].reason : res.statusText
    const values = e?.values && typeof e.values === 'object' && !Array.isArray(e.values) ? (e.values as ApiError['values']) : undefined
    throw new ApiError(code, reason, res.status, Array.isArray(e?.fields) ? (e.fields as ApiError['fields']) : undefined, values)
  }
  if (!json || typeof json !== 'object' || !('data' in json)) {
    throw new ApiError('INTERNAL_ERROR', fallbackErrors.INTERNAL_ERROR.reason, res.status)
  }
  return (json as { data: ResponseOf<N> }).data
}

/** The query string of `query` (without `?`): empty values left out. */
function queryString(query: CallOptions<RouteName>['query'] = {}): string {
  const qs = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') qs.set(k, String(v))
  return qs.toString()
}

/** A server's answer with its body read, or 'unreachable' when none came from the server. */
type Answer = { res: Response; json: unknown } | 'unreachable'

/** What a proxy or CDN answers for a server it cannot reach (the server's own 503s carry a catalogue error). */
const GATEWAY_STATUSES = new Set([502, 503, 504])

/**
 * Routes that only read, asked again when the service cannot be reached. Never a
 * booking, payment, seat lock, coupon, cancellation, or anything that sends an SMS or e-mail.
 */
const RETRIED: ReadonlySet<RouteName> = new Set<RouteName>([
  'passengerByMobile',
  'profile',
  'account',
  'myReservations',
  'originCities',
  'destinationCities',
  'timePeriods',
  'busStations',
  'routes',
  'announcements',
  'offers',
  'company',
  'tripSearch',
  'tripDetails',
  'reservationById',
  'reservationByPnr',
])

/**
 * Sends once (or takes `early`, the answer to the same request sent by the shell); a failed
 * fetch (not an abort) or a gateway error page is 'unreachable'.
 */
async function send(env: ApiEnv, url: string, init: RequestInit, early: Promise<Response> | null = null): Promise<Answer> {
  let res: Response
  try {
    // an early request that failed (sent while the network was down) is sent again at once
    res = await (early
      ? untilAborted(early, init.signal).catch((err: unknown) => {
          if (init.signal?.aborted) throw err
          return env.fetch(url, init)
        })
      : env.fetch(url, init))
  } catch (err) {
    if (init.signal?.aborted) throw err
    return 'unreachable'
  }
  let json: unknown = null
  try {
    json = await res.json()
  } catch (err) {
    if (init.signal?.aborted) throw err
    json = null
  }
  const caught = (json as { error?: { code?: unknown } } | null)?.error?.code
  if (GATEWAY_STATUSES.has(res.status) && typeof caught !== 'string') return 'unreachable'
  return { res, json }
}

/** `p`, or an AbortError when `signal` aborts first (an early answer's fetch has no signal of ours). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return p
  return new Promise<T>((resolve, reject) => {
    const aborted = () => reject(new DOMException('The request was aborted.', 'AbortError'))
    if (signal.aborted) return aborted()
    signal.addEventListener('abort', aborted, { once: true })
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted))
  })
}

/** Waits `ms`, or rejects when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer)
      reject(new DOMException('The request was aborted.', 'AbortError'))
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', aborted)
      resolve()
    }, ms)
    if (signal.aborted) aborted()
    else signal.addEventListener('abort', aborted, { once: true })
  })
}

/** No answer from the service: the browser is offline, or (online) the service cannot be reached. */
function connectionError(env: ApiEnv): ApiError {
  const code = env.online() ? 'SERVICE_UNREACHABLE' : 'NO_INTERNET_CONNECTION'
  return new ApiError(code, fallbackErrors[code].reason, 0)
}

function isLoginPath(path: string): boolean {
  return path === '/login' || path.startsWith('/login?') || path.startsWith('/login/')
}
