/**
 * A page opened from a link asks for its data from the HTML shell, before the app's code has
 * arrived (src/early/start.ts), and the app takes those answers instead of asking again.
 * The entry script is held back here, as a slow network would: the page's requests must
 * leave before it is released, and each exactly once.
 */
import { expect, type Page, test } from '@playwright/test'
import { appReady, bookThroughApi, dhakaDate, reservationUrl, signInContext, topUp, tripFor } from './helpers.ts'

/** Every /api request the page makes: path and when it left. */
function apiRequests(page: Page): { path: string; at: number }[] {
  const seen: { path: string; at: number }[] = []
  page.on('request', (r) => {
    const u = new URL(r.url())
    if (u.pathname.startsWith('/api/')) seen.push({ path: u.pathname, at: Date.now() })
  })
  return seen
}

/**
 * Holds the app's entry script back, as a slow network would, until the page's `early` requests have left (at
 * most 15 s: then it lets it through, and the check that they left first fails). Answers the requests seen and
 * when the script was let through.
 */
async function holdEntry(page: Page, early: string[]): Promise<{ seen: { path: string; at: number }[]; released: () => number }> {
  const seen = apiRequests(page)
  let released = 0
  await page.route(/\/assets\/main-[A-Z0-9]+\.js$/, async (route) => {
    await expect
      .poll(() => early.every((p) => seen.some((s) => s.path === p)), { timeout: 15_000 })
      .toBe(true)
      .catch(() => undefined)
    released = Date.now()
    await route.continue()
  })
  return { seen, released: () => released }
}

const LOOKUPS = ['/api/originCities', '/api/destinationCities', '/api/timePeriods', '/api/announcements', '/api/offers']

function expectEarlyOnce(seen: { path: string; at: number }[], paths: string[], released: number) {
  for (const p of paths) {
    const sent = seen.filter((s) => s.path === p)
    expect(sent.length, `${p} asked ${sent.length} times: ${JSON.stringify(sent)}, released ${released}`).toBe(1)
    expect(sent[0]!.at, `${p} left before the app's code arrived`).toBeLessThanOrEqual(released)
  }
}

test('a seat page opened from a link asks for the trip and the lookups once, before the app’s code arrives', async ({ page, request }) => {
  const { trip, date } = await tripFor(request, 4, 0)
  const early = [...LOOKUPS, '/api/reservation/tripDetails']
  const { seen, released } = await holdEntry(page, early)
  await page.goto(reservationUrl(trip, date))
  await appReady(page)
  await expect(page.getByText(new RegExp(`Coach ${trip.coachCode}`))).toBeVisible()
  await expect(page.getByRole('button', { name: /^Seat / }).first()).toBeVisible()
  expect(released()).toBeGreaterThan(0)
  expectEarlyOnce(seen, early, released())
})

test('a shared results link searches once, before the app’s code arrives, and shows the trips', async ({ page }) => {
  const early = ['/api/reservation/tripSearch']
  const { seen, released } = await holdEntry(page, early)
  await page.goto(`/search?from=DHK&to=CTG&date=${dhakaDate(4)}`)
  await appReady(page)
  await expect(page.getByText('Choose seats').first()).toBeVisible()
  expectEarlyOnce(seen, early, released())
  // not at load on an address with "search" (SPEC); the results page's form asks for them itself, once, after the results have painted
  for (const p of LOOKUPS) await expect.poll(() => seen.filter((s) => s.path === p).length, { message: p }).toBe(1)
  await expect(page.getByRole('combobox', { name: 'From' })).toHaveValue(/.+/)
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
  const early = [...LOOKUPS, `/api/reservation/details/${booked.reservationId}`]
  const { seen, released } = await holdEntry(page, early)
  await page.goto(`/reservation/success?reservationId=${booked.reservationId}`)
  await appReady(page)
  await expect(page.getByText(pnr).first()).toBeVisible()
  expectEarlyOnce(seen, early, released())
})
