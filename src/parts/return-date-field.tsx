import { useId } from 'react'
import { useT } from '../app/use-t.ts'

/** Props for ReturnDateField: the search form's state and styles, handed over so this chunk brings no code of its own beyond the field. */
export interface ReturnDateFieldProps {
  /** The return date, '' for none. */
  value: string
  /** The journey date: the return cannot be before it. */
  min: string
  /** On the way back (an outbound booking in the search): a note instead of the field. */
  returning: boolean
  onChange: (date: string) => void
  styles: { field: string; label: string; control: string; hint: string }
}

/**
 * The search form's optional return date (a round trip; loaded after the page has shown: most
 * searches are single journeys). On the way back it says what the search is for instead.
 */
export function ReturnDateField({ value, min, returning, onChange, styles }: ReturnDateFieldProps) {
  const t = useT()
  const id = useId()
  if (returning) {
    return (
      <p className={styles.field} data-testid="return-leg-note">
        {t('searchForm.returnLeg')}
      </p>
    )
  }
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {t('searchForm.returnDate')}
      </label>
      <input
        id={id}
        type="date"
        name="return"
        className={styles.control}
        min={min}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className={styles.hint}>
        {t('searchForm.returnHint')}
      </p>
    </div>
  )
}
