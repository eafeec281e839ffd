/**
 * Issue 6: booking, coupon, card and balance payment, the success and failure
 * pages, the ticket (print, calendar, QR), /ticket-operation (find, resend
 * e-mail, cancel with the SMS code), against the real server with fresh demo
 * data. Every test books its own trip (tests share one server) and checks axe
 * on every step; the journeys run in en and bn.
 */
import fs from 'node:fs'
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import {
  bookThroughApi,
  createPassenger,
  digits,
  expectNoAxeViolations,
  fillSignUp,
  fundedPassenger,
  latestCode,
  m,
  mx,
  outbox,
  PASSWORD,
  pageHeading,
  payName,
  randomMobile,
  reservationUrl,
  tripFor,
  withoutLiveSeatMap,
  type Lang,
} from './helpers.ts'

// a loaded machine runs axe slowly: room for every step
test.describe.configure({ timeout: 240_000 })

async function setLanguage(page: Page, lang: Lang): Promise<void> {
  await page.goto('/faq')
  await page.evaluate((l) => sessionStorage.setItem('language', l), lang)
}

/** Logs in on /login (mobile, password) in `lang`. */
async function login(page: Page, lang: Lang, mobile: string, password: string): Promise<void> {
  await page.getByLabel(m(lang, 'login.mobile')).fill(mobile)
  await page.getByRole('button', { name: m(lang, 'login.continue') }).click()
  await page.getByLabel(m(lang, 'login.password'), { exact: true }).fill(password)
  await page
    .getByRole('button', { name: m(lang, 'login.submit'), exact: true })
    .last()
    .click()
}

/** Seats available now in the visible deck. */
const availableSeats = (page: Page): Locator => page.getByRole('grid').locator('button[data-state="available"]:visible')

/** Counters and `count` seats on the open seat page. */
async function chooseSeats(page: Page, lang: Lang, count = 1): Promise<string[]> {
  await expect(page.getByRole('grid').first()).toBeVisible()
  await page.getByLabel(m(lang, 'seatChoice.boarding')).selectOption({ index: 1 })
  await page.getByLabel(m(lang, 'seatChoice.dropping')).selectOption({ index: 1 })
  const names: string[] = []
  for (let i = 0; i < count; i++) {
    const seat = availableSeats(page).first()
    const name = (await seat.getAttribute('data-seat'))!
    await seat.click()
    await expect(page.locator(`[data-seat="${name}"]:visible`)).toHaveAttribute('data-state', 'selected')
    names.push(name)
  }
  await expect(page.getByTestId('selected-seats')).not.toHaveText(m(lang, 'seatChoice.noSeats'))
  return names
}

const panel = (page: Page) => page.getByTestId('booking-panel')

/** Books from the filled-in booking form. */
async function book(page: Page, lang: Lang): Promise<void> {
  await panel(page)
    .getByRole('button', { name: m(lang, 'booking.book') })
    .click()
  await expect(panel(page).getByRole('heading', { name: m(lang, 'booking.bookedHeading') })).toBeVisible()
}

const taka = (lang: Lang, n: number) => (lang === 'bn' ? `${digits(lang, n.toLocaleString('en-US'))} টাকা` : `${n.toLocaleString('en-US')} Tk`)

async function api<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const res = await fetch(`/api${p}`, { headers: { Accept: 'application/json', Authorization: `Bearer ${sessionStorage.getItem('token')}` } })
    return ((await res.json()) as { data: unknown }).data
  }, path) as Promise<T>
}

async function seatStatuses(request: APIRequestContext, tripId: number, names: string[]): Promise<number[]> {
  const res = await request.post('/api/reservation/tripDetails', {
    data: { tripId, originCode: 'DHK', destinationCode: 'CTG', originBusStationId: null, destinationBusStationId: null },
  })
  const seats = ((await res.json()) as { data: { seatLayout: { seats: { name: string; status: number; lockedByOther: boolean }[] } } }).data
    .seatLayout.seats
  return names.map((n) => {
    const s = seats.find((x) => x.name === n)!
    return s.lockedByOther ? -1 : s.status
  })
}

