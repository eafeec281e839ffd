/**
 * Issue 31 item 2 on the real server, en and bn, with the keyboard: a passenger opens their
 * card-paid ticket, asks to change its date or time, lists that day's trips, picks another one,
 * chooses a seat on its live seat map and reads the difference the server quotes. A dearer trip:
 * the difference paid with bKash on the gateway's page, back on the ticket with the new trip. A
 * cheaper trip: the difference goes back to the card at once. The PNR stays. A live unpaid
 * booking, opened from the profile's list, moves the same way: free, the same booking, its time to pay kept.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import type { ChangeQuote, Reservation } from '../contract/schemas.ts'
import { formatMoney } from '../contract/money.ts'
import { bookThroughApi, dhakaDate, expectNoAxeViolations, type Lang, m, openOwnTicket, typeCancelCode, type TripRow } from './helpers.ts'
import { expectBoxFits, textSize } from './large-text.ts'

test.describe.configure({ timeout: 180_000 })

/** The cheapest and the dearest trip of a day from Dhaka to Chattogram with seats to spare. */
async function cheapAndDear(request: APIRequestContext, days: number): Promise<{ cheap: TripRow; dear: TripRow }> {
  const res = await request.post('/api/reservation/tripSearch', { data: { originCode: 'DHK', destinationCode: 'CTG', tripDate: dhakaDate(days) } })
  expect(res.ok()).toBe(true)
  const trips = ((await res.json()) as { data: (TripRow & { fareFrom: number })[] }).data
    .filter((t) => t.availableSeats > 5)
    .sort((a, b) => a.fareFrom - b.fareFrom)
  const [cheap, dear] = [trips[0]!, trips.at(-1)!]
  expect(dear.fareFrom).toBeGreaterThan(cheap.fareFrom)
  return { cheap, dear }
}

/** Focuses `target` and presses `key`, as a keyboard user does. */
async function press(page: Page, target: ReturnType<Page['getByRole']>, key = 'Enter'): Promise<void> {
  await target.focus()
  await page.keyboard.press(key)
}

const api = async <T>(request: APIRequestContext, token: string, method: 'get' | 'post', path: string, data?: unknown): Promise<T> => {
  const res = await request[method](`/api${path}`, { data, headers: { Authorization: `Bearer ${token}` } })
  expect(res.ok(), await res.text()).toBe(true)
  return ((await res.json()) as { data: T }).data
}

/**
 * On the ticket page of `reservationId`: opens the change, lists the day's trips, picks `to`'s and
 * one free seat on its map; answers the quote the server gives for that seat (what the page must show).
 */
async function chooseNewTrip(page: Page, lang: Lang, request: APIRequestContext, token: string, reservationId: number, to: TripRow) {
  await press(page, page.getByRole('button', { name: m(lang, 'dateChange.open') }))
  await expect(page.getByRole('heading', { name: m(lang, 'dateChange.heading') })).toBeFocused()
  await press(page, page.getByRole('button', { name: m(lang, 'dateChange.findTrips') }))
  const trips = page.getByRole('list').filter({ has: page.getByRole('button', { name: new RegExp(to.coachCode) }) })
  await press(page, trips.getByRole('button', { name: new RegExp(to.coachCode) }))
  const seat = page.getByRole('grid').locator('button[data-state="available"]:visible').first()
  const name = (await seat.getAttribute('data-seat'))!
  await seat.focus()
  await page.keyboard.press('Enter')
  await expect(page.locator(`[data-seat="${name}"]:visible`)).toHaveAttribute('data-state', 'selected')
  await expect(page.getByRole('heading', { name: m(lang, 'dateChange.quoteHeading') })).toBeVisible()
  return api<ChangeQuote>(request, token, 'post', '/reservation/changeQuote', { reservationId, tripId: to.tripId, seatNames: [name] })
}

