/**
 * Round trips on the real server (issue 31 item 4), in en and bn: the search with a return date,
 * the outbound trip and its seats, then the return trip and its seats, one payment from the balance
 * and two tickets naming each other's PNR; and a round trip whose return seats are lost before payment
 * (its hold ended): the passenger is told, nothing is charged, and only with their choice is the outbound
 * paid alone; and a round trip paid once by card on SSLCommerz's page (the stand-in, server/test/sslcommerz-standin.ts,
 * on E2E_PORT + 3). A server of its own on PostgreSQL (E2E_PORT + 1), whose database the test reads and
 * ends the return's hold in; without PostgreSQL each test is reported skipped (a failure under CI).
 */
import { type APIRequestContext, type BrowserContext, expect, type Page, request as playwrightRequest, test } from '@playwright/test'
import pg from 'pg'
import { postgresMissing, startPostgres, type TestPostgres } from '../harness/postgres.ts'
import { skipLine, underCi } from '../server/test/skip.ts'
import { startStandIn, type StandIn } from '../server/test/sslcommerz-standin.ts'
import {
  apiToken,
  createPassenger,
  dhakaDate,
  expectNoAxeViolations,
  type Lang,
  m,
  mx,
  payName,
  signInContext,
  withoutLiveSeatMap,
} from './helpers.ts'
import { type OwnServer, startOwnServer } from './own-server.ts'
import { formatMoney } from '../src/lib/money.ts'

const port = Number(process.env.E2E_PORT ?? 8790) + 1
const missing = postgresMissing()
let pgServer: TestPostgres | undefined
let databaseUrl = ''
let app: OwnServer
let api: APIRequestContext
let ssl: StandIn

test.describe.configure({ mode: 'serial', timeout: 240_000 })

test.beforeAll(async () => {
  if (missing) return
  test.setTimeout(240_000)
  pgServer = await startPostgres()
  databaseUrl = await pgServer.createDatabase('round_trip')
  ssl = await startStandIn({ port: port + 2 })
  app = await startOwnServer(
    {
      DATABASE_URL: databaseUrl,
      PAYMENT_PROVIDER: 'sslcommerz',
      SSLCOMMERZ_STORE_ID: ssl.storeId,
      SSLCOMMERZ_STORE_PASSWORD: ssl.storePassword,
      SSLCOMMERZ_API_URL: ssl.url,
    },
    { port },
  )
  api = await playwrightRequest.newContext({ baseURL: app.url })
})

test.afterAll(async () => {
  await api?.dispose()
  await app?.stop()
  await ssl?.close()
  await pgServer?.stop()
})

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's fixtures from this pattern
test.beforeEach(({}, info) => {
  if (!missing) return
  if (underCi()) throw new Error(`${missing} (CI is set, so a skipped test is a failure)`)
  console.log(skipLine('e2e', `round-trip.spec.ts › ${info.titlePath.slice(1).join(' › ')}`, missing))
  test.skip(true, missing)
})

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return (await client.query(sql, params)).rows as T[]
  } finally {
    await client.end()
  }
}

const balanceOf = async (mobile: string) =>
  Number((await query<{ balance: string }>('SELECT balance FROM passengers WHERE mobile = $1', [mobile]))[0]!.balance)

/** A new passenger with `amount` Tk topped up by card on SSLCommerz's page (the stand-in; 0: none); answers the mobile. */
async function fundedPassenger(amount: number): Promise<string> {
  const mobile = await createPassenger(api)
  if (amount === 0) return mobile
  const token = await apiToken(api, mobile)
  const res = await api.post('/api/account/topUp', { data: { amount }, headers: { Authorization: `Bearer ${token}` } })
  expect(res.ok(), await res.text()).toBeTruthy()
  const key = new URL(((await res.json()) as { data: { redirectUrl: string } }).data.redirectUrl).searchParams.get('SESSIONKEY')
  const session = [...ssl.sessions.values()].find((x) => x.sessionKey === key)!
  ssl.pay(session.tranId)
  await ssl.sendIpn(session.tranId)
  await expect.poll(() => balanceOf(mobile)).toBe(amount)
  return mobile
}

