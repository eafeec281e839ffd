/**
 * "Mon 2 Dec" in Asia/Dhaka (Bengali day names and digits in bn), e.g. when a trip goes on
 * sale: the rules of dhaka-dates.ts, in a module of its own so that only the pages that show
 * it carry the day names (dhaka-dates.ts is part of every route's first render).
 */
import { type DateInput, dhakaFields, formatDate, type Locale, localizeDigits } from './dhaka-dates.ts'

// Sunday first, as Date.getUTCDay counts
const WEEKDAYS: Record<Locale, readonly string[]> = {
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
  bn: ['রবি', 'সোম', 'মঙ্গল', 'বুধ', 'বৃহস্পতি', 'শুক্র', 'শনি'],
}

/** 'EEE d LLL' — "Mon 2 Dec": a day within the coming year. */
export function formatWeekdayDate(input: DateInput, locale: Locale = 'en'): string {
  const f = dhakaFields(input)
  const weekday = new Date(Date.UTC(f.year, f.month - 1, f.day)).getUTCDay()
  // the month as formatDate names it ("Dec 02, 2026"): one more export of dhaka-dates.ts costs every route 0.2 KB
  return localizeDigits(`${WEEKDAYS[locale][weekday]} ${f.day} ${formatDate(input, locale).split(' ')[0]}`, locale)
}
