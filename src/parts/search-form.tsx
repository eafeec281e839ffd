import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react'
import { afterPageShown } from '../lib/page-shown.ts'
import { isPrerendering } from '../lib/prerendering.ts'
import { useSignals } from '@preact/signals-react/runtime'
import { cx } from '../../styled-system/css'
import { button } from '../../styled-system/recipes'
import { navigate } from '../router.ts'
import { appSearch as search } from '../app/app-search.ts'
import { useT } from '../app/use-t.ts'
import { formStyles, type CityFieldProps } from './search-form-parts.ts'
import { page } from './page-styles.ts'
import { lookups, ui } from '../app-models.ts'

// Ark Combobox (~29 KB) is not part of the first render: the plain <select>
// works at once and is swapped for the type-ahead combobox when its chunk arrives.
type Combobox = typeof import('./city-combobox.tsx').CityCombobox
let LoadedCombobox: Combobox | undefined
const loadCombobox = () =>
  import('./city-combobox.tsx').then((m) => {
    LoadedCombobox = m.CityCombobox
  })

// The return date (a round trip) is for some passengers only: its field comes after what the page shows.
type ReturnField = typeof import('./return-date-field.tsx').ReturnDateField
function useReturnField(): ReturnField | null {
  const [field, setField] = useState<ReturnField | null>(null)
  useEffect(() => afterPageShown(() => void import('./return-date-field.tsx').then((m) => setField(() => m.ReturnDateField))), [])
  return field
}

function PlainCitySelect({
  label,
  cities,
  value,
  onChange,
  error,
  name,
  placeholder,
  bn,
  onRemovedWithFocus,
}: CityFieldProps & { onRemovedWithFocus: () => void }) {
  const id = useId()
  const errorId = `${id}-error`
  const select = useRef<HTMLSelectElement>(null)
  // runs before React takes the select out of the page: a select that has focus then hands it to its successor
  useLayoutEffect(
    () => () => {
      if (select.current && document.activeElement === select.current) onRemovedWithFocus()
    },
    [],
  )
  return (
    <div className={formStyles.field}>
      <label htmlFor={id} className={formStyles.label}>
        {label}
      </label>
      <select
        ref={select}
        id={id}
        name={name}
        className={formStyles.control}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
      >
        <option value="">{placeholder}</option>
        {cities.map((c) => (
          <option key={c.code} value={c.code}>
            {bn ? c.nameBn : c.name}
          </option>
        ))}
      </select>
      <p id={errorId} className={formStyles.error} aria-live="polite">
        {error ?? ''}
      </p>
    </div>
  )
}

/**
 * The city field: plain select first, Ark Combobox once its chunk is loaded, in one commit (no
 * Suspense fallback in between). Should the passenger reach the select just as it is swapped, focus
 * moves to the combobox's field instead of falling to the page.
 */
function CityField(props: CityFieldProps & { enhanced: boolean }) {
  const { enhanced, ...rest } = props
  const handOver = useRef(false)
  if (enhanced && LoadedCombobox) {
    const Enhanced = LoadedCombobox
    return <Enhanced {...rest} takeFocus={() => handOver.current} />
  }
  return <PlainCitySelect {...rest} onRemovedWithFocus={() => (handOver.current = true)} />
}

/** Loads the combobox chunk after first paint, once `when` holds, and reports when the swap may happen. */
function useEnhanced(when: boolean): boolean {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    // its code already here (an earlier page): no reason to wait
    if (!when && !LoadedCombobox) return
    let alive = true
    // after what the page shows: the plain select works meanwhile
    afterPageShown(
      () =>
        void loadCombobox().then(() => {
          if (!alive) return
          const swap = () => alive && setReady(true)
          // never swap the control the passenger is using
          const active = document.activeElement
          if (active instanceof HTMLSelectElement && active.form?.dataset.searchForm !== undefined) {
            active.addEventListener('blur', swap, { once: true })
          } else swap()
        }),
    )
    return () => {
      alive = false
    }
  }, [when])
  return ready
}

