/**
 * Issue 13, section 6: the pages in Bengali as a Bengali screen reader speaks them (WCAG 3.1.2
 * Language of Parts). Content that is ours comes in Bengali (offers, announcements, the time-period
 * filter, transaction texts, the notifications region's name), what stays English is marked
 * `lang="en"`, and every number (counts, durations, percentages, the year, booking numbers) is in
 * Bengali digits, like dates and prices.
 */
import { expect, test, type Page } from '@playwright/test'
import {
  bookThroughApi,
  DEMO_PASSENGER,
  dhakaDate,
  digits,
  latestCode,
  m,
  mx,
  openWithNotifications,
  pageHeading,
  signInContext,
  topUp,
  trackRequests,
  tripFor,
} from './helpers.ts'

test.describe.configure({ timeout: 120_000 })

test.beforeEach(async ({ context }) => {
  await context.addInitScript(() => sessionStorage.setItem('language', 'bn'))
})

/**
 * Text a Bengali voice would read that is not Bengali: visible text, names (`aria-label`) and select
 * options with Latin letters or Western digits, outside anything marked `lang="en"` or hidden from
 * screen readers. AM / PM are left: they are what the Bengali locale itself writes for times.
 */
function unmarkedForeign(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out = new Set<string>()
    const skip = (el: Element) => !!el.closest('[lang="en"], [aria-hidden="true"], script, style, noscript, [hidden]')
    const foreign = (text: string) => {
      const t = text.replace(/\b[AP]M\b/g, '')
      return /[A-Za-z0-9]/.test(t)
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement
      const text = n.textContent?.trim() ?? ''
      if (!el || !text || skip(el)) continue
      if (el.tagName !== 'OPTION' && el.getClientRects().length === 0) continue
      if (foreign(text)) out.add(`${el.tagName.toLowerCase()}: ${text.slice(0, 80)}`)
    }
    for (const el of document.querySelectorAll('[aria-label]')) {
      const label = el.getAttribute('aria-label') ?? ''
      if (!skip(el) && foreign(label)) out.add(`${el.tagName.toLowerCase()}[aria-label]: ${label.slice(0, 80)}`)
    }
    return [...out]
  })
}

/** `text` without AM / PM, which the Bengali locale itself writes for times. */
const withoutAmPm = (text: string) => text.replace(/\b[AP]M\b/g, '')

async function open(page: Page, route: string): Promise<void> {
  const settled = trackRequests(page)
  await page.goto(route)
  await pageHeading(page)
  await expect(page.locator('html')).toHaveAttribute('lang', 'bn')
  await settled()
}

test('home: offers, announcements and the notifications in Bengali, numbers in Bengali digits, nothing English unmarked', async ({
  page,
  context,
  request,
}) => {
  const offers = ((await (await request.get('/api/offers')).json()) as { data: { discountPercent: number; descriptionBn: string | null }[] }).data
  const announcements = ((await (await request.get('/api/announcements')).json()) as { data: { titleBn: string }[] }).data
  expect(offers.some((o) => o.descriptionBn)).toBe(true)
  await open(page, '/')
  const offerList = page.getByRole('region', { name: 'অফার' }).getByRole('listitem')
  await expect(offerList).toHaveCount(offers.length)
  for (const [i, o] of offers.entries()) {
    const item = offerList.nth(i)
    if (o.descriptionBn) await expect(item.getByText(o.descriptionBn, { exact: true })).toBeVisible()
    else await expect(item.locator('p[lang="en"]')).toHaveCount(1)
    await expect(item).toContainText(`${digits('bn', String(o.discountPercent))}% ছাড়`)
  }
  const notices = page.getByRole('region', { name: 'ঘোষণা' }).getByRole('listitem').locator('p')
  await expect(notices).toHaveText(announcements.map((a) => a.titleBn))
  await expect(page.getByRole('contentinfo')).toContainText(`© ${digits('bn', String(new Date().getFullYear()))}`)
  expect(await unmarkedForeign(page)).toEqual([])

  // a notification: the region is named in Bengali
  await openWithNotifications(page)
  await context.setOffline(true)
  await expect(page.getByRole('region', { name: 'বিজ্ঞপ্তি' }).getByText(m('bn', 'error.NO_INTERNET_CONNECTION'))).toBeVisible()
  await context.setOffline(false)
})