async function signedInPage(browser: import('@playwright/test').Browser, lang: Lang, mobile: string): Promise<[BrowserContext, Page]> {
  const context = await browser.newContext({ baseURL: app.url })
  await context.addInitScript((l) => sessionStorage.setItem('language', l), lang)
  await signInContext(context, api, mobile)
  return [context, await context.newPage()]
}

/** Boarding and dropping counters and one free seat on the open seat page. */
async function chooseSeat(page: Page, lang: Lang): Promise<void> {
  await expect(page.getByRole('grid').first()).toBeVisible()
  await page.getByLabel(m(lang, 'seatChoice.boarding')).selectOption({ index: 1 })
  await page.getByLabel(m(lang, 'seatChoice.dropping')).selectOption({ index: 1 })
  const seat = page.getByRole('grid').locator('button[data-state="available"]:visible').first()
  const name = (await seat.getAttribute('data-seat'))!
  await seat.click()
  await expect(page.locator(`[data-seat="${name}"]:visible`)).toHaveAttribute('data-state', 'selected')
}

/** Boarding and dropping counters and one free seat on the open seat page, then Book. */
async function chooseSeatAndBook(page: Page, lang: Lang): Promise<void> {
  await chooseSeat(page, lang)
  await page
    .getByTestId('booking-panel')
    .getByRole('button', { name: m(lang, 'booking.book') })
    .click()
}

/**
 * From the search with a return date to the outbound's booking, then to the return trip's seat page:
 * answers the outbound booking's id. `days`: the outbound's travel date, days ahead (the return the day after).
 */
async function toReturnSeats(page: Page, lang: Lang, days: number): Promise<number> {
  const date = dhakaDate(days)
  const back = dhakaDate(days + 1)
  await page.goto(`/search?from=DHK&to=CTG&date=${date}`)
  const returnDate = page.getByLabel(m(lang, 'searchForm.returnDate'))
  await returnDate.fill(back)
  await page.getByRole('button', { name: m(lang, 'searchForm.submit') }).click()
  await expect(page).toHaveURL(new RegExp(`return=${back}`))
  await page
    .getByRole('button', { name: m(lang, 'trips.chooseSeats') })
    .first()
    .click()
  await expect(page).toHaveURL(new RegExp(`/reservation\\?.*return=${back}`))
  await chooseSeatAndBook(page, lang)

  // the outbound is booked: the way to the return trip
  const next = page.getByRole('link', { name: m(lang, 'roundTrip.chooseReturn') })
  await expect(next).toBeVisible()
  await expectNoAxeViolations(page, `${lang} outbound booked, return next`)
  await next.click()
  await expect(page).toHaveURL(new RegExp(`/search\\?from=CTG&to=DHK&date=${back}&outbound=\\d+`))
  const outboundId = Number(new URL(page.url()).searchParams.get('outbound'))
  await expect(page.getByTestId('return-leg-note')).toHaveText(m(lang, 'searchForm.returnLeg'))
  await page
    .getByRole('button', { name: m(lang, 'trips.chooseSeats') })
    .first()
    .click()
  return outboundId
}

/**
 * From the search with a return date to the outbound's booking with its return leg: answers the
 * outbound booking's id. `days`: the outbound's travel date, days ahead (the return the day after).
 */
async function bookRoundTrip(page: Page, lang: Lang, days: number): Promise<number> {
  const outboundId = await toReturnSeats(page, lang, days)
  await expect(page.getByTestId('round-trip')).toHaveText(m(lang, 'roundTrip.returnForm'))
  await chooseSeatAndBook(page, lang)

  // back on the outbound's page: both legs, one total
  await expect(page).toHaveURL(/\/reservation\?tripId=\d+&from=DHK&to=CTG/)
  await expect(page.getByTestId('round-trip')).toContainText(m(lang, 'roundTrip.heading'))
  return outboundId
}

/** The return booking of outbound booking `outboundId`, and what both legs cost together. */
async function legsOf(outboundId: number): Promise<{ ret: { id: number; total: number }; both: number }> {
  const [ret] = await query<{ id: number; total: number }>('SELECT id, total FROM reservations WHERE outbound_reservation_id = $1', [outboundId])
  const [out] = await query<{ total: number }>('SELECT total FROM reservations WHERE id = $1', [outboundId])
  return { ret: ret!, both: out!.total + ret!.total }
}

