import { useId, type ComponentProps } from 'react'
import { PasswordInput as Ark } from '@ark-ui/react/password-input'
import { passwordInput } from '../../styled-system/recipes'

type InputProps = Omit<ComponentProps<'input'>, 'id' | 'type' | 'autoComplete'>

/** Props for PasswordInput. */
export interface PasswordInputProps extends InputProps {
  /** Visible label text. */
  label: string
  /** Error below the field: one message, or a list (e.g. the password rules still missing). */
  error?: string | readonly string[] | undefined
  /** Hint under the label (e.g. the password rules). */
  hint?: string | undefined
  /** `new-password` for sign-up and changes, `current-password` for login. */
  autoComplete?: 'current-password' | 'new-password'
  /** Accessible names of the show/hide button, already translated. */
  showLabel: string
  hideLabel: string
}

const Eye = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
    <path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" />
    <circle cx="12" cy="12" r="3" />
  </svg>
)
const EyeOff = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
    <path d="M3 3l18 18M10.6 5.1A10.9 10.9 0 0 1 12 5c7 0 11 7 11 7a18 18 0 0 1-3.2 4M6.6 6.6A18 18 0 0 0 1 12s4 7 11 7a10.7 10.7 0 0 0 5.4-1.4" />
    <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2" />
  </svg>
)

/**
 * A labelled password field over Ark PasswordInput: show/hide button, hint and
 * error linked with aria-describedby, errors announced through a polite live region.
 */
export function PasswordInput({
  label,
  error,
  hint,
  autoComplete = 'current-password',
  showLabel,
  hideLabel,
  name,
  disabled,
  className,
  ...rest
}: PasswordInputProps) {
  const id = useId()
  const inputId = `${id}-input`
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const s = passwordInput()
  const errors = error === undefined || error === '' ? [] : typeof error === 'string' ? [error] : error
  const invalid = errors.length > 0
  return (
    <Ark.Root
      className={[s.root, className].filter(Boolean).join(' ')}
      ids={{ input: inputId }}
      invalid={invalid}
      disabled={disabled}
      autoComplete={autoComplete}
      name={name}
      translations={{ visibilityTrigger: (visible) => (visible ? hideLabel : showLabel) }}
    >
      <Ark.Label className={s.label}>{label}</Ark.Label>
      {hint ? (
        <p id={hintId} className={s.hint}>
          {hint}
        </p>
      ) : null}
      <Ark.Control className={s.control}>
        <Ark.Input className={s.input} aria-describedby={[hint ? hintId : null, errorId].filter(Boolean).join(' ')} {...rest} />
        <Ark.VisibilityTrigger className={s.visibilityTrigger}>
          <Ark.Indicator className={s.indicator} fallback={<Eye />}>
            <EyeOff />
          </Ark.Indicator>
        </Ark.VisibilityTrigger>
      </Ark.Control>
      <div id={errorId} className={s.error} aria-live="polite">
        {errors.length > 1 ? (
          <ul className={s.errorList}>
            {errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        ) : (
          (errors[0] ?? '')
        )}
      </div>
    </Ark.Root>
  )
}
