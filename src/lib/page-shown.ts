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

/** After the page's load event, its own follow-up requests (lazy parts, live data) get this long to themselves. */
export const SETTLE_AFTER_LOAD_MS = 2000
/** How long a settled page waits for the main thread to be idle, at most. */
const IDLE_LATEST_MS = 4000

/**
 * Runs `fn` once the page has settled: it has shown what it is for, its load event has passed
 * SETTLE_AFTER_LOAD_MS ago, and then the main thread is idle (IDLE_LATEST_MS at most). For work
 * that is for later, not for this page (the overlays' code, the service worker's copy of the whole
 * build): started earlier, it shares the network, and the CPU the browser's other threads and
 * processes take from the main thread, with the page's lazy parts and its first renders.
 */
export function afterPageSettled(fn: () => void): void {
  const idle = (globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback
  const later = () => setTimeout(() => (idle ? idle(fn, { timeout: IDLE_LATEST_MS }) : fn()), SETTLE_AFTER_LOAD_MS)
  afterPageShown(() => {
    if (document.readyState === 'complete') later()
    else window.addEventListener('load', later, { once: true })
  })
}

/** How long `afterPaint` waits for a frame at most (a hidden tab paints none). */
export const PAINT_LATEST_MS = 500

/** Frames `afterPaint` lets go by: the first paints what is committed, the next comes once that is on screen. */
const FRAMES = 2

const reportsLargestPaint = () =>
  typeof PerformanceObserver === 'function' && (PerformanceObserver.supportedEntryTypes ?? []).includes('largest-contentful-paint')

/**
 * Runs `fn` once the browser has put what is committed now on screen: when it reports a largest
 * paint since this call, or in a task after the frame that follows the one that painted it (what
 * is committed may be no larger than what is on screen, which the browser does not report);
 * after PAINT_LATEST_MS at most (a hidden tab paints nothing). Requests started there no longer
 * share the network and the main thread with that paint (on a slow phone, and in Lighthouse's
 * simulation, every request begun before the largest paint delays it).
 */
export function afterPaint(fn: () => void): void {
  const since = performance.now()
  let done = false
  let observer: PerformanceObserver | undefined
  const latest = setTimeout(() => run(), PAINT_LATEST_MS)
  const run = () => {
    if (done) return
    done = true
    observer?.disconnect()
    clearTimeout(latest)
    fn()
  }
  if (reportsLargestPaint()) {
    observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((e) => e.startTime >= since)) run()
    })
    observer.observe({ type: 'largest-contentful-paint' })
  }
  if (typeof requestAnimationFrame !== 'function') return
  let frames = 0
  const frame = () => (++frames < FRAMES ? requestAnimationFrame(frame) : setTimeout(run, 0))
  requestAnimationFrame(frame)
}

/** Says the page has shown once its current render has painted (`pageShown` after `afterPaint`). */
export function pageShownAfterPaint(): void {
  afterPaint(pageShown)
}

/** A data page says it has shown what it is for once `done` holds and that render has painted. */
export function usePageShown(done: boolean): void {
  useEffect(() => {
    if (done) pageShownAfterPaint()
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
