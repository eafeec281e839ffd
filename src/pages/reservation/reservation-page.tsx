import { useEffect, useMemo, useRef, useState } from 'react'
import { usePageShown } from '../../lib/page-shown.ts'
import type { Model } from '@preact/signals-react'
import { useSignals } from '@preact/signals-react/runtime'
import { css, cx } from '../../../styled-system/css'
import { button } from '../../../styled-system/recipes'
import { useRichT, useT } from '../../app/use-t.ts'
import { formatCalendarDate, formatDate, formatTime } from '../../lib/dates.ts'
import { currentRoute, navigate } from '../../router.ts'
import { call, configureApi } from '../../api/index.ts'
import { localStore } from '../../lib/storage.ts'
import { QUEUE_TOKEN_KEY, waitingRoomFor } from '../../models/queue-gate.ts'
import { loadEarly, takeEarlyLoad } from '../../lib/early-load.ts'
import { type TripRef, tripRefFromQuery } from '../../lib/trip-ref.ts'
import { type SeatPage, SeatPageModel } from '../../models/seat-page.ts'
import { page } from '../../parts/page-styles.ts'
import { deferred, usePreload } from '../../parts/deferred.tsx'
import { SeatPageContext, useSeatPage } from './use-seat-page.ts'
import { lookups, ui } from '../../app-models.ts'
import { cityName } from '../../models/lookups.ts'

const styles = {
  trip: css({ mb: '4', color: 'gray.800', fontSize: 'lg' }),
  missing: css({ maxWidth: 'prose' }),
}

// The seat map, counters, fares and booking: they need the trip's seats, so their code is
// fetched while the trip is (the page's first render is the heading and the trip line).
// (in a transition: the seat map renders in slices, yielding to input on a slow phone)
const SeatLayout = deferred(() => import('./seat-layout.tsx').then((m) => m.SeatLayout), { transition: true })

// Only on a sold-out trip: the waitlist (join, place, an offer, leave).
const Waitlist = deferred(() => import('./waitlist-panel.tsx').then((m) => m.WaitlistPanel))

export { tripRefFromQuery }

const tripKey = (t: TripRef) => `trip:${t.tripId}:${t.originCode}:${t.destinationCode}`

/**
 * Seat page models waiting for their page, by trip: made before it rendered (startLoading), or kept
 * across the login handoff (keepSeatsOnLeave), so the visit goes on with its seats and counters.
 */
const waiting = new Map<string, Model<SeatPage>>()

/**
 * Asks for the trip of the address the app opened at, before the page renders (src/lib/early-load.ts):
 * the visit's seat page model is made here, its load under way, and the page takes it.
 */
export function startLoading(search: string): void {
  const trip = tripRefFromQuery(search.replace(/^\?/, ''))
  if (!trip) return
  const model = new SeatPageModel(ui)
  waiting.set(tripKey(trip), model)
  loadEarly(tripKey(trip), () => model.loadTrip(trip))
}

function TripLine() {
  useSignals()
  const seatChoice = useSeatPage()
  const t = useT()
  const rt = useRichT()
  const d = seatChoice.tripDetails.value
  const lang = ui.language.value
  if (!d) return null
  const bn = lang === 'bn'
  return (
    <p className={styles.trip}>
      {rt('seatChoice.tripLine', {
        coach: <span lang="en">{d.coach.code}</span>,
        type: t(`coachType.${d.coach.type}`),
        from: cityName(lookups, d.originCode, bn),
        to: cityName(lookups, d.destinationCode, bn),
        date: formatCalendarDate(d.tripDate, lang),
        departs: formatTime(d.departureTime, lang),
        arrives: `${formatTime(d.arrivalTime, lang)}${formatDate(d.arrivalTime) !== formatDate(d.departureTime) ? ` (${formatDate(d.arrivalTime, lang)})` : ''}`,
      })}{' '}
      {t('trips.availableSeats', { count: seatChoice.availableSeats.value })}
    </p>
  )
}

/**
 * The operator cancelled the trip while (or before) the passenger was on its page: said in a
 * heading that takes the focus, the held seats already given back, and the way back to the
 * results of the same route and day (other coaches may run).
 */
