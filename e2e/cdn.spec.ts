/**
 * Issue 14: the app on a CDN, tried as an operator would following docs/deploying-the-app.md. dist/
 * is served by nginx (Debian's package) with the docs' own configuration
 * (docs/nginx-app.conf) on one origin, config.js points `apiBaseUrl` at the
 * reference server on another origin, which lists the app's origin in
 * CORS_ORIGINS. A passenger searches, chooses a seat, books, pays by card and
 * gets the ticket through it; an origin the server does not list is told that
 * the booking service cannot be reached, not that there is no internet.
 * Without nginx every test is reported SKIPPED (a failure under CI).
 */
import fs from 'node:fs'
import path from 'node:path'
import { test as base, expect, type APIRequestContext, type Page, request as requests } from '@playwright/test'
import { freePort } from '../harness/spawn-server.ts'
import { skipLine, underCi } from '../server/test/skip.ts'
import { routes } from '../src/routes.ts'
import { createPassenger, dhakaDate, messagePattern, messages, PASSWORD, pageHeading } from './helpers.ts'
import { type Nginx, nginxMissing, startNginx } from '../harness/nginx.ts'
import { copyDist, type OwnServer, startOwnServer } from './own-server.ts'

const { en } = messages

/** The API server, the app on nginx on an origin it lists, and the same app on an origin it does not. */
interface Cdn {
  api: OwnServer
  app: Nginx
  unlisted: Nginx
  dist: string
}

const TITLES = {
  headers: 'docs/nginx-app.conf: the shells, config.js and the worker script are never cached long, hashed assets are; every page path is the app',
  journey: 'search → seats → book → pay → ticket with the app on nginx and the API on another origin',
  unlisted: 'an origin the API does not list: the passenger is told the booking service cannot be reached, not that there is no internet',
}

const missing = nginxMissing()
// named once, by the main process (scripts/test.mjs lists these lines); under CI the tests run and fail with the reason
if (missing && !underCi() && process.env.TEST_WORKER_INDEX === undefined && !process.argv.includes('--list')) {
  for (const title of Object.values(TITLES)) console.log(skipLine('e2e', `cdn.spec.ts › ${title}`, missing))
}

const test = base.extend<object, { cdn: Cdn }>({
  cdn: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      if (missing) throw new Error(`${missing} (CI is set, so a skipped test is a failure)`)
      const [appPort, unlistedPort] = [await freePort(), await freePort()]
      const appOrigin = `http://127.0.0.1:${appPort}`
      // APP_URL: the card gateway sends the passenger back to the app's origin
      const api = await startOwnServer({ CORS_ORIGINS: appOrigin, APP_URL: appOrigin })
      const dist = copyDist()
      // docs/deploying-the-app.md: the operator points config.js at the API
      fs.writeFileSync(path.join(dist, 'config.js'), `window.__APP_CONFIG__ = { apiBaseUrl: '${api.url}/api' };\n`)
      const app = await startNginx(appPort, dist)
      const unlisted = await startNginx(unlistedPort, dist)
      await use({ api, app, unlisted, dist })
      await Promise.all([app.stop(), unlisted.stop(), api.stop()])
      fs.rmSync(path.dirname(dist), { recursive: true, force: true })
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ cdn }, use) => use(cdn.app.origin),
})

test.skip(!!missing && !underCi(), missing ?? '')
test.describe.configure({ timeout: 180_000 })
test.use({ serviceWorkers: 'allow' })

/** The API server's own requests (passengers, trips), from Node. */
async function apiRequests(cdn: Cdn): Promise<APIRequestContext> {
  return requests.newContext({ baseURL: cdn.api.url })
}

/** The messages that would blame the connection, wherever they show. */
function connectionMessages(page: Page) {
  return page.getByText(new RegExp(`${en['error.NO_INTERNET_CONNECTION']}|${en['error.SERVICE_UNREACHABLE']}`))
}

