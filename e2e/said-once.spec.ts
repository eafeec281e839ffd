/**
 * Issue 24 (low): a status is said once. A seat lost to another passenger is said by the lock-lost
 * dialog, not by the seat map's live region as well; a hold that runs out by its notification; a
 * booking whose time runs out by the booking's own live region, not by a notification and the
 * seat map besides. Every live region and alert dialog of the page is recorded (e2e/live-regions.ts):
 * each message must come from one of them.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { createPassenger, m, pageHeading, reservationUrl, signInContext, tripFor, withoutLiveSeatMap, type Lang } from './helpers.ts'
import { recordLiveRegions, said } from './live-regions.ts'

test.describe.configure({ timeout: 120_000 })

/** The live regions and dialogs (their numbers) that said something containing one of `texts`. */
async function saidBy(page: Page, ...texts: string[]): Promise<number[]> {
  const regions = (await said(page)).filter((s) => texts.some((t) => s.text.includes(t))).map((s) => s.region)
  return [...new Set(regions)]
}

/** Counters chosen on the open seat page. */
async function chooseCounters(page: Page): Promise<void> {
  await page.getByRole('combobox').first().selectOption({ index: 1 })
  await page.getByRole('combobox').nth(1).selectOption({ index: 1 })
}

/** The first seat the page shows available, chosen; answers its name once the server holds it. */
async function chooseSeat(page: Page): Promise<string> {
  const seat = page.getByRole('grid').locator('button[data-state="available"]:visible').first()
  const name = (await seat.getAttribute('data-seat'))!
  await seat.click()
  await expect(page.getByTestId('hold-clock')).toBeVisible()
  return name
}

/** Another passenger holds `seat` through the API, as their own browser would. */
async function holdElsewhere(request: APIRequestContext, trip: { tripId: number }, date: string, seat: string): Promise<void> {
  const details = await request.post('/api/reservation/tripDetails', {
    data: { tripId: trip.tripId, originCode: 'DHK', destinationCode: 'CTG', originBusStationId: null, destinationBusStationId: null },
  })
  const coachCode = ((await details.json()) as { data: { coach: { code: string } } }).data.coach.code
  const res = await request.post('/api/reservation/seatLock', {
    headers: { 'x-device-id': `said-once-${seat}-${Date.now()}` },
    data: { tripId: trip.tripId, tripDate: date, coachCode, originCode: 'DHK', destinationCode: 'CTG', seatNames: [seat], locked: true },
  })
  expect((await res.json()).data, `lock of ${seat}`).toBeTruthy()
}

for (const [index, lang] of (['en', 'bn'] as const satisfies readonly Lang[]).entries()) {
  test.describe(lang, () => {
    test.beforeEach(async ({ context }) => {
      await context.addInitScript((l) => sessionStorage.setItem('language', l), lang)
    })

    test('a seat lost to another passenger: said by the lock-lost dialog alone', async ({ page, request }) => {
      const { trip, date } = await tripFor(request, 25, index)
      // the page does not see the other passenger's hold coming: the server's answer to the lock says it
      await withoutLiveSeatMap(page)
      await page.goto(reservationUrl(trip, date))
      await pageHeading(page)
      await chooseCounters(page)
      const seat = page.getByRole('grid').locator('button[data-state="available"]:visible').first()
      const name = (await seat.getAttribute('data-seat'))!
      await holdElsewhere(request, trip, date, name)
      await recordLiveRegions(page)
      await seat.click()
      const lost = m(lang, 'seat.lockLost', { names: name })
      const dialog = page.getByRole('alertdialog')
      await expect(dialog).toContainText(lost)
      await page.keyboard.press('Escape')
      await expect(dialog).toHaveCount(0)
      await expect(page.locator(`[data-seat="${name}"]:visible`)).toBeFocused()
      expect(await saidBy(page, lost)).toHaveLength(1)
      expect((await said(page)).filter((s) => s.text.includes(lost)).map((s) => s.role)).toEqual(['alertdialog'])
    })

    test('the hold running out: said by its notification alone', async ({ page, request }) => {
      const { trip, date } = await tripFor(request, 27, 1 + index)
      // only the browser's clock moves: the live seat map, silent for that long, would reload the seats with the server's own hold times
      await withoutLiveSeatMap(page)
      await page.clock.install()
      await page.goto(reservationUrl(trip, date))
      await pageHeading(page)
      await chooseCounters(page)
      const name = await chooseSeat(page)
      await recordLiveRegions(page)
      await page.clock.fastForward('15:30')
      const expired = m(lang, 'seatChoice.holdExpired')
      await expect(
        page
          .getByRole('region', { name: m(lang, 'toast.region') })
          .getByRole('status')
          .filter({ hasText: expired }),
      ).toBeVisible()
      await expect(page.locator(`[data-seat="${name}"]:visible`)).toHaveAttribute('data-state', 'available')
      await expect(page.getByTestId('hold-clock')).toHaveCount(0)
      expect(await saidBy(page, expired)).toHaveLength(1)
    })
  })
}

test('a booking whose time runs out: said once, by the booking', async ({ page, context, request }) => {
  const lang = 'en'
  const { trip, date } = await tripFor(request, 27, 0)
  await signInContext(context, request, await createPassenger(request))
  await withoutLiveSeatMap(page)
  await page.clock.install()
  await page.goto(reservationUrl(trip, date))
  await pageHeading(page)
  await chooseCounters(page)
  await chooseSeat(page)
  const panel = page.getByTestId('booking-panel')
  await panel.getByRole('button', { name: m(lang, 'booking.book') }).click()
  await expect(panel.getByRole('heading', { name: m(lang, 'booking.bookedHeading') })).toBeVisible()
  await recordLiveRegions(page)
  await page.clock.fastForward('16:00')
  await expect(panel.getByText(m(lang, 'booking.ended'))).toBeVisible()
  const ends = [m(lang, 'booking.announceExpired'), m(lang, 'seatChoice.holdExpired'), m(lang, 'booking.ended')]
  await expect.poll(() => saidBy(page, ...ends)).not.toEqual([])
  expect((await said(page)).filter((s) => ends.some((t) => s.text.includes(t))).map((s) => s.text)).toEqual([m(lang, 'booking.announceExpired')])
})
