/**
 * How amounts of Taka are written, one rule for the app's pages and the server's SMS and
 * e-mails: whole Taka, thousands grouped by threes, Bengali digits and টাকা in bn.
 */
import { localizeDigits, type Locale } from './dhaka-dates.ts'

/** Formats whole Taka as "1,200 Tk" (bn: "১,২০০ টাকা"). */
export function formatMoney(amount: number, locale: Locale = 'en'): string {
  // by hand, not toLocaleString('en-US'): that builds an ICU number formatter on every call (a
  // seat map writes one fare per seat in its first render; docs/performance.md)
  const grouped = String(Math.round(amount)).replace(/\B(?=(\d{3})+$)/g, ',')
  return locale === 'bn' ? `${localizeDigits(grouped, 'bn')} টাকা` : `${grouped} Tk`
}