test('Keep my seats on the return trip’s seat page keeps the booked outbound too', async ({ browser }) => {
  const [context, page] = await signedInPage(browser, 'en', await fundedPassenger(0))
  // only the browser's clock moves: the live seat map, silent for that long, would reload the seats
  await withoutLiveSeatMap(page)
  await page.clock.install()
  const outboundId = await toReturnSeats(page, 'en', 9)
  await chooseSeat(page, 'en')
  // the server's answer, not only the seat drawn as chosen: a lock request still on its way when the clock jumps
  // is cut off by the 60 s time-out, and the page then holds nothing (CI once saw it so)
  await expect(page.getByTestId('hold-clock')).toBeVisible()
  const ends = async () =>
    (await query<{ expiration_time: Date }>('SELECT expiration_time FROM reservations WHERE id = $1', [outboundId]))[0]!.expiration_time.getTime()
  const before = await ends()
  // the last minutes of the return seats' hold: Keep my seats. The browser's clock goes 12 minutes on, then 30 s at a
  // time until the button shows (the hold's last 2 minutes): a fixed jump missed them when the steps before it were slow
  const keep = page.getByRole('button', { name: m('en', 'seatChoice.keepSeats') })
  await page.clock.fastForward('12:00')
  for (
    let i = 0;
    i < 8 &&
    !(await keep.waitFor({ timeout: 2000 }).then(
      () => true,
      () => false,
    ));
    i++
  )
    await page.clock.fastForward('00:30')
  await keep.click()
  await expect(page.getByRole('status').filter({ hasText: mx('en', 'seatChoice.announceExtended') })).toBeAttached()
  await expect.poll(ends, { message: 'the outbound booking is kept longer too' }).toBeGreaterThan(before + 5 * 60_000)
  await context.close()
})

