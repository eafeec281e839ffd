import { useCallback, useRef, useState, type FormEvent } from 'react'
import type { FieldErrors } from '../lib/validation.ts'

type Values = Record<string, string>

/** When a field's message appears: after leaving it (`blur`) or from the first keystroke (`input`, password rules). */
export type ShowOn = 'blur' | 'input'

/**
 * Local form state for the account forms: values, which fields have been
 * visited, and the SPEC messages to show beside each field. Messages appear
 * once a field was left (or typed in, for `input` fields) or the form was
 * submitted; an invalid submit moves focus to the first field with a message.
 */
export function useForm<V extends Values>(
  initial: V,
  validate: (v: V) => FieldErrors<keyof V & string>,
  showOn: Partial<Record<keyof V, ShowOn>> = {},
) {
  const [values, setValues] = useState(initial)
  const [visited, setVisited] = useState<Partial<Record<keyof V, boolean>>>({})
  const [submitted, setSubmitted] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const errors = validate(values)

  const visit = useCallback((k: keyof V) => setVisited((t) => (t[k] ? t : { ...t, [k]: true })), [])

  const set = (k: keyof V, value: string) => {
    setValues((v) => ({ ...v, [k]: value }))
    if (showOn[k] === 'input') visit(k)
  }

  /** The message id to show beside field `k` now, if any. */
  const shown = (k: keyof V & string) => (submitted || visited[k] ? errors[k] : undefined)

  /** Props for a native input bound to field `k`. */
  const bind = (k: keyof V & string) => ({
    name: k,
    value: values[k],
    onChange: (e: { currentTarget: { value: string } }) => set(k, e.currentTarget.value),
    onBlur: () => visit(k),
  })

  /** onSubmit handler: validates everything, focuses the first problem, else calls `onValid`. */
  const submit = (onValid: (v: V) => void) => (e: FormEvent) => {
    e.preventDefault()
    setSubmitted(true)
    const first = Object.keys(values).find((k) => errors[k as keyof V & string])
    if (first) {
      const form = formRef.current
      const el = form?.querySelector<HTMLElement>(
        `[name="${first}"]:not([aria-hidden="true"]), [data-field="${first}"] input:not([aria-hidden="true"])`,
      )
      el?.focus()
      return
    }
    onValid(values)
  }

  /** Back to the initial (or given) values, nothing visited. */
  const reset = (next: V = initial) => {
    setValues(next)
    setVisited({})
    setSubmitted(false)
  }

  return { values, set, errors, shown, bind, submit, reset, formRef, visit }
}