for (const lang of ['en', 'bn'] as const) {
  test(`${lang}: change to a dearer trip with the keyboard, the difference paid with bKash; the PNR stays`, async ({ browser, request }) => {
    const { cheap, dear } = await cheapAndDear(request, lang === 'en' ? 4 : 5)
    const bought = await bookThroughApi(request, { tripId: cheap.tripId }, { seats: 1, pay: true })
    const before = await api<Reservation>(request, bought.token, 'get', `/reservation/details/${bought.reservationId}`)
    const page = await openOwnTicket(browser, request, bought, lang)

    const q = await chooseNewTrip(page, lang, request, bought.token, bought.reservationId, dear)
    expect(q.toPay).toBeGreaterThan(0)
    await expect(page.getByTestId('change-difference')).toHaveText(formatMoney(q.toPay, lang))
    await expectNoAxeViolations(page, `${lang} change quote to pay`)
    await press(page, page.getByRole('button', { name: m(lang, 'booking.payBkash', { total: formatMoney(q.toPay, lang) }) }))
    await expect(page).toHaveURL(/\/sandbox\/gateway\//)
    await page.getByRole('button', { name: 'Approve payment' }).click()

    await expect(page).toHaveURL(new RegExp(`/ticket-operation\\?reservationId=${bought.reservationId}&change=success`))
    await expect(page.getByText(m(lang, 'dateChange.paid'))).toBeVisible()
    await expect(page.getByTestId('ticket-pnr')).toHaveText(before.pnr!)
    await expect(page.getByTestId('ticket-total')).toHaveText(formatMoney(q.newFare, lang))
    const after = await api<Reservation>(request, bought.token, 'get', `/reservation/details/${bought.reservationId}`)
    expect([after.tripId, after.pnr, after.pin, after.seats.map((s) => s.name)]).toEqual([
      dear.tripId,
      before.pnr,
      before.pin,
      q.seats.map((s) => s.name),
    ])

    // cancelled now: the quote and the result name each place the refund goes back to, bKash's part first
    await press(page, page.getByRole('button', { name: m(lang, 'ticket.cancel'), exact: true }))
    await expect(page.getByRole('heading', { name: m(lang, 'ticket.cancelHeading') })).toBeFocused()
    // ticket.methodCard's choices (a select, which m() leaves as it is)
    const place = (p: 'bkash' | 'card') => new RegExp(`${p} \\{([^}]*)\\}`).exec(m(lang, 'ticket.methodCard').replace('other {', 'card {'))![1]!
    const box = page.getByRole('region', { name: m(lang, 'ticket.cancelHeading') })
    await expect(box.getByRole('term').filter({ hasNotText: /%|٪/ })).toHaveText([
      m(lang, 'ticket.refundAmountCard', { place: place('bkash') }),
      m(lang, 'ticket.refundAmountCard', { place: place('card') }),
    ])
    const amounts = page.getByTestId('refund-part')
    await expect(amounts.first()).toHaveText(formatMoney(q.toPay, lang))
    const [toBkash, toCard] = (await amounts.allInnerTexts()).map((x) => x.trim())
    await expectNoAxeViolations(page, `${lang} cancel quote split between two places`)
    await typeCancelCode(page, request, bought.mobile, lang)
    await press(page, page.getByRole('button', { name: m(lang, 'ticket.confirmCancel') }))
    const part = (refund: string, p: 'bkash' | 'card') => m(lang, 'ticket.refundPartCard', { refund, place: place(p) })
    const said = m(lang, 'ticket.canceledDoneSplit', { parts: `${part(toBkash!, 'bkash')}, ${part(toCard!, 'card')}` })
    await expect(page.getByRole('status').filter({ hasText: said })).toHaveCount(1)
    await page.context().close()
  })

  test(`${lang}: change to a cheaper trip with the keyboard, the difference back to the card`, async ({ browser, request }) => {
    const { cheap, dear } = await cheapAndDear(request, lang === 'en' ? 6 : 7)
    const bought = await bookThroughApi(request, { tripId: dear.tripId }, { seats: 1, pay: true })
    const page = await openOwnTicket(browser, request, bought, lang)

    const q = await chooseNewTrip(page, lang, request, bought.token, bought.reservationId, cheap)
    expect([q.toPay, q.refund > 0, q.refundTo]).toEqual([0, true, 'CARD'])
    await expect(page.getByTestId('change-difference')).toHaveText(formatMoney(q.refund, lang))
    await expectNoAxeViolations(page, `${lang} change quote refunded`)
    await press(page, page.getByRole('button', { name: m(lang, 'dateChange.confirm') }))

    await expect(page.getByRole('status').filter({ hasText: m(lang, 'dateChange.done') })).toHaveCount(1)
    await expect(page.getByRole('button', { name: m(lang, 'dateChange.open') })).toBeFocused()
    await expect(page.getByTestId('ticket-total')).toHaveText(formatMoney(q.newFare, lang))
    const after = await api<Reservation>(request, bought.token, 'get', `/reservation/details/${bought.reservationId}`)
    expect([after.tripId, after.refund?.to, after.refund?.amount]).toEqual([cheap.tripId, 'CARD', q.refund])
    await page.context().close()
  })

  test(`${lang}: a live unpaid booking moves to another trip with the keyboard: the same booking, unpaid, its time to pay kept`, async ({
    browser,
    request,
  }) => {
    const { cheap, dear } = await cheapAndDear(request, lang === 'en' ? 3 : 8)
    const booked = await bookThroughApi(request, { tripId: cheap.tripId }, { seats: 1 })
    const before = await api<Reservation>(request, booked.token, 'get', `/reservation/details/${booked.reservationId}`)
    expect(before.status).toBe(2)
    const page = await openOwnTicket(browser, request, booked, lang)

    const q = await chooseNewTrip(page, lang, request, booked.token, booked.reservationId, dear)
    expect([q.toPay, q.refund, q.charge]).toEqual([0, 0, 0])
    await expect(page.getByTestId('change-new-fare')).toHaveText(formatMoney(q.newFare, lang))
    await expect(page.getByTestId('change-difference')).toHaveCount(0)
    await expectNoAxeViolations(page, `${lang} booking change quote`)
    await press(page, page.getByRole('button', { name: m(lang, 'dateChange.confirmBooking') }))

    await expect(page.getByRole('status').filter({ hasText: m(lang, 'dateChange.bookingDone') })).toHaveCount(1)
    await expect(page.getByRole('button', { name: m(lang, 'dateChange.open') })).toBeFocused()
    await expect(page.getByTestId('ticket-total')).toHaveText(formatMoney(q.newFare, lang))
    const after = await api<Reservation>(request, booked.token, 'get', `/reservation/details/${booked.reservationId}`)
    expect([after.id, after.tripId, after.status, after.fare.total, after.expirationTime]).toEqual([
      before.id,
      dear.tripId,
      2,
      q.newFare,
      before.expirationTime,
    ])
    await page.context().close()
  })

  test(`${lang}: the change panel at 200 % text on a 320px phone, and in forced colours the chosen trip shows as chosen`, async ({
    browser,
    request,
  }) => {
    const { cheap, dear } = await cheapAndDear(request, lang === 'en' ? 9 : 10)
    const booked = await bookThroughApi(request, { tripId: cheap.tripId }, { seats: 1 })
    const page = await openOwnTicket(browser, request, booked, lang)
    await page.setViewportSize({ width: 320, height: 900 })
    await textSize(page.context(), page, 200)
    await chooseNewTrip(page, lang, request, booked.token, booked.reservationId, dear)
    const label = `change panel (${lang}, 320px, 200 % text)`
    await expectNoAxeViolations(page, label)
    await expectBoxFits(page, 'section[aria-labelledby="change-heading"]', label)

    await page.emulateMedia({ forcedColors: 'active' })
    await expectNoAxeViolations(page, `${label}, forced colours`)
    await expectBoxFits(page, 'section[aria-labelledby="change-heading"]', `${label}, forced colours`)
    // the same button chosen and not chosen must look different without the theme's colours
    const chosen = page.getByRole('button', { name: new RegExp(dear.coachCode), pressed: true })
    const shot = async () => {
      await chosen.evaluate((el) => (el as HTMLElement).blur())
      return (await chosen.screenshot({ animations: 'disabled' })).toString('base64')
    }
    const pressed = await shot()
    // the same button as it looks not chosen (its look follows aria-pressed)
    await chosen.evaluate((el) => el.setAttribute('aria-pressed', 'false'))
    const chosenNot = page.getByRole('button', { name: new RegExp(dear.coachCode), pressed: false })
    await chosenNot.evaluate((el) => (el as HTMLElement).blur())
    const unpressed = (await chosenNot.screenshot({ animations: 'disabled' })).toString('base64')
    expect(pressed === unpressed, 'the chosen trip looks like the others in forced colours').toBe(false)
    await page.context().close()
  })
}
