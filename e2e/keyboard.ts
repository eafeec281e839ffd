/**
 * Keyboard checks for a rendered page, read from the page as assistive technology
 * sees it (roles, accessible names, the tab order), not from any component's code:
 *
 * - Tab order: Tab from the top (or, inside an open modal dialog, from where the
 *   dialog put focus) visits every tabbable control in document order and nothing
 *   else, and leaves the page (or, in a modal, wraps inside it); every visible,
 *   enabled control is tabbable unless it belongs to a composite widget (grid,
 *   tablist…) or is named in `outOfTabOrder` (a documented exception).
 * - Focus is visible: the screen around each control differs when it has focus.
 * - Grids (WAI-ARIA grid, e.g. the seat grid): arrow keys, Home/End, Ctrl+Home/End and
 *   Page Up/Down move focus between the cells' buttons as the seat grid README says;
 *   Space and Enter toggle an enabled button and leave a disabled one; one tab stop
 *   per grid, which stays on the button last focused.
 * - Tab lists: ← → move to and select the neighbouring tab and show its panel.
 * - Groups of text boxes with one tab stop (a PIN input): ← → move between the boxes
 *   (→ no further than the first empty one).
 */
import { expect, type Page } from '@playwright/test'

interface Control {
  id: string
  name: string
}

interface Scan {
  modal: boolean
  tabbable: Control[]
  unreachable: string[]
}

const mark = 'data-kbd-id'

/** Marks the controls in scope (the open modal dialog, else the page) and reads the tab order the DOM defines. */
function scan(page: Page, outOfTabOrder: RegExp | null): Promise<Scan> {
  return page.evaluate(
    ({ mark, allowed }) => {
      const w = window as unknown as { kbdSeq?: number }
      // hidden from assistive technology too: a tabbable one among them shows up as an unexpected stop
      const visible = (el: Element) =>
        el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[inert], [hidden], [aria-hidden="true"]')
      const modals = [...document.querySelectorAll('[aria-modal="true"]')].filter(visible)
      const scope = modals[modals.length - 1] ?? document.body
      const name = (el: Element) =>
        (el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '') ||
        el.getAttribute('placeholder') ||
        (el as HTMLInputElement).labels?.[0]?.textContent ||
        el.tagName
      const idOf = (el: Element) => {
        if (!el.hasAttribute(mark)) el.setAttribute(mark, `c${(w.kbdSeq = (w.kbdSeq ?? 0) + 1)}`)
        return el.getAttribute(mark)!
      }
      const candidates = [
        ...scope.querySelectorAll<HTMLElement>(
          'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex], [contenteditable="true"], [contenteditable=""]',
        ),
      ].filter((el) => visible(el) && !el.matches(':disabled'))
      const zero = candidates.filter((el) => el.tabIndex === 0)
      const positive = candidates.filter((el) => el.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex)
      // widgets with one tab stop inside (a group of text boxes with one tabbable box, e.g. a PIN input, too)
      const roving = (el: Element) => {
        const g = el.closest('[role="group"]')
        return !!g && [...g.querySelectorAll<HTMLElement>('input')].filter((i) => i.tabIndex >= 0).length === 1
      }
      const composite =
        '[role="grid"], [role="tablist"], [role="listbox"], [role="menu"], [role="menubar"], [role="radiogroup"], [role="toolbar"], [role="tree"]'
      const allowedOut = allowed ? new RegExp(allowed) : null
      const unreachable = candidates
        .filter((el) => el.matches('a[href], button, input, select, textarea, [role="button"], [role="link"], [role="tab"]'))
        .filter((el) => el.tabIndex < 0 && !el.closest(composite) && !roving(el) && !allowedOut?.test(name(el)))
      return {
        modal: modals.length > 0,
        tabbable: [...positive, ...zero].map((el) => ({ id: idOf(el), name: name(el).replace(/\s+/g, ' ').slice(0, 80) })),
        unreachable: unreachable.map((el) => name(el)),
      }
    },
    { mark, allowed: outOfTabOrder?.source ?? null },
  )
}

/** The marked id of the focused element; null when nothing in the page has focus; `other: <name>` for an unmarked one. */
function focusedId(page: Page): Promise<string | null> {
  return page.evaluate((mark) => {
    const el = document.activeElement
    if (!el || el === document.body || el === document.documentElement) return null
    return el.getAttribute(mark) ?? `other: ${(el.getAttribute('aria-label') ?? el.textContent ?? el.tagName).trim().slice(0, 60)}`
  }, mark)
}

