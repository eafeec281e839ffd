/**
 * Issue 30 item 2, the passenger's side of a rush date (server/queue/): the operator marks the date with
 * `npm run trip -- rush mark` beside the server on the same PostgreSQL, its opening ten minutes ahead, then
 * moved to a few seconds ahead once the pre-queue has been checked (the same command). A passenger who opens the
 * seat page is sent to the waiting room, waits in the pre-queue (a second tab of the same browser, and a
 * reload, share the place), is admitted at the hour without a reload, lands on the seat page and holds a seat; en and
 * bn, axe on the waiting page. Without PostgreSQL each test is reported skipped (a failure under CI).
 */
import { expect, type Page, test } from '@playwright/test'
import { openDb } from '../server/db/db.ts'
import { expectNoAxeViolations, type Lang, m, pageHeading, tripFor } from './helpers.ts'
import { operatorSite } from './operator-site.ts'

const site = operatorSite('waiting_room', 'waiting-room.spec.ts', { QUEUE_ADMIT_MINUTES: '5' })

async function inLanguage(page: Page, lang: Lang): Promise<void> {
  await page.goto(`${site.app.url}/faq`)
  await page.evaluate((l) => sessionStorage.setItem('language', l), lang)
}

for (const [index, lang] of (['en', 'bn'] as const).entries()) {
  test(`a rush date: the pre-queue, one place for two tabs, admitted at the hour, then a seat (${lang})`, async ({ context }) => {
    const { trip, date } = await tripFor(site.api, 20 + index, 0)
    const mark = (opensAt: Date) => site.runTrip(['rush', 'mark', date, 'DHK-CTG', '--opens', opensAt.toISOString(), '--rate', '60'])
    // the opening far enough ahead that the pre-queue is still there however long the machine takes to show it (a
    // loaded run reached the seat page past an opening 12 s ahead); brought near once the pre-queue has been checked
    await mark(new Date(Date.now() + 10 * 60_000))
    const seatUrl = `${site.app.url}/reservation?tripId=${trip.tripId}&from=DHK&to=CTG&date=${date}`

    const page = await context.newPage()
    await inLanguage(page, lang)
    await page.goto(seatUrl)
    // sent to the waiting room: the pre-queue, told how the draw works
    await expect(page).toHaveURL(/\/queue\?/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(m(lang, 'queue.heading'))
    await expect(page.getByText(m(lang, 'queue.opensAt'), { exact: true })).toBeVisible()
    await expectNoAxeViolations(page, `/queue pre-queue (${lang})`)

    // a second tab of the same browser has the same place: still one person waiting
    const second = await context.newPage()
    await second.goto(seatUrl)
    await expect(second).toHaveURL(/\/queue\?/)
    await pageHeading(second)
    const queued = await site.api.post('/api/queue', { data: { tripDate: date, originCode: 'DHK', destinationCode: 'CTG', token: null } })
    expect((await queued.json()).data.waiting).toBe(1)
    await second.close()
    // a reload (before or after the hour) keeps the one place of this browser
    await page.reload()
    await pageHeading(page)
    const db = await openDb({ databaseUrl: site.databaseUrl, max: 1 })
    try {
      const places = await db.query(
        "SELECT p.id FROM queue_places p JOIN rush_dates r ON r.id = p.rush_id WHERE r.trip_date = $1 AND r.origin_code = 'DHK' AND r.destination_code = 'CTG'",
        [date],
      )
      expect(places.length).toBe(1)
    } finally {
      await db.close()
    }

    // the hour comes near (the operator moves it; the page learns it at its next ask, 15 s apart while it is further)
    await mark(new Date(Date.now() + 3_000))
    // at the hour the page admits itself without a reload and opens the seat map
    await expect(page).toHaveURL(/\/reservation\?/, { timeout: 60_000 })
    await pageHeading(page)
    await expect(page.getByRole('grid').first()).toBeVisible()
    await page.getByLabel(m(lang, 'seatChoice.boarding')).selectOption({ index: 1 })
    await page.getByLabel(m(lang, 'seatChoice.dropping')).selectOption({ index: 1 })
    const seat = page.getByRole('grid').locator('button[data-state="available"]:visible').first()
    const name = (await seat.getAttribute('data-seat'))!
    const locked = page.waitForResponse((r) => r.url().endsWith('/api/reservation/seatLock'))
    await seat.click()
    expect((await locked).status()).toBe(200)
    await expect(page.locator(`[data-seat="${name}"]:visible`)).toHaveAttribute('data-state', 'selected')

    // a browser without the admission is refused the seats of that date
    const refused = await site.api.post('/api/reservation/seatLock', {
      data: {
        tripId: trip.tripId,
        tripDate: date,
        coachCode: trip.coachCode,
        originCode: 'DHK',
        destinationCode: 'CTG',
        seatNames: ['A2'],
        locked: true,
      },
      headers: { 'x-device-id': 'waiting-room-spec' },
    })
    expect(refused.status()).toBe(403)
    expect((await refused.json()).error.code).toBe('QUEUE_ADMISSION_REFUSED')
  })
}
