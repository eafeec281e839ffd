import { useCallback, useEffect, useMemo, useRef } from 'react'
import { useIntl } from 'react-intl'
import { useComputed, useSignals } from '@preact/signals-react/runtime'
import { css } from '../../../styled-system/css'
import { SeatGrid, type SeatGridLabels, type SeatGridState } from '../../../design-system/seat-grid/index.ts'
import { useT } from '../../app/use-t.ts'
import { formatTime } from '../../lib/dates.ts'
import { formatWeekdayDate } from '../../../contract/weekday-date.ts'
import { formatMoney } from '../../lib/money.ts'
import { followAfterPaint } from './follow-after-paint.ts'
import { BookingModel } from '../../models/booking.ts'
import { HoldModel } from '../../models/hold.ts'
import { BookingContext } from '../../parts/use-booking.ts'
import { type LiveFeed, LiveFeedModel, type Network } from '../../models/live-feed.ts'
import type { SeatEvent } from '../../models/seat-map.ts'
import { deferred } from '../../parts/deferred.tsx'
import { page } from '../../parts/page-styles.ts'
import { Counters } from './counters.tsx'
import { FareSummary } from './fare-summary.tsx'
import { HoldTimer } from './hold-timer.tsx'
import { seatTypeId } from './seat-type-id.ts'
import { useLagging } from './use-lagging.ts'
import { HoldContext } from './use-hold.ts'
import { useSeatPage } from './use-seat-page.ts'
import { useVisitModel } from '../../parts/use-visit-model.ts'
import { session, ui } from '../../app-models.ts'

const styles = {
  layout: css({
    display: 'grid',
    gap: '6',
    gridTemplateColumns: 'minmax(0, 1fr)',
    lg: { gridTemplateColumns: 'minmax(0, 1.3fr) minmax(18rem, 1fr)', alignItems: 'start' },
  }),
  seats: css({ display: 'flex', flexDirection: 'column', gap: '4', minWidth: '0' }),
  side: css({ display: 'flex', flexDirection: 'column', gap: '4', lg: { position: 'sticky', top: '24' } }),
  legendBox: css({ mt: '2' }),
  // the info tone of design-system/status, without its module: a chunk of its own would grow every route's first render
  stale: css({
    p: '3',
    borderRadius: 'md',
    borderWidth: '1px',
    borderStyle: 'solid',
    fontWeight: 'medium',
    bg: 'blue.50',
    borderColor: 'blue.700',
    color: 'blue.700',
  }),
}

// the passenger form and payment arrive while the seat map shows: they are needed once seats are held
const BookingPanel = deferred(() => import('./booking-panel.tsx').then((m) => m.BookingPanel))
// the phone's bottom bar names the booking's next step: it comes with the booking model, like the panel
const SeatBar = deferred(() => import('./seat-bar.tsx').then((m) => m.SeatBar))

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

/** A key pressed in the grid this recently, with focus still in it: the passenger is moving through the seats. */
const GRID_BUSY_MS = 4000

/** The browser's network: navigator.onLine and the online/offline events. */
const browserNetwork: Network = {
  online: () => navigator.onLine !== false,
  watch(fn) {
    const on = () => fn(true)
    const off = () => fn(false)
    window.addEventListener('online', on)
    window.addEventListener('offline', off)
    return () => {
      window.removeEventListener('online', on)
      window.removeEventListener('offline', off)
    }
  },
}

/**
 * Follows the trip's seats live while the seat map is on screen (src/models/live-feed.ts);
 * answers the ref of the element around the grid, whose keys hold the summary back.
 */
function useLiveSeats(feed: LiveFeed, tripId: number | undefined) {
  const area = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = area.current
    if (tripId === undefined || !el) return
    let lastKey = 0
    const onKey = () => {
      lastKey = Date.now()
    }
    el.addEventListener('keydown', onKey)
    const busy = () => el.contains(document.activeElement) && Date.now() - lastKey < GRID_BUSY_MS
    const focused = () => {
      const at = document.activeElement
      return at instanceof HTMLElement && el.contains(at) ? (at.dataset.seat ?? null) : null
    }
    const stop = followAfterPaint((open) => feed.follow(tripId, { busy, focused, network: browserNetwork, open }))
    return () => {
      stop()
      el.removeEventListener('keydown', onKey)
    }
  }, [feed, tripId])
  return area
}

/**
 * Says the seats may be out of date while the live stream is down. Its own component: the stream's
 * status changes as it starts and opens, and only this renders again then, not the seat map.
 */
function LiveStale() {
  useSignals()
  const seatChoice = useSeatPage()
  const t = useT()
  return (
    <div role="status" aria-atomic="true">
      {seatChoice.liveStatus.value === 'stale' ? <p className={styles.stale}>{t('seatChoice.liveStale')}</p> : null}
    </div>
  )
}

