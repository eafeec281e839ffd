/**
 * Issue 14: repeat visits and offline tickets. With the app's service worker
 * (blocked in the other specs), on a server of its own whose copy of dist/ the
 * last tests deploy into: a repeat visit with the network cut gets the shell and
 * a saved ticket, a passenger's tickets open offline from My tickets and the
 * success page and are gone after logout, the offline ticket passes axe in en
 * and bn, a new build is announced with Reload (or taken silently when the page
 * already is the new build), and `serviceWorker: false` in config.js removes the
 * worker. The browser runs outside Bangladesh: times shown are still Dhaka's.
 */
import fs from 'node:fs'
import path from 'node:path'
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test'
import type { Reservation } from '../contract/schemas.ts'
import { writeServiceWorker } from '../scripts/service-worker.mjs'
import { formatDateTime } from '../src/lib/dates.ts'
import type { SavedTicket } from '../src/stores/saved-tickets.ts'
import { bookThroughApi, dhakaDate, expectNoAxeViolations, latestCode, messages, pageHeading, PASSWORD } from './helpers.ts'
import { type OwnServer, startOwnServer } from './own-server.ts'

const { en } = messages

const test = base.extend<object, { app: OwnServer }>({
  app: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const app = await startOwnServer()
      await use(app)
      await app.stop()
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ app }, use) => use(app.url),
})

// one server, one worker: the last test deploys into the server's dist/
test.describe.configure({ mode: 'serial', timeout: 180_000 })
// a browser outside Bangladesh: the saved copy's time is still Dhaka's
test.use({ serviceWorkers: 'allow', timezoneId: 'America/New_York' })

let tripIndex = 0
/** A trip of its own for each booking, Dhaka to Chattogram in 5 days. */
async function nextTrip(request: APIRequestContext): Promise<{ tripId: number }> {
  const res = await request.post('/api/reservation/tripSearch', { data: { originCode: 'DHK', destinationCode: 'CTG', tripDate: dhakaDate(5) } })
  const trips = ((await res.json()) as { data: { tripId: number; availableSeats: number }[] }).data.filter((t) => t.availableSeats > 3)
  return trips[tripIndex++ % trips.length]!
}

/** A ticket bought (card, sandbox) by a new passenger: its PNR, PIN and how to reach it. */
async function boughtTicket(request: APIRequestContext) {
  const bought = await bookThroughApi(request, await nextTrip(request), { pay: true })
  const res = await request.get(`/api/reservation/details/${bought.reservationId}`, { headers: { Authorization: `Bearer ${bought.token}` } })
  const r = ((await res.json()) as { data: Reservation }).data
  return {
    ...bought,
    pnr: r.pnr!,
    pin: r.pin!,
    trip: `${r.origin.name} to ${r.destination.name}`,
    counters: [r.boardingStation.name, r.droppingStation.name],
  }
}

/** Waits until the service worker controls the page (the first visit installs it and takes the page over). */
async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 30_000 })
}

