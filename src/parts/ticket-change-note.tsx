import type { ReactNode } from 'react'
import type { Reservation } from '../../contract/schemas.ts'
import { css } from '../../styled-system/css'
import { useRichT } from '../app/use-t.ts'
import { formatDateTime, type Locale } from '../lib/dates.ts'
import { formatMoney } from '../lib/money.ts'
import { refundMessageId, type TicketChange, ticketChange } from './ticket-change.ts'

// the status message's look (design-system/status), not its live region: the note is part of the ticket, not news
const styles = {
  block: css({
    display: 'flex',
    flexDirection: 'column',
    gap: '1',
    p: '3',
    borderWidth: '1px',
    borderStyle: 'solid',
    borderRadius: 'md',
    fontWeight: 'medium',
    '& p': { m: '0' },
  }),
  info: css({ bg: 'blue.50', borderColor: 'blue.700', color: 'blue.700' }),
  error: css({ bg: 'red.50', borderColor: 'red.700', color: 'red.700' }),
  inline: css({ m: '0', mt: '1', fontSize: 'sm', color: 'gray.900' }),
}

/** Codes (coach, seat names) are printed and typed in Latin letters: read as English inside a Bengali sentence. */
const code = (text: string) => <span lang="en">{text}</span>
/** The operator's words are in the language it typed them in. */
const words = (text: string) => <span lang={/[\u0980-\u09FF]/.test(text) ? 'bn' : 'en'}>{text}</span>

/** The sentences saying `c`, in `lang`: each a message with its values. */
function sentences(rt: ReturnType<typeof useRichT>, c: TicketChange, lang: Locale, paidWith: Reservation['paidWith']): ReactNode[] {
  // where a refund to the gateway goes back: the card or wallet the ticket was paid with
  const place = rt('ticket.methodCard', { place: paidWith ?? 'card' })
  switch (c.kind) {
    case 'tripCanceled': {
      // the operator's Bengali words on a Bengali page when it gave them, else its English ones
      const reason = words(lang === 'bn' && c.reasonBn ? c.reasonBn : c.reason)
      return [
        c.refund !== null
          ? rt(refundMessageId(c), { reason: reason, amount: formatMoney(c.refund, lang), place })
          : rt('ticketChange.tripCanceled', { reason: reason }),
      ]
    }
    case 'moved':
      return [
        rt('ticketChange.moved', { coach: code(c.coach), seats: code(c.seats), departure: formatDateTime(c.departure, lang) }),
        ...(c.from ? [rt('ticketChange.movedFrom', { coach: code(c.from.coachCode), departure: formatDateTime(c.from.departureTime, lang) })] : []),
        rt('ticketChange.movedMayCancel', {}),
      ]
    case 'moveRefused':
      return [rt(refundMessageId(c), { amount: formatMoney(c.refund, lang), place })]
  }
}

/**
 * What the operator did to ticket `r`, in words (nothing when it did nothing): paragraphs in a
 * box under the ticket's status, or one line (`inline`, My tickets). Loaded by the ticket page
 * and My tickets only (with their messages), not by the success page, which is at its size budget.
 */
export function TicketChangeNote({ r, lang, inline = false }: { r: Reservation; lang: Locale; inline?: boolean }) {
  const rt = useRichT()
  const change = ticketChange(r)
  if (!change) return null
  const all = sentences(rt, change, lang, r.paidWith)
  return inline ? (
    <p className={styles.inline} data-testid="ticket-change">
      {all.map((text, i) => (
        <span key={i}>
          {i > 0 ? ' ' : null}
          {text}
        </span>
      ))}
    </p>
  ) : (
    <div className={`${styles.block} ${change.kind === 'moved' ? styles.info : styles.error}`} data-testid="ticket-change">
      {all.map((text, i) => (
        <p key={i}>{text}</p>
      ))}
    </div>
  )
}
