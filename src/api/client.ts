/**
 * The fetch wrapper of SPEC section 7: API base from the runtime config, Accept
 * JSON, bearer token when stored, X-Device-Id, 60 s time-out, and the 401 reset
 * of SPEC section 4 (never on the login page itself). One typed function per
 * contract route: `call('tripSearch', { body })`.
 */
import { api, pathOf, type BodyOf, type ResponseOf, type RouteName } from '../../contract/api.ts';
import { errorCatalogue, isErrorCode } from '../../contract/errors.ts';

/** An API failure: a catalogue code, its reason, HTTP status (0 for network/time-out). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly fields?: { path: string; message: string }[];
  /** Values of the code's message sent by the server (e.g. `{ minutes: 12 }`). */
  readonly values?: Record<string, string | number>;
  constructor(code: string, reason: string, status: number, fields?: { path: string; message: string }[], values?: Record<string, string | number>) {
    super(reason);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.fields = fields;
    this.values = values;
  }
  /** The server's reason (SPEC: "error reason"). */
  get reason(): string {
    return this.message;
  }
}

export const REQUEST_TIMEOUT_MS = 60_000;

/** What the wrapper needs from its surroundings; the app wires the real ones in `configureApi`. */
export interface ApiEnv {
  baseUrl: () => string;
  token: () => string | null;
  deviceId: () => string;
  /** The app's language, sent as Accept-Language (ticket e-mails and SMS follow it). */
  language: () => string;
  /** Current path, to skip the 401 reset on the login page and remember where to return. */
  currentPath: () => string;
  /** Clears the session and sends the user to /login (SPEC section 4). */
  onUnauthorized: (path: string) => void;
  fetch: typeof fetch;
  timeoutMs: number;
}

const env: ApiEnv = {
  baseUrl: () => '/api',
  token: () => null,
  deviceId: () => 'anonymous-device',
  language: () => 'en',
  currentPath: () => '/',
  onUnauthorized: () => undefined,
  fetch: (...args) => globalThis.fetch(...args),
  timeoutMs: REQUEST_TIMEOUT_MS,
};

/** Replaces parts of the environment (app start-up and tests). */
export function configureApi(parts: Partial<ApiEnv>): void {
  Object.assign(env, parts);
}

export interface CallOptions<N extends RouteName> {
  body?: BodyOf<N>;
  params?: Record<string, string | number>;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
  /** Keep the request alive while the page unloads (seat release). */
  keepalive?: boolean;
  /** A 401 here is expected and must not reset the session (LOGOUT with an expired token). */
  ignoreUnauthorized?: boolean;
}

/** Calls contract route `name` and returns its `data`, or throws ApiError. */
export async function call<N extends RouteName>(name: N, opts: CallOptions<N> = {}): Promise<ResponseOf<N>> {
  const def = api[name];
  let url = env.baseUrl().replace(/\/$/, '') + pathOf(def.path, opts.params);
  if (opts.query) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query)) if (v !== undefined && v !== '') qs.set(k, String(v));
    const s = qs.toString();
    if (s) url += '?' + s;
  }
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': env.language(), 'X-Device-Id': env.deviceId() };
  const token = env.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';

  const timeout = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    timeout.abort();
  }, env.timeoutMs);
  const onAbort = () => timeout.abort();
  opts.signal?.addEventListener('abort', onAbort);

  let res: Response;
  try {
    res = await env.fetch(url, {
      method: def.method,
      headers,
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      signal: timeout.signal,
      keepalive: opts.keepalive,
    });
  } catch (err) {
    if (timedOut) throw new ApiError('REQUEST_TIMEOUT', errorCatalogue.REQUEST_TIMEOUT.reason, 0);
    if (opts.signal?.aborted) throw err;
    throw new ApiError('NO_INTERNET_CONNECTION', errorCatalogue.NO_INTERNET_CONNECTION.reason, 0);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }

  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    json = null;
  }
  if (res.status === 401 && !opts.ignoreUnauthorized) {
    const path = env.currentPath();
    if (!isLoginPath(path)) env.onUnauthorized(path);
  }
  if (!res.ok) {
    const e = (json as { error?: { code?: unknown; reason?: unknown; fields?: unknown; values?: unknown } } | null)?.error;
    const code = typeof e?.code === 'string' ? e.code : res.status === 401 ? 'INVALID_SESSION' : 'INTERNAL_ERROR';
    const reason = typeof e?.reason === 'string' ? e.reason : isErrorCode(code) ? errorCatalogue[code].reason : res.statusText;
    const values = e?.values && typeof e.values === 'object' && !Array.isArray(e.values) ? (e.values as ApiError['values']) : undefined;
    throw new ApiError(code, reason, res.status, Array.isArray(e?.fields) ? (e.fields as ApiError['fields']) : undefined, values);
  }
  if (!json || typeof json !== 'object' || !('data' in json)) {
    throw new ApiError('INTERNAL_ERROR', errorCatalogue.INTERNAL_ERROR.reason, res.status);
  }
  return (json as { data: ResponseOf<N> }).data;
}

function isLoginPath(path: string): boolean {
  return path === '/login' || path.startsWith('/login?') || path.startsWith('/login/');
}
