import type { ReactNode } from 'react'
import { useRichT } from '../app/use-t.ts'
import { formatDateTime, type Locale } from '../lib/dates.ts'
import { formatMoney } from '../lib/money.ts'
import type { TicketChange } from './ticket-status.ts'

/** Codes (coach, seat names) are printed and typed in Latin letters: read as English inside a Bengali sentence. */
const code = (text: string) => <span lang="en">{text}</span>
/** The operator's words are in the language it typed them in. */
const words = (text: string) => <span lang={/[\u0980-\u09FF]/.test(text) ? 'bn' : 'en'}>{text}</span>

/** The sentences saying `change`, in `lang`: each a message with its values. */
export function useTicketChangeText(): (change: TicketChange, lang: Locale) => ReactNode[] {
  const rt = useRichT()
  return (c, lang) => {
    switch (c.kind) {
      case 'tripCanceled':
        return [
          c.refund !== null
            ? rt('ticketChange.tripCanceledRefund', { reason: words(c.reason), amount: formatMoney(c.refund, lang) })
            : rt('ticketChange.tripCanceled', { reason: words(c.reason) }),
        ]
      case 'moved':
        return [
          rt('ticketChange.moved', { coach: code(c.coach), seats: code(c.seats), departure: formatDateTime(c.departure, lang) }),
          ...(c.from ? [rt('ticketChange.movedFrom', { coach: code(c.from.coachCode), departure: formatDateTime(c.from.departureTime, lang) })] : []),
          rt('ticketChange.movedMayCancel', {}),
        ]
      case 'moveRefused':
        return [rt('ticketChange.moveRefused', { amount: formatMoney(c.refund, lang) })]
    }
  }
}
