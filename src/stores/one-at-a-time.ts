/**
 * The request guard the booking and ticket stores share: one request at a time
 * per store, its failure kept as a scoped error (catalogue code and the
 * server's reason) for the part of the page that asked.
 */
import { batch, type Signal } from '@preact/signals-react'
import { requestError, type RequestError } from '../api/api-error.ts'

/** A failed request and the part of the page it belongs to. */
export type ScopedError<S extends string> = RequestError & { scope: S }

/**
 * A runner over the store's busy and error signals: answers undefined when a
 * request is already under way or when `work` failed (the error is kept).
 */
export function oneAtATime<K extends string, S extends string>(busy: Signal<K | null>, error: Signal<ScopedError<S> | null>) {
  return async function run<T>(kind: K, scope: S, work: () => Promise<T>): Promise<T | undefined> {
    if (busy.value !== null) return undefined
    batch(() => {
      busy.value = kind
      error.value = null
    })
    try {
      return await work()
    } catch (err) {
      error.value = { scope, ...requestError(err) }
      return undefined
    } finally {
      busy.value = null
    }
  }
}