for (const lang of ['en', 'bn'] as const) {
  test(`${lang}: a new user searches, books with a coupon, pays by card, finds, e-mails and cancels the ticket`, async ({ page, request }) => {
    test.setTimeout(420_000)
    const { trip, date } = await tripFor(request, 4, lang === 'en' ? 0 : 1)
    const mobile = randomMobile()
    await setLanguage(page, lang)

    // search
    await page.goto(`/search?from=DHK&to=CTG&date=${date}`)
    await pageHeading(page)
    const card = page.getByRole('listitem').filter({ hasText: trip.coachCode }).first()
    await card.getByRole('button', { name: m(lang, 'trips.chooseSeats') }).click()
    await expect(page).toHaveURL(new RegExp(`/reservation\\?.*tripId=${trip.tripId}`))

    // seats, then the login handoff keeps them
    const seats = await chooseSeats(page, lang, 2)
    await expect(panel(page).getByText(m(lang, 'booking.loginNeeded'))).toBeVisible()
    await expectNoAxeViolations(page, `${lang} seats chosen, login needed`)
    await panel(page)
      .getByRole('button', { name: m(lang, 'booking.loginToBook') })
      .click()
    await expect(page).toHaveURL(/\/login$/)
    await fillSignUp(page, lang, mobile)
    await page.getByRole('button', { name: m(lang, 'login.signup') }).click()
    // the code SMS is written in the language the passenger signed up in
    const code = await latestCode(request, mobile, lang === 'bn' ? /মোবাইল যাচাইয়ের কোড/ : /verification/i)
    await page.getByRole('textbox').first().click()
    await page.keyboard.type(code)
    await expect(page).toHaveURL(new RegExp(`/reservation\\?.*tripId=${trip.tripId}`))
    await expect(page.getByTestId('selected-seats')).toHaveText(seats.join(', '))

    // passenger details are pre-filled from the profile
    await expect(page.getByLabel(m(lang, 'booking.passengerName'))).toHaveValue('Nusrat Jahan')
    await expect(page.getByLabel(m(lang, 'booking.passengerMobile'))).toHaveValue(mobile)
    await expectNoAxeViolations(page, `${lang} booking form`)
    await book(page, lang)
    await expect(page.getByTestId('hold-clock')).toBeVisible()
    await expectNoAxeViolations(page, `${lang} booked`)

    // coupon: the figures are the server's
    const offers = (
      (await (await request.get('/api/offers')).json()) as { data: { couponCode: string; discountPercent: number; maxDiscount: number }[] }
    ).data
    const offer = offers.find((o) => o.couponCode === 'WINTER10') ?? offers[0]!
    const subtotalText = await page.getByTestId('booking-total').innerText()
    await page.getByLabel(m(lang, 'booking.couponCode')).fill('NOPE123')
    await page.getByRole('button', { name: m(lang, 'booking.applyCoupon') }).click()
    await expect(page.getByLabel(m(lang, 'booking.couponCode'))).toHaveAccessibleDescription(new RegExp(m(lang, 'error.INVALID_COUPON')))
    await expectNoAxeViolations(page, `${lang} invalid coupon`)
    await page.getByLabel(m(lang, 'booking.couponCode')).fill(offer.couponCode.toLowerCase())
    await page.getByRole('button', { name: m(lang, 'booking.applyCoupon') }).click()
    await expect(panel(page).getByText(m(lang, 'booking.couponApplied', { code: offer.couponCode }))).toBeVisible()
    const booking = (await api<{ id: number; fare: { subtotal: number; discount: number; total: number } }[]>(page, '/reservations'))[0]!
    expect(booking.fare.discount).toBe(Math.min(Math.floor((booking.fare.subtotal * offer.discountPercent) / 100), offer.maxDiscount))
    await expect(page.getByTestId('booking-total')).toHaveText(taka(lang, booking.fare.total))
    await expect(page.getByTestId('booking-discount')).toHaveText(`−${taka(lang, booking.fare.discount)}`)
    await expectNoAxeViolations(page, `${lang} coupon applied`)
    await page.screenshot({ path: test.info().outputPath('booked.png'), fullPage: true })
    await page.getByRole('button', { name: m(lang, 'booking.removeCoupon') }).click()
    await expect(page.getByTestId('booking-total')).toHaveText(subtotalText)
    await page.getByLabel(m(lang, 'booking.couponCode')).fill(offer.couponCode)
    await page.getByRole('button', { name: m(lang, 'booking.applyCoupon') }).click()
    await expect(page.getByTestId('booking-total')).toHaveText(taka(lang, booking.fare.total))

    // card: the sandbox gateway approves
    await page.getByRole('button', { name: m(lang, 'booking.payCard', { total: taka(lang, booking.fare.total) }) }).click()
    await expect(page).toHaveURL(/\/sandbox\/gateway\//)
    await expect(page.getByText(`Tk ${booking.fare.total.toLocaleString('en-US')} (BDT)`)).toBeVisible()
    await page.getByRole('button', { name: 'Approve payment' }).click()
    await expect(page).toHaveURL(/\/reservation\/success\?paymentId=/)
    await expect(await pageHeading(page)).toHaveText(m(lang, 'reservationSuccess.heading'))
    const pnr = (await page.getByTestId('ticket-pnr').innerText()).trim()
    const pin = (await page.getByTestId('ticket-pin').innerText()).trim()
    expect(pnr).toMatch(/^[A-Z0-9]{10}$/)
    // a number, in the language's digits (src/parts/ticket-view.tsx); typed back in them below
    expect(pin).toMatch(lang === 'bn' ? /^[০-৯]{4}$/ : /^\d{4}$/)
    await expect(page.getByTestId('ticket-seats')).toHaveText(seats.join(', '))
    await expect(page.getByRole('img', { name: m(lang, 'ticket.qrLabel') })).toBeVisible()
    await expect(page.getByTestId('ticket-status')).toHaveText(m(lang, 'profile.statusSold'))
    await expectNoAxeViolations(page, `${lang} success page`)

    // a reload confirms again without a second ticket
    await page.reload()
    await expect(page.getByTestId('ticket-pnr')).toHaveText(pnr)

    // calendar: Dhaka wall-clock departure
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: m(lang, 'ticket.addToCalendar') }).click()
    const file = await download
    expect(file.suggestedFilename()).toBe(`ticket-${pnr}.ics`)
    const ics = fs.readFileSync((await file.path())!, 'utf8')
    expect(ics).toMatch(/\r\nDTSTART;TZID=Asia\/Dhaka:\d{8}T\d{6}\r\n/)
    expect(ics).toContain('TZID:Asia/Dhaka')

    // print: the ticket alone on one A4 page (page.pdf renders with print media)
    await page.emulateMedia({ media: 'print' })
    await expect(page.getByRole('banner')).toBeHidden()
    await expect(page.getByRole('button', { name: m(lang, 'ticket.print') })).toBeHidden()
    await expect(page.getByTestId('ticket-pnr')).toBeVisible()
    await page.screenshot({ path: test.info().outputPath('ticket-print.png'), fullPage: true })
    const pdf = await page.pdf({ format: 'A4', printBackground: true, path: test.info().outputPath('ticket.pdf') })
    expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length).toBe(1)
    await page.emulateMedia({ media: 'screen' })

    // /ticket-operation by PNR and PIN
    await page.getByRole('link', { name: m(lang, 'payment.viewInTicketOperation') }).click()
    await expect(page.getByTestId('ticket-pnr')).toHaveText(pnr)
    await page.getByRole('button', { name: m(lang, 'ticket.findAnother') }).click()
    await page.getByLabel(m(lang, 'ticket.pnr')).fill(pnr)
    await page.getByLabel(m(lang, 'ticket.pin')).fill(pin === digits(lang, '0000') ? '1111' : '0000')
    await page.getByRole('button', { name: m(lang, 'ticket.find') }).click()
    await expect(page.getByRole('alert').filter({ hasText: m(lang, 'error.WRONG_PNR_PIN') })).toBeVisible()
    await expectNoAxeViolations(page, `${lang} wrong PNR/PIN`)
    await page.getByLabel(m(lang, 'ticket.pin')).fill(pin)
    await page.getByRole('button', { name: m(lang, 'ticket.find') }).click()
    await expect(page.getByTestId('ticket-pnr')).toHaveText(pnr)
    await expectNoAxeViolations(page, `${lang} ticket found`)

    // resend the e-mail
    await page.getByRole('button', { name: m(lang, 'ticket.resendEmail') }).click()
    await expect(page.getByText(m(lang, 'ticket.emailSent'))).toBeVisible()
    await expect.poll(async () => (await outbox(request)).filter((x) => x.channel === 'EMAIL' && x.subject?.includes(pnr)).length).toBe(2)

    // cancel with the SMS code: paid by card, so the refund goes back to the card (issue 22.2), seats free again
    const passengerId = await page.evaluate(() => (JSON.parse(sessionStorage.getItem('passenger')!) as { id: number }).id)
    const before = (await api<{ balance: number }>(page, `/profile/${passengerId}`)).balance
    await page.getByRole('button', { name: m(lang, 'ticket.cancel'), exact: true }).click()
    await expect(page.getByRole('heading', { name: m(lang, 'ticket.cancelHeading') })).toBeFocused()
    const refundText = await page.getByTestId('refund-amount').innerText()
    await expect(page.getByText(m(lang, 'ticket.refundAmountCard', { place: payName(lang, 'card') }), { exact: true })).toBeVisible()
    await expectNoAxeViolations(page, `${lang} cancel: OTP step`)
    const otp = await latestCode(request, mobile, /cancel|./i, code)
    await page.getByRole('textbox', { name: m(lang, 'login.codeDigit', { index: 1, count: 6 }) }).click()
    await page.keyboard.type(otp)
    await page.getByRole('button', { name: m(lang, 'ticket.confirmCancel') }).click()
    await expect(page.getByTestId('ticket-status')).toHaveText(m(lang, 'profile.statusCanceled'))
    await expect(page.getByText(m(lang, 'ticket.canceledDoneCard', { refund: refundText, place: payName(lang, 'card') }))).toBeVisible()
    // the ticket says where the money goes and how far it is: processing, or already refunded (the sandbox refunds at once)
    const note = await page.getByTestId('ticket-refund').innerText()
    const refundedPrefix = m(lang, 'ticket.refundCardREFUNDED', { refund: refundText, place: payName(lang, 'card'), at: '\u0000' }).split(
      '\u0000',
    )[0]!
    expect(
      note.includes(m(lang, 'ticket.refundCardPROCESSING', { refund: refundText, place: payName(lang, 'card') })) || note.includes(refundedPrefix),
      note,
    ).toBe(true)
    await expectNoAxeViolations(page, `${lang} cancelled`)
    const after = (await api<{ balance: number }>(page, `/profile/${passengerId}`)).balance
    expect(after - before, 'nothing on the balance: the card gets it back').toBe(0)
    expect(await seatStatuses(request, trip.tripId, seats)).toEqual(seats.map(() => 0))
  })
}