/** Props for SearchForm. */
export interface SearchFormProps {
  /** Called instead of navigating when the form is already on /search (modify search). */
  onSearch?: () => void
  /** Accessible name of the form (landmark). */
  label: string
  /**
   * False while the page's own content is on its way (the results of a search link): the type-ahead
   * combobox's code is fetched after it, not in its way; the plain select works meanwhile. Default true.
   */
  enhance?: boolean
}

/**
 * From, To, Journey date, swap and Search. The search lives in the URL:
 * submitting goes to `/search?from=…&to=…&date=…`.
 */
export function SearchForm({ onSearch, label, enhance = true }: SearchFormProps) {
  useSignals()
  const t = useT()
  const enhanced = useEnhanced(enhance)
  const ReturnDate = useReturnField()
  const dateId = useId()
  const bn = ui.language.value === 'bn'
  const errors = search.formErrors.value
  const msg = (id?: string) => (id ? t(id) : undefined)
  const cityCommon = { enhanced, placeholder: t('searchForm.chooseCity'), noMatch: t('searchForm.noMatch'), bn }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!search.submitForm()) {
      const form = e.currentTarget as HTMLFormElement
      // move focus to the first field with a problem
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid=true]')?.focus())
      return
    }
    if (onSearch) onSearch()
    else navigate(`/search?${search.searchQuery()}`)
  }

  return (
    // biome-ignore lint/a11y/useSemanticElements: the search landmark on the form itself; the <search> element is not yet in every browser passengers use
    <form
      className={formStyles.form}
      onSubmit={submit}
      noValidate
      aria-label={label}
      data-search-form=""
      role="search"
      // the form holds its place but stays hidden until it works: in the static HTML,
      // and until the city lists have been asked for (answered or failed)
      {...(isPrerendering() || !lookups.lookupsLoaded.value ? { inert: true, style: { visibility: 'hidden' as const } } : {})}
    >
      <CityField
        {...cityCommon}
        name="from"
        label={t('searchForm.from')}
        cities={lookups.originCities.value}
        value={search.originCode.value}
        onChange={search.setOrigin}
        error={msg(errors.originCode)}
      />
      <button
        type="button"
        className={cx(button({ variant: 'outline', size: 'icon' }), formStyles.swap)}
        onClick={search.swapCities}
        aria-label={t('searchForm.swap')}
        title={t('searchForm.swap')}
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M7 7h13l-4-4M17 17H4l4 4" />
        </svg>
      </button>
      <CityField
        {...cityCommon}
        name="to"
        label={t('searchForm.to')}
        cities={lookups.destinationCities.value}
        value={search.destinationCode.value}
        onChange={search.setDestination}
        error={msg(errors.destinationCode)}
      />
      <div className={formStyles.field}>
        <label htmlFor={dateId} className={formStyles.label}>
          {t('searchForm.date')}
        </label>
        <input
          id={dateId}
          type="date"
          name="date"
          className={formStyles.control}
          min={search.minDate.value}
          value={search.tripDate.value}
          required
          onChange={(e) => search.setTripDate(e.currentTarget.value)}
          aria-invalid={errors.tripDate ? true : undefined}
          aria-describedby={`${dateId}-error`}
        />
        <p id={`${dateId}-error`} className={formStyles.error} aria-live="polite">
          {msg(errors.tripDate) ?? ''}
        </p>
      </div>
      {ReturnDate ? (
        <ReturnDate
          value={search.roundTrip.value.return ?? ''}
          min={search.tripDate.value}
          returning={!!search.roundTrip.value.outbound}
          onChange={search.setReturnDate}
          styles={{ ...formStyles, field: cx(formStyles.field, formStyles.returnField), hint: page.muted }}
        />
      ) : null}
      <button type="submit" className={cx(button({ variant: 'solid' }), formStyles.submit)}>
        {t('searchForm.submit')}
      </button>
    </form>
  )
}
