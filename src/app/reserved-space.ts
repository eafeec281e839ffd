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

const setSpace = (name: ReservedSpace, height: number) => document.documentElement.style.setProperty(name, `${Math.ceil(height)}px`)

/** Sets `name` to `height` px (0 to give the space back) and keeps the focused control clear. */
export function reserveSpace(name: ReservedSpace, height: number): void {
  setSpace(name, height)
  if (height > 0) keepFocusInView()
}

/** Sets or clears <html data-crowded> as `crowded()` says (null: leaves it). */
function markCrowded(crowd: boolean | null): void {
  if (crowd === true) document.documentElement.dataset.crowded = ''
  else if (crowd === false) delete document.documentElement.dataset.crowded
}

/** More than this share of the viewport's height under the header and the bottom bar together: neither stays fixed. */
const CROWDED = 0.5
/** ... and they are fixed again below this share (no flip-flop at the edge). */
const UNCROWDED = 0.4

/**
 * Whether <html data-crowded> should be on: the header and the seat page's bottom bar, at their own
 * heights, would cover more than half the viewport (text-only zoom on a phone: the `max-height: 32em`
 * rule that unfixes them at 400 % zoom counts in the browser's default font size, not the page's); the
 * header and the bar then scroll with the page. Their heights, not the bands they cover, decide,
 * so unfixing them does not undo itself. Null: between the two shares, as it is.
 */
function crowded(): boolean | null {
  let h = 0
  for (const el of document.querySelectorAll<HTMLElement>('[data-reserved-space="--header-space"], [data-reserved-space="--bottom-bar-space"]')) {
    h += el.offsetHeight
  }
  const share = h / window.innerHeight
  return share > CROWDED ? true : share < UNCROWDED ? false : null
}

/** The band of the viewport `el` covers while it is fixed or sticky (its computed position), 0 when in the flow or empty. */
function bandOf(el: HTMLElement, name: ReservedSpace): number {
  if (!el.isConnected) return 0
  const position = getComputedStyle(el).position
  const r = el.getBoundingClientRect()
  const band = name === '--header-space' ? r.bottom : window.innerHeight - r.top
  return (position === 'fixed' || position === 'sticky') && r.height > 0 ? Math.max(0, band) : 0
}

/**
 * Tracks every part of the page marked `data-reserved-space="<variable>"` (the header, the floating
 * buttons, the seat page's bottom bar) from when it appears until it goes, keeping its variable equal
 * to the band it covers (from the top of the viewport to the header's bottom edge, from a bottom
 * part's top edge to the bottom of the viewport), and <html data-crowded>; starts the focus
 * safety net of src/lib/focus.ts: what keeps focus seen and off the page body, fetched after the
 * first render. Returns a disposer.
 */
export function startFocusCare(): () => void {
  // the band last written per variable (none yet: the styles read 0)
  const written = new Map<ReservedSpace, number>()
  const tracked = new Map<HTMLElement, ReservedSpace>()
  // every part in one pass, each read before any write: a variable written on <html> restyles the
  // whole page, and a read after it would do that at once, once per part
  const measure = () => {
    const crowd = crowded()
    const bands = new Map<ReservedSpace, number>()
    for (const [el, name] of tracked) bands.set(name, Math.max(bands.get(name) ?? 0, bandOf(el, name)))
    for (const name of written.keys()) if (!bands.has(name)) bands.set(name, 0)
    markCrowded(crowd)
    let grew = false
    for (const [name, h] of bands) {
      if ((written.get(name) ?? 0) === h) continue
      written.set(name, h)
      setSpace(name, h)
      grew ||= h > 0
    }
    if (grew) keepFocusInView()
  }
  const resize = new ResizeObserver(measure)
  let queued = 0
  const sync = () => {
    queued = 0
    let changed = false
    for (const el of tracked.keys()) {
      if (el.isConnected) continue
      resize.unobserve(el)
      tracked.delete(el)
      changed = true
    }
    for (const el of document.querySelectorAll<HTMLElement>('[data-reserved-space]')) {
      if (tracked.has(el)) continue
      tracked.set(el, el.dataset.reservedSpace as ReservedSpace)
      // observing calls measure for it
      resize.observe(el)
    }
    if (changed) measure()
  }
  sync()
  window.addEventListener('resize', measure)
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
    window.removeEventListener('resize', measure)
    observer.disconnect()
    resize.disconnect()
    cancelAnimationFrame(queued)
    stopRescue()
    for (const name of written.keys()) setSpace(name, 0)
    tracked.clear()
    queueMicrotask(() => markCrowded(crowded()))
  }
}
