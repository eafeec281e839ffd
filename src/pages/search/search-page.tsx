import { useEffect, useId, useRef, useState } from 'react'
import { afterPageShown, usePageShown } from '../../lib/page-shown.ts'
import { useSignals } from '@preact/signals-react/runtime'
import { css, cx } from '../../../styled-system/css'
import { button } from '../../../styled-system/recipes'
import type { CoachType, TripSummary } from '../../../contract/schemas.ts'
import { useRichT, useT } from '../../app/use-t.ts'
import { formatCalendarDate, formatDate, formatTime, type Locale } from '../../lib/dates.ts'
import { formatWeekdayDate } from '../../../contract/weekday-date.ts'
import { formatMoney } from '../../lib/money.ts'
import { currentRoute, navigate } from '../../router.ts'
import { appSearch as search } from '../../app/app-search.ts'
import type { SortKey } from '../../models/search.ts'
import { SearchForm } from '../../parts/search-form.tsx'
import { page } from '../../parts/page-styles.ts'
import { isPrerendering } from '../../lib/prerendering.ts'
import { focusIdWhenShown, focusWhenShown } from '../../lib/focus.ts'
import { lookups, ui } from '../../app-models.ts'
import { cityName } from '../../models/lookups.ts'

const styles = {
  modify: css({ mb: '6', '&[data-collapsed=true]': { mdDown: { display: 'none' } } }),
  // phones, once results are shown: the search as one line with a way to change it, so the trips come first
  compact: css({
    display: 'none',
    mdDown: { '&[data-collapsed=true]': { display: 'flex' } },
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    columnGap: '3',
    rowGap: '1',
    mb: '4',
    p: '3',
    bg: 'white',
    borderRadius: 'md',
    border: '1px solid {colors.gray.200}',
  }),
  compactText: css({ fontWeight: 'medium', minWidth: '0', _focus: { outline: 'none' } }),
  summary: css({ fontSize: 'lg', color: 'gray.800', mb: '4', mdDown: { display: 'none' } }),
  // phones: two filters a row (one when even that is too narrow), so the trips start on the first screen
  toolbar: css({
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 9rem), 1fr))',
    gap: '3',
    alignItems: 'end',
    mb: '4',
    md: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end' },
  }),
  field: css({ display: 'flex', flexDirection: 'column', gap: '1', minWidth: '0', md: { minWidth: '11rem', flex: '0 1 auto' } }),
  label: css({ fontWeight: 'medium' }),
  days: css({ display: 'flex', gap: '2', flexWrap: 'wrap', gridColumn: '1 / -1', ms: { md: 'auto' } }),
  list: css({ listStyle: 'none', p: '0', m: '0', display: 'flex', flexDirection: 'column', gap: '3' }),
  trip: css({
    display: 'grid',
    gap: '3',
    gridTemplateColumns: 'minmax(0, 1fr)',
    md: { gridTemplateColumns: '1.2fr 1.6fr 1fr auto', alignItems: 'center' },
  }),
  coach: css({ fontWeight: 'bold', fontSize: 'lg', m: '0' }),
  times: css({ display: 'flex', gap: '3', alignItems: 'baseline', flexWrap: 'wrap', fontVariantNumeric: 'tabular-nums' }),
  time: css({ fontSize: 'xl', fontWeight: 'bold' }),
  dl: css({
    display: 'grid',
    // at 200 % text on a phone a counter's name is wider than the card: the terms take at most half,
    // and a long word breaks rather than push the page sideways (WCAG 1.4.10)
    gridTemplateColumns: 'fit-content(50%) minmax(0, 1fr)',
    overflowWrap: 'anywhere',
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
  const rt = useRichT()
  const headingId = useId()
  const nextDay = formatDate(trip.arrivalTime) !== formatDate(trip.departureTime)
  const choose = () => {
    const q = new URLSearchParams({
      tripId: String(trip.tripId),
      from: trip.originCode,
      to: trip.destinationCode,
      date: trip.tripDate,
      ...search.roundTrip.value,
    })
    navigate(`/reservation?${q}`)
  }
  return (
    <li className={page.card} aria-labelledby={headingId}>
      <div className={styles.trip}>
        <div>
          <h2 id={headingId} className={styles.coach}>
            {rt('trips.coach', { code: <span lang="en">{trip.coachCode}</span> })}
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
            {/* the network file names stations in English only */}
            <dt>{t('trips.boarding')}</dt>
            <dd lang="en">{trip.boardingStations.join(', ')}</dd>
            <dt>{t('trips.dropping')}</dt>
            <dd lang="en">{trip.droppingStations.join(', ')}</dd>
          </dl>
        </div>
        <div>
          <p>
            <span className={page.muted}>{t('trips.fareFrom')} </span>
            <span className={styles.fare}>{formatMoney(trip.fareFrom, lang)}</span>
          </p>
          <p>{t('trips.availableSeats', { count: trip.availableSeats })}</p>
          {trip.saleOpensAt ? (
            <p>{t('trips.saleOpens', { time: formatTime(trip.saleOpensAt, lang), date: formatWeekdayDate(trip.saleOpensAt, lang) })}</p>
          ) : null}
        </div>
        <button type="button" className={button({ variant: 'solid' })} onClick={choose} aria-describedby={headingId}>
          {/* a sold-out trip's seat page has its waitlist */}
          {t(trip.availableSeats === 0 ? 'trips.waitlist' : 'trips.chooseSeats')}
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
  const periods = lookups.timePeriods.value
  const bn = ui.language.value === 'bn'
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
          {periods.map((p, i) => {
            // a label the network file has no Bengali for is English: said so, for a Bengali voice
            const own = i === 0 || !bn || !!p.labelBn
            return (
              <option key={p.value} value={p.value} lang={own ? undefined : 'en'}>
                {i === 0 ? t('lookups.allTimes') : bn && p.labelBn ? p.labelBn : p.label}
              </option>
            )
          })}
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
            search.setSort(e.currentTarget.value as SortKey)
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
  const lang = ui.language.value
  const status = search.status.value
  const list = search.visibleTrips.value
  const asked = search.searched.value
  const bn = lang === 'bn'
  return (
    <>
      {asked ? (
        <p className={styles.summary}>
          {t('trips.summary', {
            from: cityName(lookups, asked.originCode, bn),
            to: cityName(lookups, asked.destinationCode, bn),
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

/** Below `md`: the layout in which the search form folds into one line once there are results. */
const PHONE = '(max-width: 47.99em)'

/** The search as one line, with the button that opens the form again (phones, once results are shown). */
function CompactSearch({ collapsed, onChange }: { collapsed: boolean; onChange: () => void }) {
  useSignals()
  const t = useT()
  const asked = search.searched.value
  const lang = ui.language.value
  if (!asked) return null
  const bn = lang === 'bn'
  return (
    <div className={styles.compact} data-collapsed={collapsed}>
      <p id="search-compact" className={styles.compactText} tabIndex={-1}>
        {t('trips.summary', {
          from: cityName(lookups, asked.originCode, bn),
          to: cityName(lookups, asked.destinationCode, bn),
          date: formatCalendarDate(asked.tripDate, lang),
        })}
      </p>
      <button
        type="button"
        className={button({ variant: 'outline' })}
        aria-expanded={!collapsed}
        aria-controls="modify-search"
        onClick={() => {
          onChange()
          focusWhenShown(() => document.querySelector<HTMLElement>('#modify-search input, #modify-search select'))
        }}
      >
        {t('searchForm.modify')}
      </button>
    </div>
  )
}

/** /search: the modify-search bar, filters, sort, day switch and the trip list; all state in the URL. */
export default function SearchPage() {
  useSignals()
  const t = useT()
  const query = currentRoute.value?.search ?? ''
  const [expanded, setExpanded] = useState(false)
  const status = search.status.value
  // folded from the moment a search runs, so the page settles once (no shift when the trips arrive);
  // opened again when there is nothing to show, where changing the search is the next step
  // the trips (or why there are none) have shown, or there was nothing to search for
  usePageShown(status === 'done' || status === 'error' || !query.replace(/^\?/, ''))
  const collapsed = !expanded && !isPrerendering() && (status === 'loading' || status === 'done') && search.searched.value !== null

  useEffect(() => {
    // SPEC: lookups are not fetched on app load when the URL contains "search"; here, after the trips have shown
    afterPageShown(() => {
      if (!lookups.lookupsLoaded.peek()) void lookups.loadLookups()
    })
  }, [])

  // the search this visit last ran: the same query again (a filter written into the URL) does not search again
  const lastSearched = useRef('')
  useEffect(() => {
    search.applySearchQuery(query.replace(/^\?/, ''))
    const key = search.searchQuery()
    if (key === lastSearched.current && search.status.peek() !== 'idle') return
    lastSearched.current = key
    if (search.canSearch.value) void search.searchTrips()
    else search.submitForm()
  }, [query])

  return (
    <>
      <h1 className={page.h1} tabIndex={-1}>
        {t('search.heading')}
      </h1>
      <CompactSearch collapsed={collapsed} onChange={() => setExpanded(true)} />
      <div id="modify-search" className={cx(page.card, styles.modify)} data-collapsed={collapsed}>
        <SearchForm
          label={t('searchForm.modify')}
          enhance={status !== 'loading'}
          onSearch={() => {
            navigate(`/search?${search.searchQuery({ filters: true })}`)
            // on a phone the form folds away again: focus goes to the line that says the new search
            if (expanded && matchMedia(PHONE).matches) focusIdWhenShown('search-compact')
            setExpanded(false)
          }}
        />
      </div>
      {/* the build's static frame has no results: the app fills them in */}
      {isPrerendering() ? null : <Results />}
    </>
  )
}