/** Logs `mobile` in, opens the trip's seat page, chooses one seat and books it; answers the seat names. */
async function bookOneSeat(page: Page, lang: Lang, mobile: string, trip: Parameters<typeof reservationUrl>[0], date: string): Promise<string[]> {
  await page.goto('/login')
  await login(page, lang, mobile, PASSWORD)
  await expect(page).toHaveURL(/\/$/)
  await page.goto(reservationUrl(trip, date))
  const seats = await chooseSeats(page, lang, 1)
  await book(page, lang)
  return seats
}

test('declined card: the failure page keeps the booking; pay from balance instead', async ({ page, request }) => {
  const lang: Lang = 'en'
  const { trip, date } = await tripFor(request, 5, 0)
  const mobile = await fundedPassenger(request, 5000)
  const seats = await bookOneSeat(page, lang, mobile, trip, date)
  await page.getByRole('button', { name: /by card/ }).click()
  await page.getByRole('button', { name: 'Decline payment' }).click()
  await expect(page).toHaveURL(/\/reservation\/failure\?paymentId=/)
  await expect(await pageHeading(page)).toHaveText(m(lang, 'reservationFailure.heading'))
  await expect(page.getByText(m(lang, 'payment.declinedKept'))).toBeVisible()
  await expect(page.getByRole('button', { name: /by card/ })).toBeVisible()
  expect(await seatStatuses(request, trip.tripId, seats)).toEqual([2])
  await expectNoAxeViolations(page, 'failure page')
  await page.screenshot({ path: test.info().outputPath('failure.png'), fullPage: true })
  const balanceBefore = (
    await api<{ balance: number }>(page, '/profile/' + JSON.parse((await page.evaluate(() => sessionStorage.getItem('passenger')))!).id)
  ).balance
  await page.getByRole('button', { name: m(lang, 'booking.payBalance') }).click()
  await expect(page).toHaveURL(/\/reservation\/success\?reservationId=\d+/)
  await expect(page.getByTestId('ticket-pnr')).toHaveText(/^[A-Z0-9]{10}$/)
  const total = Number((await page.getByTestId('ticket-total').innerText()).replace(/\D/g, ''))
  const balanceAfter = (
    await api<{ balance: number }>(page, '/profile/' + JSON.parse((await page.evaluate(() => sessionStorage.getItem('passenger')))!).id)
  ).balance
  expect(balanceBefore - balanceAfter).toBe(total)
  expect(await seatStatuses(request, trip.tripId, seats)).toEqual([1])
  await expectNoAxeViolations(page, 'success after balance')
})

