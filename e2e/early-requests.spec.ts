/**
 * A page opened from a link asks for its data from the HTML shell, before the app's code has
 * arrived (src/early/start.ts), and the app takes those answers instead of asking again.
 * The entry script is held back here, as a slow network would: the page's requests must
 * leave before it is released, and each exactly once.
 */
import { expect, type Page, test } from '@playwright/test'
import { appReady, bookThroughApi, dhakaDate, reservationUrl, signInContext, topUp, tripFor } from './helpers.ts'

const HOLD_MS = 1500

/** Holds the app's entry script back; resolves with the time it was let through. */
async function holdEntry(page: Page): Promise<() => number> {
  let released = 0
  await page.route(/\/assets\/main-[A-Z0-9]+\.js$/, async (route) => {
    await new Promise((r) => setTimeout(r, HOLD_MS))
    released = Date.now()
    await route.continue()
  })
  return () => released
}

/** Every /api request the page makes: path and when it left. */
function apiRequests(page: Page): { path: string; at: number }[] {
  const seen: { path: string; at: number }[] = []
  page.on('request', (r) => {
    const u = new URL(r.url())
    if (u.pathname.startsWith('/api/')) seen.push({ path: u.pathname, at: Date.now() })
  })
  return seen
}

const LOOKUPS = ['/api/originCities', '/api/destinationCities', '/api/timePeriods', '/api/announcements', '/api/offers']

function expectEarlyOnce(seen: { path: string; at: number }[], paths: string[], released: number) {
  for (const p of paths) {
    const sent = seen.filter((s) => s.path === p)
    expect(sent.length, `${p} asked ${sent.length} times: ${JSON.stringify(sent)}, released ${released}`).toBe(1)
    expect(sent[0]!.at, `${p} left before the app's code arrived`).toBeLessThan(released)
  }
}

test('a seat page opened from a link asks for the trip and the lookups once, before the app’s code arrives', async ({ page, request }) => {
  const { trip, date } = await tripFor(request, 4, 0)
  const released = await holdEntry(page)
  const seen = apiRequests(page)
  await page.goto(reservationUrl(trip, date))
  await appReady(page)
  await expect(page.getByText(new RegExp(`Coach ${trip.coachCode}`))).toBeVisible()
  await expect(page.getByRole('button', { name: /^Seat / }).first()).toBeVisible()
  expect(released()).toBeGreaterThan(0)
  expectEarlyOnce(seen, [...LOOKUPS, '/api/reservation/tripDetails'], released())
})

test('a shared results link searches once, before the app’s code arrives, and shows the trips', async ({ page }) => {
  const released = await holdEntry(page)
  const seen = apiRequests(page)
  await page.goto(`/search?from=DHK&to=CTG&date=${dhakaDate(4)}`)
  await appReady(page)
  await expect(page.getByText('Choose seats').first()).toBeVisible()
  expectEarlyOnce(seen, ['/api/reservation/tripSearch'], released())
  // not at load on an address with "search" (SPEC); the results page's form asks for them itself, once
  for (const p of LOOKUPS) expect(seen.filter((s) => s.path === p).length, p).toBe(1)
})

test('signed in, a booking paid from the balance opens with one request for it, sent before the app’s code arrives', async ({
  page,
  context,
  request,
}) => {
  const { trip } = await tripFor(request, 4, 1)
  const booked = await bookThroughApi(request, trip)
  await topUp(request, booked.mobile, 5000)
  const paid = await request.post('/api/reservation/payFromBalance', {
    data: { reservationId: booked.reservationId },
    headers: { Authorization: `Bearer ${booked.token}` },
  })
  expect(paid.ok(), await paid.text()).toBe(true)
  const { pnr } = ((await paid.json()) as { data: { pnr: string } }).data
  await signInContext(context, request, booked.mobile)
  const released = await holdEntry(page)
  const seen = apiRequests(page)
  await page.goto(`/reservation/success?reservationId=${booked.reservationId}`)
  await appReady(page)
  await expect(page.getByText(pnr).first()).toBeVisible()
  expectEarlyOnce(seen, [...LOOKUPS, `/api/reservation/details/${booked.reservationId}`], released())
})
