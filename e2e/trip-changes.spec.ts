/**
 * Issue 22 §3, the passenger's side of a trip the operator cancels or moves (`npm run trip`,
 * server/commands/trip-command.ts, run as the operator runs it, beside the server on the same
 * PostgreSQL): a moved ticket says "Moved to coach …" on its page and in My tickets (en and bn,
 * codes marked English), and can be cancelled for the whole fare; a ticket of a cancelled trip
 * says the operator's reason and the refund; the seat page of a trip cancelled while a passenger
 * holds seats says the trip is cancelled, with the way back to search, and the holds are gone.
 * Every view passes axe. Without PostgreSQL each test is reported skipped (a failure under CI).
 */
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test'
import pg from 'pg'
import type { Reservation } from '../contract/schemas.ts'
import { formatDateTime } from '../src/lib/dates.ts'
import { formatMoney } from '../src/lib/money.ts'
import { bookThroughApi, dhakaDate, expectNoAxeViolations, latestCode, m, pageHeading, payName, signInContext } from './helpers.ts'
import { operatorSite } from './operator-site.ts'
import { serveScreenReader, spoken, startScreenReader } from './screen-reader.ts'

const site = operatorSite('trip_changes', 'trip-changes.spec.ts')
const runTrip = (args: string[]) => site.runTrip(args)

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: site.databaseUrl })
  await client.connect()
  try {
    return (await client.query(sql, params)).rows as T[]
  } finally {
    await client.end()
  }
}

const used = new Set<number>()

/** A Dhaka–Chattogram trip 5 days ahead that nobody else here used, with another coach on its route and day open for sale. */
async function tripWithSibling(): Promise<{ tripId: number; date: string; sibling: string }> {
  const date = dhakaDate(5)
  const rows = await query<{ id: number; sibling: string }>(
    `SELECT t.id, (SELECT s.coach_code FROM trips s WHERE s.route_id = t.route_id AND s.trip_date = t.trip_date AND s.id <> t.id AND s.status = 'OPEN'
                   ORDER BY s.departure_at LIMIT 1) AS sibling
       FROM trips t JOIN routes r ON r.id = t.route_id
      WHERE r.origin_code = 'DHK' AND r.destination_code = 'CTG' AND t.trip_date = $1 AND t.status = 'OPEN'
      ORDER BY t.departure_at`,
    [date],
  )
  const row = rows.find((r) => r.sibling && !used.has(r.id))
  expect(row, `a trip on ${date} with another coach on its route`).toBeTruthy()
  used.add(row!.id)
  return { tripId: row!.id, date, sibling: row!.sibling }
}

async function reservation(token: string, id: number): Promise<Reservation> {
  const res = await site.api.get(`/api/reservation/details/${id}`, { headers: { Authorization: `Bearer ${token}` } })
  expect(res.ok(), await res.text()).toBe(true)
  return ((await res.json()) as { data: Reservation }).data
}

async function signedInPage(browser: Browser, mobile: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: site.app.url })
  await signInContext(context, site.api, mobile)
  return { context, page: await context.newPage() }
}

/** Opens `url` in `lang` (the language the app keeps in session storage). */
async function open(page: Page, url: string, lang: 'en' | 'bn'): Promise<void> {
  await page.addInitScript((l) => sessionStorage.setItem('language', l), lang)
  await page.goto(url)
  await pageHeading(page)
  await expect(page.locator('html')).toHaveAttribute('lang', lang)
}

