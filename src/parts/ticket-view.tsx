import type { ReactNode } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { Reservation } from '../../contract/schemas.ts'
import { css, cx } from '../../styled-system/css'
import { button } from '../../styled-system/recipes'
import { StatusBadge } from '../../design-system/status/index.ts'
import { useRichT, useT } from '../app/use-t.ts'
import { formatCalendarDate, formatDateTime, formatTime, localizeDigits, type Locale } from '../lib/dates.ts'
import { formatMoney } from '../lib/money.ts'
import { page } from './page-styles.ts'
import { deferred } from './deferred.tsx'
import { qrBox } from './ticket-qr-box.ts'
import { statusMessageIds, statusTone } from './ticket-status.ts'
import { ui } from '../app-models.ts'

// a choice made once the ticket shows: not in the page's first render
const KeepOnDevice = deferred(() => import('./keep-on-device.tsx').then((m) => m.KeepOnDevice), { afterShown: true })

const styles = {
  card: css({
    display: 'flex',
    flexDirection: 'column',
    gap: '4',
    // printing: only the ticket, on one A4 page
    _print: {
      boxShadow: 'none',
      border: '1px solid black',
      p: '4',
      gap: '3',
      fontSize: '10pt',
      breakInside: 'avoid',
    },
  }),
  top: css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '2' }),
  brand: css({ fontWeight: 'bold', color: 'brand.800', fontSize: 'lg' }),
  keyRow: css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '4', justifyContent: 'space-between' }),
  keys: css({ display: 'flex', flexWrap: 'wrap', gap: '3' }),
  key: css({
    display: 'flex',
    flexDirection: 'column',
    border: '2px solid {colors.brand.700}',
    borderRadius: 'md',
    px: '4',
    py: '2',
    minWidth: '8rem',
    '& dt': { fontSize: 'sm', fontWeight: 'bold', color: 'gray.800' },
    '& dd': { m: '0', fontSize: '2xl', fontWeight: 'bold', letterSpacing: '0.08em', fontVariantNumeric: 'tabular-nums', color: 'gray.900' },
  }),
  details: css({
    display: 'grid',
    gridTemplateColumns: '1fr',
    gap: '3',
    m: '0',
    sm: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
    _print: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: '2' },
    '& dt': { fontWeight: 'bold', color: 'gray.800', fontSize: 'sm' },
    '& dd': { m: '0' },
  }),
  fare: css({
    width: 'full',
    maxWidth: '24rem',
    borderCollapse: 'collapse',
    fontVariantNumeric: 'tabular-nums',
    '& th, & td': { textAlign: 'start', py: '1', borderBottom: '1px solid {colors.gray.200}' },
    '& td': { textAlign: 'end' },
    '& tr:last-child th, & tr:last-child td': { fontWeight: 'bold', borderBottom: 'none' },
  }),
  actions: css({ display: 'flex', flexWrap: 'wrap', gap: '3' }),
  note: css({ color: 'gray.600', fontSize: 'sm', m: '0' }),
  saved: css({ borderInlineStart: '4px solid {colors.blue.700}', ps: '3', '& p': { m: '0' } }),
  savedTitle: css({ fontWeight: 'bold' }),
}

/**
 * Printing shows the ticket alone on one A4 page. A style element rather than
 * a Panda class: the rule must reach the layout around the ticket (header,
 * footer, the rest of the page) and the @page box, and only while a ticket is
 * on screen.
 */
const PRINT_RULES = [
  '@page { size: A4; margin: 12mm; }',
  '@media print {',
  '  body *:not([data-print-ticket]):not(:has([data-print-ticket])):not([data-print-ticket] *),',
  '  [data-print-ticket] [data-print=hide] { display: none !important; }',
  '  html, body, body *:has([data-print-ticket]) { min-height: 0 !important; margin: 0 !important; padding: 0 !important; max-width: none !important; background: white !important; box-shadow: none !important; }',
  '}',
].join('\n')

function cityName(c: Reservation['origin'], lang: Locale): string {
  return lang === 'bn' ? c.nameBn : c.name
}

// The QR code (Ark QrCode and its encoder) arrives after the ticket's text has painted, in a box of its size.
const TicketQr = deferred(() => import('./ticket-qr.tsx').then((m) => m.TicketQr), { afterShown: true })

