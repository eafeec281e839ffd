/**
 * What the page says without moving focus: every live region (aria-live other than off, role status,
 * alert or log) and every alert dialog, recorded in the page each time its text changes. A screen
 * reader speaks each of these on its own, so a message two of them carry is heard twice.
 */
import type { Page } from '@playwright/test'

/** One change of a speaking element's text: which element (numbered as first seen), its role, the text, when (epoch ms). */
export interface Said {
  region: number
  role: string
  text: string
  at: number
}

/** Starts recording, in the page, every text its live regions and alert dialogs say: read with `said`. */
export async function recordLiveRegions(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __said: Said[] }
    w.__said = []
    const ids = new WeakMap<Element, number>()
    let seen = 0
    const last = new WeakMap<Element, string>()
    const speaking = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"], [role="alertdialog"]'
    const scan = () => {
      for (const el of document.querySelectorAll(speaking)) {
        // as it is (a trailing no-break space makes the same words new), recorded trimmed
        const text = el.textContent ?? ''
        if (last.get(el) === text) continue
        last.set(el, text)
        if (!ids.has(el)) ids.set(el, seen++)
        const role = el.getAttribute('role') ?? `aria-live=${el.getAttribute('aria-live')}`
        if (text.trim()) w.__said.push({ region: ids.get(el)!, role, text: text.trim(), at: Date.now() })
      }
    }
    scan()
    new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, characterData: true })
  })
}

/** Everything said since `recordLiveRegions`. */
export function said(page: Page): Promise<Said[]> {
  return page.evaluate(() => (window as unknown as { __said: Said[] }).__said)
}
