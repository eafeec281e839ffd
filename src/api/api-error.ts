/**
 * A failed API call, and the plain record of it the stores keep. No imports:
 * the stores of the first render use it without loading the fetch wrapper.
 */

/** Values of an error's message sent by the server (e.g. `{ minutes: 12 }`). */
export type ErrorValues = Record<string, string | number>

/** An API failure: a catalogue code, its reason, HTTP status (0 for network/time-out). */
export class ApiError extends Error {
  readonly code: string
  readonly status: number
  readonly fields?: { path: string; message: string }[]
  readonly values?: ErrorValues
  constructor(code: string, reason: string, status: number, fields?: { path: string; message: string }[], values?: ErrorValues) {
    super(reason)
    this.name = 'ApiError'
    this.code = code
    this.status = status
    this.fields = fields
    this.values = values
  }
  /** The server's reason (SPEC: "error reason"). */
  get reason(): string {
    return this.message
  }
}

/** A failed request as a store keeps it: the catalogue code, the server's reason, the message's values. */
export interface RequestError {
  code: string
  reason: string
  values?: ErrorValues
}

/** Reads a failed request from whatever was thrown: an ApiError, a stored RequestError, or anything else (INTERNAL_ERROR). */
export function requestError(err: unknown): RequestError {
  const e = err as { code?: unknown; reason?: unknown; message?: unknown; values?: unknown } | null
  const values = e?.values && typeof e.values === 'object' ? (e.values as ErrorValues) : undefined
  return {
    code: typeof e?.code === 'string' ? e.code : 'INTERNAL_ERROR',
    reason: typeof e?.reason === 'string' ? e.reason : typeof e?.message === 'string' ? e.message : '',
    ...(values ? { values } : {}),
  }
}

/** Codes of a request that got no answer from the service (offline, unreachable, too slow). */
const CONNECTION_CODES: ReadonlySet<string> = new Set(['NO_INTERNET_CONNECTION', 'SERVICE_UNREACHABLE', 'REQUEST_TIMEOUT'])

/** True when a failed request got no answer from the service: what the device has saved may stand in. */
export function isConnectionError(err: { code: string } | null | undefined): boolean {
  return !!err && CONNECTION_CODES.has(err.code)
}
