import { useEffect, useMemo } from 'react'
import { useIntl } from 'react-intl'
import { useComputed, useSignals } from '@preact/signals-react/runtime'
import { css, cx } from '../../../styled-system/css'
import { button } from '../../../styled-system/recipes'
import { SeatGrid, type SeatGridLabels, type SeatGridState } from '../../../design-system/seat-grid/index.ts'
import { useRichT, useT } from '../../app/use-t.ts'
import { formatCalendarDate, formatDate, formatTime } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { currentRoute } from '../../router.ts'
import { cityName, loadLookups, lookupsLoaded } from '../../stores/lookups.ts'
import * as r from '../../stores/seat-choice.ts'
import { language } from '../../stores/ui.ts'
import { page } from '../../parts/page-styles.ts'
import { HoldTimer } from './hold-timer.tsx'
import { FareSummary } from './fare-summary.tsx'
import { Counters } from './counters.tsx'
import { BookingPanel } from './booking-panel.tsx'
import { useLagging } from './use-lagging.ts'
import { seatTypeId } from './seat-type-id.ts'
import { SeatBar } from './seat-bar.tsx'

const styles = {
  trip: css({ mb: '4', color: 'gray.800', fontSize: 'lg' }),
  layout: css({
    display: 'grid',
    gap: '6',
    gridTemplateColumns: 'minmax(0, 1fr)',
    lg: { gridTemplateColumns: 'minmax(0, 1.3fr) minmax(18rem, 1fr)', alignItems: 'start' },
  }),
  seats: css({ display: 'flex', flexDirection: 'column', gap: '4', minWidth: '0' }),
  side: css({ display: 'flex', flexDirection: 'column', gap: '4', lg: { position: 'sticky', top: '24' } }),
  legendBox: css({ mt: '2' }),
  missing: css({ maxWidth: 'prose' }),
}

/** The trip a URL names: `/reservation?tripId=…&from=…&to=…&date=…`, or null. */
export function tripRefFromQuery(query: string): r.TripRef | null {
  const q = new URLSearchParams(query)
  const tripId = Number(q.get('tripId'))
  const from = q.get('from') ?? ''
  const to = q.get('to') ?? ''
  if (!Number.isInteger(tripId) || tripId <= 0 || !/^[A-Z]{3}$/.test(from) || !/^[A-Z]{3}$/.test(to)) return null
  const date = q.get('date') ?? undefined
  return { tripId, originCode: from, destinationCode: to, tripDate: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : undefined }
}

/** Seat names, fares and states as the grid says them, in the active language. */
function useSeatLabels(): SeatGridLabels {
  const intl = useIntl()
  return useMemo(() => {
    const t = (id: string, v?: Record<string, string | number>) => intl.formatMessage({ id }, v)
    const lang = intl.locale.startsWith('bn') ? 'bn' : 'en'
    // a toggle asks for the new name at once: remember every name made
    const names = new Map<string, string>()
    return {
      seat: (seat, state) => {
        const key = `${seat.deck}|${seat.name}|${state}`
        let name = names.get(key)
        if (name === undefined) {
          name = t('seatChoice.seatName', {
            name: seat.name,
            deck: t(seat.deck === 'UPPER' ? 'seatChoice.upperDeckLower' : 'seatChoice.lowerDeckLower'),
            type: t(seatTypeId(seat.seatType)),
            fare: formatMoney(seat.fare, lang),
            state: t(`seatState.${state}`),
          })
          names.set(key, name)
        }
        return name
      },
      deck: (d) => t(d === 'UPPER' ? 'seatChoice.upperDeck' : 'seatChoice.lowerDeck'),
      grid: (d) => t(d === 'UPPER' ? 'seatChoice.upperDeckSeats' : 'seatChoice.lowerDeckSeats'),
      decks: t('seatChoice.decks'),
      front: t('seatChoice.front'),
    }
  }, [intl])
}

const LEGEND_STATES: SeatGridState[] = ['available', 'selected', 'sold', 'booked', 'adminBooked', 'linked', 'held']