test('a moved ticket says where it went, on its page and in My tickets (en, bn), and cancels for the whole fare', async ({ browser }) => {
  const { tripId, sibling } = await tripWithSibling()
  const bought = await bookThroughApi(site.api, { tripId }, { seats: 2, pay: true })
  const before = await reservation(bought.token, bought.reservationId)
  await runTrip(['move', String(tripId), '--to-coach', sibling])
  const r = await reservation(bought.token, bought.reservationId)
  expect([r.status, r.coach.code, r.pnr, r.movedFrom?.coachCode, r.seats.length]).toEqual([10, sibling, before.pnr, before.coach.code, 2])
  const seats = r.seats.map((s) => s.name).join(', ')

  const { context, page } = await signedInPage(browser, bought.mobile)
  for (const lang of ['en', 'bn'] as const) {
    const moved = m(lang, 'ticketChange.moved', { coach: sibling, seats, departure: formatDateTime(r.departureTime, lang) })
    await open(page, `/ticket-operation?reservationId=${r.id}`, lang)
    const note = page.getByTestId('ticket').getByTestId('ticket-change')
    await expect(note).toContainText(moved)
    await expect(note).toContainText(
      m(lang, 'ticketChange.movedFrom', { coach: before.coach.code, departure: formatDateTime(before.departureTime, lang) }),
    )
    await expect(note).toContainText(m(lang, 'ticketChange.movedMayCancel'))
    // codes read as English in the Bengali sentence
    await expect(note.locator('span[lang="en"]', { hasText: sibling }).first()).toBeVisible()
    await expect(note.locator('span[lang="en"]', { hasText: seats })).toBeVisible()
    await expect(page.getByTestId('ticket-status')).toHaveText(m(lang, 'profile.statusTripMigrated'))
    await expectNoAxeViolations(page, `${lang} moved ticket`)

    await open(page, '/profile', lang)
    const line = page.getByTestId('ticket-change')
    await expect(line).toContainText(moved)
    await expect(line.locator('span[lang="en"]', { hasText: seats })).toBeVisible()
    await expectNoAxeViolations(page, `${lang} My tickets with a moved ticket`)
  }

  // the passenger does not take the new coach: cancel, no charge, the whole fare back
  await open(page, `/ticket-operation?reservationId=${r.id}`, 'en')
  await page.getByRole('button', { name: m('en', 'ticket.cancel'), exact: true }).click()
  await expect(page.getByRole('heading', { name: m('en', 'ticket.cancelHeading') })).toBeFocused()
  await expect(page.getByTestId('refund-amount')).toHaveText(formatMoney(r.fare.total, 'en'))
  const otp = await latestCode(site.api, bought.mobile, /cancel/i)
  await page.getByRole('textbox', { name: m('en', 'login.codeDigit', { index: 1, count: 6 }) }).click()
  await page.keyboard.type(otp)
  await page.getByRole('button', { name: m('en', 'ticket.confirmCancel') }).click()
  await expect(page.getByTestId('ticket-status')).toHaveText(m('en', 'profile.statusTripMigratedCanceled'))
  await expect(page.getByTestId('ticket-change')).toHaveText(
    m('en', 'ticketChange.moveRefusedCard', { amount: formatMoney(r.fare.total, 'en'), place: payName('en', 'card') }),
  )
  await expectNoAxeViolations(page, 'move refused')
  expect((await reservation(bought.token, r.id)).status).toBe(14)
  await context.close()
})