/** The version the page was built as (its HTML's meta). */
/** The HTML shells of a built app (every route's and app.html). */
const shellsOf = (dist: string) =>
  fs
    .readdirSync(dist, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.html') && !f.startsWith('assets'))
const pageVersion = (page: Page) => page.locator('meta[name="app-version"]').getAttribute('content')

/** Looks a ticket up by PNR and PIN on /ticket-operation (as a visitor). */
async function lookUp(page: Page, pnr: string, pin: string): Promise<void> {
  await page.goto('/ticket-operation')
  await pageHeading(page)
  await page.getByRole('textbox', { name: en['ticket.pnr'], exact: true }).fill(pnr)
  await page.getByRole('textbox', { name: en['ticket.pin'], exact: true }).fill(pin)
  await page.getByRole('button', { name: en['ticket.find'] }).click()
  await expect(page.getByTestId('ticket-pnr')).toHaveText(pnr)
  // the ticket moves to its own address
  await expect(page).toHaveURL(new RegExp(`/ticket-operation\\?pnr=${pnr}$`))
}

/** Signs `mobile` in for this browser tab the way the login page does (session storage). */
async function signIn(page: Page, request: APIRequestContext, mobile: string): Promise<void> {
  const res = await request.post('/api/checkPassenger', { data: { mobile, password: PASSWORD } })
  const session = ((await res.json()) as { data: { token: string; passenger: unknown; company: unknown } }).data
  await page.evaluate((s) => {
    sessionStorage.setItem('token', s.token)
    sessionStorage.setItem('passenger', JSON.stringify(s.passenger))
    sessionStorage.setItem('company', JSON.stringify(s.company))
  }, session)
}

/** Every response the page got from the network, not from the service worker, other than the API's. */
function networkResponses(page: Page): string[] {
  const seen: string[] = []
  page.on('response', (r) => {
    if (!r.fromServiceWorker() && !new URL(r.url()).pathname.startsWith('/api/')) seen.push(r.url())
  })
  page.on('requestfailed', (r) => {
    if (!new URL(r.url()).pathname.startsWith('/api/')) seen.push(`${r.url()} (failed)`)
  })
  return seen
}

/** "Saved copy from <time>": the time the copy was kept, on a wall clock in Dhaka (the browser runs elsewhere). */
async function savedCopyText(page: Page, pnr: string, lang: 'en' | 'bn'): Promise<string> {
  const shelf = await page.evaluate(() => JSON.parse(localStorage.getItem('savedTickets') ?? '{}') as Record<string, SavedTicket[]>)
  const copy = Object.values(shelf)
    .flat()
    .find((c) => c.reservation.pnr === pnr)
  expect(copy, `a saved copy of ${pnr}`).toBeTruthy()
  return messages[lang]['ticket.savedCopy']!.replace('{time}', formatDateTime(copy!.savedAt, lang))
}

/** The saved copy on screen: PNR, PIN, QR code, trip, seats, counters, and when it was saved. */
async function expectSavedCopy(page: Page, t: { pnr: string; pin: string; seats: string[]; trip: string; counters: string[] }): Promise<void> {
  const ticket = page.getByTestId('ticket')
  await expect(ticket.getByTestId('ticket-pnr')).toHaveText(t.pnr)
  await expect(ticket.getByTestId('ticket-pin')).toHaveText(t.pin)
  await expect(ticket.getByRole('img', { name: new RegExp(t.pnr) })).toBeVisible()
  await expect(ticket.getByTestId('ticket-seats')).toHaveText(t.seats.join(', '))
  await expect(ticket).toContainText(t.trip)
  for (const counter of t.counters) await expect(ticket).toContainText(counter)
  await expect(ticket.getByTestId('ticket-saved-copy')).toContainText(await savedCopyText(page, t.pnr, 'en'))
}

test('a repeat visit with the network cut serves the shell and a saved ticket; a cancellation shows after the next look-up', async ({
  page,
  context,
  request,
}) => {
  const t = await boughtTicket(request)
  await lookUp(page, t.pnr, t.pin)
  await controlled(page)
  await expect(page.getByTestId('ticket-saved-copy')).toHaveCount(0)

  // the network is cut: a new visit to the ticket's address, and to the home page
  await context.setOffline(true)
  const again = await context.newPage()
  const fromNetwork = networkResponses(again)
  await again.goto(`/ticket-operation?pnr=${t.pnr}`)
  await pageHeading(again)
  await expectSavedCopy(again, t)
  await expect(again.getByRole('alert').filter({ hasText: en['error.NO_INTERNET_CONNECTION'] })).toBeVisible()
  // a saved copy offers no server actions
  await expect(again.getByRole('button', { name: en['ticket.cancel'], exact: true })).toHaveCount(0)
  await again.goto('/')
  await expect(await pageHeading(again)).toBeVisible()
  expect(fromNetwork).toEqual([])

  // cancelled meanwhile (from another device): the next online look-up brings it, and the saved copy keeps it
  await context.setOffline(false)
  const init = await request.get(`/api/reservation/cancelInitialize/${t.pnr}/${t.pin}`)
  expect(init.ok()).toBe(true)
  const otp = await latestCode(request, t.mobile, /cancel/i)
  expect((await request.get(`/api/reservation/cancel/${t.pnr}/${t.pin}/${otp}`)).ok()).toBe(true)
  await again.goto(`/ticket-operation?pnr=${t.pnr}`)
  await expect(again.getByTestId('ticket-status')).toHaveText(en['profile.statusCanceled']!)
  await expect(again.getByTestId('ticket-saved-copy')).toHaveCount(0)
  await context.setOffline(true)
  await again.reload()
  await expect(again.getByTestId('ticket-saved-copy')).toBeVisible()
  await expect(again.getByTestId('ticket-status')).toHaveText(en['profile.statusCanceled']!)
})

test('a passenger’s tickets open offline from My tickets and the success page; logging out removes them from the device', async ({
  page,
  context,
  request,
}) => {
  const t = await boughtTicket(request)
  await page.goto('/faq')
  await signIn(page, request, t.mobile)
  await page.goto(`/reservation/success?paymentId=${t.paymentId}`)
  await expect(page.getByTestId('ticket-pnr')).toHaveText(t.pnr)
  await controlled(page)
  await page.goto('/profile')
  const myTickets = page.getByRole('region', { name: en['profile.ticketsTitle'] })
  await expect(myTickets.getByRole('link', { name: /Chattogram/ })).toHaveAttribute('href', `/ticket-operation?pnr=${t.pnr}`)

  await context.setOffline(true)
  await page.reload()
  await expect(myTickets.getByText(en['profile.savedTickets']!)).toBeVisible()
  await myTickets.getByRole('link', { name: /Chattogram/ }).click()
  await expectSavedCopy(page, t)
  await page.goto(`/reservation/success?paymentId=${t.paymentId}`)
  await expectSavedCopy(page, t)

  await context.setOffline(false)
  await page.goto('/faq')
  await pageHeading(page)
  await page.getByRole('banner').getByRole('button', { name: en['nav.logout'] }).press('Enter')
  await expect(page.getByRole('banner').getByRole('link', { name: en['nav.login'] })).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('savedTickets'))).toBeNull()
  await context.setOffline(true)
  await page.goto(`/ticket-operation?pnr=${t.pnr}`)
  await expect(page.getByRole('textbox', { name: en['ticket.pnr'], exact: true })).toHaveValue(t.pnr)
  await expect(page.getByTestId('ticket')).toHaveCount(0)
})

