/**
 * "The page has shown what it is for": on a data route (the trips, the seat map's trip, the
 * paid booking) once that answer has rendered, on any other page at its first render. Work
 * the passenger does not see first (the search page's lookups, the type-ahead city field, the error
 * catalogue's messages, the update check, the focus care) waits for it, so on a slow phone it
 * neither shares the network with the page's own data nor keeps the CPU from rendering it. A
 * page that never says so (its data failed in a way it does not report) releases the work
 * after SHOWN_LATEST_MS.
 */
import { useEffect } from 'react'

/** How long work waits for a page that never says it has shown. */
export const SHOWN_LATEST_MS = 5000

let shown = false
let waiting: (() => void)[] = []
let latest: ReturnType<typeof setTimeout> | undefined

/** Says the page has shown what it is for: the waiting work starts (once). */
export function pageShown(): void {
  if (shown) return
  shown = true
  clearTimeout(latest)
  const run = waiting
  waiting = []
  for (const fn of run) fn()
}

/** Runs `fn` once the page has shown what it is for (at once, if it has). */
export function afterPageShown(fn: () => void): void {
  if (shown) {
    fn()
    return
  }
  waiting.push(fn)
  latest ??= setTimeout(pageShown, SHOWN_LATEST_MS)
}

/** A data page says it has shown what it is for once `done` holds (after that render has committed). */
export function usePageShown(done: boolean): void {
  useEffect(() => {
    if (done) pageShown()
  }, [done])
}

/** Whether the page has shown what it is for. */
export function isPageShown(): boolean {
  return shown
}

/** Test helper: a page that has not shown yet. */
export function resetPageShown(): void {
  shown = false
  waiting = []
  clearTimeout(latest)
  latest = undefined
}
