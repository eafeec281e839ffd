import { useEffect, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import type { Reservation } from '../../../contract/schemas.ts'
import { css, cx } from '../../../styled-system/css'
import { Button } from '../../../design-system/button/index.ts'
import { useT } from '../../app/use-t.ts'
import { navigate } from '../../router.ts'
import { useBooking } from '../../parts/use-booking.ts'
import { focusIdWhenShown } from '../../lib/focus.ts'
import { PayPanel } from '../../parts/pay-panel.tsx'
import { ServerError, form } from '../../parts/form-parts.tsx'
import { page } from '../../parts/page-styles.ts'
import { Announcer } from '../../parts/announcer.tsx'
import { BookingForm } from './booking-form.tsx'
import { useHold } from './use-hold.ts'
import { useSeatPage } from './use-seat-page.ts'
import { session, ui } from '../../app-models.ts'

const styles = {
  box: css({ display: 'flex', flexDirection: 'column', gap: '3' }),
}

/** Sends a visitor to /login and back here with the seats still held (`keepSeats`: the seat page's keepSeatsOnLeave). */
function loginToBook(keepSeats: () => void): void {
  keepSeats()
  session.rememberRedirect(location.pathname + location.search)
  navigate('/login')
}

// A round trip's parts (the way to the return trip, the return leg, a return lost) load only for a round trip.
type RoundTrip = typeof import('./round-trip-panel.tsx').RoundTripPanel
function useRoundTripPanel(wanted: boolean): RoundTrip | null {
  const [panel, setPanel] = useState<RoundTrip | null>(null)
  useEffect(() => {
    if (wanted) void import('./round-trip-panel.tsx').then((m) => setPanel(() => m.RoundTripPanel))
  }, [wanted])
  return panel
}

function paid(res: Reservation): void {
  navigate(`/reservation/success?reservationId=${res.id}`)
}

/**
 * The booking step below the fare summary: passenger details and Book (login
 * first for visitors), then the booked reservation's coupon, Extend and the
 * two ways to pay. A live booking of this trip (reload, second tab, back from
 * the gateway) is picked up instead of booking again.
 */
export function BookingPanel() {
  useSignals()
  const seatChoice = useSeatPage()
  const hold = useHold()
  const booking = useBooking()
  const t = useT()
  const details = seatChoice.tripDetails.value
  const signedIn = session.isSignedIn.value
  const current = booking.booking.value
  const mine = current && details && current.tripId === details.tripId ? current : null
  const phase = mine ? booking.phase.value : 'form'
  const busy = booking.busy.value
  const RoundTrip = useRoundTripPanel(!!mine?.roundTrip || /[?&](return|outbound)=/.test(location.search))

  // a live booking of the trip is picked up (the link below holds its seats on the seat map, after a fresh answer too)
  useEffect(() => {
    if (details && signedIn) void booking.resume(details.tripId)
  }, [booking, details, signedIn])

  useEffect(() => {
    const stop = booking.startClock()
    // while the booking step is shown, a booking of the trip holds its seats on the seat map
    hold.linkBooking(booking)
    // back from the gateway through the browser's back/forward cache: the page may pay again
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) booking.cancelRedirect()
    }
    window.addEventListener('pageshow', onShow)
    return () => {
      stop()
      hold.linkBooking(null)
      window.removeEventListener('pageshow', onShow)
    }
  }, [hold, booking])

  if (!details) return null
  return (
    <section aria-labelledby="booking-heading" className={cx(page.card, styles.box)} data-testid="booking-panel">
      <h2 id="booking-heading" className={page.h3} tabIndex={-1}>
        {phase === 'booked' ? t('booking.bookedHeading') : t('booking.heading')}
      </h2>
      <Announcer announcement={booking.announcement.value} lang={ui.language.value} />
      {phase === 'booked' && mine ? (
        <>
          <p>{t('booking.bookedIntro', { seats: mine.seats.map((s) => s.name).join(', ') })}</p>
          {RoundTrip ? <RoundTrip r={mine} /> : null}
          <PayPanel r={mine} onPaid={paid} />
          <ServerError error={booking.error.value?.scope === 'cancel' ? booking.error.value : null} />
          <div>
            <button
              type="button"
              className={form.linkButton}
              disabled={busy !== null}
              onClick={async () => {
                if (await booking.cancelBooking()) focusIdWhenShown('booking-ended')
              }}
            >
              {t('booking.cancelBooking')}
            </button>
          </div>
        </>
      ) : phase === 'sold' && mine ? (
        <p>
          <a href={`/reservation/success?reservationId=${mine.id}`}>{t('booking.viewTicket')}</a>
        </p>
      ) : phase === 'ended' ? (
        // no live region: the booking's announcer says how it ended (cancelled, time over), once
        <div>
          <p id="booking-ended" tabIndex={-1}>
            {t('booking.ended')}
          </p>
          <Button
            variant="outline"
            onClick={() => {
              booking.resetBooking()
              focusIdWhenShown('booking-heading')
            }}
          >
            {t('booking.startAgain')}
          </Button>
        </div>
      ) : signedIn ? (
        <>
          {RoundTrip ? <RoundTrip r={null} /> : null}
          <BookingForm />
        </>
      ) : (
        <>
          <p>{t('booking.loginNeeded')}</p>
          <div>
            <Button onClick={() => loginToBook(seatChoice.keepSeatsOnLeave)}>{t('booking.loginToBook')}</Button>
          </div>
        </>
      )}
    </section>
  )
}
