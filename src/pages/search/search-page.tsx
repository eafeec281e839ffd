import { useEffect, useId } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { css, cx } from '../../../styled-system/css'
import { button } from '../../../styled-system/recipes'
import type { CoachType, TripSummary } from '../../../contract/schemas.ts'
import { useT } from '../../app/use-t.ts'
import { formatCalendarDate, formatDate, formatTime, type Locale } from '../../lib/dates.ts'
import { formatMoney } from '../../lib/money.ts'
import { currentRoute, navigate } from '../../router.ts'
import { cityName, loadLookups, lookupsLoaded, timePeriods } from '../../stores/lookups.ts'
import * as search from '../../stores/search.ts'
import { language } from '../../stores/ui.ts'
import { SearchForm } from '../../parts/search-form.tsx'
import { page } from '../../parts/page-styles.ts'
import { isPrerendering } from '../../lib/prerendering.ts'

const styles = {
  modify: css({ mb: '6' }),
  summary: css({ fontSize: 'lg', color: 'gray.800', mb: '4' }),
  toolbar: css({
    display: 'flex',
    flexWrap: 'wrap',
    gap: '3',
    alignItems: 'flex-end',
    mb: '4',
  }),
  field: css({ display: 'flex', flexDirection: 'column', gap: '1', minWidth: '11rem', flex: '1 1 11rem', md: { flex: '0 1 auto' } }),
  label: css({ fontWeight: 'medium' }),
  days: css({ display: 'flex', gap: '2', flexWrap: 'wrap', ms: { md: 'auto' } }),
  list: css({ listStyle: 'none', p: '0', m: '0', display: 'flex', flexDirection: 'column', gap: '3' }),
  trip: css({
    display: 'grid',
    gap: '3',
    gridTemplateColumns: '1fr',
    md: { gridTemplateColumns: '1.2fr 1.6fr 1fr auto', alignItems: 'center' },
  }),
  coach: css({ fontWeight: 'bold', fontSize: 'lg', m: '0' }),
  times: css({ display: 'flex', gap: '3', alignItems: 'baseline', flexWrap: 'wrap', fontVariantNumeric: 'tabular-nums' }),
  time: css({ fontSize: 'xl', fontWeight: 'bold' }),
  dl: css({
    display: 'grid',
    gridTemplateColumns: 'auto 1fr',
    columnGap: '2',
    rowGap: '1',
    m: '0',
    fontSize: 'sm',
    '& dt': { fontWeight: 'medium', color: 'gray.800' },
    '& dd': { m: '0' },
  }),
  fare: css({ fontSize: 'xl', fontWeight: 'bold', color: 'brand.800' }),
  empty: css({ p: '4', bg: 'white', border: '1px solid {colors.gray.200}', borderRadius: 'md' }),
}

const COACH_TYPES: CoachType[] = ['AC_BUSINESS', 'AC_STANDARD', 'NON_AC', 'SLEEPER']

/** Writes the filters into the URL without a new history entry or a new search. */
function replaceUrl(): void {
  history.replaceState(history.state, '', `/search?${search.searchQuery({ filters: true })}`)
}

function TripCard({ trip, lang }: { trip: TripSummary; lang: Locale }) {
  const t = useT()
  const headingId = useId()
  const nextDay = formatDate(trip.arrivalTime) !== formatDate(trip.departureTime)
  const choose = () => {
    const q = new URLSearchParams({
      tripId: String(trip.tripId),
      from: trip.originCode,
      to: trip.destinationCode,
      date: trip.tripDate,
    })
    navigate(`/reservation?${q}`)
  }
  return (
    <li className={page.card} aria-labelledby={headingId}>
      <div className={styles.trip}>
        <div>
          <h2 id={headingId} className={styles.coach}>
            {t('trips.coach', { code: trip.coachCode })}
          </h2>
          <p>{t(`coachType.${trip.coachType}`)}</p>
        </div>
        <div>
          <p className={styles.times}>
            <span>
              <span className={page.muted}>{t('trips.departs')} </span>
              <span className={styles.time}>{formatTime(trip.departureTime, lang)}</span>
            </span>
            <span>
              <span className={page.muted}>{t('trips.arrives')} </span>
              <span className={styles.time}>{formatTime(trip.arrivalTime, lang)}</span>
              {nextDay ? <span className={page.muted}> {t('trips.nextDay', { date: formatDate(trip.arrivalTime, lang) })}</span> : null}
            </span>
          </p>
          <dl className={styles.dl}>
            <dt>{t('trips.duration')}</dt>
            <dd>{t('trips.durationValue', { hours: Math.floor(trip.durationMinutes / 60), minutes: trip.durationMinutes % 60 })}</dd>
            <dt>{t('trips.boarding')}</dt>
            <dd>{trip.boardingStations.join(', ')}</dd>
            <dt>{t('trips.dropping')}</dt>
            <dd>{trip.droppingStations.join(', ')}</dd>
          </dl>
        </div>
        <div>
          <p>
            <span className={page.muted}>{t('trips.fareFrom')} </span>
            <span className={styles.fare}>{formatMoney(trip.fareFrom, lang)}</span>
          </p>
          <p>{t('trips.availableSeats', { count: trip.availableSeats })}</p>
        </div>
        <button
          type="button"
          className={button({ variant: 'solid' })}
          onClick={choose}
          disabled={trip.availableSeats === 0}
          aria-describedby={headingId}
        >
          {t('trips.chooseSeats')}
        </button>
      </div>
    </li>
  )
}

