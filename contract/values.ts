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
 * An `X-Device-Id` header value: a visitor's seat locks are held under it (`d:<id>`);
 * the app makes one per tab, the server ignores any other value.
 */
export const deviceIdPattern = /^[A-Za-z0-9_-]{8,64}$/

/** False when `v` holds U+0000 or an unpaired UTF-16 surrogate, which PostgreSQL text cannot store. */
export function isStorableText(v: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding U+0000 is the point
  return !/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(v)
}

// ---------- constants of the wire format (contract/schemas.ts re-exports them) ----------

export const MAX_SEATS = 5
export const INFINITE_SEAT_LIMIT = -999
export const OPEN_SEAT_NAME = 'OPEN'
export const OTP_RESEND_SECONDS = 180
export const HOLD_MINUTES = 15
export const MAX_HOLD_MINUTES = 30
/** A live seat-map stream silent this long (no event, no heartbeat) is taken for dropped by the app; heartbeats come more often. */
export const SEAT_STREAM_SILENCE_SECONDS = 45
/** The largest id (PostgreSQL int4). */
export const MAX_ID = 2_147_483_647

export const mobilePattern = /^0?01[3-9]\d{8}$/
export const passwordSpecials = '~!@#$%^&*()'
/** Local part, @, and a domain with a TLD of 2+ letters or a bracketed IPv4 address. */
export const emailPattern = /^[^\s@]+@(?:[^\s@]+\.[A-Za-z]{2,}|\[\d{1,3}(?:\.\d{1,3}){3}\])$/

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
