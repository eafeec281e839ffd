/**
 * Issue 30 item 3, the passenger's side of the cap on seats per travel date
 * (SEATS_PER_PASSENGER_PER_DATE=4), on a server of its own (the shared one lifts the cap, as
 * its other specs choose 5 seats): the seat page says how many seats are left for the date
 * before any is chosen (en, bn), and a booking for a traveller's mobile that has used the cap
 * on another trip of the date is refused with the cap and what is left.
 */
import { type APIRequestContext, type Browser, expect, type Page, request as playwrightRequest, test } from '@playwright/test'
import { bookThroughApi, createPassenger, expectNoAxeViolations, type Lang, m, signInContext, type TripRow, tripFor } from './helpers.ts'
import { type OwnServer, startOwnServer } from './own-server.ts'

let app: OwnServer
let api: APIRequestContext

test.describe.configure({ mode: 'serial', timeout: 120_000 })

test.beforeAll(async () => {
  test.setTimeout(180_000)
  app = await startOwnServer({ SEATS_PER_PASSENGER_PER_DATE: '4' })
  api = await playwrightRequest.newContext({ baseURL: app.url })
})

test.afterAll(async () => {
  await api?.dispose()
  await app?.stop()
})

/** `mobile` signed in on a new page of the own server, in `lang`, on the seat page of `trip`. */
async function seatPage(browser: Browser, mobile: string, lang: Lang, trip: TripRow, date: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: app.url })
  await signInContext(context, api, mobile)
  const page = await context.newPage()
  await page.addInitScript((l) => sessionStorage.setItem('language', l), lang)
  await page.goto(`/reservation?tripId=${trip.tripId}&from=DHK&to=CTG&date=${date}`)
  await expect(page.getByRole('grid').first()).toBeVisible()
  return page
}

test('3 seats bought on one trip of a date: another trip of that date says 1 seat is left for it (en, bn), a visitor sees the cap', async ({
  browser,
}) => {
  const [{ trip: first, date }, { trip: second }] = [await tripFor(api, 6, 0), await tripFor(api, 6, 1)]
  const bought = await bookThroughApi(api, first, { seats: 3, pay: true })

  const page = await seatPage(browser, bought.mobile, 'en', second, date)
  await expect(
    page.getByText('You can choose up to 1 seat. One passenger may buy at most 4 seats for travel on this day; you have 1 left.'),
  ).toBeVisible()
  await expectNoAxeViolations(page, 'seat page with the date cap')
  await page.context().close()

  const bn = await seatPage(browser, bought.mobile, 'bn', second, date)
  await expect(bn.getByText(m('bn', 'seatChoice.dateCapLeft', { cap: 4, left: 1 }))).toBeVisible()
  await bn.context().close()

  const visitor = await browser.newPage({ baseURL: app.url })
  await visitor.goto(`/reservation?tripId=${second.tripId}&from=DHK&to=CTG&date=${date}`)
  await expect(visitor.getByText('You can choose up to 4 seats. One passenger may buy at most 4 seats for travel on this day.')).toBeVisible()
  await visitor.close()
})

test("booking 2 seats for a traveller's mobile that has 3 seats for the date is refused with the cap and what is left", async ({ browser }) => {
  const [{ trip: first, date }, { trip: second }] = [await tripFor(api, 6, 2), await tripFor(api, 6, 3)]
  const traveller = await bookThroughApi(api, first, { seats: 3 })
  const page = await seatPage(browser, await createPassenger(api), 'en', second, date)
  await page.getByLabel(m('en', 'seatChoice.boarding')).selectOption({ index: 1 })
  await page.getByLabel(m('en', 'seatChoice.dropping')).selectOption({ index: 1 })
  for (let i = 0; i < 2; i++) {
    const seat = page.getByRole('grid').locator('button[data-state="available"]:visible').first()
    const name = (await seat.getAttribute('data-seat'))!
    await seat.click()
    await expect(page.locator(`[data-seat="${name}"]:visible`)).toHaveAttribute('data-state', 'selected')
  }
  const panel = page.getByTestId('booking-panel')
  await panel.getByLabel(m('en', 'booking.passengerMobile')).fill(traveller.mobile)
  await panel.getByRole('button', { name: m('en', 'booking.book') }).click()
  await expect(panel.getByText('Seat limit exceeded. One passenger may buy at most 4 seats for travel on this day; you have 1 left.')).toBeVisible()
  await expect(panel.getByRole('heading', { name: m('en', 'booking.bookedHeading') })).toHaveCount(0)
  await page.context().close()
})
