/**
 * Issue 30 item 4, the offer that lapses, on a server of its own (WAITLIST_OFFER_SECONDS=15, a sweep
 * every second): two passengers wait on a sold-out trip; a cancelled seat is offered to the first
 * (en), who does not book it; 15 s later their page says the offer has ended, without a reload,
 * and the seat is offered to the second (bn), whose page shows it, with one SMS each. Axe on both.
 */
import { type APIRequestContext, type Browser, expect, type Page, request as playwrightRequest, test } from '@playwright/test'
import {
  bookThroughApi,
  createPassenger,
  expectNoAxeViolations,
  holdEveryFreeSeat,
  type Lang,
  m,
  outbox,
  signInContext,
  type TripRow,
  tripFor,
} from './helpers.ts'
import { type OwnServer, startOwnServer } from './own-server.ts'

let app: OwnServer
let api: APIRequestContext

test.describe.configure({ mode: 'serial', timeout: 240_000 })

test.beforeAll(async () => {
  test.setTimeout(180_000)
  app = await startOwnServer({
    // three of the page's 5-second polls (WAITLIST_POLL_MS) see the offer before it lapses
    WAITLIST_OFFER_SECONDS: '15',
    WAITLIST_SWEEP_SECONDS: '1',
    HOLD_LIMIT_PER_ADDRESS: '100000',
    HOLD_LIMIT_PER_ADDRESS_TOTAL: '100000',
    RATE_LIMIT_MAX: '100000',
    AUTH_RATE_LIMIT_MAX: '100000',
    SMS_LIMIT_PER_ADDRESS: '100000',
  })
  api = await playwrightRequest.newContext({ baseURL: app.url })
})

test.afterAll(async () => {
  await api?.dispose()
  await app?.stop()
})

/** `mobile` signed in on a new page in `lang`, on the seat page of `trip`, joined to its waitlist for one seat. */
async function waiting(browser: Browser, mobile: string, lang: Lang, trip: TripRow, date: string, place: number): Promise<Page> {
  const context = await browser.newContext({ baseURL: app.url })
  await signInContext(context, api, mobile)
  const page = await context.newPage()
  await page.addInitScript((l) => sessionStorage.setItem('language', l), lang)
  await page.goto(`/reservation?tripId=${trip.tripId}&from=DHK&to=CTG&date=${date}`)
  const list = page.getByTestId('waitlist')
  await list.getByRole('button', { name: m(lang, 'waitlist.join') }).press('Enter')
  // the place, in the page's language and digits
  await expect(list.getByRole('status').first()).toContainText(lang === 'en' ? `You are number ${place} on the waitlist` : 'অপেক্ষা তালিকায় আপনি')
  return page
}

test('an offer not booked in its time lapses on the page and passes to the next, who is told by SMS and on the page (en, bn)', async ({
  browser,
}) => {
  const { trip, date } = await tripFor(api, 12, 2)
  const other = await bookThroughApi(api, trip, { seats: 1 })
  await holdEveryFreeSeat(api, trip, date)
  const [first, second] = [await createPassenger(api), await createPassenger(api)]
  const a = await waiting(browser, first, 'en', trip, date, 1)
  const b = await waiting(browser, second, 'bn', trip, date, 2)

  const cancel = await api.post('/api/reservation/cancelBooking', {
    data: { reservationId: other.reservationId },
    headers: { Authorization: `Bearer ${other.token}` },
  })
  expect(cancel.ok(), await cancel.text()).toBeTruthy()
  const seat = other.seats[0]!
  const aStatus = a.getByTestId('waitlist').getByRole('status').first()
  await expect(aStatus).toContainText(`Seats ${seat} are held for you until `, { timeout: 20_000 })

  // not booked: when its time is up the first page says so by itself, and the seat is the second's
  await expect(aStatus).toHaveText(m('en', 'waitlist.lapsed'), { timeout: 120_000 })
  await expectNoAxeViolations(a, 'waitlist: lapsed')
  const bStatus = b.getByTestId('waitlist').getByRole('status').first()
  await expect(bStatus).toContainText(`আসন ${seat} আপনার জন্য`, { timeout: 20_000 })
  await expectNoAxeViolations(b, 'waitlist: offered (bn)')
  const sms = (await outbox(api)).filter((x) => x.body.startsWith('Waitlist:') || x.body.startsWith('অপেক্ষা তালিকা:'))
  expect(sms.filter((x) => x.to === first).length).toBe(1)
  expect(sms.filter((x) => x.to === second).length).toBe(1)
  expect(sms.find((x) => x.to === second)!.body).toContain(`কোচ ${trip.coachCode}`)
})
