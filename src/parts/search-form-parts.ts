/**
 * What the search form and its lazily loaded city combobox share: the form's
 * styles and a city field's props. Apart from both, so the combobox chunk does
 * not import the form that loads it.
 */
import { css } from '../../styled-system/css'
import { textField } from '../../styled-system/recipes'
import type { City } from '../../contract/schemas.ts'

const textFieldSlots = textField()

export const formStyles = {
  form: css({
    display: 'grid',
    gap: '3',
    alignItems: 'start',
    gridTemplateColumns: '1fr',
    md: { gridTemplateColumns: 'minmax(0, 1fr) auto minmax(0, 1fr) minmax(0, 0.9fr) auto' },
  }),
  field: css({ display: 'flex', flexDirection: 'column', gap: '1', minWidth: '0' }),
  // the plain select and the date input look like every TextField input
  label: textFieldSlots.label,
  control: textFieldSlots.input,
  error: textFieldSlots.error,
  swap: css({ md: { mt: '1.75rem' }, justifySelf: 'center' }),
  // on a wide screen the button keeps its place at the end of the first row when the return date comes below it
  submit: css({ md: { mt: '1.75rem', gridRow: '1', gridColumn: '5' } }),
  // the optional return date (loaded later) on a row of its own under the journey's fields
  returnField: css({ md: { gridColumn: '1 / 5' } }),
}

/** City choice: a labelled <select>, enhanced to a combobox when loaded. */
export interface CityFieldProps {
  label: string
  cities: City[]
  value: string
  onChange: (code: string) => void
  error?: string
  /** Name of the URL parameter (`from`, `to`): the form also works without JavaScript state. */
  name: string
  placeholder: string
  noMatch: string
  bn: boolean
  /** Asked once the combobox is in the page: whether it takes focus from the select it replaced. */
  takeFocus?: () => boolean
}
