/**
 * Every design-system example (design-system/<component>/examples/<name>.tsx, found
 * by globbing) rendered alone in the browser: no console errors, no axe violations,
 * and the keyboard checks of e2e/keyboard.ts (tab order, visible focus, grids and tab
 * lists). One test per example file.
 */
import { expect, test } from '@playwright/test'
import { exampleNames, examplesForThisFile } from './design-system-examples.ts'
import { expectNoAxeViolations } from './helpers.ts'
import { checkGrids, checkRovingGroups, checkTabLists, checkTabOrder } from './keyboard.ts'

// Controls kept out of the tab order on purpose, as their README says (none now: the password's
// show/hide button is a Tab stop, issue 24).
const outOfTabOrder: Record<string, RegExp> = {}

const examplesUrl = examplesForThisFile()

test('the examples are found by globbing design-system/*/examples/*.tsx', () => {
  const names = exampleNames()
  expect(names).toEqual(expect.arrayContaining(['button/variants', 'seat-grid/double-deck', 'seat-grid/business-2-1', 'dialog/error']))
  expect(names.every((n) => /^[a-z0-9-]+\/[a-z0-9-]+$/.test(n))).toBe(true)
})

for (const name of exampleNames()) {
  test(`${name.replace('/', '/examples/')}.tsx`, async ({ page }) => {
    // a seat grid is walked with every key from every seat (a double-deck coach: some 800 key presses,
    // over a minute on a loaded 2-core host)
    if (name.startsWith('seat-grid/')) test.setTimeout(240_000)
    const problems: string[] = []
    page.on('pageerror', (err) => problems.push(err.message))
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(msg.text())
    })
    await page.goto(`${examplesUrl()}/?example=${encodeURIComponent(name)}`)
    await expect(page.locator('html')).toHaveAttribute('data-example-ready', 'yes')
    await expectNoAxeViolations(page, name)
    await checkTabOrder(page, outOfTabOrder[name.split('/')[0]!] ?? null)
    // grids in the page, or in each tab's panel when tabs switch between them
    let grids = 0
    const tabLists = await checkTabLists(page, async () => {
      grids += await checkGrids(page)
    })
    if (tabLists === 0) grids += await checkGrids(page)
    if (name.startsWith('seat-grid/')) expect(grids, 'seat grids checked').toBeGreaterThan(0)
    const groups = await checkRovingGroups(page)
    if (name.startsWith('pin-input/')) expect(groups, 'PIN inputs checked').toBeGreaterThan(0)
    expect(problems, 'console errors and warnings').toEqual([])
  })
}