function Filters() {
  useSignals()
  const t = useT()
  const periodId = useId()
  const coachId = useId()
  const sortId = useId()
  const periods = timePeriods.value
  const allValue = periods[0]?.value ?? ''
  const present = search.coachTypesInResults.value
  const types = COACH_TYPES.filter((c) => present.includes(c) || c === search.coachType.value)
  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar of labelled filters named as a group; a fieldset would add a second visible caption
    <div className={styles.toolbar} role="group" aria-label={t('trips.filters')}>
      <div className={styles.field}>
        <label htmlFor={periodId} className={styles.label}>
          {t('trips.timePeriod')}
        </label>
        <select
          id={periodId}
          className={page.select}
          value={search.timePeriod.value || allValue}
          onChange={(e) => {
            const v = e.currentTarget.value
            // "All" (first entry) means no time filter
            search.setTimePeriod(v === allValue ? '' : v)
            replaceUrl()
          }}
        >
          {periods.map((p, i) => (
            <option key={p.value} value={p.value}>
              {i === 0 ? t('lookups.allTimes') : p.label}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.field}>
        <label htmlFor={coachId} className={styles.label}>
          {t('trips.coachType')}
        </label>
        <select
          id={coachId}
          className={page.select}
          value={search.coachType.value}
          onChange={(e) => {
            search.setCoachType(e.currentTarget.value as CoachType | '')
            replaceUrl()
          }}
        >
          <option value="">{t('trips.allCoachTypes')}</option>
          {types.map((c) => (
            <option key={c} value={c}>
              {t(`coachType.${c}`)}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.field}>
        <label htmlFor={sortId} className={styles.label}>
          {t('trips.sortBy')}
        </label>
        <select
          id={sortId}
          className={page.select}
          value={search.sort.value}
          onChange={(e) => {
            search.setSort(e.currentTarget.value as search.SortKey)
            replaceUrl()
          }}
        >
          <option value="departure">{t('trips.sortDeparture')}</option>
          <option value="fare">{t('trips.sortFare')}</option>
        </select>
      </div>
      <div className={styles.days}>
        <button
          type="button"
          className={button({ variant: 'outline' })}
          disabled={search.tripDate.value <= search.minDate.value}
          onClick={() => search.shiftDay(-1) && navigate(`/search?${search.searchQuery({ filters: true })}`)}
        >
          {t('trips.prevDayButton')}
        </button>
        <button
          type="button"
          className={button({ variant: 'outline' })}
          onClick={() => search.shiftDay(1) && navigate(`/search?${search.searchQuery({ filters: true })}`)}
        >
          {t('trips.nextDayButton')}
        </button>
      </div>
    </div>
  )
}

function Results() {
  useSignals()
  const t = useT()
  const lang = language.value
  const status = search.status.value
  const list = search.visibleTrips.value
  const asked = search.searched.value
  const bn = lang === 'bn'
  return (
    <>
      {asked ? (
        <p className={styles.summary}>
          {t('trips.summary', {
            from: cityName(asked.originCode, bn),
            to: cityName(asked.destinationCode, bn),
            date: formatCalendarDate(asked.tripDate, lang),
          })}
        </p>
      ) : null}
      <Filters />
      <p role="status" className={page.muted}>
        {status === 'loading'
          ? t('trips.searching')
          : status === 'done'
            ? t('trips.count', { shown: list.length, total: search.trips.value.length })
            : ''}
      </p>
      {status === 'empty' || status === 'error' ? (
        <div className={styles.empty}>
          <p>{t(status === 'empty' ? 'error.TRIP_IS_NOT_AVAILABLE' : 'trips.failed')}</p>
        </div>
      ) : null}
      {status === 'done' && list.length === 0 ? (
        <div className={styles.empty}>
          <p>{t('trips.noneMatch')}</p>
        </div>
      ) : null}
      {status === 'done' && list.length > 0 ? (
        <ul className={styles.list} aria-label={t('search.heading')}>
          {list.map((trip) => (
            <TripCard key={trip.tripId} trip={trip} lang={lang} />
          ))}
        </ul>
      ) : null}
    </>
  )
}

let lastSearched = ''

/** /search: the modify-search bar, filters, sort, day switch and the trip list; all state in the URL. */
export default function SearchPage() {
  useSignals()
  const t = useT()
  const query = currentRoute.value?.search ?? ''

  useEffect(() => {
    // SPEC: lookups are not fetched on app load when the URL contains "search"
    if (!lookupsLoaded.peek()) void loadLookups()
  }, [])

  useEffect(() => {
    search.applySearchQuery(query.replace(/^\?/, ''))
    const key = search.searchQuery()
    if (key === lastSearched && search.status.peek() !== 'idle') return
    lastSearched = key
    if (search.canSearch.value) void search.searchTrips()
    else search.submitForm()
  }, [query])

  useEffect(
    () => () => {
      lastSearched = ''
    },
    [],
  )

  return (
    <>
      <h1 className={page.h1} tabIndex={-1}>
        {t('search.heading')}
      </h1>
      <div className={cx(page.card, styles.modify)}>
        <SearchForm label={t('searchForm.modify')} onSearch={() => navigate(`/search?${search.searchQuery({ filters: true })}`)} />
      </div>
      {/* the build's static frame has no results: the app fills them in */}
      {isPrerendering() ? null : <Results />}
    </>
  )
}