/** The screen around a marked control (its box and 8 px around, where focus rings are drawn). */
async function around(page: Page, id: string): Promise<Buffer> {
  const el = page.locator(`[${mark}="${id}"]`)
  await el.scrollIntoViewIfNeeded()
  const box = (await el.boundingBox())!
  const view = page.viewportSize()!
  const x = Math.max(0, box.x - 8)
  const y = Math.max(0, box.y - 8)
  const clip = { x, y, width: Math.min(view.width - x, box.width + 16), height: Math.min(view.height - y, box.height + 16) }
  return page.screenshot({ clip, animations: 'disabled' })
}

/** Checks the tab order and that focus is visible on each control it reaches (see the module comment). */
export async function checkTabOrder(page: Page, outOfTabOrder: RegExp | null = null): Promise<void> {
  const s = await scan(page, outOfTabOrder)
  expect(s.unreachable, 'visible, enabled controls that Tab never reaches').toEqual([])
  const ids = s.tabbable.map((c) => c.id)
  const nameOf = (id: string | null) => (id === null ? '(outside the page)' : (s.tabbable.find((c) => c.id === id)?.name ?? id))
  // a modal dialog keeps the focus it placed; a page is walked from its top
  const start = s.modal ? ids.indexOf((await focusedId(page)) ?? '') : -1
  if (!s.modal) await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  const want = ids.map((_, i) => ids[(start + 1 + i) % ids.length]!)
  const seen: (string | null)[] = []
  const focusedLook = new Map<string, Buffer>()
  for (let i = 0; i <= ids.length; i++) {
    await page.keyboard.press('Tab')
    const id = await focusedId(page)
    seen.push(id)
    if (id && ids.includes(id) && !focusedLook.has(id)) focusedLook.set(id, await around(page, id))
  }
  // after the last control focus leaves the page, or, in a modal dialog, goes round to the first again
  const after = s.modal ? (want[0] ?? null) : null
  expect(seen.map(nameOf), 'the controls Tab reaches, in order').toEqual([...want, after].map(nameOf))

  // Without focus on it, each control must look different: move focus away (out of the page, or in a
  // modal dialog to the control farthest from it) and compare.
  const unseen: string[] = []
  for (const id of ids) {
    if (s.modal) {
      const away = await page.evaluate(
        ({ mark, id, ids }) => {
          const box = (x: string) => document.querySelector(`[${mark}="${x}"]`)!.getBoundingClientRect()
          const me = box(id)
          const far = ids
            .filter((x) => x !== id)
            .sort((a, b) => Math.hypot(box(b).x - me.x, box(b).y - me.y) - Math.hypot(box(a).x - me.x, box(a).y - me.y))[0]
          // a dialog with one control: the dialog itself takes focus (it has tabindex -1)
          const target = far ? document.querySelector<HTMLElement>(`[${mark}="${far}"]`) : document.querySelector<HTMLElement>('[aria-modal="true"]')
          target?.focus()
          return document.activeElement?.getAttribute(mark) !== id
        },
        { mark, id, ids },
      )
      expect(away, `focus could not leave ${nameOf(id)} to compare its look`).toBe(true)
    } else {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    }
    if ((await around(page, id)).equals(focusedLook.get(id)!)) unseen.push(nameOf(id))
  }
  expect(unseen, 'controls that look the same with and without focus').toEqual([])
}

interface GridModel {
  rows: { col: number; id: string; name: string }[][]
}

/** Rows of the grid's buttons by cell column, as role="row" / role="gridcell" lay them out. */
function gridModel(page: Page, gridId: string): Promise<GridModel> {
  return page.evaluate(
    ({ mark, gridId }) => {
      const w = window as unknown as { kbdSeq?: number }
      const grid = document.querySelector(`[${mark}="${gridId}"]`)!
      const rows = [...grid.querySelectorAll('[role="row"]')].map((row) =>
        [...row.querySelectorAll('[role="gridcell"]')].flatMap((cell, col) => {
          const b = cell.querySelector('button, [role="button"]')
          if (!b) return []
          if (!b.hasAttribute(mark)) b.setAttribute(mark, `c${(w.kbdSeq = (w.kbdSeq ?? 0) + 1)}`)
          return [{ col, id: b.getAttribute(mark)!, name: (b.getAttribute('aria-label') ?? b.textContent ?? '').split(',')[0]! }]
        }),
      )
      return { rows: rows.filter((r) => r.length > 0) }
    },
    { mark, gridId },
  )
}

