/**
 * Checks of a page at a large text size or a narrow width (WCAG 1.4.4, 1.4.10, 2.1.1): nothing makes the page
 * scroll sideways, every control can be scrolled to inside its box, and a box made a Tab stop says what it is.
 */
import { expect, type BrowserContext, type Page } from '@playwright/test'

/** What sticks out sideways: the page's scroll width beyond the viewport and the elements that cause it. */
export function sideways(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth
    // an element inside its own scroll box (a wide table in an overflow-x: auto wrapper) does not move the page
    const inScroller = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (/(auto|scroll|hidden|clip)/.test(getComputedStyle(p).overflowX)) return true
      }
      return false
    }
    const culprits = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > w + 0.5 && el.getClientRects().length > 0 && !inScroller(el))
      .slice(0, 5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${String(el.getAttribute('class') ?? '').slice(0, 40)} → ${Math.round(el.getBoundingClientRect().right)}`,
      )
    return { overflow: document.documentElement.scrollWidth - w, culprits }
  })
}

/** Expects the page not to scroll sideways. */
export async function expectReflow(page: Page, label: string): Promise<void> {
  const s = await sideways(page)
  expect(s, `${label}: the page scrolls sideways`).toEqual({ overflow: 0, culprits: [] })
}

/** The browser's text size setting at `percent` (Chromium's default font sizes, as the settings page sets them). */
export async function textSize(context: BrowserContext, page: Page, percent: number): Promise<void> {
  const cdp = await context.newCDPSession(page)
  // whole pixels: the protocol refuses a fractional size (13 px at 150 %)
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: Math.round((16 * percent) / 100), fixed: Math.round((13 * percent) / 100) } })
}

/** Boxes made Tab stops (tabindex 0 on an element that is not a control) without a role and a name to say what they are. */
export function unnamedTabStops(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[tabindex="0"]')]
      .filter((el) => !el.matches('a[href], button, input, select, textarea, summary'))
      .filter((el) => !el.getAttribute('role') || !(el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className.split(' ')[0]}: ${el.textContent?.slice(0, 40)}`),
  )
}

/** Focusable elements that lie before the start of a box that scrolls them (left of its scroll origin, or above it), where no scrolling reaches. */
export function unreachableFocusables(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = []
    for (const el of document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')) {
      if (el.tabIndex < 0 || el.getClientRects().length === 0) continue
      const r = el.getBoundingClientRect()
      for (let box = el.parentElement; box; box = box.parentElement) {
        const st = getComputedStyle(box)
        if (!/(auto|scroll)/.test(st.overflowX + st.overflowY)) continue
        const b = box.getBoundingClientRect()
        const left = r.left - b.left + box.scrollLeft
        const top = r.top - b.top + box.scrollTop
        if (left < -0.5 || top < -0.5)
          out.push(
            `${el.dataset.seat ?? el.textContent?.trim().slice(0, 20) ?? el.tagName} at ${Math.round(left)},${Math.round(top)} in ${box.className.split(' ')[0]}`,
          )
      }
    }
    return out
  })
}

/**
 * Tables wider than the box that scrolls them (within `selector`), named by their caption: a table of labels and amounts
 * reflows on a phone (its rows stacked), so that nobody has to scroll it sideways to read a total (WCAG 1.4.10).
 */
export function scrollingTables(page: Page, selector = 'body'): Promise<string[]> {
  return page.evaluate(
    (sel) =>
      [...document.querySelectorAll<HTMLTableElement>(`${sel} table`)]
        .filter((table) => table.getClientRects().length > 0)
        .flatMap((table) => {
          for (let box = table.parentElement; box; box = box.parentElement) {
            if (!/(auto|scroll)/.test(getComputedStyle(box).overflowX)) continue
            if (box.scrollWidth <= box.clientWidth + 1) return []
            return [`${table.caption?.textContent?.trim() ?? table.className.split(' ')[0]}: ${box.scrollWidth} px in a box of ${box.clientWidth}`]
          }
          return []
        }),
    selector,
  )
}

/** Expects every control reachable by scrolling, every Tab stop named (with a role) and every table reflowed, besides no sideways page. */
export async function expectLargeTextOk(page: Page, label: string): Promise<void> {
  expect(await sideways(page), `${label}: the page scrolls sideways`).toEqual({ overflow: 0, culprits: [] })
  expect(await unreachableFocusables(page), `${label}: controls a scroll box cannot scroll to`).toEqual([])
  expect(await unnamedTabStops(page), `${label}: a scroll box reached by Tab says what it is`).toEqual([])
  expect(await scrollingTables(page), `${label}: tables that scroll sideways in their box`).toEqual([])
}

/**
 * Expects the box `selector` within the screen's width (nothing of it past the edge but inside a scroll box), every
 * control reachable and every Tab stop named: expectLargeTextOk for one part of a page whose other parts are not under test.
 */
export async function expectBoxFits(page: Page, selector: string, label: string): Promise<void> {
  const wide = await page.evaluate(
    (sel) =>
      [...document.querySelectorAll<HTMLElement>(`${sel} *`)]
        .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        // a seat map scrolls in a box of its own (reachability is checked below)
        .filter((el) => {
          for (let box = el.parentElement; box; box = box.parentElement) if (/(auto|scroll)/.test(getComputedStyle(box).overflowX)) return false
          return true
        })
        .map((el) => `${el.tagName.toLowerCase()}: ${el.textContent?.trim().slice(0, 30)}`),
    selector,
  )
  expect(wide, `${label}: parts of ${selector} past the screen's edge`).toEqual([])
  expect(await unreachableFocusables(page), `${label}: controls a scroll box cannot scroll to`).toEqual([])
  expect(await unnamedTabStops(page), `${label}: a scroll box reached by Tab says what it is`).toEqual([])
  expect(await scrollingTables(page, selector), `${label}: tables that scroll sideways in their box`).toEqual([])
}
