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

test('seat-grid/every-state: each state draws its own icon, the legend the same, and a toggle redraws it', async ({ page }) => {
  await page.goto(`${examplesUrl()}/?example=seat-grid%2Fevery-state`)
  await expect(page.locator('html')).toHaveAttribute('data-example-ready', 'yes')
  const iconOf = (seat: string) => page.locator(`button[data-seat="${seat}"] svg path`).getAttribute('d')
  // A1…A7: available, selected, sold, booked, adminBooked, linked, held
  const drawn = await Promise.all(['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7'].map(iconOf))
  expect(drawn[0], 'available has no icon').toBe('')
  expect(new Set(drawn.slice(1)).size, `six different icons: ${drawn.join(' | ')}`).toBe(6)
  for (const d of drawn.slice(1)) expect(d).toMatch(/^M/)
  const legend = await page
    .locator('.seat-grid__legend .seat-grid__swatch[data-state] svg path')
    .evaluateAll((ps) => ps.map((p) => p.getAttribute('d')))
  expect(legend).toEqual(drawn)
  // drawn inline, not by a CSS mask image (each of those was an SVG document of its own: docs/performance.md)
  const masks = await page.locator('button[data-seat] svg').evaluateAll((svgs) => svgs.map((s) => getComputedStyle(s).maskImage))
  expect(masks.every((m) => m === 'none')).toBe(true)
  await expect(page.locator('button[data-seat="A3"] svg')).toBeVisible()
  await expect(page.locator('button[data-seat="A1"] svg')).toBeHidden()
  // choosing the available seat: its icon becomes the selected one's (set by the state's effect, no React render)
  await page.locator('button[data-seat="A1"]').click()
  await expect(page.locator('button[data-seat="A1"]')).toHaveAttribute('data-state', 'selected')
  expect(await iconOf('A1')).toBe(drawn[1])
  await expect(page.locator('button[data-seat="A1"] svg')).toBeVisible()
})