function TripCanceled({ trip }: { trip: TripRef }) {
  const t = useT()
  const heading = useRef<HTMLHeadingElement>(null)
  // the sentence goes into its live region after the region is there: text a region is created with is not read
  const [said, setSaid] = useState(false)
  useEffect(() => {
    heading.current?.focus()
    setSaid(true)
  }, [])
  const back = trip.tripDate ? `/search?${new URLSearchParams({ from: trip.originCode, to: trip.destinationCode, date: trip.tripDate })}` : '/'
  return (
    <section aria-labelledby="trip-canceled-heading" className={cx(page.card, styles.missing)} data-testid="trip-canceled">
      <h2 id="trip-canceled-heading" ref={heading} tabIndex={-1} className={page.h3}>
        {t('seatChoice.tripCanceledTitle')}
      </h2>
      <p role="status">{said ? t('seatChoice.tripCanceled') : null}</p>
      <p>
        <a href={back} className={button({ variant: 'outline' })}>
          {t('seatChoice.backToSearch')}
        </a>
      </p>
    </section>
  )
}

/** Seat choice for one trip: counters, seat grid, fare summary, hold timer and the booking slot. */
function SeatChoice({ trip }: { trip: TripRef }) {
  useSignals()
  const seatChoice = useSeatPage()
  const t = useT()
  const status = seatChoice.loadStatus.value
  const details = seatChoice.tripDetails.value

  usePreload(SeatLayout)
  useEffect(() => {
    // a model that has not loaded yet loads now, even when the early load went to another one: a first render
    // React threw away (a suspended lazy part) had taken the early model, and this one would wait for ever
    const early = takeEarlyLoad(tripKey(trip))
    if (!early || seatChoice.loadStatus.peek() === 'idle') void seatChoice.loadTrip(trip)
  }, [seatChoice, trip.tripId, trip.originCode, trip.destinationCode])

  // a rush date sells through its waiting room: without an admission here, the passenger waits there first
  const tripDate = details?.tripDate ?? trip.tripDate
  useEffect(() => {
    let live = true
    // seat locks carry the admission of this browser's place (X-Queue-Token)
    configureApi({ queueToken: () => localStore().getItem(QUEUE_TOKEN_KEY) })
    if (tripDate)
      void waitingRoomFor({ ...trip, tripDate }, { call, storage: localStore() }).then((to) => live && to && navigate(to, { replace: true }))
    return () => {
      live = false
    }
  }, [trip.tripId, tripDate])

  useEffect(() => {
    // closing the tab or leaving the site: give the seats back with a request that outlives the page
    const onPageHide = () => void seatChoice.releaseSeats({ keepalive: true })
    window.addEventListener('pagehide', onPageHide)
    return () => {
      window.removeEventListener('pagehide', onPageHide)
      if (seatChoice.leavePage()) waiting.set(tripKey(trip), seatChoice)
    }
  }, [seatChoice])

  // once sold out in this visit, the waitlist stays: seats freed and offered to this passenger make it not sold out any more
  const soldOut = useRef(false)
  if (details && seatChoice.availableSeats.value === 0) soldOut.current = true
  const loading = (
    <p role="status" className={page.muted}>
      {t('common.loading')}
    </p>
  )
  if (seatChoice.tripCanceled.value) return <TripCanceled trip={trip} />
  return (
    <>
      <TripLine />
      {status === 'loading' && !details ? loading : null}
      {status === 'error' && !details ? (
        <p className={page.muted}>
          <a href="/">{t('seatChoice.backToSearch')}</a>
        </p>
      ) : null}
      {details ? <SeatLayout fallback={loading} /> : null}
      {details && soldOut.current ? <Waitlist tripId={trip.tripId} /> : null}
    </>
  )
}

/** /reservation: reads the trip from the URL; a URL without one explains what to do. */
export default function ReservationPage() {
  useSignals()
  const t = useT()
  const query = currentRoute.value?.search ?? ''
  const trip = useMemo(() => tripRefFromQuery(query.replace(/^\?/, '')), [query])
  // one seat page model per visit (the one waiting for this trip, if any), disposed on leave
  const [seatChoice] = useState(() => {
    const kept = trip ? waiting.get(tripKey(trip)) : undefined
    for (const m of waiting.values()) if (m !== kept) m[Symbol.dispose]()
    waiting.clear()
    return kept ?? new SeatPageModel(ui)
  })
  useEffect(
    () => () => {
      // after the seat choice's own leave, which may run after this: unless kept for the login handoff
      queueMicrotask(() => {
        if (![...waiting.values()].includes(seatChoice)) seatChoice[Symbol.dispose]()
      })
    },
    [seatChoice],
  )

  const status = seatChoice.loadStatus.value
  usePageShown(!trip || status === 'ready' || status === 'error')

  useEffect(() => {
    // not after the page has shown: the trip line names the cities (a code, then the name, would move the page)
    if (!lookups.lookupsLoaded.peek()) void lookups.loadLookups()
  }, [])

  return (
    <SeatPageContext.Provider value={seatChoice}>
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
    </SeatPageContext.Provider>
  )
}
