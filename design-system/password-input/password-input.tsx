import { useId, useState, type ComponentProps } from 'react'
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
 * A labelled password field with a show/hide button, hint and error linked with
 * aria-describedby, errors announced through a polite live region. Written here
 * rather than over Ark PasswordInput: Ark's state-machine runtime would add 10 KB
 * (brotli) to the first render of the login and profile pages for one button.
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
  const [visible, setVisible] = useState(false)
  const s = passwordInput()
  const errors = error === undefined || error === '' ? [] : typeof error === 'string' ? [error] : error
  const invalid = errors.length > 0
  const flags = { 'data-invalid': invalid ? '' : undefined, 'data-disabled': disabled ? '' : undefined }
  return (
    <div className={[s.root, className].filter(Boolean).join(' ')} {...flags}>
      <label className={s.label} htmlFor={inputId} {...flags}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className={s.hint}>
          {hint}
        </p>
      ) : null}
      <div className={s.control} {...flags}>
        <input
          id={inputId}
          className={s.input}
          type={visible ? 'text' : 'password'}
          name={name}
          disabled={disabled}
          autoComplete={autoComplete}
          autoCapitalize="off"
          spellCheck={false}
          aria-invalid={invalid || undefined}
          aria-describedby={[hint ? hintId : null, errorId].filter(Boolean).join(' ')}
          {...flags}
          {...rest}
        />
        {/* in the tab order after the password (WCAG 2.1.1): a native button, so Enter and Space work */}
        <button
          type="button"
          className={s.visibilityTrigger}
          aria-label={visible ? hideLabel : showLabel}
          aria-controls={inputId}
          aria-expanded={visible}
          disabled={disabled}
          data-state={visible ? 'visible' : 'hidden'}
          onPointerDown={(e) => {
            // a pointer keeps the caret in the input (the keyboard reaches the button by Tab)
            e.preventDefault()
          }}
          onClick={() => setVisible((v) => !v)}
        >
          <span className={s.indicator}>{visible ? <EyeOff /> : <Eye />}</span>
        </button>
      </div>
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
    </div>
  )
}
