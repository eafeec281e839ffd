import type { ReactNode } from 'react'
import { useIntl } from 'react-intl'
import { LiveRegion } from '../../design-system/visually-hidden/index.ts'
import { formatTime, localizeDigits, type Locale } from '../lib/dates.ts'
import { formatMoney } from '../lib/money.ts'

/** A store's status change: message id, raw values, sequence number. */
export interface Announcement {
  id: string
  values?: Record<string, string | number>
  seq: number
}

const MONEY = new Set(['total', 'discount', 'refund', 'balance'])
const TIME = new Set(['expires'])

/** Formats an announcement's values (money in Taka, instants as Dhaka time, phone numbers in the language's digits) for `lang`. */
export function formatValues(values: Announcement['values'], lang: Locale): Record<string, string | number> | undefined {
  if (!values) return undefined
  const out: Record<string, string | number> = {}
  for (const [k, v] of Object.entries(values)) {
    if (MONEY.has(k) && typeof v === 'number') out[k] = formatMoney(v, lang)
    else if (TIME.has(k) && typeof v === 'string' && v) out[k] = formatTime(v, lang)
    // a phone number: in the language's digits, like every number (src/parts/ticket-view.tsx)
    else if (k === 'to' && typeof v === 'string') out[k] = localizeDigits(v, lang)
    else out[k] = v
  }
  return out
}

/**
 * Says booking, payment and cancellation status changes to screen readers (a
 * polite live region). The same message twice in a row is still announced:
 * the sequence number alternates a trailing non-breaking space.
 */
export function Announcer({ announcement, lang }: { announcement: Announcement | null; lang: Locale }) {
  const intl = useIntl()
  if (!announcement) return <LiveRegion message="" />
  const values: Record<string, string | number | ReactNode> | undefined = formatValues(announcement.values, lang)
  // a PNR is Latin letters and digits: read in English inside a Bengali sentence
  if (values && typeof values.pnr === 'string' && values.pnr) values.pnr = <span lang="en">{values.pnr}</span>
  const said = intl.formatMessage({ id: announcement.id }, values)
  return (
    <LiveRegion
      message={
        <>
          {said}
          {announcement.seq % 2 ? '' : '\u00a0'}
        </>
      }
    />
  )
}
