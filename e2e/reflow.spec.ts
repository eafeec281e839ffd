/**
 * Issue 13, section 3: reflow (WCAG 1.4.10) and text size (1.4.4) with a passenger signed in. At
 * 320 px (a phone, or 1280 px at 400 % zoom) no page scrolls sideways and LOGOUT is on the screen,
 * on every route, on a profile with tickets and transactions, and in the booking and payment panels;
 * at 200 % text size (the browser's default font size) the header collapses as it does on a narrow
 * window, and with a text-only zoom (sizes double, breakpoints stay) it wraps: either way LOGIN /
 * LOGOUT stays on the screen and nothing scrolls sideways.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import { bookThroughApi, createPassenger, pageHeading, reservationUrl, signInContext, topUp, tripFor } from './helpers.ts'
import { routes } from '../src/routes.ts'

test.describe.configure({ timeout: 180_000 })

/** Every route but /login, which a signed-in passenger does not stay on. */
const signedInRoutes = routes.map((r) => r.path).filter((p) => p !== '/login')

/** What sticks out sideways: the page's scroll width beyond the viewport and the elements that cause it. */
function sideways(page: Page): Promise<{ overflow: number; culprits: string[] }> {
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

async function expectReflow(page: Page, label: string): Promise<void> {
  const s = await sideways(page)
  expect(s, `${label}: the page scrolls sideways`).toEqual({ overflow: 0, culprits: [] })
}

/** Expects the header's LOGIN or LOGOUT entirely on the screen. */
async function expectAuthOnScreen(page: Page, name: 'LOGIN' | 'LOGOUT', label: string): Promise<void> {
  const auth = page.getByRole('banner').getByRole(name === 'LOGIN' ? 'link' : 'button', { name, exact: true })
  await expect(auth, label).toBeVisible()
  const box = (await auth.boundingBox())!
  const width = await page.evaluate(() => document.documentElement.clientWidth)
  expect(box.x, `${label}: ${name} starts on the screen`).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width, `${label}: ${name} ends on the screen`).toBeLessThanOrEqual(width)
}

/** The browser's text size setting at `percent` (Chromium's default font sizes, as the settings page sets them). */
async function textSize(context: BrowserContext, page: Page, percent: number): Promise<void> {
  const cdp = await context.newCDPSession(page)
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: (16 * percent) / 100, fixed: (13 * percent) / 100 } })
}

/** Opens `route` and waits for its heading and the requests it makes. */
async function open(page: Page, route: string): Promise<void> {
  await page.goto(route)
  await pageHeading(page)
  await page.waitForLoadState('networkidle')
}

test('320px, signed in: no page scrolls sideways and LOGOUT is on the screen, on every route and on a profile with a ticket and transactions', async ({
  page,
  context,
  request,
}) => {
  await page.setViewportSize({ width: 320, height: 640 })
  const { trip } = await tripFor(request, 16, 0)
  const { mobile } = await bookThroughApi(request, trip, { pay: true })
  await topUp(request, mobile, 1234)
  await signInContext(context, request, mobile)
  for (const route of signedInRoutes) {
    await open(page, route)
    await expectReflow(page, route)
    await expectAuthOnScreen(page, 'LOGOUT', route)
  }
  // the profile with its lists filled in
  await open(page, '/profile')
  await expect(page.getByRole('table')).toBeVisible()
  await expect(page.getByRole('cell', { name: /Top-up/ }).first()).toBeVisible()
  await expectReflow(page, '/profile with a ticket and transactions')
})

test('320px, signed in: the booking form and the payment panel reflow', async ({ page, context, request }) => {
  await page.setViewportSize({ width: 320, height: 640 })
  const { trip, date } = await tripFor(request, 16, 1)
  await signInContext(context, request, await createPassenger(request))
  await open(page, reservationUrl(trip, date))
  await page.getByLabel('Boarding counter').selectOption({ index: 1 })
  await page.getByLabel('Dropping counter').selectOption({ index: 1 })
  await page.getByRole('grid').locator('button[data-state="available"]').first().click()
  const panel = page.getByTestId('booking-panel')
  await expect(panel.getByLabel('Passenger name')).toBeVisible()
  await expectReflow(page, 'booking form')
  await expectAuthOnScreen(page, 'LOGOUT', 'booking form')
  await panel.getByRole('button', { name: 'Book seats' }).click()
  await expect(panel.getByRole('heading', { name: 'Pay for your booking' })).toBeVisible()
  await expect(panel.getByRole('button', { name: /by card/ })).toBeVisible()
  await expectReflow(page, 'payment panel')
  // a coupon refused: the message beside the field
  await panel.getByLabel('Coupon code').fill('NOPE123')
  await panel.getByRole('button', { name: 'Apply coupon' }).click()
  await expect(panel.getByLabel('Coupon code')).toHaveAccessibleDescription(/./)
  await expectReflow(page, 'payment panel, coupon refused')
})

for (const width of [768, 1280]) {
  test(`200 % text at ${width}px: the header collapses, LOGIN and LOGOUT stay on the screen, no page scrolls sideways`, async ({
    page,
    context,
    request,
  }) => {
    await page.setViewportSize({ width, height: 800 })
    await textSize(context, page, 200)
    await open(page, '/faq')
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('32px')
    // the navigation is in the menu, as in a window half as wide
    await expect(page.getByRole('banner').getByRole('button', { name: 'Open menu' })).toBeVisible()
    for (const route of ['/', '/faq', '/ticket-operation', '/login']) {
      await open(page, route)
      await expectReflow(page, `${route} at 200 % text`)
      await expectAuthOnScreen(page, 'LOGIN', `${route} at 200 % text`)
    }
    const { trip } = await tripFor(request, 16, width === 768 ? 3 : 4)
    const { mobile } = await bookThroughApi(request, trip, { pay: true })
    await signInContext(context, request, mobile)
    for (const route of ['/', '/profile', '/ticket-operation']) {
      await open(page, route)
      await expectReflow(page, `${route} at 200 % text, signed in`)
      await expectAuthOnScreen(page, 'LOGOUT', `${route} at 200 % text, signed in`)
    }
  })
}

test('text-only zoom to 200 % at 1280px (sizes double, the breakpoints stay): the header wraps, LOGIN and LOGOUT stay on the screen', async ({
  page,
  context,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  // what a browser's "zoom text only" does: every size in rem doubles, the window's layout does not change
  await context.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      document.documentElement.style.fontSize = '200%'
    })
  })
  for (const route of ['/', '/faq', '/login']) {
    await open(page, route)
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('32px')
    await expectReflow(page, `${route} at 200 % text only`)
    await expectAuthOnScreen(page, 'LOGIN', `${route} at 200 % text only`)
  }
  await signInContext(context, request, await createPassenger(request))
  for (const route of ['/', '/profile']) {
    await open(page, route)
    await expectReflow(page, `${route} at 200 % text only, signed in`)
    await expectAuthOnScreen(page, 'LOGOUT', `${route} at 200 % text only, signed in`)
  }
})
