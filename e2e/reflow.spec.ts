/**
 * Issue 13, section 3: reflow (WCAG 1.4.10) and text size (1.4.4) with a passenger signed in. At
 * 320 px (a phone, or 1280 px at 400 % zoom) no page scrolls sideways and LOGOUT is on the screen,
 * on every route, on a profile with tickets and transactions, and in the booking and payment panels;
 * at 200 % text size (the browser's default font size) the header collapses as it does on a narrow
 * window, and with a text-only zoom (sizes double, breakpoints stay) it wraps: either way LOGIN /
 * LOGOUT stays on the screen and nothing scrolls sideways.
 */
import { expect, test, type Page } from '@playwright/test'
import {
  bookThroughApi,
  createPassenger,
  dhakaDate,
  m,
  pageHeading,
  reservationUrl,
  signInContext,
  topUp,
  trackRequests,
  tripFor,
  type TripRow,
} from './helpers.ts'
import { routes } from '../src/routes.ts'
import { expectLargeTextOk, expectReflow, textSize } from './large-text.ts'

test.describe.configure({ timeout: 180_000 })

/** Every route but /login, which a signed-in passenger does not stay on. */
const signedInRoutes = routes.map((r) => r.path).filter((p) => p !== '/login')

/** Expects the header's LOGIN or LOGOUT entirely on the screen. */
async function expectAuthOnScreen(page: Page, name: 'LOGIN' | 'LOGOUT', label: string): Promise<void> {
  const auth = page.getByRole('banner').getByRole(name === 'LOGIN' ? 'link' : 'button', { name, exact: true })
  await expect(auth, label).toBeVisible()
  const box = (await auth.boundingBox())!
  const width = await page.evaluate(() => document.documentElement.clientWidth)
  expect(box.x, `${label}: ${name} starts on the screen`).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width, `${label}: ${name} ends on the screen`).toBeLessThanOrEqual(width)
}

/** Opens `route` and waits for its heading and the requests it makes. */
async function open(page: Page, route: string): Promise<void> {
  const settled = trackRequests(page)
  await page.goto(route)
  await pageHeading(page)
  await settled()
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

// ---------- issue 24: the results and the seat page, with a seat map, at 320 px and at 200 % text ----------

/** The sleeper coach (Dhaka–Chattogram) `days` ahead: its seat names are the longest (LA2, UB10). */
async function sleeperTrip(request: Parameters<typeof tripFor>[0], days: number): Promise<{ trip: TripRow; date: string }> {
  const date = dhakaDate(days)
  const res = await request.post('/api/reservation/tripSearch', { data: { originCode: 'DHK', destinationCode: 'CTG', tripDate: date } })
  const trip = ((await res.json()) as { data: TripRow[] }).data.find((t) => t.coachType === 'SLEEPER' && t.availableSeats > 3)
  expect(trip, `a sleeper trip on ${date}`).toBeTruthy()
  return { trip: trip!, date }
}

/** The seats of the visible deck whose name does not fit inside the seat. */
function seatNamesOverflowing(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[role=grid] button[data-seat]')]
      .filter((b) => b.getClientRects().length > 0)
      .filter((b) => {
        const name = b.lastElementChild
        if (!name) return false
        const o = b.getBoundingClientRect()
        const n = name.getBoundingClientRect()
        return n.left < o.left - 0.5 || n.right > o.right + 0.5 || n.top < o.top - 0.5 || n.bottom > o.bottom + 0.5
      })
      .map((b) => b.dataset.seat!),
  )
}

/** The results of `date` and the sleeper trip's seat page with a seat chosen: nothing sideways, seat names inside their seats. */
async function resultsAndSeatPage(page: Page, trip: TripRow, date: string, label: string): Promise<void> {
  await open(page, `/search?from=DHK&to=CTG&date=${date}`)
  await expect(page.getByRole('button', { name: 'Choose seats' }).first()).toBeVisible()
  await expectReflow(page, `/search ${label}`)
  await open(page, reservationUrl(trip, date))
  await expect(page.getByRole('grid').first()).toBeVisible()
  await page.getByLabel('Boarding counter').selectOption({ index: 1 })
  await page.getByLabel('Dropping counter').selectOption({ index: 1 })
  const seat = page.getByRole('grid').locator('button[data-state="available"]:visible').first()
  await seat.click()
  await expect(page.getByTestId('total-fare')).toBeVisible()
  await expectReflow(page, `/reservation with a seat chosen ${label}`)
  expect(await seatNamesOverflowing(page), `${label}: seat names outside their seats`).toEqual([])
  await expectLargeTextOk(page, label)
}

test('320px: the results and the seat page (a sleeper coach, a seat chosen) do not scroll sideways', async ({ page, request }) => {
  await page.setViewportSize({ width: 320, height: 640 })
  const { trip, date } = await sleeperTrip(request, 23)
  await resultsAndSeatPage(page, trip, date, 'at 320px')
})

