/**
 * Mobile wallets through SSLCommerz on the real server (issue 31, item 1): a server of its own
 * with PAYMENT_PROVIDER=sslcommerz against the SSLCommerz stand-in (server/test/sslcommerz-standin.ts),
 * on free ports (E2E_WALLETS_PORT and the next one when set). The passenger chooses bKash on the booking page, lands
 * on the stand-in's page narrowed to bKash (multi_card_name=bkash), pays there and comes back; the
 * ticket says bKash, and the cancel quote says the refund goes to the bKash wallet, in en and bn.
 */
import { type APIRequestContext, expect, request as playwrightRequest, test } from '@playwright/test'
import { startStandIn, type StandIn } from '../server/test/sslcommerz-standin.ts'
import { bookThroughApi, expectNoAxeViolations, type Lang, m, mx, payName, reservationUrl, signInContext, tripFor } from './helpers.ts'
import { type OwnServer, startOwnServer } from './own-server.ts'

const SERVER_PORT = process.env.E2E_WALLETS_PORT ? Number(process.env.E2E_WALLETS_PORT) : undefined
let ssl: StandIn
let app: OwnServer
let api: APIRequestContext

test.describe.configure({ mode: 'serial', timeout: 240_000 })

test.beforeAll(async () => {
  test.setTimeout(240_000)
  ssl = await startStandIn({ port: SERVER_PORT === undefined ? 0 : SERVER_PORT + 1 })
  app = await startOwnServer(
    {
      PAYMENT_PROVIDER: 'sslcommerz',
      SSLCOMMERZ_STORE_ID: ssl.storeId,
      SSLCOMMERZ_STORE_PASSWORD: ssl.storePassword,
      SSLCOMMERZ_API_URL: ssl.url,
    },
    { port: SERVER_PORT },
  )
  api = await playwrightRequest.newContext({ baseURL: app.url })
})

test.afterAll(async () => {
  await api?.dispose()
  await app?.stop()
  await ssl?.close()
})

for (const lang of ['en', 'bn'] as Lang[]) {
  test(`${lang}: bKash chosen, paid on SSLCommerz's bKash page; the ticket and the cancel quote name the bKash wallet`, async ({ browser }) => {
    const { trip, date } = await tripFor(api, 3, lang === 'en' ? 0 : 1)
    const booked = await bookThroughApi(api, trip)
    const context = await browser.newContext({ baseURL: app.url })
    await context.addInitScript((l) => sessionStorage.setItem('language', l), lang)
    await signInContext(context, api, booked.mobile)
    const page = await context.newPage()
    await page.goto(reservationUrl(trip, date))
    const bkash = page.getByRole('button', { name: mx(lang, 'booking.payBkash') })
    await expect(bkash).toBeVisible()
    await bkash.click()

    // SSLCommerz's page, narrowed to bKash by multi_card_name
    await expect(page).toHaveURL(new RegExp(`^${ssl.url}/gwprocess/v4/gw\\.php`))
    const session = [...ssl.sessions.values()].at(-1)!
    expect(session.fields.multi_card_name).toBe('bkash')
    await expect(page.getByRole('button', { name: /^Pay with/ })).toHaveText(['Pay with bKash'])
    await page.getByRole('button', { name: 'Pay with bKash' }).click()
    await page.getByRole('button', { name: 'Return to the merchant' }).click()

    await expect(page).toHaveURL(/\/reservation\/success\?paymentId=/)
    await expect(page.getByTestId('ticket-pnr')).toBeVisible()
    await expect(page.getByText(payName(lang, 'bkash'))).toBeVisible()
    await expectNoAxeViolations(page, `${lang} bKash ticket`)

    await page.getByRole('link', { name: m(lang, 'payment.viewInTicketOperation') }).click()
    await page.getByRole('button', { name: m(lang, 'ticket.cancel'), exact: true }).click()
    await expect(page.getByRole('heading', { name: m(lang, 'ticket.cancelHeading') })).toBeFocused()
    await expect(page.getByText(m(lang, 'ticket.refundAmountCard', { place: payName(lang, 'bkash') }), { exact: true })).toBeVisible()
    await expectNoAxeViolations(page, `${lang} bKash cancel quote`)
    await context.close()
  })
}
