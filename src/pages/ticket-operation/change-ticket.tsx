import { useEffect, useId, useRef, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { Reservation, TripSummary } from '../../../contract/schemas.ts'
import { reservationStatus } from '../../../contract/values.ts'
import { css, cx } from '../../../styled-system/css'
import { Button } from '../../../design-system/button/index.ts'
import { useT } from '../../app/use-t.ts'
import { formatDate, formatTime, todayInDhaka } from '../../lib/dates.ts'
import { focusIdWhenShown } from '../../lib/focus.ts'
import { formatMoney } from '../../lib/money.ts'
import { type ChangePay, TicketChangeModel } from '../../models/ticket-change.ts'
import { SeatPageModel } from '../../models/seat-page.ts'
import { keepResultToken } from '../../stores/payment-tokens.ts'
import { form } from '../../parts/form-parts.tsx'
import { page } from '../../parts/page-styles.ts'
import { quoteList } from '../../parts/quote-list.ts'
import { ServerError } from '../../parts/server-error.tsx'
import { useVisitModel } from '../../parts/use-visit-model.ts'
import { SeatMap } from '../reservation/seat-layout.tsx'
import { SeatPageContext } from '../reservation/use-seat-page.ts'
import { ui } from '../../app-models.ts'
import { refundSplitText } from './refund-parts.ts'
import { useTicket } from './use-ticket.ts'

const styles = {
  box: css({ display: 'flex', flexDirection: 'column', gap: '4', mt: '4' }),
  date: css({
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-end',
    gap: '3',
    '& input': { minHeight: '11', px: '2', borderWidth: '1px', borderRadius: 'md' },
  }),
  trips: css({ listStyle: 'none', p: '0', m: '0', display: 'flex', flexDirection: 'column', gap: '2' }),
  // the chosen trip shows by its border and weight, not by colour alone (forced colours keep both)
  trip: css({ '&[aria-pressed=true]': { borderWidth: '3px', fontWeight: 'bold' } }),
}

// Mobile wallets first, as on the booking page; each id written out for the build's message scan.
const gatewayChoices: [ChangePay, string][] = [
  ['bkash', 'booking.payBkash'],
  ['nagad', 'booking.payNagad'],
  ['rocket', 'booking.payRocket'],
  ['card', 'booking.payCard'],
]

/**
 * Moving ticket or live booking `r` to another trip of its route: a date, that day's trips, the chosen trip's live
 * seat map, the difference once as many seats are chosen as the ticket has, and the change (paid
 * from the balance or on the gateway's page, or refunded). `onClose` takes it away; focus goes
 * back to the button that opened it.
 */
export function ChangeTicket({ r, onClose: close }: { r: Reservation; onClose: () => void }) {
  useSignals()
  const tk = useTicket()
  const t = useT()
  const lang = ui.language.value
  const seats = useVisitModel(() => new SeatPageModel(ui))
  const change = useVisitModel(() => new TicketChangeModel(r, seats))
  const [date, setDate] = useState<string>(r.tripDate)
  const heading = useRef<HTMLHeadingElement>(null)
  const dateId = useId()
  const busy = change.busy.value
  const trips = change.trips.value
  const trip = change.trip.value
  const quote = change.quote.value
  const chosen = seats.countedSeats.value.length
  // a live unpaid booking moves free: no charge, nothing to pay or get back
  const booking = r.status === reservationStatus.booked

  useEffect(() => {
    heading.current?.focus()
    // the seats held for the new trip go back when the passenger leaves without changing
    return () => void seats.leavePage()
  }, [seats])

  const onClose = () => {
    close()
    focusIdWhenShown('change-ticket-button')
  }

  const confirm = async (pay: ChangePay) => {
    const out = await change.confirm(pay)
    if (out?.payment) {
      keepResultToken(out.payment.paymentId, out.payment.resultToken)
      window.location.assign(out.payment.redirectUrl)
    } else if (out?.reservation) {
      await tk.showChanged(out.reservation, booking ? 'dateChange.bookingDone' : undefined)
      onClose()
    }
  }

  return (
    <section aria-labelledby="change-heading" className={cx(page.card, styles.box)} data-print="hide">
      <h2 id="change-heading" ref={heading} tabIndex={-1} className={page.h3}>
        {t('dateChange.heading')}
      </h2>
      <p className={page.muted}>{t(booking ? 'dateChange.bookingIntro' : 'dateChange.intro', { count: change.seatsNeeded.value })}</p>
      <form
        noValidate
        className={styles.date}
        onSubmit={(e) => {
          e.preventDefault()
          if (busy === null && date) void change.searchTrips(date)
        }}
      >
        <div className={form.root}>
          <label htmlFor={dateId}>{t('dateChange.date')}</label>
          <input id={dateId} className={page.select} type="date" value={date} min={todayInDhaka()} onChange={(e) => setDate(e.currentTarget.value)} />
        </div>
        <Button type="submit" variant="outline" aria-disabled={busy !== null || undefined}>
          {busy === 'trips' ? t('common.loading') : t('dateChange.findTrips')}
        </Button>
      </form>
      <ServerError error={change.error.value} />
      {trips ? (
        <section aria-labelledby="change-trips-heading">
          <h3 id="change-trips-heading" className={page.h3}>
            {t('dateChange.tripsHeading', { date: formatDate(date, lang) })}
          </h3>
          {trips.length === 0 ? (
            <p role="status">{t('dateChange.noTrips')}</p>
          ) : (
            <ul className={styles.trips}>
              {trips.map((x) => (
                <li key={x.tripId}>
                  <TripButton x={x} chosen={trip?.tripId === x.tripId} onChoose={() => void change.chooseTrip(x)} />
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
      {trip ? (
        <SeatPageContext.Provider value={seats}>
          <p role="status">{chosen === change.seatsNeeded.value ? null : t('dateChange.chooseSeats', { count: change.seatsNeeded.value })}</p>
          <SeatMap />
        </SeatPageContext.Provider>
      ) : null}
      {quote ? (
        <section aria-labelledby="change-quote-heading" className={styles.box}>
          <h3 id="change-quote-heading" className={page.h3}>
            {t('dateChange.quoteHeading')}
          </h3>
          <dl className={quoteList} data-testid="change-quote">
            <dt>{t(booking ? 'dateChange.oldBooking' : 'dateChange.oldFare')}</dt>
            <dd>{formatMoney(quote.fare, lang)}</dd>
            <dt>{t('dateChange.newFare', { seats: quote.seats.map((s) => s.name).join(', ') })}</dt>
            <dd data-testid="change-new-fare">{formatMoney(quote.newFare, lang)}</dd>
            {booking ? null : (
              <>
                <dt>{t('dateChange.charge')}</dt>
                <dd>{formatMoney(quote.charge, lang)}</dd>
                <dt>
                  {quote.toPay > 0
                    ? t('dateChange.toPay')
                    : (refundSplitText(quote.refundParts, t, lang) ??
                      t(quote.refundTo === 'CARD' ? 'dateChange.refundCard' : 'dateChange.refund', {
                        place: t('ticket.methodCard', { place: quote.paidWith ?? 'card' }),
                      }))}
                </dt>
                <dd data-testid="change-difference">{formatMoney(quote.toPay > 0 ? quote.toPay : quote.refund, lang)}</dd>
              </>
            )}
          </dl>
          <div className={form.actions}>
            {quote.toPay > 0 ? (
              <>
                {gatewayChoices.map(([pay, label]) => (
                  <Button key={pay} variant="outline" aria-disabled={busy !== null || undefined} onClick={() => busy === null && void confirm(pay)}>
                    {t(label, { total: formatMoney(quote.toPay, lang) })}
                  </Button>
                ))}
                <Button aria-disabled={busy !== null || undefined} onClick={() => busy === null && void confirm('balance')}>
                  {busy === 'confirm' ? t('booking.paying') : t('dateChange.payBalance', { amount: formatMoney(quote.toPay, lang) })}
                </Button>
              </>
            ) : (
              <Button aria-disabled={busy !== null || undefined} onClick={() => busy === null && void confirm('balance')}>
                {busy === 'confirm' ? t('common.loading') : t(booking ? 'dateChange.confirmBooking' : 'dateChange.confirm')}
              </Button>
            )}
          </div>
        </section>
      ) : null}
      <div>
        <Button variant="ghost" onClick={onClose}>
          {t(booking ? 'dateChange.keepBooking' : 'dateChange.keep')}
        </Button>
      </div>
    </section>
  )
}

/** One trip of the day: its departure, coach, lowest fare and free seats; choosing it shows its seat map. */
function TripButton({ x, chosen, onChoose }: { x: TripSummary; chosen: boolean; onChoose: () => void }) {
  const t = useT()
  const lang = ui.language.value
  return (
    <Button variant="outline" className={styles.trip} aria-pressed={chosen} onClick={onChoose}>
      {t('dateChange.trip', {
        time: formatTime(x.departureTime, lang),
        coach: x.coachCode,
        fare: formatMoney(x.fareFrom, lang),
        seats: x.availableSeats,
      })}
    </Button>
  )
}