/** Where a key should take focus from `id`: the cells it may land on (ties of "nearest" allow several). */
function target(m: GridModel, id: string, key: string): string[] {
  const r = m.rows.findIndex((row) => row.some((c) => c.id === id))
  const row = m.rows[r]!
  const i = row.findIndex((c) => c.id === id)
  const col = row[i]!.col
  const nearest = (cells: { col: number; id: string }[]) => {
    const d = Math.min(...cells.map((c) => Math.abs(c.col - col)))
    return cells.filter((c) => Math.abs(c.col - col) === d).map((c) => c.id)
  }
  const first = m.rows[0]!
  const last = m.rows[m.rows.length - 1]!
  switch (key) {
    case 'ArrowRight':
      return [(row[i + 1] ?? row[i]!).id]
    case 'ArrowLeft':
      return [(row[i - 1] ?? row[i]!).id]
    case 'ArrowDown':
      return r + 1 < m.rows.length ? nearest(m.rows[r + 1]!) : [id]
    case 'ArrowUp':
      return r > 0 ? nearest(m.rows[r - 1]!) : [id]
    case 'Home':
      return [row[0]!.id]
    case 'End':
      return [row[row.length - 1]!.id]
    case 'Control+Home':
      return [first[0]!.id]
    case 'Control+End':
      return [last[last.length - 1]!.id]
    case 'PageDown':
      return nearest(last)
    case 'PageUp':
      return nearest(first)
    default:
      throw new Error(`no rule for ${key}`)
  }
}

const gridKeys = ['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp', 'Home', 'End', 'Control+Home', 'Control+End', 'PageDown', 'PageUp']

/** Checks every visible grid: arrow-key movement, toggling with Space and Enter, one tab stop that remembers. */
export async function checkGrids(page: Page): Promise<number> {
  const grids = await page.evaluate((mark) => {
    const w = window as unknown as { kbdSeq?: number }
    return [...document.querySelectorAll('[role="grid"]')]
      .filter((g) => g.getClientRects().length > 0 && !g.closest('[hidden]'))
      .map((g) => {
        if (!g.hasAttribute(mark)) g.setAttribute(mark, `c${(w.kbdSeq = (w.kbdSeq ?? 0) + 1)}`)
        return { id: g.getAttribute(mark)!, name: g.getAttribute('aria-label') ?? '' }
      })
  }, mark)
  for (const grid of grids) {
    const m = await gridModel(page, grid.id)
    const stops = () =>
      page.evaluate(({ mark, id }) => [...document.querySelectorAll(`[${mark}="${id}"] [tabindex="0"]`)].map((el) => el.getAttribute(mark)), {
        mark,
        id: grid.id,
      })
    expect(await stops(), `${grid.name}: one tab stop`).toHaveLength(1)
    // every key from every button: focus lands where the README says, and the tab stop follows it
    // (three browser round trips a key: a double-deck coach is some 800 of them)
    const focusOn = (id: string) => page.evaluate(({ mark, id }) => document.querySelector<HTMLElement>(`[${mark}="${id}"]`)!.focus(), { mark, id })
    const afterKey = () =>
      page.evaluate(
        ({ mark, id }) => {
          const el = document.activeElement
          const at =
            !el || el === document.body ? null : (el.getAttribute(mark) ?? `other: ${(el.getAttribute('aria-label') ?? el.tagName).slice(0, 60)}`)
          return { at, stops: [...document.querySelectorAll(`[${mark}="${id}"] [tabindex="0"]`)].map((s) => s.getAttribute(mark)) }
        },
        { mark, id: grid.id },
      )
    let at = ''
    for (const from of m.rows.flat()) {
      for (const key of gridKeys) {
        await focusOn(from.id)
        await page.keyboard.press(key)
        const after = await afterKey()
        at = after.at!
        expect(target(m, from.id, key), `${grid.name}: ${key} from ${from.name}`).toContain(at)
        expect(after.stops, `${grid.name}: the tab stop follows focus (${key})`).toEqual([at])
      }
    }
    // one tab stop, kept on the button last focused
    await page.keyboard.press('Tab')
    expect(await focusedId(page), `${grid.name}: Tab leaves the grid`).not.toBe(at)
    await page.keyboard.press('Shift+Tab')
    expect(await focusedId(page), `${grid.name}: Shift+Tab comes back to the button last focused`).toBe(at)

    // Space and Enter toggle an enabled button; a disabled one stays as it is
    const [enabledId, disabledId] = await page.evaluate(
      ({ mark, id }) =>
        [':not([aria-disabled="true"])', '[aria-disabled="true"]'].map(
          (sel) => document.querySelector(`[${mark}="${id}"] [aria-pressed]${sel}`)?.getAttribute(mark) ?? null,
        ),
      { mark, id: grid.id },
    )
    const enabled = page.locator(`[${mark}="${enabledId}"]`)
    await enabled.focus()
    const was = await enabled.getAttribute('aria-pressed')
    await page.keyboard.press('Space')
    await expect(enabled, `${grid.name}: Space toggles`).not.toHaveAttribute('aria-pressed', was!)
    await page.keyboard.press('Enter')
    await expect(enabled, `${grid.name}: Enter toggles back`).toHaveAttribute('aria-pressed', was!)
    if (disabledId) {
      const d = page.locator(`[${mark}="${disabledId}"]`)
      const label = await d.getAttribute('aria-label')
      await d.focus()
      await page.keyboard.press('Space')
      await page.keyboard.press('Enter')
      await expect(d, `${grid.name}: a disabled button does not toggle`).toHaveAttribute('aria-label', label!)
      await expect(d).toHaveAttribute('aria-pressed', 'false')
    }
  }
  return grids.length
}

