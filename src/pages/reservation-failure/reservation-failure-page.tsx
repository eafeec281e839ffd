import { type ReactNode, useEffect, useMemo } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { Reservation } from '../../../contract/schemas.ts'
import { ButtonLink } from '../../../design-system/button/index.ts'
import { StatusMessage } from '../../../design-system/status/index.ts'
import { useT } from '../../app/use-t.ts'
import { navigate, currentRoute } from '../../router.ts'
import { BookingModel } from '../../models/booking.ts'
import { BookingContext } from '../../parts/use-booking.ts'
import { useVisitModel } from '../../parts/use-visit-model.ts'
import { ServerError } from '../../parts/form-parts.tsx'
import { page } from '../../parts/page-styles.ts'
import { PayPanel } from '../../parts/pay-panel.tsx'
import { PaymentPending } from '../../parts/payment-pending.tsx'
import { Announcer } from '../../parts/announcer.tsx'
import { session, ui } from '../../app-models.ts'

/** Where the booking was made: back to its seat page. */
function bookingHref(r: Reservation): string {
  return `/reservation?tripId=${r.tripId}&from=${r.origin.code}&to=${r.destination.code}&date=${r.tripDate}`
}

/**
 * /reservation/failure: confirms the declined (or abandoned) card payment with
 * the server, says what happened, and while the booking's time lasts offers
 * the card again or the balance; the seats stay booked until then.
 */
export default function ReservationFailurePage() {
  useSignals()
  const t = useT()
  const lang = ui.language.value
  const search = currentRoute.value?.search ?? ''
  const paymentId = useMemo(() => {
    const id = new URLSearchParams(search).get('paymentId')
    return id && /^[A-Za-z0-9_-]{1,100}$/.test(id) ? id : null
  }, [search])
  // this visit's booking: the payment's result, and paying again
  const booking = useVisitModel(() => new BookingModel(session))

  useEffect(() => {
    if (paymentId) void booking.confirmPayment(paymentId, 'failure')
  }, [booking, paymentId])

  useEffect(() => booking.startClock(), [booking])

  const result = paymentId && booking.paymentResult.value?.paymentId === paymentId ? booking.paymentResult.value : null
  // the status alone (not the tab that paid, its payer not signed in here): no booking to offer
  const r = result?.full ? booking.booking.value : null
  const phase = booking.phase.value
  const error = booking.error.value?.scope === 'confirm' ? booking.error.value : null

  let body: ReactNode
  if (!paymentId) {
    body = (
      <p>
        <ButtonLink href="/" variant="outline">
          {t('seatChoice.backToSearch')}
        </ButtonLink>
      </p>
    )
  } else if (error) {
    body = <ServerError error={error} />
  } else if (!result) {
    body = (
      <p role="status" className={page.muted}>
        {t('payment.confirming')}
      </p>
    )
  } else if (result.status === 'APPROVED') {
    body = (
      <>
        <StatusMessage tone="info">{t('payment.wasApproved')}</StatusMessage>
        <p>
          <ButtonLink href={`/reservation/success?paymentId=${encodeURIComponent(paymentId)}`}>{t('booking.viewTicket')}</ButtonLink>
        </p>
      </>
    )
  } else if (result.status === 'REVIEW') {
    body = <StatusMessage tone="info">{t('payment.underReview')}</StatusMessage>
  } else if (result.status === 'PENDING') {
    // the gateway could not say yet whether the card was charged: not declined
    body = <PaymentPending paymentId={paymentId} />
  } else if (!result.full) {
    body = <StatusMessage tone="error">{t('payment.declined')}</StatusMessage>
  } else if (r && phase === 'booked') {
    body = (
      <>
        <StatusMessage tone="error">{t('payment.declinedKept')}</StatusMessage>
        <section aria-labelledby="retry-heading" className={page.card}>
          <h2 id="retry-heading" className={page.h3}>
            {t('payment.retryHeading')}
          </h2>
          <PayPanel r={r} withCoupon={false} onPaid={(sold) => navigate(`/reservation/success?reservationId=${sold.id}`)} />
          <p>
            <a href={bookingHref(r)}>{t('payment.backToBooking')}</a>
          </p>
        </section>
      </>
    )
  } else {
    body = (
      <>
        <StatusMessage tone="error">{t('payment.declinedEnded')}</StatusMessage>
        <p>
          <ButtonLink href="/" variant="outline">
            {t('seatChoice.backToSearch')}
          </ButtonLink>
        </p>
      </>
    )
  }

  return (
    <BookingContext.Provider value={booking}>
      <h1 className={page.h1} tabIndex={-1}>
        {t('reservationFailure.heading')}
      </h1>
      <Announcer announcement={booking.announcement.value} lang={lang} />
      {body}
    </BookingContext.Provider>
  )
}
