import { useId } from 'react'
import { PinInput as Ark } from '@ark-ui/react/pin-input'
import { pinInput } from '../../styled-system/recipes'

/** Props for PinInput. */
export interface PinInputProps {
  /** Visible label text (also names the group of boxes). */
  label: string
  /** Accessible name of box `index` (0-based) of `count`, already translated: "Digit 1 of 6". */
  boxLabel: (index: number, count: number) => string
  /** Current code as a string of digits. */
  value: string
  onValueChange: (value: string) => void
  /** Called once every box is filled. */
  onValueComplete?: (value: string) => void
  /** Number of boxes. */
  count?: number
  error?: string | undefined
  hint?: string | undefined
  name?: string
  disabled?: boolean
  autoFocus?: boolean
  className?: string
}

/**
 * An SMS code entry over Ark PinInput: numeric boxes with
 * `autocomplete="one-time-code"` so phones offer the code from the SMS; pasting
 * the whole code fills every box. The error is linked with aria-describedby and
 * announced through a polite live region.
 */
export function PinInput({
  label,
  boxLabel,
  value,
  onValueChange,
  onValueComplete,
  count = 6,
  error,
  hint,
  name,
  disabled,
  autoFocus,
  className,
}: PinInputProps) {
  const id = useId()
  const labelId = `${id}-label`
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const s = pinInput()
  const digits = Array.from({ length: count }, (_, i) => value[i] ?? '')
  const describedBy = [hint ? hintId : null, errorId].filter(Boolean).join(' ')
  return (
    <Ark.Root
      className={[s.root, className].filter(Boolean).join(' ')}
      ids={{ label: labelId }}
      otp
      type="numeric"
      count={count}
      placeholder=""
      value={digits}
      invalid={Boolean(error)}
      disabled={disabled}
      autoFocus={autoFocus}
      name={name}
      // SMS apps and keyboards may offer the code with spaces or a dash
      sanitizeValue={(v) => v.replace(/\D/g, '')}
      translations={{ inputLabel: boxLabel }}
      onValueChange={(d) => onValueChange(d.valueAsString)}
      onValueComplete={(d) => onValueComplete?.(d.valueAsString)}
    >
      <Ark.Label className={s.label}>{label}</Ark.Label>
      {hint ? (
        <p id={hintId} className={s.hint}>
          {hint}
        </p>
      ) : null}
      <Ark.Control className={s.control} role="group" aria-labelledby={labelId}>
        {digits.map((_, i) => (
          <Ark.Input key={i} index={i} className={s.input} aria-describedby={describedBy} />
        ))}
      </Ark.Control>
      <Ark.HiddenInput />
      <p id={errorId} className={s.error} aria-live="polite">
        {error ?? ''}
      </p>
    </Ark.Root>
  )
}
