/**
 * Issue 14: repeat visits and offline tickets. With the app's service worker
 * (blocked in the other specs), on a server of its own per worker whose copy of
 * dist/ two tests deploy into (and put back): a repeat visit with the network cut gets the shell and
 * a ticket kept on the device, a passenger's tickets open offline from My tickets
 * and the success page and are gone after logout, the offline ticket passes axe
 * in en and bn, a shared computer (issue 21) shows nothing of the previous
 * passenger's ticket to the next person (after the tab closed, a 401, or to
 * another account) but what they chose to keep, and only to them, a new build is announced with Reload (or taken silently when the page
 * already is the new build), and `serviceWorker: false` in config.js removes the
 * worker. The browser runs outside Bangladesh: times shown are still Dhaka's.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test as base, expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test'
import type { Reservation } from '../contract/schemas.ts'
import { writeServiceWorker } from '../scripts/service-worker.mjs'
import { formatDateTime } from '../src/lib/dates.ts'
import type { SavedTicket } from '../src/stores/saved-tickets.ts'
import { bookThroughApi, createPassenger, dhakaDate, expectNoAxeViolations, latestCode, messages, pageHeading, PASSWORD } from './helpers.ts'
import { type OwnServer, startOwnServer } from './own-server.ts'

const { en } = messages

const test = base.extend<{ deployable: string }, { app: OwnServer }>({
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
  // the worker's server's dist/ for a test that deploys into it, put back as it was after the test: the next test on
  // that worker gets the build every test starts from
  deployable: async ({ app }, use) => {
    const saved = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-dist-saved-'))
    fs.cpSync(app.dist, saved, { recursive: true })
    try {
      await use(app.dist)
    } finally {
      fs.rmSync(app.dist, { recursive: true, force: true })
      fs.cpSync(saved, app.dist, { recursive: true })
      fs.rmSync(saved, { recursive: true, force: true })
    }
  },
})

// one server per worker, its tests in parallel on the run's workers: Playwright runs a worker fixture's specs after the
// others, so a spec held to one worker ran alone at the end of the step (56 s with the other worker idle)
test.describe.configure({ timeout: 180_000 })
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

/**
 * Waits until the service worker controls the page (the first visit installs it and takes the page over). Installing
 * fetches every file of the build, after the page has shown its data: on a loaded 2-core CI host that took over 30 s.
 */
async function controlled(page: Page): Promise<void> {
  try {
    await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 90_000 })
  } catch (err) {
    // say where the worker got to: none (its install failed), installing (slow), or active without this page
    const state = await page
      .evaluate(async () => {
        const r = await navigator.serviceWorker.getRegistration()
        return r ? { installing: r.installing?.state, waiting: r.waiting?.state, active: r.active?.state } : 'no registration'
      })
      .catch((e: unknown) => String(e))
    throw new Error(`the service worker did not take the page over: ${JSON.stringify(state)}`, { cause: err })
  }
}

/** The HTML shells of a built app (every route's and app.html). */
const shellsOf = (dist: string) =>
  fs
    .readdirSync(dist, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.html') && !f.startsWith('assets'))
/** The version the page was built as (its HTML's meta). */
const pageVersion = (page: Page) => page.locator('meta[name="app-version"]').getAttribute('content')

/**
 * The page's controller's version, and the registration's installing, waiting and active workers, each with its state
 * and version (asked as app-updates.ts asks it; "no answer" after 5 s).
 */
function workers(page: Page): Promise<Record<string, string | null>> {
  return page.evaluate(async () => {
    const versionOf = (worker: ServiceWorker | null | undefined) =>
      !worker
        ? Promise.resolve(null)
        : new Promise<string>((resolve) => {
            const channel = new MessageChannel()
            const timer = setTimeout(() => resolve(`${worker.state}, no answer`), 5000)
            channel.port1.onmessage = (e) => {
              clearTimeout(timer)
              resolve(`${worker.state}, ${String(e.data)}`)
            }
            worker.postMessage({ type: 'version' }, [channel.port2])
          })
    const r = await navigator.serviceWorker.getRegistration()
    const controller = navigator.serviceWorker.controller
    const [installing, waiting, active, controlling] = await Promise.all([
      versionOf(r?.installing),
      versionOf(r?.waiting),
      versionOf(r?.active),
      versionOf(controller),
    ])
    return { controller: controlling && controlling.replace(/^[a-z]+, /, ''), installing, waiting, active }
  })
}

/** Deploys a new build into `dist`: every HTML shell changed by `edit`, and a new worker script; answers its version. */
async function deploy(dist: string, edit: (html: string) => string): Promise<string> {
  for (const f of shellsOf(dist)) {
    const file = path.join(dist, f)
    fs.writeFileSync(file, edit(fs.readFileSync(file, 'utf8')))
  }
  return (await writeServiceWorker(dist)).version
}

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

/**
 * Signs `mobile` in for this browser tab the way the login page does (session storage; with
 * `stay`, Stay signed in: local storage too); answers the session's token.
 */
async function signIn(page: Page, request: APIRequestContext, mobile: string, stay = false): Promise<string> {
  const res = await request.post('/api/checkPassenger', { data: { mobile, password: PASSWORD } })
  const session = ((await res.json()) as { data: { token: string; passenger: unknown; company: unknown } }).data
  await page.evaluate(
    ({ s, stay }) => {
      for (const store of stay ? [sessionStorage, localStorage] : [sessionStorage]) {
        store.setItem('token', s.token)
        store.setItem('passenger', JSON.stringify(s.passenger))
        store.setItem('company', JSON.stringify(s.company))
      }
    },
    { s: session, stay },
  )
  return session.token
}

/** Everything the page's origin keeps in local and session storage, as text. */
const storedText = (page: Page) => page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]))