test(TITLES.headers, async ({ request, cdn }) => {
  const file = (f: string) => fs.readFileSync(path.join(cdn.dist, f), 'utf8')
  const get = async (p: string) => {
    const res = await request.get(p, { maxRedirects: 0 })
    return { status: res.status(), type: res.headers()['content-type'] ?? '', cache: res.headers()['cache-control'] ?? '', body: await res.text() }
  }
  const noCache = { status: 200, cache: 'no-cache' }
  // every route's own shell (build.mjs `shellFile`), the home page on /home too, app.html for any other path
  const shells: [string, string][] = routes.map((r) => [r.path, r.path === '/' || r.path === '/home' ? 'index.html' : `${r.path.slice(1)}.html`])
  for (const [p, shell] of [
    ...shells,
    ['/search?from=DHK&to=CTG', 'search.html'],
    ['/reservation/success?paymentId=p1', 'reservation/success.html'],
    ['/no/such/page', 'app.html'],
  ]) {
    const res = await get(p)
    expect(res, p).toMatchObject({ ...noCache, body: file(shell) })
    expect(res.type, p).toMatch(/^text\/html/)
  }
  // every file of dist/ outside assets/ is never cached long (docs/deploying-the-app.md's list), whatever the build adds
  // (the build's .gz and .br copies are what nginx sends for a file, not files of their own)
  const packed = (f: string) => /\.(gz|br)$/.test(f)
  const plain = fs
    .readdirSync(cdn.dist, { recursive: true })
    .map(String)
    .filter((f) => !f.startsWith('assets') && f !== 'meta.json' && !packed(f) && fs.statSync(path.join(cdn.dist, f)).isFile())
  expect(plain.filter((f) => !f.endsWith('.html')).sort()).toEqual(['config.js', 'sw.js'])
  expect(plain.filter((f) => f.endsWith('.html')).sort()).toEqual(['app.html', ...new Set(shells.map(([, f]) => f))].sort())
  for (const f of plain) expect(await get(`/${f}`), f).toMatchObject({ ...noCache, body: file(f) })
  expect((await get('/sw.js')).type).toMatch(/javascript/)
  expect((await get('/config.js')).body).toContain(cdn.api.url)

  for (const f of fs.readdirSync(path.join(cdn.dist, 'assets')).filter((f) => !packed(f))) {
    const res = await get(`/assets/${f}`)
    expect(res, f).toMatchObject({ status: 200, cache: 'public, max-age=31536000, immutable' })
    expect(res.type, f).toMatch(f.endsWith('.css') ? /^text\/css/ : /javascript/)
  }
  // gzip_static: the build's gzip copy as it is (level 9), not one compressed on the fly; config.js has none (edited in place)
  const entry = fs.readdirSync(path.join(cdn.dist, 'assets')).find((f) => /^main-.*\.js$/.test(f))!
  for (const [f, packedCopy] of [
    [`/assets/${entry}`, true],
    ['/search.html', true],
    ['/config.js', false],
  ] as const) {
    const res = await request.get(f, { headers: { 'Accept-Encoding': 'gzip' } })
    expect(res.headers()['content-encoding'], f).toBe('gzip')
    if (packedCopy) expect(Number(res.headers()['content-length']), f).toBe(fs.statSync(path.join(cdn.dist, `${f}.gz`)).size)
    else expect(fs.existsSync(path.join(cdn.dist, `${f}.gz`)), f).toBe(false)
  }
  // a missing file is a 404, not the app; the bundle metadata is not published
  for (const p of ['/assets/main-ABCDEFGH.js', '/meta.json', '/favicon.ico', '/no/such.png']) expect((await get(p)).status, p).toBe(404)
})

