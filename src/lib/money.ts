import { localizeDigits, type Locale } from './dates.ts'

/** Formats whole Taka as "1,200 Tk" (bn: "১,২০০ টাকা"). */
export function formatMoney(amount: number, locale: Locale = 'en'): string {
  const grouped = Math.round(amount).toLocaleString('en-US')
  return locale === 'bn' ? `${localizeDigits(grouped, 'bn')} টাকা` : `${grouped} Tk`
}