type Bought = Awaited<ReturnType<typeof boughtTicket>>

/**
 * Signs the ticket's passenger in (see signIn; `stay`: Stay signed in) and opens the ticket's success page, by its
 * booking or (`byPayment`) by the card payment the gateway returns with, until its PIN shows; answers the token.
 */
async function openOwnTicket(page: Page, request: APIRequestContext, t: Bought, opts: { stay?: boolean; byPayment?: boolean } = {}): Promise<string> {
  await page.goto('/faq')
  const token = await signIn(page, request, t.mobile, opts.stay)
  await page.goto(opts.byPayment ? `/reservation/success?paymentId=${t.paymentId}` : `/reservation/success?reservationId=${t.reservationId}`)
  await expect(page.getByTestId('ticket-pin')).toHaveText(t.pin)
  // its copy is kept once the page has painted it (src/models/booking.ts adopt)
  await expect.poll(() => storedText(page)).toContain(t.pnr)
  return token
}

/** Logs out with the header's button, from the keyboard, and waits until nothing of ticket `pnr` is left in the browser's storage. */
async function logOut(page: Page, pnr: string): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: en['nav.logout'] }).press('Enter')
  await expect(page.getByRole('banner').getByRole('link', { name: en['nav.login'] })).toBeVisible()
  await expect.poll(() => storedText(page)).not.toContain(pnr)
}

/** Types the PIN into the ticket form (the PNR already filled in) and asks for the ticket. */
async function typePin(page: Page, pnr: string, pin: string): Promise<void> {
  await expect(page.getByRole('textbox', { name: en['ticket.pnr'], exact: true })).toHaveValue(pnr)
  await page.getByRole('textbox', { name: en['ticket.pin'], exact: true }).fill(pin)
  await page.getByRole('button', { name: en['ticket.find'] }).click()
}

/** The ticket's own address shows no ticket, only the form with its PNR (the device has no copy for this person). */
async function expectNoCopyAt(page: Page, pnr: string): Promise<void> {
  await page.goto(`/ticket-operation?pnr=${pnr}`)
  await expect(page.getByRole('textbox', { name: en['ticket.pnr'], exact: true })).toHaveValue(pnr)
  await expect(page.getByTestId('ticket')).toHaveCount(0)
  await expect(page.getByRole('button', { name: en['ticket.cancel'], exact: true })).toHaveCount(0)
}

/** Offline, the success page of a booking paid from the balance shows no ticket (nor its PIN), only that there is no connection. */
async function expectNoCopyOnSuccessPage(page: Page, reservationId: number): Promise<void> {
  await page.goto(`/reservation/success?reservationId=${reservationId}`)
  await expect(page.getByRole('alert').filter({ hasText: en['error.NO_INTERNET_CONNECTION'] })).toBeVisible()
  await expect(page.getByTestId('ticket')).toHaveCount(0)
}

const keepBox = (page: Page) => page.getByRole('checkbox', { name: en['ticket.keepOnDevice'] })

