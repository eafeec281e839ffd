/**
 * How dates and times in Asia/Dhaka are written, whatever the machine's time zone: one
 * set of rules for the app's pages, its early script, the calendar file and the server's
 * SMS and e-mails, so a message and the page show the same date the same way.
 * The patterns are assembled here, not by Intl, so output is identical in every browser
 * and in Node. No Temporal
 * and no zod: the app's first render imports this (Temporal is 17 KB).
 */

export const TIME_ZONE = 'Asia/Dhaka'

/** UI languages. */
export type Locale = 'en' | 'bn'

/** Anything that names an instant: Date, epoch milliseconds or an ISO-8601 string with offset. */
export type DateInput = Date | number | string

const MONTHS: Record<Locale, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  bn: ['জানু', 'ফেব্রু', 'মার্চ', 'এপ্রিল', 'মে', 'জুন', 'জুলাই', 'আগস্ট', 'সেপ্টে', 'অক্টো', 'নভে', 'ডিসে'],
}

const BN_DIGITS = '০১২৩৪৫৬৭৮৯'

/** Replaces ASCII digits with Bengali digits when the locale is bn. */
export function localizeDigits(text: string, locale: Locale): string {
  return locale === 'bn' ? text.replace(/\d/g, (d) => BN_DIGITS[Number(d)]!) : text
}

/** Calendar fields of an instant as seen on a wall clock in Dhaka. */
export interface DhakaFields {
  year: number
  month: number
  day: number
  hour: number
  minute: number
}

// Bangladesh has kept UTC+06:00 without daylight saving since 2010 (server/lib/time.ts's
// toDhakaIso relies on the same; dhaka-dates.test.ts checks it against the time-zone
// database through Intl): a fixed shift is exact, smaller and faster than Intl.
const DHAKA_OFFSET_MS = 6 * 3600_000

/** Reads year, month (1–12), day, hour (0–23) and minute in Asia/Dhaka. */
export function dhakaFields(input: DateInput): DhakaFields {
  const d = new Date(toDate(input).getTime() + DHAKA_OFFSET_MS)
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes() }
}

function toDate(input: DateInput): Date {
  const date = input instanceof Date ? input : new Date(input)
  if (Number.isNaN(date.getTime())) throw new RangeError(`invalid date: ${String(input)}`)
  return date
}

/** `n` with leading zeros to `width` digits. */
export const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** 'LLL dd, yyyy' — "Nov 22, 2026". */
export function formatDate(input: DateInput, locale: Locale = 'en'): string {
  const f = dhakaFields(input)
  return localizeDigits(`${MONTHS[locale][f.month - 1]} ${pad(f.day)}, ${f.year}`, locale)
}

/** 'd-LLL' — "22-Nov" (the ticket SMS, where every character counts). */
export function formatDayMonth(input: DateInput, locale: Locale = 'en'): string {
  const f = dhakaFields(input)
  return localizeDigits(`${f.day}-${MONTHS[locale][f.month - 1]}`, locale)
}

/** 'hh:mm a' — "08:30 PM". */
export function formatTime(input: DateInput, locale: Locale = 'en'): string {
  const f = dhakaFields(input)
  const h12 = f.hour % 12 === 0 ? 12 : f.hour % 12
  return localizeDigits(`${pad(h12)}:${pad(f.minute)} ${f.hour < 12 ? 'AM' : 'PM'}`, locale)
}

/** 'LLL dd, yyyy hh:mm a' — "Nov 22, 2026 08:30 PM". */
export function formatDateTime(input: DateInput, locale: Locale = 'en'): string {
  return `${formatDate(input, locale)} ${formatTime(input, locale)}`
}

/** 'yyyy-LL-dd' for `<input type="date">` values and the API; always ASCII digits. */
export function formatBrowserDate(input: DateInput): string {
  return new Date(toDate(input).getTime() + DHAKA_OFFSET_MS).toISOString().slice(0, 10)
}

/** Today's calendar date in Dhaka as 'yyyy-LL-dd'. */
export function todayInDhaka(now: DateInput = Date.now()): string {
  return formatBrowserDate(now)
}

/** Adds `days` to a calendar date ('yyyy-LL-dd'); calendar dates have no time zone, so UTC arithmetic is exact. */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(Date.parse(isoDate + 'T00:00:00Z') + days * 86_400_000)
  return d.toISOString().slice(0, 10)
}

/** The instant a Dhaka calendar date ('yyyy-LL-dd') starts. Dhaka has been UTC+6 without DST since 2009. */
export function startOfDayInDhaka(isoDate: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate)
  if (!m) throw new RangeError(`expected yyyy-LL-dd, got ${isoDate}`)
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - DHAKA_OFFSET_MS)
}

/** Formats a calendar date ('yyyy-LL-dd', no time) as 'LLL dd, yyyy'. */
export function formatCalendarDate(isoDate: string, locale: Locale = 'en'): string {
  return formatDate(startOfDayInDhaka(isoDate), locale)
}
