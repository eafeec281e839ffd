/**
 * How amounts of Taka are written, one rule for the app's pages and the server's SMS and
 * e-mails: whole Taka, thousands grouped by threes, Bengali digits and টাকা in bn.
 */
import { localizeDigits, type Locale } from './dhaka-dates.ts'

/** Formats whole Taka as "1,200 Tk" (bn: "১,২০০ টাকা"). */
export function formatMoney(amount: number, locale: Locale = 'en'): string {
  const grouped = Math.round(amount).toLocaleString('en-US')
  return locale === 'bn' ? `${localizeDigits(grouped, 'bn')} টাকা` : `${grouped} Tk`
}
