import type { CancelInitialize } from '../../../contract/schemas.ts'
import type { Locale } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'

/** The parts of a refund quote (cancelInitialize's refundParts). */
export type RefundParts = NonNullable<CancelInitialize['refundParts']>

/** A refund split between places ("600 Tk back to your card, 200 Tk to your balance"), or null when it goes to one place. */
export function refundSplitText(parts: RefundParts | undefined, t: (id: string, values?: Record<string, string | number>) => string, lang: Locale) {
  if (!parts || parts.length < 2) return null
  return parts
    .map((p) =>
      p.to === 'CARD'
        ? t('ticket.refundPartCard', { refund: formatMoney(p.amount, lang), place: t('ticket.methodCard', { place: p.paidWith ?? 'card' }) })
        : t('ticket.refundPartBalance', { refund: formatMoney(p.amount, lang) }),
    )
    .join(', ')
}
