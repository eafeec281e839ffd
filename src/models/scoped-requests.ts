/**
 * The request guard the login and account models share: a busy flag and the last error per form or list
 * (scope), so one form's failure or wait never shows on another. Made inside a model's factory: its signals
 * are the model's.
 */
import { batch, type ReadonlySignal, signal } from '@preact/signals-core'
import { requestError, type RequestError } from '../api/api-error.ts'

/** The busy flags and errors of a model's scopes, read-only, and the runner its actions use. */
export interface ScopedRequests<S extends string> {
  /** Which scopes wait for the server. */
  busy: ReadonlySignal<Partial<Record<S, boolean>>>
  /** The last server error of each scope (shown with its catalogue message). */
  errors: ReadonlySignal<Partial<Record<S, RequestError>>>
  /** Runs `work` with the scope's busy flag and records its error; resolves to undefined on failure, or when a `singleFlight` scope is already busy. */
  run<T>(scope: S, work: () => Promise<T>): Promise<T | undefined>
  /** Sets or clears a scope's error. */
  setError(scope: S, e: RequestError | null): void
  /** Clears every error. */
  clearErrors(): void
}

/** Busy flags and errors for `S`; in `singleFlight` scopes a second submit while the first is pending is dropped. */
export function scopedRequests<S extends string>(singleFlight: ReadonlySet<S> = new Set()): ScopedRequests<S> {
  const busy = signal<Partial<Record<S, boolean>>>({})
  const errors = signal<Partial<Record<S, RequestError>>>({})
  const setError = (scope: S, e: RequestError | null) => {
    const next = { ...errors.value }
    if (e) next[scope] = e
    else delete next[scope]
    errors.value = next
  }
  const setBusy = (scope: S, on: boolean) => {
    busy.value = { ...busy.value, [scope]: on }
  }
  return {
    busy,
    errors,
    setError,
    clearErrors() {
      errors.value = {}
    },
    async run(scope, work) {
      if (singleFlight.has(scope) && busy.value[scope]) return undefined
      batch(() => {
        setBusy(scope, true)
        setError(scope, null)
      })
      try {
        return await work()
      } catch (err) {
        setError(scope, requestError(err))
        return undefined
      } finally {
        setBusy(scope, false)
      }
    },
  }
}