for (const width of [375, 1280]) {
  test(`200 % text at ${width}px: the results and the seat page (sleeper seat map, fare table) do not scroll sideways; seat names fit their seats`, async ({
    page,
    context,
    request,
  }) => {
    await page.setViewportSize({ width, height: width < 768 ? 700 : 800 })
    await textSize(context, page, 200)
    const { trip, date } = await sleeperTrip(request, width === 375 ? 24 : 25)
    await resultsAndSeatPage(page, trip, date, `at 200 % text, ${width}px`)
  })
}

test('200 % text at 320px in Bengali: the seat page’s fare table is stacked to fit the screen, no scroll box needed', async ({
  page,
  context,
  request,
}) => {
  await page.addInitScript(() => sessionStorage.setItem('language', 'bn'))
  await page.setViewportSize({ width: 320, height: 700 })
  await textSize(context, page, 200)
  // a standard coach: the longest seat type's name in Bengali
  const date = dhakaDate(26)
  const res = await request.post('/api/reservation/tripSearch', { data: { originCode: 'DHK', destinationCode: 'CTG', tripDate: date } })
  const trip = ((await res.json()) as { data: TripRow[] }).data.find((t) => /STANDARD/.test(t.coachType) && t.availableSeats > 3)!
  await open(page, reservationUrl(trip, date))
  await expect(page.getByRole('grid').first()).toBeVisible()
  for (const id of ['seatChoice.boarding', 'seatChoice.dropping']) await page.getByLabel(m('bn', id)).selectOption({ index: 1 })
  const seats = page.getByRole('grid').locator('button[data-state="available"]:visible')
  await seats.first().click()
  await seats.nth(3).click()
  await expect(page.getByTestId('selected-seats')).toHaveText(/, /)
  await expectLargeTextOk(page, 'seat page with two seats chosen, bn, 320px, 200 % text')
})

test('text-only zoom to 200 % at 375px: on the seat page the header and the bottom bar leave most of the screen to the page', async ({
  page,
  context,
  request,
}) => {
  await page.setViewportSize({ width: 375, height: 700 })
  await context.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      document.documentElement.style.fontSize = '200%'
    })
  })
  const { trip, date } = await sleeperTrip(request, 26)
  await resultsAndSeatPage(page, trip, date, 'at 200 % text only, 375px')
  await expect(page.getByTestId('seat-bar')).toBeVisible()
  // what stays fixed over the page, at the top and at the bottom, once the page is scrolled
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2))
  const covered = await page.evaluate(() => {
    const band = (name: string) => Number.parseFloat(getComputedStyle(document.documentElement).getPropertyValue(name)) || 0
    return (band('--header-space') + band('--bottom-bar-space')) / innerHeight
  })
  expect(covered, 'share of the screen under the header and the bottom bar').toBeLessThan(0.5)
})

// ---------- issue 31 item 6: the seat deck of a 40-seat coach at 150 and 200 % text on a phone ----------

/** A 2+2 coach of 40 seats (the widest deck: four seats and an aisle a row) `days` ahead. */
async function standardTrip(request: Parameters<typeof tripFor>[0], days: number): Promise<{ trip: TripRow; date: string }> {
  const date = dhakaDate(days)
  const res = await request.post('/api/reservation/tripSearch', { data: { originCode: 'DHK', destinationCode: 'CTG', tripDate: date } })
  const trip = ((await res.json()) as { data: TripRow[] }).data.find((t) => /STANDARD|NON_AC/.test(t.coachType))
  expect(trip, `a 2+2 coach on ${date}`).toBeTruthy()
  return { trip: trip!, date }
}

/** Whether the focused seat lies wholly inside its deck's scroll box (what the passenger sees of it), with the box's size. */
function focusedSeatInView(page: Page): Promise<{ seat: string; inside: boolean }> {
  return page.evaluate(() => {
    const seat = document.activeElement as HTMLElement
    const deck = seat.closest('[role=grid]')!.parentElement!
    const r = seat.getBoundingClientRect()
    const d = deck.getBoundingClientRect()
    return { seat: seat.dataset.seat ?? '', inside: r.left >= d.left - 0.5 && r.right <= d.right + 0.5 }
  })
}

for (const percent of [150, 200]) {
  for (const width of [320, 375]) {
    test(`${percent} % text at ${width}px: every seat of a 40-seat deck can be scrolled to and a focused seat is in view; the page does not scroll sideways`, async ({
      page,
      context,
      request,
    }) => {
      await page.setViewportSize({ width, height: 700 })
      await textSize(context, page, percent)
      const { trip, date } = await standardTrip(request, 21)
      await open(page, reservationUrl(trip, date))
      const grid = page.getByRole('grid').first()
      await expect(grid).toBeVisible()
      await expectLargeTextOk(page, `seat page at ${percent} % text, ${width}px`)
      // the keyboard from the first seat to the last column of its row: each seat it lands on is in view
      await grid.locator('button[data-seat]').first().focus()
      const seen = [await focusedSeatInView(page)]
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('ArrowRight')
        seen.push(await focusedSeatInView(page))
      }
      expect(
        seen.filter((s) => !s.inside).map((s) => s.seat),
        'seats focused out of view',
      ).toEqual([])
      expect(seen[0]!.seat).toBe('A1')
    })
  }
}