test('results: the time-period filter in Bengali, durations and counts in Bengali digits, stations and coach codes marked English', async ({
  page,
  request,
}) => {
  const periods = ((await (await request.get('/api/timePeriods')).json()) as { data: { labelBn: string | null }[] }).data
  expect(periods.every((p) => p.labelBn)).toBe(true)
  await open(page, `/search?from=DHK&to=CTG&date=${dhakaDate(3)}`)
  await expect(page.getByRole('main').getByRole('listitem').first()).toBeVisible()
  const options = page.getByLabel(m('bn', 'trips.timePeriod')).locator('option')
  await expect(options).toHaveText([m('bn', 'lookups.allTimes'), ...periods.map((p) => p.labelBn!)])
  // the demo Dhaka–Chattogram coaches take 5 h 30 min
  await expect(page.getByText('৫ ঘণ্টা ৩০ মিনিট').first()).toBeVisible()
  await expect(page.getByText(/^[০-৯]+টির মধ্যে [০-৯]+টি ট্রিপ দেখানো হচ্ছে$/)).toBeVisible()
  await expect(page.getByRole('main').getByRole('heading', { level: 2 }).first().locator('span[lang="en"]')).toHaveText(/^\d{3}-[A-Z]{3}-[A-Z]{3}$/)
  expect(await unmarkedForeign(page)).toEqual([])
})

test('profile: transactions in Bengali, booking numbers in Bengali digits', async ({ page, context, request }) => {
  const { trip } = await tripFor(request, 19, 2)
  const { mobile, token, reservationId } = await bookThroughApi(request, trip)
  await topUp(request, mobile, 5000)
  const paid = await request.post('/api/reservation/payFromBalance', { data: { reservationId }, headers: { Authorization: `Bearer ${token}` } })
  expect(paid.ok(), await paid.text()).toBe(true)
  await signInContext(context, request, mobile)
  await open(page, '/profile')
  const rows = page.getByRole('table').getByRole('row')
  await expect(rows.filter({ hasText: m('bn', 'profile.kindTopUp') })).toContainText(m('bn', 'transactions.topUpCard'))
  await expect(rows.filter({ hasText: m('bn', 'profile.kindTicketPayment') })).toContainText(`বুকিং ${digits('bn', String(reservationId))}`)
  expect(withoutAmPm(await page.getByRole('table').innerText())).not.toMatch(/[A-Za-z0-9]/)
  expect(await unmarkedForeign(page)).toEqual([])
})

test('profile: the opening balance is said once (the demo passenger has one)', async ({ page, context, request }) => {
  await signInContext(context, request, DEMO_PASSENGER.mobile, DEMO_PASSENGER.password)
  await open(page, '/profile')
  const opening = page
    .getByRole('table')
    .getByRole('row')
    .filter({ hasText: m('bn', 'profile.kindOpening') })
  await expect(opening).toHaveCount(1)
  expect((await opening.innerText()).split(m('bn', 'profile.kindOpening')).length - 1).toBe(1)
  expect(withoutAmPm(await opening.innerText())).not.toMatch(/[A-Za-z0-9]/)
})

test('the ticket (ticket page, success page, print, cancel): codes and names marked English, every number in Bengali digits, PIN and phone numbers too', async ({
  page,
  context,
  request,
}) => {
  const { trip } = await tripFor(request, 19, 4)
  const { mobile, token, reservationId } = await bookThroughApi(request, trip)
  await topUp(request, mobile, 5000)
  const paid = await request.post('/api/reservation/payFromBalance', { data: { reservationId }, headers: { Authorization: `Bearer ${token}` } })
  expect(paid.ok(), await paid.text()).toBe(true)
  const ticket = ((await paid.json()) as { data: { pnr: string; pin: string; coach: { code: string }; seats: { name: string }[] } }).data
  await signInContext(context, request, mobile)

  for (const route of [`/reservation/success?reservationId=${reservationId}`, `/ticket-operation?reservationId=${reservationId}`]) {
    await open(page, route)
    const view = page.getByTestId('ticket')
    await expect(view.getByTestId('ticket-pnr')).toHaveText(ticket.pnr)
    await expect(view.getByTestId('ticket-pnr')).toHaveAttribute('lang', 'en')
    // the PIN is a number: in Bengali digits, like the passenger's mobile number
    await expect(view.getByTestId('ticket-pin')).toHaveText(digits('bn', ticket.pin))
    await expect(view).toContainText(digits('bn', mobile))
    await expect(view.locator('[lang="en"]').filter({ hasText: ticket.coach.code })).toHaveCount(1)
    await expect(view.getByTestId('ticket-seats')).toHaveAttribute('lang', 'en')
    expect(await unmarkedForeign(page), route).toEqual([])
    // printed: the same ticket alone
    await page.emulateMedia({ media: 'print' })
    expect(await unmarkedForeign(page), `${route}, printed`).toEqual([])
    await page.emulateMedia({ media: 'screen' })
  }

  // My tickets: the PNR and seats marked English, the rest in Bengali
  await open(page, '/profile')
  const mine = page
    .getByRole('region', { name: m('bn', 'profile.ticketsTitle') })
    .getByRole('listitem')
    .first()
  await expect(mine.locator('[lang="en"]').filter({ hasText: ticket.pnr })).toHaveCount(1)
  expect(await unmarkedForeign(page)).toEqual([])

  // cancelling: the code is sent to a phone number in Bengali digits
  await open(page, `/ticket-operation?reservationId=${reservationId}`)
  await page.getByRole('button', { name: m('bn', 'ticket.cancel') }).click()
  const sent = page.getByText(mx('bn', 'ticket.otpSent'))
  await expect(sent).toBeVisible()
  expect(await sent.innerText()).not.toMatch(/[0-9]/)
  expect(await unmarkedForeign(page)).toEqual([])
})

