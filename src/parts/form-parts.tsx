import { useId, type ComponentProps, type ReactNode } from 'react'
import { useIntl } from 'react-intl'
import { css, cx } from '../../styled-system/css'
import type { FormError } from '../stores/account.ts'

/** Layout shared by the account forms (login, sign-up, profile). */
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

const alertBox = css({
  p: '3',
  borderRadius: 'md',
  borderWidth: '1px',
  borderStyle: 'solid',
  fontWeight: 'medium',
  '&[data-tone=error]': { bg: 'red.50', borderColor: 'red.700', color: 'red.700' },
  '&[data-tone=success]': { bg: 'green.50', borderColor: 'green.700', color: 'green.700' },
  '&[data-tone=info]': { bg: 'blue.50', borderColor: 'blue.700', color: 'blue.700' },
})

/** Text of a server error: the catalogue message of its code in the active language, else the server's reason. */
export function useErrorText() {
  const intl = useIntl()
  return (e: FormError | null | undefined) => {
    if (!e) return ''
    const id = `error.${e.code}`
    return intl.messages[id] ? intl.formatMessage({ id }, e.values) : e.reason || intl.formatMessage({ id: 'error.unknown' })
  }
}

/** Translates an optional message id (field messages). */
export function useMaybeT() {
  const intl = useIntl()
  return (id: string | undefined, values?: Record<string, string | number>) => (id ? intl.formatMessage({ id }, values) : undefined)
}

/**
 * A server error for the form: an always-present alert region whose text
 * changes, so screen readers announce each new error.
 */
export function ServerError({ error }: { error: FormError | null | undefined }) {
  const text = useErrorText()(error)
  return (
    <div role="alert" aria-atomic="true">
      {text ? (
        <p className={alertBox} data-tone="error">
          {text}
        </p>
      ) : null}
    </div>
  )
}

/** A confirmation for the form, announced politely. */
export function FormStatus({ children, tone = 'success' }: { children: ReactNode; tone?: 'success' | 'error' | 'info' }) {
  return (
    <div role="status" aria-atomic="true">
      {children ? (
        <p className={alertBox} data-tone={tone}>
          {children}
        </p>
      ) : null}
    </div>
  )
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
export function Checkbox({ label, className, ...rest }: Omit<ComponentProps<'input'>, 'type'> & { label: string }) {
  const id = useId()
  return (
    <label htmlFor={id} className={cx(checkboxRow, className)}>
      <input id={id} type="checkbox" {...rest} />
      {label}
    </label>
  )
}