/** The seat map with its legend and live region (also the ticket page's, for a ticket's change to another trip). */
export function SeatMap() {
  useSignals()
  const seatChoice = useSeatPage()
  const t = useT()
  const intl = useIntl()
  const labels = useSeatLabels()
  const details = seatChoice.tripDetails.value
  // the live seat map comes with the seat map's code, and goes with it
  const feed = useVisitModel(() => new LiveFeedModel(seatChoice, ui))
  const gridArea = useLiveSeats(feed, details?.tripId)
  // a seat another passenger took moments ago says so when chosen
  const toggle = useCallback((name: string) => seatChoice.toggleSeat(name, feed.explainUnavailable), [seatChoice, feed])
  const lastEvent = useLagging(seatChoice.lastEvent)
  // the live region's text: a computed signal bound straight to the text node (no re-render), a task after the seat
  const say = (e: SeatEvent): string => {
    const lang = ui.language.value
    const total = intl.formatMessage(
      { id: 'seatChoice.runningTotal' },
      { count: seatChoice.countedSeats.peek().length, total: formatMoney(seatChoice.totalFare.peek(), lang) },
    )
    const seat = e.seatName ?? ''
    switch (e.kind) {
      case 'selected':
        return `${intl.formatMessage({ id: 'seatChoice.announceSelected' }, { name: seat })} ${total}`
      case 'deselected':
        return `${intl.formatMessage({ id: 'seatChoice.announceDeselected' }, { name: seat })} ${total}`
      // one announcement each: the lock-lost dialog says a seat was lost, the notification (or the
      // booking's own live region) that the hold ran out; said here as well, they were heard twice
      case 'lockLost':
      case 'expired':
        return ''
      case 'failed':
        return `${intl.formatMessage({ id: 'seatChoice.announceFailed' }, { name: seat })} ${total}`
      case 'rejected':
        return intl.formatMessage({ id: 'seatChoice.announceRejected' }, { name: seat })
      case 'unavailable':
        return intl.formatMessage({ id: 'seatChoice.announceUnavailable' }, { name: seat, state: intl.formatMessage({ id: `seatState.${e.state}` }) })
      case 'others': {
        const others = intl.formatMessage({ id: 'seatChoice.announceOthers' }, { taken: e.taken ?? 0, freed: e.freed ?? 0 }).trim()
        return e.seatName ? `${intl.formatMessage({ id: 'seatChoice.announceFocusedTaken' }, { name: seat })} ${others}` : others
      }
      case 'reset':
        return intl.formatMessage({ id: 'seatChoice.announceReset' })
      case 'extended':
        return intl.formatMessage({ id: 'seatChoice.announceExtended' }, { until: e.until ? formatTime(e.until, lang) : '' })
      case 'extendRefused':
        return intl.formatMessage({ id: 'seatChoice.announceExtendRefused' }, { until: e.until ? formatTime(e.until, lang) : '' })
    }
  }
  const live = useComputed(() => {
    const e = lastEvent.value
    // the same words twice in a row (two summaries, two refused seats) are said again: a trailing no-break space alternates
    const text = e ? say(e) : ''
    return text ? text + (e!.seq % 2 ? '' : '\u00a0') : ''
  })
  if (!details) return null
  const types = [...new Set(details.seatLayout.seats.map((s) => s.seatType))]
  // before the trip goes on sale (the server's clock): the seats are shown, not chosen (issue 30)
  const opens = details.saleOpensAt
  return (
    <section aria-labelledby="seat-map-heading" className={styles.seats}>
      <h2 id="seat-map-heading" className={page.h3}>
        {t('seatChoice.mapHeading')}
      </h2>
      {opens ? (
        <p id="sale-opens" className={styles.stale}>
          {t('seatChoice.saleOpens', { time: formatTime(opens, ui.language.value), date: formatWeekdayDate(opens, ui.language.value) })}
        </p>
      ) : (
        <p className={page.muted}>{t('seatChoice.keyboardHint')}</p>
      )}
      <LiveStale />
      <div ref={gridArea}>
        <SeatGrid.Root
          key={details.tripId}
          layout={details.seatLayout}
          getState={seatChoice.seatState}
          onToggle={toggle}
          onUnavailable={toggle}
          labels={labels}
          readOnly={!!opens}
          describedBy={opens ? 'sale-opens' : undefined}
        />
      </div>
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

/** The seat choice once the trip is loaded: counters and seat map, hold timer, fares and the booking slot. */
export function SeatLayout() {
  const seatChoice = useSeatPage()
  // the hold comes with the seat map's code, and goes with the seat map
  const hold = useVisitModel(() => new HoldModel(seatChoice, ui))
  // the booking step's model too: its code loads with the seat map's
  const booking = useVisitModel(() => new BookingModel(session))
  return (
    <HoldContext.Provider value={hold}>
      <BookingContext.Provider value={booking}>
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
      </BookingContext.Provider>
    </HoldContext.Provider>
  )
}