test('a ticket found by PNR and PIN: the announcement reads the PNR in English inside its Bengali sentence', async ({ page, request }) => {
  const { trip } = await tripFor(request, 20, 4)
  const { mobile, token, reservationId } = await bookThroughApi(request, trip)
  await topUp(request, mobile, 5000)
  const paid = await request.post('/api/reservation/payFromBalance', { data: { reservationId }, headers: { Authorization: `Bearer ${token}` } })
  expect(paid.ok(), await paid.text()).toBe(true)
  const ticket = ((await paid.json()) as { data: { pnr: string; pin: string } }).data
  await open(page, '/ticket-operation')
  await page.getByRole('textbox', { name: m('bn', 'ticket.pnr') }).fill(ticket.pnr)
  await page.getByRole('textbox', { name: m('bn', 'ticket.pin') }).fill(ticket.pin)
  await page.getByRole('button', { name: m('bn', 'ticket.find') }).click()
  await expect(page.getByTestId('ticket-pnr')).toHaveText(ticket.pnr)
  const said = page.getByRole('status').filter({ hasText: ticket.pnr })
  await expect(said).toHaveCount(1)
  await expect(said.locator('[lang="en"]')).toHaveText(ticket.pnr)
  expect(await unmarkedForeign(page)).toEqual([])
})

test('branch and help-line phone numbers in Bengali digits (/locations, /contact-us), like the header', async ({ page }) => {
  for (const route of ['/locations', '/contact-us']) {
    await open(page, route)
    const tel = page.locator('main a[href^="tel:"]').first()
    await expect(tel).toBeVisible()
    expect(await tel.innerText(), route).toMatch(/^[০-৯-]+$/)
    expect(await unmarkedForeign(page), route).toEqual([])
  }
})

test('cancelling some seats of a ticket: the hint, the quote and the result read PNR, PIN and seat names as a Bengali voice should (issue 31 item 6)', async ({
  page,
  context,
  request,
}) => {
  const { trip } = await tripFor(request, 19, 3)
  const { mobile, token, reservationId, seats } = await bookThroughApi(request, trip, { seats: 2 })
  await topUp(request, mobile, 5000)
  const paid = await request.post('/api/reservation/payFromBalance', { data: { reservationId }, headers: { Authorization: `Bearer ${token}` } })
  expect(paid.ok(), await paid.text()).toBe(true)
  await signInContext(context, request, mobile)
  await open(page, `/ticket-operation?reservationId=${reservationId}`)
  await page.getByRole('button', { name: m('bn', 'ticket.cancelSeats') }).click()
  await expect(page.getByText(m('bn', 'ticket.cancelSeatsHint'))).toBeVisible()
  expect(await unmarkedForeign(page), 'choosing the seats').toEqual([])
  const gone = seats[0]!
  await page
    .getByRole('group', { name: m('bn', 'ticket.cancelSeatsLegend') })
    .getByRole('checkbox', { name: new RegExp(`^${gone} `) })
    .check()
  await page.getByRole('button', { name: m('bn', 'ticket.showRefund') }).click()
  await expect(page.getByRole('heading', { name: m('bn', 'ticket.cancelSeatsHeading', { seats: gone }) })).toBeVisible()
  expect(await unmarkedForeign(page), 'the quote').toEqual([])
  const otp = await latestCode(request, mobile, /./, await latestCode(request, mobile, /verification/i))
  await page
    .getByRole('textbox', { name: m('bn', 'login.codeDigit', { index: 1, count: 6 }) })
    .first()
    .focus()
  await page.keyboard.type(otp)
  await page.getByRole('button', { name: m('bn', 'ticket.confirmCancelSeats') }).click()
  await expect(page.getByRole('status').filter({ hasText: mx('bn', 'ticket.seatsCanceledDone') })).toBeVisible()
  expect(await unmarkedForeign(page), 'the seats cancelled').toEqual([])
})
