/**
 * Seat states in a Windows contrast theme (forced colours, WCAG 1.4.1 and 1.4.11): the seat
 * grid's example with one Standard seat in every state, and its legend, photographed state by
 * state with `forced-colors: active` in a light and a dark theme. Every state must look
 * different from every other (the seat names are hidden, so only what shows the state counts).
 */
import { expect, test, type Locator, type Page } from '@playwright/test'
import { examplesForThisFile } from './design-system-examples.ts'

const STATES = ['available', 'selected', 'sold', 'booked', 'adminBooked', 'linked', 'held'] as const

const examplesUrl = examplesForThisFile()

/** Screenshots of each element, as base64 (the same picture gives the same string). */
async function pictures(items: Locator[]): Promise<string[]> {
  const out: string[] = []
  for (const item of items) out.push((await item.screenshot({ animations: 'disabled' })).toString('base64'))
  return out
}

/** The pairs of states whose pictures are identical. */
function lookAlike(pics: string[]): string[] {
  const same: string[] = []
  for (let i = 0; i < pics.length; i++) for (let j = i + 1; j < pics.length; j++) if (pics[i] === pics[j]) same.push(`${STATES[i]} = ${STATES[j]}`)
  return same
}

async function openExample(page: Page): Promise<void> {
  await page.goto(`${examplesUrl()}/?example=${encodeURIComponent('seat-grid/every-state')}`)
  await expect(page.locator('html')).toHaveAttribute('data-example-ready', 'yes')
  // only what shows the state is compared: the seat names differ from seat to seat
  await page.addStyleTag({ content: '[data-seat] > [aria-hidden]:last-child { visibility: hidden }' })
  await page.locator('body').click({ position: { x: 1, y: 1 } })
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`forced colours, ${colorScheme} theme: every seat state and every legend entry looks different`, async ({ page }) => {
    await page.emulateMedia({ forcedColors: 'active', colorScheme })
    await openExample(page)
    expect(await page.evaluate(() => matchMedia('(forced-colors: active)').matches)).toBe(true)
    const seats = await Promise.all(STATES.map(async (_, i) => page.locator(`[data-seat="A${i + 1}"]`)))
    for (const [i, state] of STATES.entries()) await expect(seats[i]!).toHaveAttribute('data-state', state)
    expect(lookAlike(await pictures(seats)), 'seats that look alike').toEqual([])
    const swatches = await page.getByRole('list', { name: 'Legend' }).getByRole('listitem').all()
    expect(swatches).toHaveLength(STATES.length)
    const marks = swatches.map((li) => li.locator('[data-state]'))
    expect(lookAlike(await pictures(marks)), 'legend entries that look alike').toEqual([])
  })
}

test('without forced colours the states look different too (the same check, as a control)', async ({ page }) => {
  await openExample(page)
  const seats = STATES.map((_, i) => page.locator(`[data-seat="A${i + 1}"]`))
  expect(lookAlike(await pictures(seats))).toEqual([])
})