/** Props for TicketView. */
export interface TicketViewProps {
  reservation: Reservation
  /** Heading level 2 text (the page's h1 says where the passenger is). */
  heading: string
  /** More actions after print and calendar (resend, cancel, view in ticket operation). */
  children?: ReactNode
  /** This device's saved copy, not the server's answer: when the server sent it (epoch ms). */
  savedAt?: number | null
  /** What the operator did to the ticket, in words (ticket-change-note.tsx), under its status (a cancelled trip's note says the refund). */
  change?: ReactNode
}

/**
 * One rule for numbers and codes on a ticket, kept by the ticket page, the success page, My tickets
 * (src/pages/profile/my-tickets.tsx), the cancel step and the printed ticket: every number is written
 * in the page's digits (Bengali in Bengali) — money, dates, times, counts, the PIN and phone numbers
 * (the PIN is accepted back in Bengali digits); codes and names issued in Latin letters — PNR, coach
 * code, seat names, counter names, a coupon, a passenger name typed in English — stay as issued,
 * marked lang="en" so a screen reader reads them in English. `asIssued` marks one (a name typed in
 * Bengali is left in the page's language).
 */
const asIssued = (text: string) => <span lang={/[\u0980-\u09FF]/.test(text) ? undefined : 'en'}>{text}</span>

/**
 * The ticket: status, PNR and PIN with their QR code, trip, coach, seats,
 * counters, passenger and fare paid, with print (one A4 page) and add to
 * calendar; a saved copy says from when. Shared by /reservation/success and /ticket-operation.
 */
