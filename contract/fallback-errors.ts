/**
 * The catalogue entries the fetch wrapper (src/api/client.ts) names itself: the codes it gives
 * an answer without a catalogue error, or no answer at all. A module of its own, so the app's
 * entry carries these few reasons and not the whole catalogue (every code's message is in
 * locales/, which is what a user reads); contract/errors.ts spreads them into the catalogue.
 */
export const fallbackErrors = {
  INVALID_SESSION: { status: 401, reason: 'Invalid session. Please login again.' },
  INTERNAL_ERROR: { status: 500, reason: 'Something went wrong. Please try again.' },
  // Client-side only: never sent by the server
  NO_INTERNET_CONNECTION: { status: 0, reason: 'No internet connection.' },
  // online, but no answer from the API (it is down, or the browser refused it: CORS)
  SERVICE_UNREACHABLE: { status: 0, reason: 'The booking service cannot be reached right now. Please try again in a few minutes.' },
  CONNECTION_AVAILABLE_NOW: { status: 0, reason: 'Internet connection is available now.' },
  REQUEST_TIMEOUT: { status: 0, reason: 'The server took too long to answer. Please try again.' },
} as const satisfies Record<string, { status: number; reason: string }>

/** A code the fetch wrapper names itself. */
export type FallbackCode = keyof typeof fallbackErrors

/** True when `code` is one of the fetch wrapper's own codes. */
export function isFallbackCode(code: string): code is FallbackCode {
  return Object.hasOwn(fallbackErrors, code)
}
