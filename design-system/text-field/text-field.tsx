import { useId, type ComponentProps } from 'react'
import { textField } from '../../styled-system/recipes'

type InputProps = Omit<ComponentProps<'input'>, 'id'>

/** Props for TextField. */
export interface TextFieldProps extends InputProps {
  /** Visible label text. */
  label: string
  /** Error message shown below the field; empty or undefined when valid. */
  error?: string | undefined
  /** Optional hint shown under the label. */
  hint?: string | undefined
  /** Render a <textarea> instead of an <input>. */
  multiline?: boolean
  /** Show a required marker (the input also gets aria-required). */
  requiredMark?: boolean
}

/**
 * A labelled field. The error sits right under the input, is linked with
 * aria-describedby, sets aria-invalid, and is announced through a polite live region.
 */
export function TextField({ label, error, hint, multiline, requiredMark, className, ...rest }: TextFieldProps) {
  const id = useId()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const s = textField()
  const describedBy = [hint ? hintId : null, errorId].filter(Boolean).join(' ')
  const common = {
    id,
    className: s.input,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': requiredMark ? true : undefined,
  }
  return (
    <div className={[s.root, className].filter(Boolean).join(' ')}>
      <label htmlFor={id} className={s.label}>
        {label}
        {requiredMark ? (
          <span className={s.required} aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      {hint ? (
        <p id={hintId} className={s.hint}>
          {hint}
        </p>
      ) : null}
      {multiline ? <textarea {...common} {...(rest as ComponentProps<'textarea'>)} /> : <input {...common} {...rest} />}
      <p id={errorId} className={s.error} aria-live="polite">
        {error ?? ''}
      </p>
    </div>
  )
}