/** Ticks Keep this ticket on this device (off unless asked for) and waits until the copy is in local storage. */
async function keepOnDevice(page: Page, pnr: string): Promise<void> {
  await expect(keepBox(page)).not.toBeChecked()
  await keepBox(page).check()
  await expect.poll(() => page.evaluate(() => localStorage.getItem('savedTickets') ?? '')).toContain(`"pnr":"${pnr}"`)
}

/** Another account signed in on the same browser sees nothing of ticket `t`, online or offline; leaves the browser offline. */
async function expectHiddenFromAnotherAccount(context: BrowserContext, page: Page, request: APIRequestContext, t: Bought): Promise<void> {
  await context.setOffline(false)
  await signIn(page, request, await createPassenger(request))
  await expectNoCopyAt(page, t.pnr)
  await context.setOffline(true)
  await expectNoCopyOnSuccessPage(page, t.reservationId)
}

/** Every response the page got from the network, not from the service worker, other than the API's. */
function networkResponses(page: Page): string[] {
  const seen: string[] = []
  page.on('response', (r) => {
    if (!r.fromServiceWorker() && !new URL(r.url()).pathname.startsWith('/api/')) seen.push(r.url())
  })
  page.on('requestfailed', (r) => {
    if (!new URL(r.url()).pathname.startsWith('/api/')) seen.push(`${r.url()} (failed: ${r.failure()?.errorText})`)
  })
  return seen
}

/**
 * Until the files the page preloads once it has settled (the overlays: src/app/app.tsx `warmOverlays`) have arrived.
 * Leaving before cancels them, and Chromium reports a cancelled request as failed (net::ERR_ABORTED): a clean-clone
 * run on a loaded machine listed the four overlay files so when the page went on to / while they were on their way.
 */
async function preloadsArrived(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const preloads = [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => l.href)
    const arrived = new Set(performance.getEntriesByType('resource').map((e) => e.name))
    return preloads.length > 0 && preloads.every((href) => arrived.has(href))
  })
}

/** "Saved copy from <time>": the time the copy was kept, on a wall clock in Dhaka (the browser runs elsewhere). */
async function savedCopyText(page: Page, pnr: string, lang: 'en' | 'bn'): Promise<string> {
  const shelves = await page.evaluate(() =>
    [sessionStorage, localStorage].map((s) => JSON.parse(s.getItem('savedTickets') ?? '{}') as Record<string, SavedTicket[]>),
  )
  const copy = shelves
    .flatMap((shelf) => Object.values(shelf))
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
  await expect(ticket.getByRole('img', { name: en['ticket.qrLabel'] })).toBeVisible()
  await expect(ticket.getByTestId('ticket-seats')).toHaveText(t.seats.join(', '))
  await expect(ticket).toContainText(t.trip)
  for (const counter of t.counters) await expect(ticket).toContainText(counter)
  await expect(ticket.getByTestId('ticket-saved-copy')).toContainText(await savedCopyText(page, t.pnr, 'en'))
}