/** The seat map with its legend and live region. */
function SeatMap() {
  useSignals()
  const t = useT()
  const intl = useIntl()
  const labels = useSeatLabels()
  const details = r.tripDetails.value
  const lastEvent = useLagging(r.lastEvent)
  // the live region's text: a computed signal bound straight to the text node (no re-render), a task after the seat
  const live = useComputed(() => {
    const e = lastEvent.value
    if (!e) return ''
    const lang = language.value
    const total = intl.formatMessage(
      { id: 'seatChoice.runningTotal' },
      { count: r.countedSeats.peek().length, total: formatMoney(r.totalFare.peek(), lang) },
    )
    const seat = e.seatName ?? ''
    switch (e.kind) {
      case 'selected':
        return `${intl.formatMessage({ id: 'seatChoice.announceSelected' }, { name: seat })} ${total}`
      case 'deselected':
        return `${intl.formatMessage({ id: 'seatChoice.announceDeselected' }, { name: seat })} ${total}`
      case 'lockLost':
        return `${intl.formatMessage({ id: 'seat.lockLost' }, { names: seat })} ${total}`
      case 'failed':
        return `${intl.formatMessage({ id: 'seatChoice.announceFailed' }, { name: seat })} ${total}`
      case 'rejected':
        return intl.formatMessage({ id: 'seatChoice.announceRejected' }, { name: seat })
      case 'reset':
        return intl.formatMessage({ id: 'seatChoice.announceReset' })
      case 'expired':
        return intl.formatMessage({ id: 'seatChoice.holdExpired' })
      case 'extended':
        return intl.formatMessage({ id: 'seatChoice.announceExtended' })
    }
  })
  if (!details) return null
  const types = [...new Set(details.seatLayout.seats.map((s) => s.seatType))]
  return (
    <section aria-labelledby="seat-map-heading" className={styles.seats}>
      <h2 id="seat-map-heading" className={page.h3}>
        {t('seatChoice.mapHeading')}
      </h2>
      <p className={page.muted}>{t('seatChoice.keyboardHint')}</p>
      <SeatGrid.Root key={details.tripId} layout={details.seatLayout} getState={r.seatState} onToggle={r.toggleSeat} labels={labels} />
      <SeatGrid.LiveRegion message={live} />
      <div className={styles.legendBox}>
        <h3 className={page.h3}>{t('seatChoice.legend')}</h3>
        <SeatGrid.Legend
          label={t('seatChoice.legend')}
          states={LEGEND_STATES.map((state) => ({ state, label: t(`seatLegend.${state}`) }))}
          types={types.map((seatType) => ({ seatType, label: t(seatTypeId(seatType)) }))}
        />
      </div>
    </section>
  )
}

function TripLine() {
  useSignals()
  const t = useT()
  const rt = useRichT()
  const d = r.tripDetails.value
  const lang = language.value
  if (!d) return null
  const bn = lang === 'bn'
  return (
    <p className={styles.trip}>
      {rt('seatChoice.tripLine', {
        coach: <span lang="en">{d.coach.code}</span>,
        type: t(`coachType.${d.coach.type}`),
        from: cityName(d.originCode, bn),
        to: cityName(d.destinationCode, bn),
        date: formatCalendarDate(d.tripDate, lang),
        departs: formatTime(d.departureTime, lang),
        arrives: `${formatTime(d.arrivalTime, lang)}${formatDate(d.arrivalTime) !== formatDate(d.departureTime) ? ` (${formatDate(d.arrivalTime, lang)})` : ''}`,
      })}{' '}
      {t('trips.availableSeats', { count: r.availableSeats.value })}
    </p>
  )
}

/** Seat choice for one trip: counters, seat grid, fare summary, hold timer and the booking slot. */
function SeatChoice({ trip }: { trip: r.TripRef }) {
  useSignals()
  const t = useT()
  const status = r.loadStatus.value

  useEffect(() => {
    void r.loadTrip(trip)
  }, [trip.tripId, trip.originCode, trip.destinationCode])

  useEffect(() => {
    const stopClock = r.startHoldClock()
    // closing the tab or leaving the site: give the seats back with a request that outlives the page
    const onPageHide = () => void r.releaseSeats({ keepalive: true })
    window.addEventListener('pagehide', onPageHide)
    return () => {
      stopClock()
      window.removeEventListener('pagehide', onPageHide)
      r.leavePage()
    }
  }, [])

  return (
    <>
      <TripLine />
      {status === 'loading' && !r.tripDetails.value ? (
        <p role="status" className={page.muted}>
          {t('common.loading')}
        </p>
      ) : null}
      {status === 'error' && !r.tripDetails.value ? (
        <p className={page.muted}>
          <a href="/">{t('seatChoice.backToSearch')}</a>
        </p>
      ) : null}
      {r.tripDetails.value ? (
        <div className={styles.layout}>
          <div className={styles.seats}>
            <Counters />
            <SeatMap />
            <SeatBar />
          </div>
          <div className={styles.side}>
            <HoldTimer />
            <FareSummary />
            <BookingPanel />
          </div>
        </div>
      ) : null}
    </>
  )
}

/** /reservation: reads the trip from the URL; a URL without one explains what to do. */
export default function ReservationPage() {
  useSignals()
  const t = useT()
  const query = currentRoute.value?.search ?? ''
  const trip = useMemo(() => tripRefFromQuery(query.replace(/^\?/, '')), [query])

  useEffect(() => {
    if (!lookupsLoaded.peek()) void loadLookups()
  }, [])

  return (
    <>
      <h1 className={page.h1} tabIndex={-1}>
        {t('reservation.heading')}
      </h1>
      {trip ? (
        <SeatChoice trip={trip} />
      ) : (
        <div className={cx(page.card, styles.missing)}>
          <p>{t('seatChoice.noTrip')}</p>
          <p>
            <a href="/" className={button({ variant: 'outline' })}>
              {t('seatChoice.backToSearch')}
            </a>
          </p>
        </div>
      )}
    </>
  )
}
