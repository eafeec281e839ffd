import { useId, type ComponentProps, type ReactNode } from 'react'
import { useIntl } from 'react-intl'
import { css, cx } from '../../styled-system/css'

/** Layout shared by the account forms (login, sign-up, profile). */
export { ServerError } from './server-error.tsx'

export const form = {
  root: css({ display: 'flex', flexDirection: 'column', gap: '3', maxWidth: '28rem', width: 'full' }),
  actions: css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '3', mt: '1' }),
  intro: css({ color: 'gray.800', maxWidth: 'prose', mb: '2' }),
  linkButton: css({
    display: 'inline-flex',
    alignItems: 'center',
    minHeight: 'touch',
    px: '1',
    bg: 'transparent',
    border: 'none',
    color: 'blue.700',
    textDecoration: 'underline',
    fontSize: 'md',
    fontFamily: 'inherit',
    cursor: 'pointer',
    _disabled: { color: 'gray.600', cursor: 'not-allowed', textDecoration: 'none' },
  }),
  readOnly: css({ display: 'flex', flexDirection: 'column', gap: '1' }),
  readOnlyLabel: css({ fontWeight: 'medium', color: 'gray.900' }),
  readOnlyValue: css({ fontSize: 'lg', fontVariantNumeric: 'tabular-nums' }),
}

/** Translates an optional message id (field messages). */
export function useMaybeT() {
  const intl = useIntl()
  return (id: string | undefined, values?: Record<string, string | number>) => (id ? intl.formatMessage({ id }, values) : undefined)
}

const checkboxRow = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '2',
  minHeight: 'touch',
  cursor: 'pointer',
  '& input': { width: '1.25rem', height: '1.25rem', accentColor: '{colors.brand.700}', cursor: 'pointer' },
})

/** A native checkbox with its label (keyboard and screen readers get the platform behaviour). */
export function Checkbox({ label, className, ...rest }: Omit<ComponentProps<'input'>, 'type'> & { label: ReactNode }) {
  const id = useId()
  return (
    <label htmlFor={id} className={cx(checkboxRow, className)}>
      <input id={id} type="checkbox" {...rest} />
      {label}
    </label>
  )
}
