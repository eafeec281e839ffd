/**
 * Focus after an action (WCAG 2.4.3): when what the passenger acted on goes away (a form replaced
 * by its result, a button that is no longer needed), focus moves to what shows the result instead
 * of falling to the page body, where a keyboard or screen-reader user would have to start again.
 */

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]'

/**
 * Focuses what `find` answers once the page has rendered it (it looks for up to `frames`
 * animation frames), making a heading or paragraph focusable from script first.
 */
export function focusWhenShown(find: () => HTMLElement | null, frames = 10): void {
  requestAnimationFrame(() => {
    const el = find()
    if (!el) {
      if (frames > 0) focusWhenShown(find, frames - 1)
      return
    }
    if (!el.matches(FOCUSABLE)) el.tabIndex = -1
    el.focus()
  })
}

/** Focuses the element with this id once it is on the page. */
export function focusIdWhenShown(id: string): void {
  focusWhenShown(() => document.getElementById(id))
}

/** The page's h1, focusable from script: where focus goes when what had it is gone and nothing else says the result. */
export function pageHeading(): HTMLElement | null {
  const h1 = document.querySelector<HTMLElement>('main h1')
  if (h1 && !h1.hasAttribute('tabindex')) h1.tabIndex = -1
  return h1
}

/** Parts of a page whose heading says what is in them. */
const PARTS = 'section, form, [role="region"], [role="dialog"], [role="alertdialog"], main'

/**
 * Where focus goes when the control that had it went away or was disabled: the heading of the
 * nearest part of the page still there that held it (the list it was removed from, the panel whose
 * step ended), else the page's h1.
 */
function rescueTarget(chain: Element[]): HTMLElement | null {
  for (const el of chain) {
    if (!el.isConnected || !el.matches(PARTS)) continue
    const heading = [...el.querySelectorAll<HTMLElement>('h1, h2, h3')].find((h) => h.getClientRects().length > 0)
    if (heading) {
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1
      return heading
    }
  }
  return pageHeading()
}

/** How long a closed modal dialog has to give focus back itself before the safety net steps in. */
const DIALOG_RETURN_MS = 1000

/**
 * The safety net under every action (WCAG 2.4.3): when the focused control is removed or disabled
 * and nothing else took the focus (the action's own code moves it first, where it knows better),
 * focus moves to the heading of the part of the page that held it instead of falling to the page
 * body. A focus the passenger let go of (a click on empty space) is left alone. Returns a disposer.
 */
export function startFocusRescue(): () => void {
  let chain: Element[] = []
  let pending = 0
  let waited = false
  const onFocusIn = (e: FocusEvent) => {
    chain = []
    waited = false
    for (let el = e.target instanceof Element ? e.target : null; el; el = el.parentElement) chain.push(el)
  }
  const check = () => {
    pending = 0
    const last = chain[0]
    if (!last || !document.hasFocus()) return
    if (last.isConnected && !last.matches(':disabled')) return
    // the browser moves focus off a disabled control only at its next rendering, which a busy
    // phone may not have reached yet: a disabled control still holding focus has lost it too
    const active = document.activeElement
    if (active !== document.body && active !== last) return
    // a modal dialog that closed gives focus back itself (its focus trap, to the control that opened it), a
    // timer after its content went away: on a busy phone later than this check, and focus moved here first
    // stays here (the trap gives it back only from the page body). Step in only if it has not by then.
    if (!waited && chain.some((el) => el.getAttribute('aria-modal') === 'true')) {
      waited = true
      pending = window.setTimeout(check, DIALOG_RETURN_MS)
      return
    }
    rescueTarget(chain)?.focus()
  }
  const observer = new MutationObserver(() => {
    // after the action's own focus move (focusWhenShown waits for the next frame)
    if (!pending) pending = window.setTimeout(check, 100)
  })
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] })
  document.addEventListener('focusin', onFocusIn)
  return () => {
    observer.disconnect()
    document.removeEventListener('focusin', onFocusIn)
    window.clearTimeout(pending)
  }
}
