/**
 * Plain checks of request values, without zod, so the app can use them in its first
 * render (zod stays out of the entry chunk); contract/schemas.ts builds on them.
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
