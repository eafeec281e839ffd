/**
 * Plain checks of request values and the wire format's constants, without zod, so the
 * app can use them in any page's first render (zod stays out of it); contract/schemas.ts
 * builds on them and re-exports them.
 */

/** Calendar dates the API takes (`isoDate`): years 1900 to 2199. */
export const MIN_YEAR = 1900
export const MAX_YEAR = 2199

/** True for a real `yyyy-LL-dd` calendar date (no 30 February) in years MIN_YEAR to MAX_YEAR. */
export function isCalendarDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (y < MIN_YEAR || y > MAX_YEAR || mo < 1 || mo > 12 || d < 1) return false
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate()
}

/**
 * True for an ISO-8601 instant a request may carry: `yyyy-LL-ddTHH:mm[:ss[.fff]]` with `Z`
 * or an offset, on a real calendar date (isCalendarDate: no 30 February) at a real
 * time of day. `new Date()` would read `2026-02-30T…` as 2 March.
 */
export function isInstant(v: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/.exec(v)
  if (!m || !isCalendarDate(m[1]!)) return false
  const [h, min, sec, oh, om] = [m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number) as [number, number, number, number, number]
  return h <= 23 && min <= 59 && sec <= 59 && oh <= 23 && om <= 59
}

/**
 * An `X-Device-Id` header value: a visitor's seat locks are held under it (`d:<id>`);
 * the app makes one per tab, the server ignores any other value.
 */
export const deviceIdPattern = /^[A-Za-z0-9_-]{8,64}$/

/**
 * The header that carries the queue token the server issued (POST /queue with join) on a seat lock:
 * seats of a rush date are locked only with an unexpired admission of that token's place.
 */
export const QUEUE_TOKEN_HEADER = 'X-Queue-Token'

/** A queue token as the server issues it (32 random bytes, base64url); any other value is no token. */
export const queueTokenPattern = /^[A-Za-z0-9_-]{43}$/

/** False when `v` holds U+0000 or an unpaired UTF-16 surrogate, which PostgreSQL text cannot store. */
export function isStorableText(v: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding U+0000 is the point
  return !/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(v)
}

// ---------- constants of the wire format (contract/schemas.ts re-exports them) ----------

export const MAX_SEATS = 5
/** Seats one passenger may wait for on a sold-out trip's waitlist. */
export const WAITLIST_MAX_SEATS = 4
export const INFINITE_SEAT_LIMIT = -999
export const OPEN_SEAT_NAME = 'OPEN'
export const OTP_RESEND_SECONDS = 180
export const HOLD_MINUTES = 15
export const MAX_HOLD_MINUTES = 30
/**
 * A seat hold before booking may be extended this many times (POST /reservation/extendSeatLock),
 * never past MAX_HOLD_MINUTES from when it was won (nor past departure), like a booking's time.
 */
export const MAX_HOLD_EXTENSIONS = 2
/** A live seat-map stream silent this long (no event, no heartbeat) is taken for dropped by the app; heartbeats come more often. */
export const SEAT_STREAM_SILENCE_SECONDS = 45
/** The largest id (PostgreSQL int4). */
export const MAX_ID = 2_147_483_647

/** Optional leading 0, then 01, then 3–9, then 8 digits. */
export const mobilePattern = /^0?01[3-9]\d{8}$/
/** Local part, @, and a domain with a TLD of 2+ letters or a bracketed IPv4 address. */
export const emailPattern = /^[^\s@]+@(?:[^\s@]+\.[A-Za-z]{2,}|\[\d{1,3}(?:\.\d{1,3}){3}\])$/
export const PASSWORD_MIN = 6
export const PASSWORD_MAX = 50
/** Top-up limits in whole Taka. */
export const TOP_UP_MIN = 10
export const TOP_UP_MAX = 100_000
/** The longest text each form field takes, in characters after trimming: the wire schemas, the forms' checks and their inputs' maxlength read these. */
export const FIELD_MAX = {
  fullName: 100,
  passengerName: 100,
  email: 254,
  city: 60,
  subject: 150,
  message: 2000,
  password: PASSWORD_MAX,
} as const
/** The special characters a password needs one of. */
export const passwordSpecials = '~!@#$%^&*()'
/** Matches one of `passwordSpecials` (a literal: a built RegExp would be kept in every bundle; values.test.ts checks the two agree). */
export const passwordSpecialPattern = /[~!@#$%^&*()]/

export const seatStatus = { available: 0, sold: 1, booked: 2, adminBooked: 3, linked: 13 } as const
export const reservationStatus = {
  sold: 1,
  booked: 2,
  adminBooked: 3,
  canceled: 5,
  tripMigrated: 10,
  openTicket: 12,
  linked: 13,
  tripMigratedCanceled: 14,
} as const
export const seatTypes = ['Standard', 'Business', 'Extra', 'Sleeper', 'Sleeper Horizontal'] as const
export const coachTypes = ['AC_BUSINESS', 'AC_STANDARD', 'NON_AC', 'SLEEPER'] as const