export function TicketView({ reservation: r, heading, children, savedAt = null, change = null }: TicketViewProps) {
  useSignals()
  const t = useT()
  const rt = useRichT()
  // where a gateway payment came from, as the ticket names it ("bKash wallet", "card")
  const paidFrom = t('ticket.methodCard', { place: r.paidWith ?? 'card' })
  const lang = ui.language.value
  const from = cityName(r.origin, lang)
  const to = cityName(r.destination, lang)
  const seatNames = r.seats.map((s) => s.name).join(', ')
  const status = statusMessageIds[r.status] ? t(statusMessageIds[r.status]!) : String(r.status)
  const hasKeys = !!r.pnr
  const canCalendar = r.status === 1 || r.status === 2 || r.status === 10
  const station = (s: Reservation['boardingStation']) => (
    <>
      {asIssued(s.name)}
      {s.time ? `, ${formatTime(s.time, lang)}` : null}
    </>
  )

  return (
    <section aria-labelledby="ticket-heading" className={cx(page.card, styles.card)} data-testid="ticket" data-print-ticket="">
      <style>{PRINT_RULES}</style>
      <div className={styles.top}>
        <h2 id="ticket-heading" className={page.h3}>
          {heading}
        </h2>
        <span className={styles.brand}>{t('app.name')}</span>
      </div>
      {savedAt !== null ? (
        <div className={styles.saved} data-testid="ticket-saved-copy">
          <p className={styles.savedTitle}>{t('ticket.savedCopy', { time: formatDateTime(savedAt, lang) })}</p>
          <p className={styles.note}>{t('ticket.savedCopyHint')}</p>
        </div>
      ) : null}
      <p>
        {t('ticket.status')}{' '}
        <StatusBadge tone={statusTone(r.status)} data-testid="ticket-status">
          {status}
        </StatusBadge>
      </p>
      {change}
      {hasKeys ? (
        <div className={styles.keyRow}>
          <dl className={styles.keys}>
            <div className={styles.key}>
              <dt>{t('ticket.pnr')}</dt>
              <dd data-testid="ticket-pnr" lang="en">
                {r.pnr}
              </dd>
            </div>
            {r.pin ? (
              <div className={styles.key}>
                <dt>{t('ticket.pin')}</dt>
                <dd data-testid="ticket-pin">{localizeDigits(r.pin, lang)}</dd>
              </div>
            ) : null}
            {r.roundTrip?.other.pnr ? (
              <div className={styles.key}>
                <dt>{t(r.roundTrip.leg === 'outbound' ? 'ticket.returnPnr' : 'ticket.outboundPnr')}</dt>
                <dd data-testid="round-trip-pnr" lang="en">
                  {r.roundTrip.other.pnr}
                </dd>
              </div>
            ) : null}
          </dl>
          <TicketQr r={r} label={t('ticket.qrLabel')} fallback={<div className={qrBox} />} />
        </div>
      ) : null}
      <dl className={styles.details}>
        <div>
          <dt>{t('ticket.trip')}</dt>
          <dd>{t('ticket.route', { from, to })}</dd>
        </div>
        <div>
          <dt>{t('ticket.departure')}</dt>
          <dd>{formatDateTime(r.departureTime, lang)}</dd>
        </div>
        <div>
          <dt>{t('ticket.coach')}</dt>
          <dd>
            {asIssued(r.coach.code)}, {t(`coachType.${r.coach.type}`)}
          </dd>
        </div>
        <div>
          <dt>{t('ticket.seats')}</dt>
          <dd data-testid="ticket-seats" lang="en">
            {seatNames}
          </dd>
        </div>
        <div>
          <dt>{t('ticket.boarding')}</dt>
          <dd>{station(r.boardingStation)}</dd>
        </div>
        <div>
          <dt>{t('ticket.dropping')}</dt>
          <dd>{station(r.droppingStation)}</dd>
        </div>
        <div>
          <dt>{t('ticket.passenger')}</dt>
          <dd>
            {asIssued(r.passengerName)}, {localizeDigits(r.passengerMobile, lang)}
          </dd>
        </div>
        <div>
          <dt>{t('ticket.tripDate')}</dt>
          <dd>{formatCalendarDate(r.tripDate, lang)}</dd>
        </div>
      </dl>
      <table className={styles.fare}>
        <caption className={css({ textAlign: 'start', fontWeight: 'bold', mb: '1' })}>{t('ticket.fareHeading')}</caption>
        <tbody>
          <tr>
            <th scope="row">{t('booking.subtotal')}</th>
            <td>{formatMoney(r.fare.subtotal, lang)}</td>
          </tr>
          {r.fare.discount > 0 ? (
            <tr>
              <th scope="row">{rt('booking.discount', { code: asIssued(r.fare.couponCode ?? '') })}</th>
              <td>−{formatMoney(r.fare.discount, lang)}</td>
            </tr>
          ) : null}
          <tr>
            <th scope="row">{r.paidAt ? t('ticket.farePaid') : t('booking.total')}</th>
            <td data-testid="ticket-total">{formatMoney(r.fare.total, lang)}</td>
          </tr>
        </tbody>
      </table>
      {r.paidAt && r.paymentMethod ? (
        <p className={styles.note}>
          {t('ticket.paidWith', {
            method: r.paymentMethod === 'CARD' ? paidFrom : t('ticket.methodBalance'),
            at: formatDateTime(r.paidAt, lang),
          })}
        </p>
      ) : null}
      {/* a trip the operator cancelled: its note says why and where the money goes; a card refund's state is still said here */}
      {r.canceledAt && (r.cancelReason !== 'TRIP_CANCELED' || r.refund?.to === 'CARD') ? (
        <p className={styles.note} data-testid="ticket-refund">
          {r.refund?.to === 'CARD' ? (
            <>
              {t('ticket.canceledOn', { at: formatDateTime(r.canceledAt, lang) })}{' '}
              {t(`ticket.refundCard${r.refund.status}`, {
                refund: formatMoney(r.refund.amount, lang),
                place: paidFrom,
                at: r.refund.refundedAt ? formatDateTime(r.refund.refundedAt, lang) : '',
              })}
            </>
          ) : (
            t('ticket.canceledNote', { at: formatDateTime(r.canceledAt, lang), refund: formatMoney(r.refundAmount ?? 0, lang) })
          )}
        </p>
      ) : null}
      <div className={styles.actions} data-print="hide">
        <button type="button" className={button({ variant: 'outline' })} onClick={() => window.print()}>
          {t('ticket.print')}
        </button>
        {canCalendar ? (
          <button
            type="button"
            className={button({ variant: 'outline' })}
            // the calendar file's code and words load when asked for, not with the ticket
            onClick={() => void import('./ticket-calendar.ts').then((m) => m.downloadCalendar(r, t, lang))}
          >
            {t('ticket.addToCalendar')}
          </button>
        ) : null}
        {children}
      </div>
      <KeepOnDevice reservation={r} />
    </section>
  )
}