for (const lang of ['en', 'bn'] as Lang[]) {
  test(`${lang}: a round trip paid once from the balance makes two tickets, each naming the other's PNR`, async ({ browser }) => {
    const mobile = await fundedPassenger(20_000)
    const [context, page] = await signedInPage(browser, lang, mobile)
    const outboundId = await bookRoundTrip(page, lang, lang === 'en' ? 3 : 5)
    const { ret, both } = await legsOf(outboundId)
    await expect(page.getByTestId('round-trip')).toContainText(m(lang, 'roundTrip.total', { total: formatMoney(both, lang) }))
    await expect(page.getByRole('button', { name: m(lang, 'booking.payBkash', { total: formatMoney(both, lang) }) })).toBeVisible()
    await expectNoAxeViolations(page, `${lang} round trip to pay`)

    await page.getByRole('button', { name: m(lang, 'booking.payBalance') }).click()
    await expect(page).toHaveURL(/\/reservation\/success/)
    const pnr = (await page.getByTestId('ticket-pnr').innerText()).trim()
    const returnPnr = (await page.getByTestId('round-trip-pnr').innerText()).trim()
    expect(returnPnr).not.toBe(pnr)
    await expect(page.getByText(m(lang, 'ticket.returnPnr'))).toBeVisible()
    await expectNoAxeViolations(page, `${lang} outbound ticket with its return`)
    expect(await balanceOf(mobile)).toBe(20_000 - both)
    const sold = await query<{ pnr: string }>('SELECT pnr FROM reservations WHERE id = ANY($1::int[]) AND status = 1 ORDER BY id', [
      [outboundId, ret.id],
    ])
    expect(sold.map((r) => r.pnr)).toEqual([pnr, returnPnr])

    // the return ticket names the outbound's PNR
    await page.goto(`/reservation/success?reservationId=${ret.id}`)
    await expect(page.getByTestId('ticket-pnr')).toHaveText(returnPnr)
    await expect(page.getByTestId('round-trip-pnr')).toHaveText(pnr)
    await expect(page.getByText(m(lang, 'ticket.outboundPnr'))).toBeVisible()
    await context.close()
  })

  test(`${lang}: the return seats lost before payment: told, nothing charged, the outbound paid alone only when chosen`, async ({ browser }) => {
    const mobile = await fundedPassenger(20_000)
    const [context, page] = await signedInPage(browser, lang, mobile)
    const outboundId = await bookRoundTrip(page, lang, lang === 'en' ? 4 : 6)
    // the return's hold ends (the passenger kept the outbound's seats longer)
    await query('UPDATE reservations SET expiration_time = $2 WHERE outbound_reservation_id = $1', [outboundId, new Date(Date.now() - 1000)])
    const [out] = await query<{ total: number }>('SELECT total FROM reservations WHERE id = $1', [outboundId])

    await page.getByRole('button', { name: m(lang, 'booking.payBalance') }).click()
    await expect(page.getByRole('alert').filter({ hasText: m(lang, 'error.RETURN_SEATS_LOST') })).toBeVisible()
    await expect(page.locator('#round-trip-lost')).toBeFocused()
    await expect(page.locator('#round-trip-lost')).toHaveText(m(lang, 'roundTrip.lost'))
    expect(await balanceOf(mobile)).toBe(20_000)
    await expectNoAxeViolations(page, `${lang} return seats lost`)

    await page.getByRole('button', { name: m(lang, 'roundTrip.payAlone', { total: formatMoney(out!.total, lang) }) }).click()
    await expect(page.locator('#round-trip-alone')).toBeFocused()
    expect(await balanceOf(mobile)).toBe(20_000)
    await page.getByRole('button', { name: m(lang, 'booking.payBalance') }).click()
    await expect(page).toHaveURL(/\/reservation\/success/)
    await expect(page.getByTestId('ticket-pnr')).toBeVisible()
    await expect(page.getByTestId('round-trip-pnr')).toHaveCount(0)
    expect(await balanceOf(mobile)).toBe(20_000 - out!.total)
    const legs = await query<{ status: number }>('SELECT status FROM reservations WHERE outbound_reservation_id = $1', [outboundId])
    expect(legs.map((r) => r.status)).not.toContain(1)
    await context.close()
  })

  test(`${lang}: a round trip paid once by card on SSLCommerz's page makes both tickets`, async ({ browser }) => {
    const mobile = await fundedPassenger(0)
    const [context, page] = await signedInPage(browser, lang, mobile)
    const outboundId = await bookRoundTrip(page, lang, lang === 'en' ? 7 : 8)
    const { ret, both } = await legsOf(outboundId)

    await page.getByRole('button', { name: m(lang, 'booking.payCard', { total: formatMoney(both, lang) }) }).click()
    await expect(page).toHaveURL(new RegExp(`^${ssl.url}/gwprocess/v4/gw\\.php`))
    const session = [...ssl.sessions.values()].at(-1)!
    expect(Number(session.fields.total_amount), 'one payment of both legs').toBe(both)
    await page.getByRole('button', { name: 'Pay with card' }).click()
    await page.getByRole('button', { name: 'Return to the merchant' }).click()

    await expect(page).toHaveURL(/\/reservation\/success\?paymentId=/)
    const pnr = (await page.getByTestId('ticket-pnr').innerText()).trim()
    const returnPnr = (await page.getByTestId('round-trip-pnr').innerText()).trim()
    expect(returnPnr).not.toBe(pnr)
    await expect(page.getByText(m(lang, 'ticket.returnPnr'))).toBeVisible()
    await expect(page.getByText(payName(lang, 'card'))).toBeVisible()
    await expectNoAxeViolations(page, `${lang} round trip paid by card`)
    const sold = await query<{ pnr: string }>('SELECT pnr FROM reservations WHERE id = ANY($1::int[]) AND status = 1 ORDER BY id', [
      [outboundId, ret.id],
    ])
    expect(sold.map((r) => r.pnr)).toEqual([pnr, returnPnr])
    expect(await balanceOf(mobile), 'nothing taken from the balance').toBe(0)

    // the return ticket, paid by the same card payment
    await page.goto(`/reservation/success?reservationId=${ret.id}`)
    await expect(page.getByTestId('ticket-pnr')).toHaveText(returnPnr)
    await expect(page.getByTestId('round-trip-pnr')).toHaveText(pnr)
    await expect(page.getByText(payName(lang, 'card'))).toBeVisible()
    await context.close()
  })
}