test('a ticket opened offline passes axe, in English and Bengali', async ({ page, context, request }) => {
  const t = await boughtTicket(request)
  await lookUp(page, t.pnr, t.pin)
  await controlled(page)
  await context.setOffline(true)
  await page.reload()
  await expectSavedCopy(page, t)
  await expectNoAxeViolations(page, 'offline ticket, en')
  await page.evaluate(() => sessionStorage.setItem('language', 'bn'))
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('lang', 'bn')
  await expect(page.getByTestId('ticket-saved-copy')).toContainText(await savedCopyText(page, t.pnr, 'bn'))
  await expectNoAxeViolations(page, 'offline ticket, bn')
})

test('a new build is detected: an open page offers Reload; a page that already is the new build takes it silently', async ({ page, app }) => {
  await page.goto('/faq')
  await pageHeading(page)
  await controlled(page)
  const first = await pageVersion(page)

  // deploy: changed shells, a new version, a new worker script
  for (const f of shellsOf(app.dist)) {
    const file = path.join(app.dist, f)
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('<title>', '<meta name="deploy" content="2">\n    <title>'))
  }
  const second = (await writeServiceWorker(app.dist)).version
  expect(second).not.toBe(first)

  // the open tab asks for updates (as it does every 30 minutes and when it is shown again)
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update())
  const notice = page.getByRole('region', { name: /notifications/i }).getByText(en['app.updateReady']!)
  await expect(notice).toBeVisible({ timeout: 30_000 })
  await expectNoAxeViolations(page, 'new version notice')
  await page.getByRole('button', { name: en['app.updateReload'] }).click()
  await expect(page.locator('meta[name="deploy"]')).toHaveCount(1)
  expect(await pageVersion(page)).toBe(second)
  await pageHeading(page)
  await expect(page.getByText(en['app.updateReady']!)).toHaveCount(0)

  // the next deploy, then simply the next visit: its page comes from the network, so it is the new build already
  for (const f of shellsOf(app.dist)) {
    const file = path.join(app.dist, f)
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('content="2"', 'content="3"'))
  }
  const third = (await writeServiceWorker(app.dist)).version
  await page.reload()
  await pageHeading(page)
  expect(await pageVersion(page)).toBe(third)
  const active = () =>
    page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const channel = new MessageChannel()
          channel.port1.onmessage = (e) => resolve(String(e.data))
          navigator.serviceWorker.controller?.postMessage({ type: 'version' }, [channel.port2])
        }),
    )
  await expect.poll(active, { timeout: 30_000 }).toBe(third)
  await expect(page.getByText(en['app.updateReady']!)).toHaveCount(0)
})

test('serviceWorker: false in config.js removes the worker and its copies of the app', async ({ page, context, app }) => {
  const cacheNames = () => page.evaluate(() => caches.keys())
  await page.goto('/faq')
  await pageHeading(page)
  await controlled(page)
  expect(await cacheNames()).toEqual([expect.stringMatching(/^nodi-app-/)])

  // the operator turns it off in config.js: the next visit removes it
  fs.writeFileSync(path.join(app.dist, 'config.js'), "window.__APP_CONFIG__ = { apiBaseUrl: '/api', serviceWorker: false };\n")
  await page.reload()
  await pageHeading(page)
  await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0)
  await expect.poll(cacheNames).toEqual([])
  // nothing answers without the network any more
  await context.setOffline(true)
  await expect(context.newPage().then((p) => p.goto('/faq'))).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/)
})