test('insufficient balance is explained and the card is still offered', async ({ page, request }) => {
  const lang: Lang = 'bn'
  const { trip, date } = await tripFor(request, 5, 1)
  const mobile = await createPassenger(request)
  await setLanguage(page, lang)
  await bookOneSeat(page, lang, mobile, trip, date)
  await page.getByRole('button', { name: m(lang, 'booking.payBalance') }).click()
  await expect(page.getByText(mx(lang, 'booking.insufficientBalance'))).toBeVisible()
  await expect(page.getByRole('alert').filter({ hasText: m(lang, 'error.INSUFFICIENT_BALANCE') })).toBeVisible()
  const card = panel(page).getByRole('button', { name: mx(lang, 'booking.payCard') })
  await expect(card).toBeEnabled()
  await expect(card).not.toHaveAttribute('aria-disabled', 'true')
  await expectNoAxeViolations(page, 'bn insufficient balance')
  await card.click()
  await expect(page).toHaveURL(/\/sandbox\/gateway\//)
})

test('double click on pay opens one payment; back from the gateway pays the same one', async ({ page, request }) => {
  const lang: Lang = 'en'
  const { trip, date } = await tripFor(request, 6, 0)
  const mobile = await createPassenger(request)
  await bookOneSeat(page, lang, mobile, trip, date)
  const payments: string[] = []
  page.on('request', (r) => {
    if (r.url().endsWith('/api/reservation/payment')) payments.push(r.url())
  })
  await page.getByRole('button', { name: /by card/ }).dblclick()
  await expect(page).toHaveURL(/\/sandbox\/gateway\//)
  const first = page.url()
  expect(payments.length).toBe(1)

  // back to the booking (reload): the booking is picked up, not booked again, and the same payment opens
  await page.goto(reservationUrl(trip, date))
  await expect(panel(page).getByRole('heading', { name: m(lang, 'booking.bookedHeading') })).toBeVisible()
  await page.getByRole('button', { name: /by card/ }).click()
  await expect(page).toHaveURL(first)
  const list = await request.get('/dev/outbox')
  expect(list.ok()).toBe(true)
  await page.getByRole('button', { name: 'Approve payment' }).click()
  await expect(page.getByTestId('ticket-pnr')).toBeVisible()
})

test('signed out at the gateway, the tab that paid still shows its ticket; the same link elsewhere shows the status alone', async ({
  page,
  browser,
  request,
}) => {
  const lang: Lang = 'en'
  const { trip, date } = await tripFor(request, 9, 0)
  const mobile = await createPassenger(request)
  await bookOneSeat(page, lang, mobile, trip, date)
  await page.getByRole('button', { name: /by card/ }).click()
  await expect(page).toHaveURL(/\/sandbox\/gateway\//)
  // the session ends while the passenger is at the gateway: only this tab's result token is left
  await page.evaluate(() => {
    for (const s of [sessionStorage, localStorage]) for (const k of ['token', 'passenger']) s.removeItem(k)
  })
  await page.getByRole('button', { name: 'Approve payment' }).click()
  await expect(page).toHaveURL(/\/reservation\/success\?paymentId=/)
  await expect(page.getByTestId('ticket-pnr')).toHaveText(/^[A-Z0-9]{10}$/)
  await expect(page.getByRole('banner').getByRole('link', { name: m(lang, 'nav.login') })).toBeVisible()

  // the payment link from the history, in another browser: paid, but no ticket, PNR or PIN
  const elsewhere = await browser.newContext()
  const other = await elsewhere.newPage()
  await other.goto(page.url())
  await expect(other.getByText(m(lang, 'payment.wasApproved'))).toBeVisible()
  await expect(other.getByTestId('ticket-pnr')).toHaveCount(0)
  await elsewhere.close()
})

test('the booking ends when its time runs out', async ({ page, request }) => {
  const lang: Lang = 'en'
  const { trip, date } = await tripFor(request, 6, 1)
  const mobile = await createPassenger(request)
  // only the browser's clock moves: the live seat map, silent for that long, would reload the seats with the server's own hold times
  await withoutLiveSeatMap(page)
  await page.clock.install()
  await bookOneSeat(page, lang, mobile, trip, date)
  await expect(panel(page).getByRole('button', { name: m(lang, 'booking.extend') })).toBeVisible()
  await panel(page)
    .getByRole('button', { name: m(lang, 'booking.extend') })
    .click()
  await expect(page.getByRole('status').filter({ hasText: mx(lang, 'booking.announceExtended') })).toBeAttached()
  await page.clock.fastForward('31:00')
  await expect(panel(page).getByText(m(lang, 'booking.ended'))).toBeVisible()
  await expect(page.getByRole('button', { name: /by card/ })).toHaveCount(0)
  await expectNoAxeViolations(page, 'booking ended')
})

test('cancelling an unpaid booking releases its seats; the seats can be chosen again', async ({ page, request }) => {
  const lang: Lang = 'en'
  const { trip, date } = await tripFor(request, 7, 1)
  const mobile = await createPassenger(request)
  const [seat] = await bookOneSeat(page, lang, mobile, trip, date)
  expect(await seatStatuses(request, trip.tripId, [seat!])).toEqual([2])
  await panel(page)
    .getByRole('button', { name: m(lang, 'booking.cancelBooking') })
    .click()
  await expect(page.getByRole('status').filter({ hasText: m(lang, 'booking.announceCanceled') })).toBeAttached()
  await expect(panel(page).getByText(m(lang, 'booking.ended'))).toBeVisible()
  await expect(page.getByRole('button', { name: /by card/ })).toHaveCount(0)
  await expect(page.getByRole('button', { name: m(lang, 'booking.payBalance') })).toHaveCount(0)
  // the server agrees: the booking is cancelled and its seat is free for anyone
  const [mine] = await api<{ id: number; status: number; seats: { name: string }[] }[]>(page, '/reservations')
  expect([mine!.status, mine!.seats.map((s) => s.name)]).toEqual([5, [seat]])
  expect(await seatStatuses(request, trip.tripId, [seat!])).toEqual([0])
  await expectNoAxeViolations(page, 'booking cancelled')
  await panel(page)
    .getByRole('button', { name: m(lang, 'booking.startAgain') })
    .click()
  await expect(panel(page).getByRole('heading', { name: m(lang, 'booking.heading') })).toBeVisible()
  await expect(page.getByRole('grid').getByRole('button', { name: new RegExp(`^Seat ${seat},.*, available$`) })).toBeVisible()
})

test('Book pressed while the chosen seat is still being locked books that seat (the booking waits for the lock)', async ({ page, request }) => {
  const lang: Lang = 'en'
  const { trip, date } = await tripFor(request, 7, 3)
  const mobile = await createPassenger(request)
  // a slow network: the lock reaches the server only once Book has been pressed (the page reports the click)
  let pressed = () => {}
  const bookPressed = new Promise<void>((r) => {
    pressed = r
  })
  await page.exposeFunction('bookPressed', () => pressed())
  await page.addInitScript(
    (label) => {
      document.addEventListener(
        'click',
        (e) => {
          const b = (e.target as Element | null)?.closest?.('button')
          if (b?.textContent?.includes(label)) (window as unknown as { bookPressed(): void }).bookPressed()
        },
        true,
      )
    },
    m(lang, 'booking.book'),
  )
  await page.route('**/api/reservation/seatLock', async (route) => {
    await bookPressed
    await route.continue()
  })
  const [name] = await bookOneSeat(page, lang, mobile, trip, date)
  await expect(panel(page).getByText(m(lang, 'error.BOOKING_TIME_EXCEED'))).toHaveCount(0)
  const [mine] = await api<{ status: number; seats: { name: string }[] }[]>(page, '/reservations')
  expect([mine!.status, mine!.seats.map((s) => s.name)]).toEqual([2, [name]])
})

test('the remaining seat limit: with 3 seats booked and unpaid, the page says 2 more, and a third is refused with the number', async ({
  browser,
  page,
  request,
}) => {
  const lang: Lang = 'en'
  const { trip, date } = await tripFor(request, 7, 2)
  // 3 seats booked, not paid, from another device
  const elsewhere = await bookThroughApi(request, trip, { seats: 3 })
  await page.goto('/login')
  await login(page, lang, elsewhere.mobile, PASSWORD)
  await expect(page).toHaveURL(/\/$/)
  await page.goto(reservationUrl(trip, date))
  // the booking to pay is picked up, and the server's remaining limit reaches the page
  await expect(panel(page).getByRole('heading', { name: m(lang, 'booking.bookedHeading') })).toBeVisible()
  await expect(page.getByText('You can choose up to 2 seats.')).toBeVisible()

  // What the server answered above (remainingSeatLimit 2), on a seat page where seats can still be
  // chosen: the answer for a visitor with this one field as above.
  const other = await browser.newPage()
  await other.route('**/api/reservation/tripDetails', async (route) => {
    const res = await route.fetch()
    const body = (await res.json()) as { data: { remainingSeatLimit: number } }
    await route.fulfill({ response: res, json: { ...body, data: { ...body.data, remainingSeatLimit: 2 } } })
  })
  await other.goto(reservationUrl(trip, date))
  await expect(other.getByText('You can choose up to 2 seats.')).toBeVisible()
  for (let i = 0; i < 2; i++) await availableSeats(other).first().click()
  const third = availableSeats(other).first()
  const name = (await third.getAttribute('data-seat'))!
  await third.click()
  await expect(
    other.getByRole('region', { name: /notifications/i }).getByText('Seat limit exceeded. You can book 2 seats on this trip.'),
  ).toBeVisible()
  await expect(other.getByRole('grid').getByRole('button', { name: new RegExp(`^Seat ${name},.*, available$`) })).toHaveAttribute(
    'aria-pressed',
    'false',
  )
  await expect(other.getByTestId('selected-seats')).toHaveText(/^\S+, \S+$/)
  await other.close()
})

test('keyboard alone: seats, login, book, pay by card, ticket, cancel', async ({ page, request }) => {
  const { trip, date } = await tripFor(request, 7, 0)
  const mobile = await createPassenger(request)
  await page.goto(reservationUrl(trip, date))
  await expect(page.getByRole('grid').first()).toBeVisible()
  const press = async (l: Locator, key = 'Enter') => {
    await l.focus()
    await page.keyboard.press(key)
  }
  // the counters arrive just after the seat map: an arrow key on a select without them does nothing
  for (const label of ['Boarding counter', 'Dropping counter']) {
    const counter = page.getByLabel(label)
    await expect(counter.locator('option').nth(1)).toBeAttached()
    await counter.focus()
    await page.keyboard.press('ArrowDown')
    await expect(counter).not.toHaveValue('')
  }
  const seat = availableSeats(page).first()
  const name = (await seat.getAttribute('data-seat'))!
  await press(seat, 'Space')
  await expect(page.getByTestId('selected-seats')).toHaveText(name)
  await press(panel(page).getByRole('button', { name: 'Login to book' }))
  await page.getByLabel('Mobile no.').focus()
  await page.keyboard.type(mobile)
  await page.keyboard.press('Enter')
  await page.getByLabel('Password', { exact: true }).focus()
  await page.keyboard.type(PASSWORD)
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/reservation\?/)
  await expect(page.getByTestId('selected-seats')).toHaveText(name)
  // Enter in a field submits the booking form
  await page.getByLabel('Passenger name').focus()
  await page.keyboard.press('Enter')
  await expect(panel(page).getByRole('heading', { name: 'Pay for your booking' })).toBeVisible()
  await press(page.getByRole('button', { name: /by card/ }))
  await press(page.getByRole('button', { name: 'Approve payment' }))
  await expect(page).toHaveURL(/\/reservation\/success\?paymentId=/)
  const pnr = (await page.getByTestId('ticket-pnr').innerText()).trim()
  await press(page.getByRole('link', { name: 'View in Ticket Operation' }))
  await expect(page.getByTestId('ticket-pnr')).toHaveText(pnr)
  await press(page.getByRole('button', { name: 'Cancel ticket', exact: true }))
  await expect(page.getByRole('heading', { name: 'Cancel this ticket' })).toBeFocused()
  const otp = await latestCode(request, mobile, /./, await latestCode(request, mobile, /verification/i))
  await page.getByRole('textbox', { name: 'Digit 1 of 6' }).focus()
  await page.keyboard.type(otp)
  await press(page.getByRole('button', { name: 'Cancel ticket now' }))
  await expect(page.getByTestId('ticket-status')).toHaveText('Cancelled')
  expect(await seatStatuses(request, trip.tripId, [name])).toEqual([0])
})

// ---------- issue 24: the seat hold before booking is extended on the server ----------

/** What the server holds for this page's device on the trip: the hold's end (null: nothing held). */
function serverHold(page: Page, tripId: number): Promise<string | null> {
  return page.evaluate(async (id) => {
    const res = await fetch('/api/reservation/tripDetails', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Device-Id': sessionStorage.getItem('deviceId') ?? '' },
      body: JSON.stringify({ tripId: id, originCode: 'DHK', destinationCode: 'CTG', originBusStationId: null, destinationBusStationId: null }),
    })
    return ((await res.json()) as { data: { expirationTime: string | null } }).data.expirationTime
  }, tripId)
}

/** POST /reservation/extendSeatLock from the page (as another tab of the passenger would): status and body. */
function extendFromPage(page: Page, trip: { tripId: number; date: string; coachCode: string }, seats: string[], until: number) {
  return page.evaluate(
    async ({ trip, seats, until }) => {
      const res = await fetch('/api/reservation/extendSeatLock', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Device-Id': sessionStorage.getItem('deviceId') ?? '' },
        body: JSON.stringify({
          tripId: trip.tripId,
          tripDate: trip.date,
          coachCode: trip.coachCode,
          originCode: 'DHK',
          destinationCode: 'CTG',
          seatNames: seats,
          expirationTime: new Date(until).toISOString(),
        }),
      })
      return { status: res.status, body: (await res.json()) as { data?: { expirationTime: string }; error?: { code: string; reason: string } } }
    },
    { trip, seats, until },
  )
}

