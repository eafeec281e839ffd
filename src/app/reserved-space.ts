/**
 * Space that something fixed or sticky takes from the viewport (the header at the top; the seat
 * page's bottom bar, the floating buttons and the notifications at the bottom), as CSS variables on
 * <html>. The global styles turn them into scroll padding, so the browser scrolls a control that
 * gets focus clear of them (WCAG 2.4.11 Focus Not Obscured); when one grows over the control that
 * has focus, that control is scrolled clear at once.
 */
import { startFocusRescue } from '../lib/focus.ts'

/** The band at the top of the viewport. */
type TopSpace = '--header-space'
/** Bands at the bottom, each measured from the bottom of the viewport (they may sit on one another). */
type BottomSpace = '--bottom-bar-space' | '--fab-space' | '--toast-space'
/** The variables the global styles read. */
export type ReservedSpace = TopSpace | BottomSpace

const BOTTOM: BottomSpace[] = ['--bottom-bar-space', '--fab-space', '--toast-space']

const px = (name: ReservedSpace) => Number.parseFloat(getComputedStyle(document.documentElement).getPropertyValue(name)) || 0

/** Whether a pointer is pressed (a tap or click under way), and a scroll waits for its end. */
let pressed = false
let deferred = false

/**
 * Scrolls the focused control into the part of the viewport nothing covers, when something covers it.
 * Not while a pointer is pressed: pressing a link focuses it, and a band that grows under the finger
 * then (the scroll-to-top button appearing as the page reaches its end, a notification) would scroll
 * the link away before the finger lifts, so the click lands beside it and is lost. The scroll waits
 * until the click is done.
 */
export function keepFocusInView(): void {
  if (pressed) {
    deferred = true
    return
  }
  const el = document.activeElement
  if (!(el instanceof HTMLElement) || el === document.body || el.closest('[data-reserved-space], [data-scope=toast]')) return
  const r = el.getBoundingClientRect()
  const top = px('--header-space')
  const bottom = window.innerHeight - Math.max(...BOTTOM.map(px))
  if (r.top < top || r.bottom > bottom) el.scrollIntoView({ block: 'nearest' })
}

/** Sets `name` to `height` px (0 to give the space back) and keeps the focused control clear. */
export function reserveSpace(name: ReservedSpace, height: number): void {
  document.documentElement.style.setProperty(name, `${Math.ceil(height)}px`)
  if (height > 0) keepFocusInView()
}

/** More than this share of the viewport's height under the header and the bottom bar together: neither stays fixed. */
const CROWDED = 0.5
/** ... and they are fixed again below this share (no flip-flop at the edge). */
const UNCROWDED = 0.4

/**
 * Marks <html data-crowded> while the header and the seat page's bottom bar, at their own heights,
 * would cover more than half the viewport (text-only zoom on a phone: the `max-height: 32em` rule
 * that unfixes them at 400 % zoom counts in the browser's default font size, not the page's); the
 * header and the bar then scroll with the page. Their heights, not the bands they cover, decide,
 * so unfixing them does not undo itself.
 */
export function checkCrowded(): void {
  let h = 0
  for (const el of document.querySelectorAll<HTMLElement>('[data-reserved-space="--header-space"], [data-reserved-space="--bottom-bar-space"]')) {
    h += el.offsetHeight
  }
  const root = document.documentElement
  const share = h / window.innerHeight
  if (share > CROWDED) root.dataset.crowded = ''
  else if (share < UNCROWDED) delete root.dataset.crowded
}

/**
 * Keeps `name` equal to the band of the viewport `el` covers while it is fixed or sticky (its
 * computed position): from the top of the viewport to its bottom edge for the header, from its top
 * edge to the bottom of the viewport for the others; 0 when it is empty, hidden, or in the flow at
 * this viewport size. Returns the function that stops and gives the space back.
 */
export function trackReservedSpace(el: HTMLElement, name: ReservedSpace): () => void {
  let last = -1
  const measure = () => {
    if (name === '--header-space' || name === '--bottom-bar-space') checkCrowded()
    const position = getComputedStyle(el).position
    const r = el.getBoundingClientRect()
    const band = name === '--header-space' ? r.bottom : window.innerHeight - r.top
    const h = (position === 'fixed' || position === 'sticky') && r.height > 0 ? Math.max(0, band) : 0
    if (h !== last) reserveSpace(name, (last = h))
  }
  const observer = new ResizeObserver(measure)
  observer.observe(el)
  window.addEventListener('resize', measure)
  return () => {
    observer.disconnect()
    window.removeEventListener('resize', measure)
    reserveSpace(name, 0)
    queueMicrotask(checkCrowded)
  }
}

/**
 * Tracks every part of the page marked `data-reserved-space="<variable>"` (the header, the floating
 * buttons, the seat page's bottom bar) from when it appears until it goes, and starts the focus
 * safety net of src/lib/focus.ts: what keeps focus seen and off the page body, fetched after the
 * first render. Returns a disposer.
 */
export function startFocusCare(): () => void {
  const tracked = new Map<HTMLElement, () => void>()
  let queued = 0
  const sync = () => {
    queued = 0
    for (const [el, stop] of tracked) {
      if (el.isConnected) continue
      stop()
      tracked.delete(el)
    }
    for (const el of document.querySelectorAll<HTMLElement>('[data-reserved-space]')) {
      if (!tracked.has(el)) tracked.set(el, trackReservedSpace(el, el.dataset.reservedSpace as ReservedSpace))
    }
  }
  sync()
  const press = () => {
    pressed = true
  }
  const release = () => {
    pressed = false
    if (!deferred) return
    deferred = false
    // after the click this press makes (dispatched right after the release)
    setTimeout(keepFocusInView)
  }
  window.addEventListener('pointerdown', press, true)
  window.addEventListener('pointerup', release, true)
  window.addEventListener('pointercancel', release, true)
  const observer = new MutationObserver(() => {
    queued ||= requestAnimationFrame(sync)
  })
  observer.observe(document.body, { childList: true, subtree: true })
  const stopRescue = startFocusRescue()
  return () => {
    window.removeEventListener('pointerdown', press, true)
    window.removeEventListener('pointerup', release, true)
    window.removeEventListener('pointercancel', release, true)
    pressed = deferred = false
    observer.disconnect()
    cancelAnimationFrame(queued)
    stopRescue()
    for (const stop of tracked.values()) stop()
  }
}
