/**
 * The app's dates: the Asia/Dhaka rules of contract/dhaka-dates.ts (shared with the
 * server's messages), plus what only pages need (countdowns, the month's first day).
 */
import { dhakaFields, localizeDigits, pad, type DateInput, type Locale } from '../../contract/dhaka-dates.ts'

export {
  addDays,
  dhakaFields,
  formatBrowserDate,
  formatCalendarDate,
  formatDate,
  formatDateTime,
  formatTime,
  localizeDigits,
  startOfDayInDhaka,
  TIME_ZONE,
  todayInDhaka,
  type DateInput,
  type DhakaFields,
  type Locale,
} from '../../contract/dhaka-dates.ts'

/** A countdown of whole seconds as 'm:ss' ("2:05") in the locale's digits. */
export function formatCountdown(seconds: number, locale: Locale): string {
  return localizeDigits(`${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`, locale)
}

/** The first day of the current month in Dhaka as 'yyyy-LL-dd'. */
export function startOfMonthInDhaka(now: DateInput = Date.now()): string {
  const f = dhakaFields(now)
  return `${pad(f.year, 4)}-${pad(f.month)}-01`
}
