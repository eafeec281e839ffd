/**
 * The one way from a store to the server: `call('seatLock', { body })`. The
 * fetch wrapper (`./client.ts`, with the error catalogue and route table) is not
 * needed to paint a page, so it is loaded on the first call (the data routes'
 * shells preload it); a later call uses it at once. Tests answer calls with
 * `fakeApi({ seatLock: … })`.
 */
import type { ResponseOf, RouteName } from '../../contract/api.ts'
import { ApiError } from './api-error.ts'
import type { ApiEnv, CallOptions } from './client.ts'

export type { CallOptions } from './client.ts'

/** Calls contract route `name` and answers its `data`, or rejects with an ApiError. */
export type CallFn = <N extends RouteName>(name: N, opts?: CallOptions<N>) => Promise<ResponseOf<N>>

/** The fetch wrapper module, as `call` loads it. */
export type Client = Pick<typeof import('./client.ts'), 'request'>

/** How long a request may take before it fails as REQUEST_TIMEOUT (SPEC: 60 s). */
export const REQUEST_TIMEOUT_MS = 60_000

/** A read the service did not answer is asked again after these waits (7 s in all) before the passenger is told. */
export const RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000]

const env: ApiEnv = {
  baseUrl: () => '/api',
  token: () => null,
  deviceId: () => 'anonymous-device',
  language: () => 'en',
  currentPath: () => '/',
  onUnauthorized: () => undefined,
  fetch: (...args) => globalThis.fetch(...args),
  timeoutMs: REQUEST_TIMEOUT_MS,
  online: () => globalThis.navigator?.onLine !== false,
  retryDelaysMs: RETRY_DELAYS_MS,
}

/** Wires the API base, session, language and 401 reset of the running app (start-up). */
export function configureApi(parts: Partial<ApiEnv>): void {
  Object.assign(env, parts)
}

/** Sends one request with the values `request` carries. */
type Send = <N extends RouteName>(request: ApiEnv, name: N, opts?: CallOptions<N>) => Promise<ResponseOf<N>>

/**
 * Loads the fetch wrapper with `load` on the first request (or `preload`). A
 * wrapper that cannot be loaded fails the request as NO_INTERNET_CONNECTION
 * (offline) or SERVICE_UNREACHABLE (online), and the next request tries to load it again.
 */
export function lazyClient(load: () => Promise<Client>): { send: Send; preload: () => void } {
  let client: Client | null = null
  let loading: Promise<Client> | null = null
  const loaded = () =>
    (loading ??= load().then(
      (c) => (client = c),
      (err: unknown) => {
        loading = null
        throw err
      },
    ))
  return {
    send: (request, name, opts) =>
      client
        ? client.request(request, name, opts)
        : loaded().then(
            (c) => c.request(request, name, opts),
            (err: unknown) => {
              const code = request.online() ? 'SERVICE_UNREACHABLE' : 'NO_INTERNET_CONNECTION'
              throw new ApiError(code, err instanceof Error ? err.message : String(err), 0)
            },
          ),
    preload: () => void loaded().catch(() => undefined),
  }
}

/**
 * What a request carries, read when it is made: a LOGOUT sent just before the
 * session is cleared still carries its token, however long the wrapper takes to load.
 */
function requestEnv(): ApiEnv {
  const baseUrl = env.baseUrl()
  const token = env.token()
  const deviceId = env.deviceId()
  const language = env.language()
  return { ...env, baseUrl: () => baseUrl, token: () => token, deviceId: () => deviceId, language: () => language }
}

const real = lazyClient(() => import('./client.ts'))
let fake: Send | null = null

/** The API base the running app talks to (config.js `apiBaseUrl`): event streams (./streams.ts) open under it too. */
export const apiBaseUrl = (): string => env.baseUrl()

let beforeError: () => Promise<unknown> = () => Promise.resolve()

/**
 * Makes every failed call wait for `load` before it rejects (the app: the error
 * catalogue's messages, which arrive after the first render), so no error is shown
 * before its text is there.
 */
export function loadBeforeErrors(load: () => Promise<unknown>): void {
  beforeError = load
}

/** Calls contract route `name` and answers its `data`, or rejects with an ApiError. */
export const call: CallFn = (name, opts) =>
  (fake ?? real.send)(requestEnv(), name, opts).catch(async (err: unknown) => {
    await beforeError().catch(() => undefined)
    throw err
  })

/** Starts loading the fetch wrapper now (app start), so the first call does not wait for it. */
export const preloadApi = (): void => real.preload()

/** A test's stand-in for the server: per route, what it answers to a call's options (a thrown error rejects the call). */
export type FakeRoutes = { [N in RouteName]?: (opts: CallOptions<N>) => ResponseOf<N> | Promise<ResponseOf<N>> }

/** One call a fake answered: the route, the options it was called with and the bearer token it carried. */
export interface FakeCall {
  name: RouteName
  opts: Omit<CallOptions<RouteName>, 'body'> & { body?: unknown }
  token: string | null
}

/**
 * Answers every `call` from `routes` instead of the server (tests), one task
 * later as a server would; a route without an answer rejects. `routes` is read
 * at each call, so a test may change an answer. Returns the calls made, in order.
 */
export function fakeApi(routes: FakeRoutes): FakeCall[] {
  const calls: FakeCall[] = []
  fake = async (request, name, opts = {}) => {
    calls.push({ name, opts, token: request.token() })
    await Promise.resolve()
    const answer = routes[name] as ((o: typeof opts) => ResponseOf<typeof name>) | undefined
    if (!answer) throw new Error(`unexpected call ${name}`)
    return answer(opts)
  }
  return calls
}
