import { useEffect } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { Reservation } from '../../../contract/schemas.ts'
import { css } from '../../../styled-system/css'
import { Button } from '../../../design-system/button/index.ts'
import { useT } from '../../app/use-t.ts'
import { formatDateTime } from '../../lib/dates.ts'
import { focusIdWhenShown } from '../../lib/focus.ts'
import { formatMoney } from '../../lib/money.ts'
import { page } from '../../parts/page-styles.ts'
import { useBooking } from '../../parts/use-booking.ts'
import { ui } from '../../app-models.ts'

const styles = {
  // the two ways on, apart enough to be told apart by touch
  choices: css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '4', mt: '2' }),
}

const cityOf = (c: Reservation['origin'], bn: boolean) => (bn ? c.nameBn : c.name)

/**
 * A round trip on the booking step (docs/architecture.md, Round trips): on the outbound's booking, the way
 * to the return trip; on the return's form, that the outbound stays booked; on the outbound with its return
 * leg, that leg and the total of both, and when its seats were lost (RETURN_SEATS_LOST) the choice to pay
 * the outbound alone or to choose the return again.
 */
export function RoundTripPanel({ r }: { r: Reservation | null }) {
  useSignals()
  const booking = useBooking()
  const t = useT()
  const lang = ui.language.value
  const bn = lang === 'bn'
  const q = new URLSearchParams(location.search)
  const back = r?.roundTrip?.leg === 'outbound' ? r.roundTrip.other : null
  const lost = !!back && booking.error.value?.code === 'RETURN_SEATS_LOST'
  const alone = booking.outboundOnly.value
  // the refusal is read where the passenger is; the choice it asks for is here
  useEffect(() => {
    if (lost) focusIdWhenShown('round-trip-lost')
  }, [lost])

  if (!r) return q.get('outbound') ? <p data-testid="round-trip">{t('roundTrip.returnForm')}</p> : null
  const returnDate = q.get('return')
  if (!back) {
    if (!returnDate || r.roundTrip) return null
    const next = `/search?from=${r.destination.code}&to=${r.origin.code}&date=${returnDate}&outbound=${r.id}`
    return (
      <section aria-labelledby="round-trip-heading" data-testid="round-trip">
        <h3 id="round-trip-heading" className={page.h3}>
          {t('roundTrip.heading')}
        </h3>
        <p>{t('roundTrip.next')}</p>
        <p>
          <a href={next}>{t('roundTrip.chooseReturn')}</a>
        </p>
      </section>
    )
  }
  const again = `/search?from=${back.origin.code}&to=${back.destination.code}&date=${back.tripDate}&outbound=${r.id}`
  return (
    <section aria-labelledby="round-trip-heading" data-testid="round-trip">
      <h3 id="round-trip-heading" className={page.h3}>
        {t('roundTrip.heading')}
      </h3>
      <p>
        {t('roundTrip.returnLeg', {
          from: cityOf(back.origin, bn),
          to: cityOf(back.destination, bn),
          time: formatDateTime(back.departureTime, lang),
          seats: back.seats.join(', '),
          total: formatMoney(back.total, lang),
        })}
      </p>
      {alone ? (
        <p id="round-trip-alone" tabIndex={-1}>
          {t('roundTrip.aloneChosen', { total: formatMoney(booking.amountDue.value, lang) })}
        </p>
      ) : lost ? (
        <div>
          <p id="round-trip-lost" tabIndex={-1}>
            {t('roundTrip.lost')}
          </p>
          <div className={styles.choices}>
            <Button
              variant="outline"
              onClick={() => {
                booking.payOutboundOnly()
                focusIdWhenShown('round-trip-alone')
              }}
            >
              {t('roundTrip.payAlone', { total: formatMoney(r.fare.total, lang) })}
            </Button>
            <a href={again}>{t('roundTrip.chooseAgain')}</a>
          </div>
        </div>
      ) : (
        <p>{t('roundTrip.total', { total: formatMoney(booking.amountDue.value, lang) })}</p>
      )}
    </section>
  )
}