test(TITLES.journey, async ({ page, cdn }) => {
  const api = await apiRequests(cdn)
  const mobile = await createPassenger(api)
  const date = dhakaDate(6)
  const found = await api.post('/api/reservation/tripSearch', { data: { originCode: 'DHK', destinationCode: 'CTG', tripDate: date } })
  const trip = ((await found.json()) as { data: { tripId: number; coachCode: string; availableSeats: number }[] }).data.find(
    (t) => t.availableSeats > 3,
  )!
  await api.dispose()

  // where the page's requests went: the API's origin for /api, nginx for the rest
  const asked: string[] = []
  page.on('request', (r) => asked.push(r.url()))

  await page.goto('/login')
  await pageHeading(page)
  await page.getByLabel(en['login.mobile']!).fill(mobile)
  await page.getByRole('button', { name: en['login.continue'] }).click()
  await page.getByLabel(en['login.password']!, { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: en['login.submit'], exact: true }).last().click()
  await expect(page).toHaveURL(`${cdn.app.origin}/`)

  // search
  await page.goto(`/search?from=DHK&to=CTG&date=${date}`)
  await pageHeading(page)
  const card = page.getByRole('listitem').filter({ hasText: trip.coachCode }).first()
  await card.getByRole('button', { name: en['trips.chooseSeats'] }).click()
  await expect(page).toHaveURL(new RegExp(`^${cdn.app.origin}/reservation\\?.*tripId=${trip.tripId}`))

  // seats
  await expect(page.getByRole('grid').first()).toBeVisible()
  await page.getByLabel(en['seatChoice.boarding']!).selectOption({ index: 1 })
  await page.getByLabel(en['seatChoice.dropping']!).selectOption({ index: 1 })
  const seat = page.getByRole('grid').locator('button[data-state="available"]:visible').first()
  const seatName = (await seat.getAttribute('data-seat'))!
  await seat.click()
  await expect(page.getByTestId('selected-seats')).toHaveText(seatName)

  // book, then pay by card on the gateway (the API's origin), which sends the passenger back to the app's
  const panel = page.getByTestId('booking-panel')
  await panel.getByRole('button', { name: en['booking.book'] }).click()
  await expect(panel.getByRole('heading', { name: en['booking.bookedHeading'] })).toBeVisible()
  await page.getByRole('button', { name: messagePattern(en['booking.payCard']!) }).click()
  await expect(page).toHaveURL(new RegExp(`^${cdn.api.url}/sandbox/gateway/`))
  await page.getByRole('button', { name: 'Approve payment' }).click()
  await expect(page).toHaveURL(new RegExp(`^${cdn.app.origin}/reservation/success\\?paymentId=`))

  // the ticket
  await expect(await pageHeading(page)).toHaveText(en['reservationSuccess.heading']!)
  const pnr = (await page.getByTestId('ticket-pnr').innerText()).trim()
  expect(pnr).toMatch(/^[A-Z0-9]{10}$/)
  await expect(page.getByTestId('ticket-seats')).toHaveText(seatName)
  await expect(page.getByTestId('ticket-status')).toHaveText(en['profile.statusSold']!)
  await page.getByRole('link', { name: en['payment.viewInTicketOperation'] }).click()
  await expect(page).toHaveURL(`${cdn.app.origin}/ticket-operation?pnr=${pnr}`)
  await expect(page.getByTestId('ticket-pnr')).toHaveText(pnr)
  await expect(page.getByTestId('ticket-saved-copy')).toHaveCount(0)

  await expect(connectionMessages(page)).toHaveCount(0)
  const apiCalls = asked.filter((u) => new URL(u).pathname.startsWith('/api/'))
  expect(apiCalls.length).toBeGreaterThan(5)
  expect(apiCalls.filter((u) => !u.startsWith(`${cdn.api.url}/api/`))).toEqual([])
  // the service worker works from nginx too (and leaves the API on its own origin alone)
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 30_000 })
})

test(TITLES.unlisted, async ({ page, cdn }) => {
  await page.goto(`${cdn.unlisted.origin}/search?from=DHK&to=CTG&date=${dhakaDate(6)}`)
  await pageHeading(page)
  // the browser blocks every answer (no CORS for this origin); reads are asked again after 1, 2 and 4 s
  await expect(page.getByText(en['error.SERVICE_UNREACHABLE']!).first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText(en['error.NO_INTERNET_CONNECTION']!)).toHaveCount(0)
})