/** Checks every visible tab list: ← → select and focus the neighbouring tab and show its panel. Answers the tab lists found. */
export async function checkTabLists(page: Page, eachTab: () => Promise<void>): Promise<number> {
  const lists = page.getByRole('tablist')
  const count = await lists.count()
  for (let l = 0; l < count; l++) {
    const tabs = lists.nth(l).getByRole('tab')
    const n = await tabs.count()
    await tabs.and(page.locator('[aria-selected="true"]')).focus()
    const first = await tabs.evaluateAll((els) => els.findIndex((t) => t.getAttribute('aria-selected') === 'true'))
    for (let step = 1; step <= n; step++) {
      const key = 'ArrowRight'
      await page.keyboard.press(key)
      const tab = tabs.nth((first + step) % n)
      await expect(tab, `${key} selects the next tab`).toHaveAttribute('aria-selected', 'true')
      await expect(tab).toBeFocused()
      const panel = await tab.getAttribute('aria-controls')
      if (panel) await expect(page.locator(`[id="${panel}"]`), 'its panel is shown').toBeVisible()
      await eachTab()
      await tab.focus()
    }
    await page.keyboard.press('ArrowLeft')
    await expect(tabs.nth((first + n - 1) % n), 'ArrowLeft selects the previous tab').toHaveAttribute('aria-selected', 'true')
  }
  return count
}

/** Checks every visible group of text boxes with one tab stop: → moves to the next box (up to the first empty one), ← back. Answers the groups found. */
export async function checkRovingGroups(page: Page): Promise<number> {
  const groups = page.getByRole('group')
  let found = 0
  for (let g = 0; g < (await groups.count()); g++) {
    const boxes = groups.nth(g).getByRole('textbox')
    const n = await boxes.count()
    const stops = await boxes.evaluateAll((els) => els.filter((e) => (e as HTMLElement).tabIndex >= 0).length)
    if (n < 2 || stops !== 1) continue
    found++
    const name = await groups.nth(g).getAttribute('aria-label')
    // as code entry goes: never past the first empty box
    const values = await boxes.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))
    const end = values.includes('') ? values.indexOf('') : n - 1
    await boxes.first().focus()
    for (let i = 1; i < n; i++) {
      await page.keyboard.press('ArrowRight')
      await expect(boxes.nth(Math.min(i, end)), `${name}: ArrowRight moves to box ${Math.min(i, end) + 1}`).toBeFocused()
    }
    for (let i = end - 1; i >= 0; i--) {
      await page.keyboard.press('ArrowLeft')
      await expect(boxes.nth(i), `${name}: ArrowLeft moves to box ${i + 1}`).toBeFocused()
    }
  }
  return found
}
