import { useSignal, useSignalEffect, type ReadonlySignal } from '@preact/signals-react'

/**
 * A copy of `source` that follows it one task later. Parts of the page that
 * are not the seat itself (summary, hold timer, live region) read the copy, so
 * a seat toggle repaints the seat before anything else renders.
 */
export function useLagging<T>(source: ReadonlySignal<T>): ReadonlySignal<T> {
  const copy = useSignal(source.peek())
  useSignalEffect(() => {
    const value = source.value
    const id = setTimeout(() => {
      copy.value = value
    }, 0)
    return () => clearTimeout(id)
  })
  return copy
}
