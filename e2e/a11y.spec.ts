import { test, type Page } from '@playwright/test'
import { routes } from '../src/routes.ts'
import {
  bookThroughApi,
  dhakaDate,
  expectNoAxeViolations,
  pageHeading,
  publicRoutes,
  reservationUrl,
  signInContext,
  type TripRow,
  trackRequests,
  tripFor,
} from './helpers.ts'
import { expectLargeTextOk, textSize } from './large-text.ts'

/** Opens each of `routes` in `lang` (after /faq, to set it) and runs `check` once its heading and requests are in. */
async function sweep(page: Page, lang: 'en' | 'bn', routes: readonly string[], check: (route: string) => Promise<void>): Promise<void> {
  const settled = trackRequests(page)
  await page.goto('/faq')
  await page.evaluate((l) => sessionStorage.setItem('language', l), lang)
  for (const route of routes) {
    await page.goto(route)
    await pageHeading(page)
    await settled()
    await check(route)
  }
}

// The sweep of every route in both languages at a phone and a desktop width.
for (const lang of ['en', 'bn'] as const) {
  for (const width of [375, 1280]) {
    test(`axe: every route, ${lang}, ${width}px`, async ({ page }) => {
      test.setTimeout(180_000)
      await page.setViewportSize({ width, height: 900 })
      await sweep(page, lang, publicRoutes, (route) => expectNoAxeViolations(page, `${route} (${lang}, ${width}px)`))
    })
  }
}

// Signed in (LOGOUT in the header, the profile with a ticket), at the narrowest width (issue 13).
for (const [index, lang] of (['en', 'bn'] as const).entries()) {
  test(`axe: every route signed in, ${lang}, 320px`, async ({ page, context, request }) => {
    test.setTimeout(240_000)
    await page.setViewportSize({ width: 320, height: 900 })
    const { trip } = await tripFor(request, 17, index)
    const { mobile } = await bookThroughApi(request, trip, { pay: true })
    await signInContext(context, request, mobile)
    const signedIn = routes.map((r) => r.path).filter((p) => p !== '/login')
    await sweep(page, lang, signedIn, (route) => expectNoAxeViolations(page, `${route} (${lang}, 320px, signed in)`))
  })
}

// At 200 % text on a phone (the browser's text size, as the settings page sets it): axe, no page scrolling sideways,
// every control reachable inside its scroll box, every Tab stop named; besides the routes, the seat page of a
// 40-seat coach (the widest deck; /reservation alone has no trip, so no seat map).
for (const lang of ['en', 'bn'] as const) {
  for (const width of [320, 375]) {
    test(`axe and reach at 200 % text: every route and a seat map, ${lang}, ${width}px`, async ({ page, context, request }) => {
      test.setTimeout(240_000)
      await page.setViewportSize({ width, height: 900 })
      await textSize(context, page, 200)
      const date = dhakaDate(18)
      const res = await request.post('/api/reservation/tripSearch', { data: { originCode: 'DHK', destinationCode: 'CTG', tripDate: date } })
      const trip = ((await res.json()) as { data: TripRow[] }).data.find((t) => /STANDARD/.test(t.coachType))!
      await sweep(page, lang, [...publicRoutes, reservationUrl(trip, date)], async (route) => {
        await expectNoAxeViolations(page, `${route} (${lang}, ${width}px, 200 % text)`)
        await expectLargeTextOk(page, `${route} (${lang}, ${width}px, 200 % text)`)
      })
    })
  }
}

// CI failed the booking journey once on seat A1 "too small" after Book: the last click had scrolled the seat map's
// top row just above the viewport, under the sticky header's top row of links; axe subtracts the links (not the
// header) from the seat and finds under 24 px. expectNoAxeViolations checks the page as laid out, from the top.
test('axe: a seat the last scroll left partly under the sticky header does not fail the page', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  const { trip, date } = await tripFor(request, 19, 0)
  await page.goto(reservationUrl(trip, date))
  await pageHeading(page)
  const seat = page.getByRole('grid').locator('button[data-seat]:visible').first()
  await seat.waitFor()
  // the seat's top 10 px above the viewport, the rest under the header's top row of links
  await page.evaluate(() => {
    const s = document.querySelector('[role=grid] button[data-seat]')!.getBoundingClientRect()
    window.scrollBy({ top: s.top + 10, behavior: 'instant' })
  })
  await expectNoAxeViolations(page, 'seat page scrolled under the header')
  // the page is left where it was
  await test.expect.poll(() => seat.evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThan(50)
})

// The check itself: axe runs in the page (e2e/helpers.ts), and a page with a violation fails it, naming the rule
// and the element; a second check of the same page (axe already there) sees a violation added since.
test('axe: the check fails a page with a violation, and names it', async ({ page }) => {
  await page.goto('/faq')
  await pageHeading(page)
  await expectNoAxeViolations(page, '/faq')
  await page.evaluate(() => {
    const button = document.createElement('button')
    button.id = 'nameless'
    document.querySelector('main')!.append(button)
  })
  const failed = await expectNoAxeViolations(page, '/faq with a nameless button').then(
    () => '',
    (err: Error) => err.message,
  )
  test.expect(failed).toContain('button-name (critical): 1 × #nameless')
  // `include`: only that part of the page is checked
  await expectNoAxeViolations(page, '/faq header', 'header')
})