/** hh:mm AM in Dhaka, in `lang`'s digits (as the app writes a time). */
const dhakaTime = (lang: Lang, at: number) =>
  digits(lang, new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Dhaka', hour: '2-digit', minute: '2-digit', hour12: true }).format(at))

const MINUTE = 60_000

for (const [index, lang] of (['en', 'bn'] as const).entries()) {
  test(`${lang}: Keep my seats extends the hold on the server, twice and up to 30 minutes, then says the seats cannot be held longer`, async ({
    page,
    request,
  }) => {
    const { trip, date } = await tripFor(request, 22, index)
    // only the browser's clock moves: the live seat map, silent for that long, would reload the seats (with the server's real hold)
    await withoutLiveSeatMap(page)
    await setLanguage(page, lang)
    await page.clock.install()
    await page.goto(reservationUrl(trip, date))
    const seats = await chooseSeats(page, lang, 1)
    await expect.poll(() => serverHold(page, trip.tripId)).not.toBeNull()
    // and the page has the server's answer: a lock request on its way when the clock jumps is cut off by the 60 s time-out
    await expect(page.getByTestId('hold-clock')).toBeVisible()
    const won = Date.parse((await serverHold(page, trip.tripId))!) - 15 * MINUTE
    const keep = page.getByRole('button', { name: m(lang, 'seatChoice.keepSeats') })
    const heading = page.getByRole('heading', { name: m(lang, 'seatChoice.holdHeading') })
    const said = (id: string, at: number) => page.getByRole('status').filter({ hasText: m(lang, id, { until: dhakaTime(lang, at) }) })

    // 1:30 left: Keep my seats asks the server for 10 minutes more, and the page says until when
    await page.clock.fastForward('13:30')
    await keep.click()
    await expect.poll(async () => Date.parse((await serverHold(page, trip.tripId))!)).toBe(won + 25 * MINUTE)
    await expect(said('seatChoice.announceExtended', won + 25 * MINUTE)).toBeAttached()
    await expect(heading).toBeFocused()
    await expect(keep).toHaveCount(0)
    await expect(page.getByTestId('hold-clock')).toHaveText(new RegExp(`^${digits(lang, '1[01]')}:`))

    // again: up to the maximum, 30 minutes from when the hold was won
    await page.clock.fastForward('10:00')
    await keep.click()
    await expect.poll(async () => Date.parse((await serverHold(page, trip.tripId))!)).toBe(won + 30 * MINUTE)
    await expect(said('seatChoice.announceExtended', won + 30 * MINUTE)).toBeAttached()
    await expect(keep).toHaveCount(0)

    // the third warning offers no Keep my seats and says why; the server refuses a third extension with its reason
    await page.clock.fastForward('05:00')
    await expect(page.getByRole('status').filter({ hasText: m(lang, 'seatChoice.holdWarningFinal') })).toBeAttached()
    await expect(page.getByText(m(lang, 'seatChoice.holdWarningFinal'), { exact: true }).last()).toBeVisible()
    await expect(keep).toHaveCount(0)
    const refused = await extendFromPage(page, { tripId: trip.tripId, date, coachCode: trip.coachCode }, seats, won + 30 * MINUTE)
    expect(refused.status).toBe(409)
    expect(refused.body.error?.code).toBe('HOLD_EXTENSION_REFUSED')
    await expectNoAxeViolations(page, 'seat hold that cannot be extended')
  })
}

test('Keep my seats refused by the server (another tab used the extensions): the page says so and shows the real end', async ({ page, request }) => {
  const lang: Lang = 'en'
  const { trip, date } = await tripFor(request, 22, 2)
  await withoutLiveSeatMap(page)
  await page.clock.install()
  await page.goto(reservationUrl(trip, date))
  const seats = await chooseSeats(page, lang, 1)
  await expect.poll(() => serverHold(page, trip.tripId)).not.toBeNull()
  await expect(page.getByTestId('hold-clock')).toBeVisible()
  const won = Date.parse((await serverHold(page, trip.tripId))!) - 15 * MINUTE
  const keep = page.getByRole('button', { name: 'Keep my seats' })
  await page.clock.fastForward('13:30')
  await keep.click()
  await expect.poll(async () => Date.parse((await serverHold(page, trip.tripId))!)).toBe(won + 25 * MINUTE)
  // the passenger's other tab takes the last extension, to the maximum
  const other = await extendFromPage(page, { tripId: trip.tripId, date, coachCode: trip.coachCode }, seats, won + 30 * MINUTE)
  expect(other.status).toBe(200)
  await page.clock.fastForward('10:00')
  await keep.click()
  await expect(
    page.getByRole('status').filter({ hasText: `Your seats cannot be held any longer. They are held until ${dhakaTime(lang, won + 30 * MINUTE)}` }),
  ).toBeAttached()
  await expect(keep).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Seat hold' })).toBeFocused()
  // the clock runs to the server's end, not the page's old one
  await expect(page.getByTestId('hold-clock')).toHaveText(/^0[56]:/)
  expect(Date.parse((await serverHold(page, trip.tripId))!)).toBe(won + 30 * MINUTE)
})

test('booked: the hold warning offers only Extend booking time, once', async ({ page, request }) => {
  const lang: Lang = 'en'
  const { trip, date } = await tripFor(request, 22, 3)
  const mobile = await createPassenger(request)
  await withoutLiveSeatMap(page)
  await page.clock.install()
  await bookOneSeat(page, lang, mobile, trip, date)
  await page.clock.fastForward('13:30')
  await expect(page.getByRole('status').filter({ hasText: m(lang, 'seatChoice.holdWarningBooked') })).toBeAttached()
  await expect(page.getByRole('button', { name: m(lang, 'booking.extend') })).toHaveCount(1)
  await expect(page.getByRole('button', { name: m(lang, 'seatChoice.keepSeats') })).toHaveCount(0)
  await page.getByRole('button', { name: m(lang, 'booking.extend') }).click()
  await expect(page.getByRole('status').filter({ hasText: mx(lang, 'booking.announceExtended') })).toBeAttached()
})

for (const lang of ['en', 'bn'] as const) {
  test(`${lang}: bKash is offered beside card and balance; paid with it, the ticket and the cancel quote name the bKash wallet`, async ({
    page,
    request,
  }) => {
    const { trip, date } = await tripFor(request, 13, lang === 'en' ? 0 : 1)
    const mobile = await createPassenger(request)
    await setLanguage(page, lang)
    await bookOneSeat(page, lang, mobile, trip, date)
    for (const id of ['booking.payBkash', 'booking.payNagad', 'booking.payRocket', 'booking.payCard'])
      await expect(panel(page).getByRole('button', { name: mx(lang, id) })).toBeVisible()
    await expect(panel(page).getByRole('button', { name: m(lang, 'booking.payBalance') })).toBeVisible()
    await expectNoAxeViolations(page, `${lang} wallets offered`)
    const asked = page.waitForRequest((r) => r.url().endsWith('/api/reservation/payment'))
    await panel(page)
      .getByRole('button', { name: mx(lang, 'booking.payBkash') })
      .click()
    expect(JSON.parse((await asked).postData() ?? '{}').payWith).toBe('bkash')
    await expect(page).toHaveURL(/\/sandbox\/gateway\//)
    await page.getByRole('button', { name: 'Approve payment' }).click()
    await expect(page.getByTestId('ticket-pnr')).toBeVisible()
    await expect(page.getByText(payName(lang, 'bkash'))).toBeVisible()
    await expect(page.getByText(payName(lang, 'card'), { exact: true })).toHaveCount(0)
    await page.getByRole('link', { name: m(lang, 'payment.viewInTicketOperation') }).click()
    await page.getByRole('button', { name: m(lang, 'ticket.cancel'), exact: true }).click()
    await expect(page.getByRole('heading', { name: m(lang, 'ticket.cancelHeading') })).toBeFocused()
    await expect(page.getByText(m(lang, 'ticket.refundAmountCard', { place: payName(lang, 'bkash') }), { exact: true })).toBeVisible()
    await expectNoAxeViolations(page, `${lang} bKash cancel quote`)
  })
}
