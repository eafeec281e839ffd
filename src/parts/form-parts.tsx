import { useId, type ComponentProps } from 'react'
import { useIntl } from 'react-intl'
import { css, cx } from '../../styled-system/css'
import { StatusMessage } from '../../design-system/status/index.ts'
import type { RequestError } from '../api/api-error.ts'
import { useMessageText } from '../app/use-t.ts'
import { messageForError } from '../stores/ui.ts'

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

/** Translates an optional message id (field messages). */
export function useMaybeT() {
  const intl = useIntl()
  return (id: string | undefined, values?: Record<string, string | number>) => (id ? intl.formatMessage({ id }, values) : undefined)
}

/**
 * A failed request under the form (its catalogue message, else the server's reason), read out at once.
 * `ids` gives some codes a message of this form's own (with the error's values), e.g. what to do instead.
 */
export function ServerError({ error, ids }: { error: RequestError | null | undefined; ids?: Partial<Record<string, string>> }) {
  const text = useMessageText()
  const own = error ? ids?.[error.code] : undefined
  return (
    <StatusMessage tone="error" politeness="assertive">
      {error ? text(own ? { id: own, values: error.values } : messageForError(error)) : null}
    </StatusMessage>
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