test('a ticket of a trip the operator cancelled says why, and the refund (en, bn), on its page and in My tickets', async ({ browser }) => {
  const { tripId } = await tripWithSibling()
  const bought = await bookThroughApi(site.api, { tripId }, { seats: 2, pay: true })
  const reason = 'Hartal on the Dhaka-Chattogram highway'
  const reasonBn = 'ঢাকা-চট্টগ্রাম মহাসড়কে হরতাল'
  await runTrip(['cancel', String(tripId), '--reason', reason, '--reason-bn', reasonBn])
  const r = await reservation(bought.token, bought.reservationId)
  expect([r.status, r.cancelReason, r.operatorReason, r.operatorReasonBn, r.refundAmount]).toEqual([
    5,
    'TRIP_CANCELED',
    reason,
    reasonBn,
    r.fare.total,
  ])

  const { context, page } = await signedInPage(browser, bought.mobile)
  for (const lang of ['en', 'bn'] as const) {
    // paid by card: the whole fare goes back to the card, and the ticket says how far that refund has got
    expect(r.refund?.to).toBe('CARD')
    // the operator's words in the page's language
    const words = lang === 'bn' ? reasonBn : reason
    const said = m(lang, 'ticketChange.tripCanceledRefundCard', {
      reason: words,
      amount: formatMoney(r.fare.total, lang),
      place: payName(lang, 'card'),
    })
    await open(page, `/ticket-operation?reservationId=${r.id}`, lang)
    await expect(page.getByTestId('ticket').getByTestId('ticket-change')).toHaveText(said)
    await expect(page.getByTestId('ticket-status')).toHaveText(m(lang, 'profile.statusCanceled'))
    await expect(page.getByTestId('ticket-change').locator(`span[lang="${lang}"]`, { hasText: words })).toBeVisible()
    // the card refund's state (processing, refunded or failed: the text before the colon is the same)
    const refundLine = m(lang, 'ticket.refundCardPROCESSING', { refund: formatMoney(r.fare.total, lang), place: payName(lang, 'card') }).split(
      ':',
    )[0]!
    await expect(page.getByTestId('ticket-refund')).toContainText(refundLine)
    await expectNoAxeViolations(page, `${lang} trip cancelled`)

    await open(page, '/profile', lang)
    await expect(page.getByTestId('ticket-change')).toHaveText(said)
    await expectNoAxeViolations(page, `${lang} My tickets with a cancelled trip`)
  }
  // the success page, opened again later: the ticket with its status and the operator's note, not "payment pending"
  await open(page, `/reservation/success?paymentId=${bought.paymentId}`, 'en')
  await expect(page.getByTestId('ticket-status')).toHaveText(m('en', 'profile.statusCanceled'))
  await expect(page.getByTestId('ticket').getByTestId('ticket-change')).toHaveText(
    m('en', 'ticketChange.tripCanceledRefundCard', { reason, amount: formatMoney(r.fare.total, 'en'), place: payName('en', 'card') }),
  )
  await expectNoAxeViolations(page, 'success page of a cancelled trip')
  await context.close()
})

test('the seat page of a trip the operator cancels while a passenger holds seats says so, releases them, and leads back to search', async ({
  browser,
}) => {
  const { tripId, date } = await tripWithSibling()
  const context = await browser.newContext({ baseURL: site.app.url })
  const page = await context.newPage()
  await serveScreenReader(page)
  await page.goto(`/reservation?tripId=${tripId}&from=DHK&to=CTG&date=${date}`)
  await pageHeading(page)
  await startScreenReader(page)
  const seat = page.getByRole('grid').first().locator('button[data-state="available"]:visible').first()
  const name = await seat.getAttribute('data-seat')
  const locked = page.waitForResponse((res) => res.url().endsWith('/api/reservation/seatLock'))
  await seat.click()
  expect((await locked).ok()).toBe(true)
  await expect(page.locator(`[data-seat="${name}"]`)).toHaveAttribute('aria-pressed', 'true')
  expect(await query('SELECT 1 FROM seat_locks WHERE trip_id = $1', [tripId])).toHaveLength(1)

  await runTrip(['cancel', String(tripId), '--reason', 'Flood on the road'])

  const heading = page.getByRole('heading', { name: m('en', 'seatChoice.tripCanceledTitle') })
  await expect(heading).toBeVisible()
  await expect(heading).toBeFocused()
  await expect(page.getByText(m('en', 'seatChoice.tripCanceled'))).toBeVisible()
  // heard, not only shown: that the held seats were released (a live region), besides the focused heading (issue 31 item 6)
  await expect.poll(() => spoken(page)).toContain(`polite: ${m('en', 'seatChoice.tripCanceled')}`)
  // nothing left to choose, no dialog over it, no hold ticking
  await expect(page.getByRole('grid')).toHaveCount(0)
  await expect(page.getByRole('alertdialog')).toHaveCount(0)
  await expect(page.getByRole('dialog')).toHaveCount(0)
  expect(await query('SELECT 1 FROM seat_locks WHERE trip_id = $1', [tripId])).toHaveLength(0)
  await expectNoAxeViolations(page, 'seat page of a cancelled trip')
  await page.getByRole('link', { name: m('en', 'seatChoice.backToSearch') }).click()
  await expect(page).toHaveURL(new RegExp(`/search\\?from=DHK&to=CTG&date=${date}$`))
  await context.close()
})