test('a repeat visit with the network cut serves the shell and a ticket kept on the device; a cancellation shows after the next look-up', async ({
  page,
  context,
  request,
}) => {
  const t = await boughtTicket(request)
  await lookUp(page, t.pnr, t.pin)
  await controlled(page)
  await expect(page.getByTestId('ticket-saved-copy')).toHaveCount(0)
  // the visitor keeps it on this device
  await keepOnDevice(page, t.pnr)

  // the network is cut: a new visit to the ticket's address, and to the home page
  await context.setOffline(true)
  const again = await context.newPage()
  const fromNetwork = networkResponses(again)
  await again.goto(`/ticket-operation?pnr=${t.pnr}`)
  await pageHeading(again)
  // another tab: the kept copy opens for whoever types its PIN
  await typePin(again, t.pnr, t.pin)
  await expectSavedCopy(again, t)
  await expect(again.getByRole('alert').filter({ hasText: en['error.NO_INTERNET_CONNECTION'] })).toBeVisible()
  // a saved copy offers no server actions
  await expect(again.getByRole('button', { name: en['ticket.cancel'], exact: true })).toHaveCount(0)
  // the overlays it fetches once settled came from the device too, and are not cut off by leaving
  await preloadsArrived(again)
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
  await typePin(again, t.pnr, t.pin)
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
  await openOwnTicket(page, request, t, { byPayment: true })
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
  await logOut(page, t.pnr)
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

test('a file of the build whose connection drops while the worker installs is asked again: the first visit still gets its offline copy', async ({
  page,
  context,
}) => {
  // the worker's first request for one page's code fails, as on a mobile network that drops a connection
  let dropped = ''
  await context.route(/\/assets\/terms-page-[A-Z0-9]+\.js$/, (route) => {
    if (dropped || !route.request().serviceWorker()) return route.continue()
    dropped = route.request().url()
    return route.abort('connectionreset')
  })
  await page.goto('/faq')
  await pageHeading(page)
  await controlled(page)
  expect(dropped, 'the worker asked for the file and lost the connection once').not.toBe('')
  // offline, the page whose file was dropped opens from the device
  await context.setOffline(true)
  await page.goto('/terms-and-conditions')
  await pageHeading(page)
  await expect(page.getByRole('heading', { level: 1, name: /terms/i })).toBeVisible()
})

test('a page the worker does not control (it loaded past the worker, as a hard reload does) asks to be taken over', async ({ page, context }) => {
  await page.goto('/faq')
  await pageHeading(page)
  await controlled(page)
  // Shift+Reload: the browser loads the page past the worker, which leaves it uncontrolled (as a first visit's page whose
  // load crossed the worker's activation is); the page then asks the active worker to take it over
  const cdp = await context.newCDPSession(page)
  const loaded = page.waitForEvent('load')
  await cdp.send('Page.reload', { ignoreCache: true })
  await loaded
  await pageHeading(page)
  await controlled(page)
  // its pages now come from the device
  await context.setOffline(true)
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible()
})

test('a shared computer: after a session without Stay signed in closed its tab, the next person sees nothing of the ticket, signed out or as another account', async ({
  context,
  request,
}) => {
  const t = await boughtTicket(request)
  const a = await context.newPage()
  await openOwnTicket(a, request, t)
  await controlled(a)
  // in A's own tab the ticket's address opens A's copy, with Cancel
  await a.goto(`/ticket-operation?pnr=${t.pnr}`)
  await expect(a.getByRole('button', { name: en['ticket.cancel'], exact: true })).toBeVisible()
  await a.close()

  // the next person opens the browser: a new tab, A's address from the history
  const b = await context.newPage()
  await expectNoCopyAt(b, t.pnr)
  expect(await storedText(b)).not.toContain(t.pnr)
  await context.setOffline(true)
  await expectNoCopyOnSuccessPage(b, t.reservationId)
  await expectNoCopyAt(b, t.pnr)

  // signed in as someone else
  await expectHiddenFromAnotherAccount(context, b, request, t)
})

test('an expired or invalid session (the server answers 401) removes the tickets it saved on the device', async ({ page, request }) => {
  const t = await boughtTicket(request)
  // Stay signed in: its copies are in local storage, where they would outlive the tab
  const token = await openOwnTicket(page, request, t, { stay: true, byPayment: true })
  await expect.poll(() => storedText(page)).toContain(t.pnr)
  // the session ends on the server (as at its expiry); the next request answers 401
  expect((await request.post('/api/logout', { headers: { Authorization: `Bearer ${token}` } })).ok()).toBe(true)
  await page.goto('/profile')
  await expect(page.getByText(en['error.INVALID_SESSION']!)).toBeVisible()
  await expect.poll(() => storedText(page)).not.toContain(t.pnr)
})

test('LOGOUT removes the tickets from the device and from the tab: going back to the ticket shows nothing of it', async ({ page, request }) => {
  const t = await boughtTicket(request)
  await openOwnTicket(page, request, t)
  await page.goto(`/ticket-operation?pnr=${t.pnr}`)
  await expect(page.getByRole('button', { name: en['ticket.cancel'], exact: true })).toBeVisible()
  await logOut(page, t.pnr)
  // the next person presses Back in the same tab
  await page.goBack()
  await expect(page).toHaveURL(new RegExp(`/ticket-operation\\?pnr=${t.pnr}$`))
  await expect(page.getByRole('textbox', { name: en['ticket.pnr'], exact: true })).toHaveValue(t.pnr)
  await expect(page.getByTestId('ticket')).toHaveCount(0)
})

test('Keep this ticket on this device keeps it for its passenger only: signed in again they see it offline, the next person only with its PIN, another account not at all; logout removes it', async ({
  context,
  request,
}) => {
  const t = await boughtTicket(request)
  const a = await context.newPage()
  await openOwnTicket(a, request, t)
  await controlled(a)
  await keepOnDevice(a, t.pnr)
  await a.close()

  // the next person: not at the ticket's address, nor on the success page offline
  const b = await context.newPage()
  await expectNoCopyAt(b, t.pnr)
  await context.setOffline(true)
  await expectNoCopyOnSuccessPage(b, t.reservationId)
  // ... but typing its PIN (which asks the server for it when online) opens it
  await expectNoCopyAt(b, t.pnr)
  await typePin(b, t.pnr, t.pin)
  await expectSavedCopy(b, t)
  // another account signed in on the same browser: nothing
  await expectHiddenFromAnotherAccount(context, b, request, t)
  await b.close()

  // A signs in again: the kept ticket opens offline, still kept
  await context.setOffline(false)
  const c = await context.newPage()
  await c.goto('/faq')
  await signIn(c, request, t.mobile)
  await context.setOffline(true)
  await c.goto(`/reservation/success?reservationId=${t.reservationId}`)
  await expectSavedCopy(c, t)
  await expect(keepBox(c)).toBeChecked()
  // A signs out: gone from the device
  await context.setOffline(false)
  await c.goto('/faq')
  await pageHeading(c)
  await logOut(c, t.pnr)
})

test('a new build is detected: an open page offers Reload; a page that already is the new build takes it silently', async ({ page, deployable }) => {
  await page.goto('/faq')
  await pageHeading(page)
  await controlled(page)
  const first = await pageVersion(page)

  // deploy: changed shells, a new version, a new worker script
  const second = await deploy(deployable, (html) => html.replace('<title>', '<meta name="deploy" content="2">\n    <title>'))
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
  const third = await deploy(deployable, (html) => html.replace('content="2"', 'content="3"'))
  await page.reload()
  await pageHeading(page)
  expect(await pageVersion(page)).toBe(third)
  // The page asks its own build's waiting worker to skip waiting. Chromium swaps the workers once the old one has no
  // work left, which it learns when that worker goes idle and stops; but it keeps a worker that DevTools is attached to
  // (as Playwright is) running, and then the swap may wait for its 5-minute limit (1 run in about 25 on a busy machine,
  // the old worker still in control after 30 s). So the test stops the old worker, as a browser does with an idle one. A
  // new worker that was not asked to skip waiting still waits after that: the page is still controlled by the old one.
  const cdp = await page.context().newCDPSession(page)
  const versions = new Map<string, { status: string; runningStatus: string }>()
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions: updated }) => {
    for (const v of updated) versions.set(v.versionId, v)
  })
  await cdp.send('ServiceWorker.enable')
  let stopped = 0
  const active = async () => {
    // only the active one: an installing worker that is stopped fails its install
    for (const [versionId, v] of versions)
      if (v.status === 'activated' && v.runningStatus === 'running') {
        await cdp.send('ServiceWorker.stopWorker', { versionId })
        stopped++
      }
    return (await workers(page)).controller
  }
  try {
    await expect.poll(active, { timeout: 30_000 }).toBe(third)
  } catch (err) {
    // say where the new build's worker got to: never fetched, failed, waiting unasked, or asked in vain
    const state = JSON.stringify(await workers(page))
    throw new Error(`the page's own build did not take over (the old worker stopped ${stopped} times): ${state}`, { cause: err })
  }
  await expect(page.getByText(en['app.updateReady']!)).toHaveCount(0)
})

test('serviceWorker: false in config.js removes the worker and its copies of the app', async ({ page, context, deployable }) => {
  const cacheNames = () => page.evaluate(() => caches.keys())
  await page.goto('/faq')
  await pageHeading(page)
  await controlled(page)
  expect(await cacheNames()).toEqual([expect.stringMatching(/^nodi-app-/)])

  // the operator turns it off in config.js: the next visit removes it
  fs.writeFileSync(path.join(deployable, 'config.js'), "window.__APP_CONFIG__ = { apiBaseUrl: '/api', serviceWorker: false };\n")
  await page.reload()
  await pageHeading(page)
  await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0)
  await expect.poll(cacheNames).toEqual([])
  // nothing answers without the network any more
  await context.setOffline(true)
  await expect(context.newPage().then((p) => p.goto('/faq'))).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/)
})
