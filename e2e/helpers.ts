/** Shared helpers for the browser tests: the axe check, the app's routes, passengers and bookings made through the API. */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { AxeResults } from 'axe-core'
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Page, type Request } from '@playwright/test'
import { routes } from '../src/routes.ts'

/** Every route of docs/spec.md section 2 that a visitor can open directly (the app's route table, restricted ones left out). */
export const publicRoutes = routes.filter((r) => !r.restricted).map((r) => r.path)

/** The app's messages, by language (locales/). */
export const messages: Record<'en' | 'bn', Record<string, string>> = {
  en: JSON.parse(fs.readFileSync(new URL('../locales/en.json', import.meta.url), 'utf8')),
  bn: JSON.parse(fs.readFileSync(new URL('../locales/bn.json', import.meta.url), 'utf8')),
}

/** Where a gateway payment's money came from, as the ticket names it (the option of `ticket.methodCard`'s select). */
export function payName(lang: Lang, source: 'card' | 'bkash' | 'nagad' | 'rocket' | 'wallet' | 'bank'): string {
  const select = messages[lang]['ticket.methodCard']!
  const option = new RegExp(`[{ ]${source === 'card' ? 'other' : source} \\{([^}]*)\\}`).exec(select)
  if (!option) throw new Error(`no ${source} in ticket.methodCard`)
  return option[1]!
}

/** A message as a pattern: the parts around its `{values}` match anything. */
export function messagePattern(text: string): RegExp {
  return new RegExp(
    text
      .split(/\{\w+\}/)
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*'),
  )
}

/** The rules every page is held to: WCAG 2.0, 2.1 and 2.2, levels A and AA. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']

let axeScript = ''
/** axe-core's browser build, read once. */
function axeSource(): string {
  axeScript ||= fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
  return axeScript
}

/** Runs axe with the WCAG 2.0/2.1/2.2 A and AA rules and expects no violations (`include`: in that part of the page only). */
export async function expectNoAxeViolations(page: Page, label = page.url(), include?: string): Promise<void> {
  // axe's target-size counts a control the last click scrolled half out of the viewport, under the sticky
  // header's links, as too small (CI: seat A1 after Book); where Playwright left the page is not a state
  // of the page, so it is checked from the top (focus stays; e2e/not-obscured.spec.ts covers scrolling)
  const scrolledTo = await page.evaluate(() => {
    const y = window.scrollY
    window.scrollTo({ top: 0, behavior: 'instant' })
    return y
  })
  // a frame mid-animation (toasts sliding in over each other) is not what anyone uses
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5_000 })
    .catch(() => undefined)
  // axe-core run in the page itself, put there once per document (the app has no frames): @axe-core/playwright's
  // builder put it there on every check and finished each run in a new blank page (~600 ms a route against
  // ~220 ms, measured over the 20 routes: the same passes and violations)
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource())
  const result = await page.evaluate(
    ([context, tags]) =>
      (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<AxeResults> } }).axe.run(context ?? document, {
        runOnly: { type: 'tag', values: tags },
      }),
    [include ?? null, AXE_TAGS] as const,
  )
  await page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), scrolledTo)
  // the first node's reason (and what covers it) names a failure that does not repeat
  const summary = result.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes[0]?.target.join(' ')} — ${v.help}${v.nodes[0]?.failureSummary ? ` [${v.nodes[0].failureSummary.replace(/\s+/g, ' ')}]` : ''}`,
  )
  expect(summary, `axe violations on ${label}`).toEqual([])
}

/** Waits until the live app has rendered its first page (not the prerendered HTML). */
export async function appReady(page: Page): Promise<void> {
  await page.locator('html[data-app-ready]').waitFor({ state: 'attached' })
}

/** Waits until the live app shows the page's h1 and returns it. */
export async function pageHeading(page: Page) {
  await appReady(page)
  const h1 = page.locator('main h1').first()
  await expect(h1).toBeVisible()
  return h1
}

const tracked = new WeakMap<Page, () => Promise<void>>()

/**
 * Counts the page's requests in flight from now on, as Playwright's networkidle counts them (not event
 * streams, which stay open), and returns a wait until none is in flight across two animation frames and a
 * task: what they brought has rendered and work started after that paint (src/lib/page-shown.ts) has sent
 * its requests. What `waitForLoadState('networkidle')` waits for, without its 500 ms of quiet on every page.
 */
export function trackRequests(page: Page): () => Promise<void> {
  const known = tracked.get(page)
  if (known) return known
  const inFlight = new Set<Request>()
  let none: (() => void)[] = []
  const done = (r: Request) => {
    if (!inFlight.delete(r) || inFlight.size > 0) return
    for (const resolve of none) resolve()
    none = []
  }
  page.on('request', (r) => {
    if (r.resourceType() !== 'eventsource') inFlight.add(r)
  })
  page.on('requestfinished', done)
  page.on('requestfailed', done)
  const settled = async () => {
    for (;;) {
      if (inFlight.size > 0) await new Promise<void>((resolve) => none.push(resolve))
      await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))))
      if (inFlight.size === 0) return
    }
  }
  tracked.set(page, settled)
  return settled
}

/**
 * Waits until the city combobox's own after-frame work is done. Ark's combobox (zag) puts the caret at the
 * end of its field one animation frame after the list opens, and hands focus back to the field one frame
 * after a city is chosen. Text typed in between lands where that leaves it: Playwright's fill selects the
 * field's text and then inserts, so a frame falling between the two appends what it types ("SylhetDha")
 * instead of replacing it. Awaits a frame asked for after the combobox's (two, to be sure of it).
 */
export async function comboboxFrameDone(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))))
}

/**
 * Records the page's layout shifts from its first paint on, in every document it opens from now on (an init
 * script), and returns a reading: after one more animation frame, their summed score and, for a failure's
 * message, what moved, when and from where to where ("nav \"Home…\" at 469 ms: 404,16 300×40 → 353,16 300×40").
 */
export async function recordLayoutShifts(page: Page): Promise<() => Promise<{ shifts: number; moved: string[] }>> {
  await page.addInitScript(() => {
    const w = window as unknown as { shifts: number; moved: string[] }
    w.shifts = 0
    w.moved = []
    type Shift = { value: number; startTime: number; sources?: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] }
    const rect = (r: DOMRectReadOnly) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as Shift[]) {
        w.shifts += e.value
        for (const s of e.sources ?? []) {
          const el = s.node instanceof Element ? s.node : s.node?.parentElement
          const name = el
            ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`
            : String(s.node?.nodeName)
          w.moved.push(`${name} at ${Math.round(e.startTime)} ms: ${rect(s.previousRect)} → ${rect(s.currentRect)}`)
        }
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
  return async () => {
    await page.evaluate(() => new Promise(requestAnimationFrame))
    return page.evaluate(() => {
      const w = window as unknown as { shifts: number; moved: string[] }
      return { shifts: w.shifts, moved: w.moved }
    })
  }
}

/**
 * Opens `url` (or reloads, without one) and waits until the notification code has arrived with the rest
 * of what the page fetches once it is idle, so notices still show when the network drops afterwards.
 */
export async function openWithNotifications(page: Page, url?: string): Promise<void> {
  const warmed = page.waitForResponse((r) => /\/toast-host-[A-Z0-9]+\.js$/.test(r.url()))
  await (url === undefined ? page.reload() : page.goto(url))
  await pageHeading(page)
  await warmed
  await page.waitForLoadState('networkidle')
}

/** Switches the app language with the header control. */
export async function switchLanguage(page: Page, lang: 'en' | 'bn'): Promise<void> {
  await page.evaluate((l) => sessionStorage.setItem('language', l), lang)
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('lang', lang)
}

/** A yyyy-LL-dd date in Asia/Dhaka, `days` after today. */
export function dhakaDate(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000)
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Dhaka', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d)
}

/** The demo data's passenger (README: trying it by hand), with an opening balance. */
export const DEMO_PASSENGER = { mobile: '01712345678', password: 'Demo@1234' } as const

/** The password of the passengers the tests create. */
export const PASSWORD = 'Secret@123'

/** A mobile number no one has signed up with yet (most likely). */
export function randomMobile(): string {
  return '0171' + String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')
}

/** The development outbox (GET /dev/outbox): every SMS and e-mail the server sent. */
export async function outbox(
  request: APIRequestContext,
): Promise<{ channel: string; to: string; subject: string | null; body: string; code: string | null }[]> {
  const res = await request.get('/dev/outbox')
  return ((await res.json()) as { data: Awaited<ReturnType<typeof outbox>> }).data
}

/** The newest code the outbox holds for `mobile` whose body matches `purpose` (and is not `not`). */
export async function latestCode(request: APIRequestContext, mobile: string, purpose: RegExp, not?: string): Promise<string> {
  let code: string | undefined
  await expect
    .poll(async () => {
      code = (await outbox(request)).find((x) => x.to === mobile && x.code && purpose.test(x.body) && x.code !== not)?.code ?? undefined
      return code
    })
    .toBeTruthy()
  return code!
}

/** Types the newest cancel code the outbox holds for `mobile` into the cancel step's code boxes, as the passenger does. */
export async function typeCancelCode(page: Page, request: APIRequestContext, mobile: string, lang: Lang): Promise<void> {
  const otp = await latestCode(request, mobile, /./, await latestCode(request, mobile, /verification/i))
  await page
    .getByRole('textbox', { name: m(lang, 'login.codeDigit', { index: 1, count: 6 }) })
    .first()
    .focus()
  await page.keyboard.type(otp)
}

/** Signs up a passenger through the API (with the SMS code from the outbox); answers the mobile. */
export async function createPassenger(request: APIRequestContext, mobile = randomMobile()): Promise<string> {
  const reg = await request.post('/api/register', {
    data: { mobile, fullName: 'Karim Rahman', email: `k${mobile}@example.com`, city: 'Dhaka', password: PASSWORD },
  })
  expect(reg.ok(), await reg.text()).toBeTruthy()
  const code = await latestCode(request, mobile, /verification/i)
  const { registrationToken } = (await reg.json()).data
  const ok = await request.post('/api/verifyMobileVerificationCode', { data: { mobile, code, registrationToken } })
  expect(ok.ok(), await ok.text()).toBeTruthy()
  return mobile
}

/** Signs a passenger in through the API; answers the bearer token. */
export async function apiToken(request: APIRequestContext, mobile: string): Promise<string> {
  const login = await request.post('/api/checkPassenger', { data: { mobile, password: PASSWORD } })
  expect(login.ok(), await login.text()).toBeTruthy()
  return ((await login.json()) as { data: { token: string } }).data.token
}

/**
 * Through the API, as another passenger would from their own device: a new passenger
 * books `seats` free seats of the trip (from Dhaka to Chattogram unless told), and pays
 * by card through the sandbox gateway when `pay` is set. Answers who and what.
 */
export async function bookThroughApi(
  request: APIRequestContext,
  trip: { tripId: number; from?: string; to?: string },
  opts: { seats?: number; pay?: boolean } = {},
): Promise<{ mobile: string; token: string; seats: string[]; reservationId: number; paymentId?: string }> {
  const mobile = await createPassenger(request)
  const token = await apiToken(request, mobile)
  const headers = { Authorization: `Bearer ${token}` }
  const [originCode, destinationCode] = [trip.from ?? 'DHK', trip.to ?? 'CTG']
  const post = async <T>(path: string, data: unknown): Promise<T> => {
    const res = await request.post(`/api${path}`, { data, headers })
    expect(res.ok(), `${path}: ${await res.text()}`).toBeTruthy()
    return ((await res.json()) as { data: T }).data
  }
  const details = await post<{
    tripDate: string
    coach: { code: string }
    seatLayout: { seats: { name: string; status: number; lockedByOther: boolean; lockedByMe: boolean }[] }
  }>('/reservation/tripDetails', { tripId: trip.tripId, originCode, destinationCode, originBusStationId: null, destinationBusStationId: null })
  const seats = details.seatLayout.seats
    .filter((s) => s.name !== 'OPEN' && s.status === 0 && !s.lockedByOther && !s.lockedByMe)
    .slice(0, opts.seats ?? 1)
    .map((s) => s.name)
  const stations = await post<{ boarding: { id: number }[]; dropping: { id: number }[] }>('/busStationsByOriginDestinationAndTripDate', {
    originCode,
    destinationCode,
    tripDate: details.tripDate,
    tripId: trip.tripId,
  })
  const locked = await post('/reservation/seatLock', {
    tripDate: details.tripDate,
    coachCode: details.coach.code,
    originCode,
    destinationCode,
    seatNames: seats,
    locked: true,
  })
  // free a moment ago, taken now: another test of the run books on this trip too (each should have trips of its own)
  expect(
    locked,
    `seats ${seats.join(', ')} of ${details.coach.code} on ${details.tripDate} were taken between the seat map and the lock`,
  ).toBeTruthy()
  const booked = await post<{ id: number }>('/reservation/booking', {
    tripId: trip.tripId,
    seatNames: seats,
    boardingStationId: stations.boarding[0]!.id,
    droppingStationId: stations.dropping[0]!.id,
    passengerName: 'Karim Rahman',
    passengerMobile: mobile,
  })
  if (opts.pay) {
    const { redirectUrl, paymentId } = await post<{ redirectUrl: string; paymentId: string }>('/reservation/payment', { reservationId: booked.id })
    const approved = await request.post(redirectUrl, { form: { decision: 'approve' }, maxRedirects: 0 })
    expect(approved.status()).toBe(303)
    return { mobile, token, seats, reservationId: booked.id, paymentId }
  }
  return { mobile, token, seats, reservationId: booked.id }
}

/** A trip as the search answers it. */
export interface TripRow {
  tripId: number
  coachCode: string
  coachType: string
  availableSeats: number
}

/** The `index`-th trip (Dhaka to Chattogram) `days` ahead with seats to spare: each test takes its own. */
export async function tripFor(request: APIRequestContext, days: number, index: number): Promise<{ trip: TripRow; date: string }> {
  const date = dhakaDate(days)
  const res = await request.post('/api/reservation/tripSearch', { data: { originCode: 'DHK', destinationCode: 'CTG', tripDate: date } })
  expect(res.ok()).toBe(true)
  const trips = ((await res.json()) as { data: TripRow[] }).data.filter((t) => t.availableSeats > 5)
  expect(trips.length).toBeGreaterThan(index)
  return { trip: trips[index]!, date }
}

/**
 * `page` as against a server without the live seat map (the stream answers 404, as a backend
 * without the route would): its seat map shows what it loaded and goes stale, so a seat another
 * passenger takes meanwhile meets the lock-lost dialog (e2e/live-seats.spec.ts has the live one).
 */
export async function withoutLiveSeatMap(page: Page): Promise<void> {
  await page.route('**/api/reservation/seatEvents/**', (route) =>
    route.fulfill({ status: 404, json: { error: { code: 'NOT_FOUND', reason: 'Not found.' } } }),
  )
}

/** The seat page of a Dhaka–Chattogram trip. */
export const reservationUrl = (trip: TripRow, date: string) => `/reservation?tripId=${trip.tripId}&from=DHK&to=CTG&date=${date}`

/** A new passenger with `amount` Tk topped up through the sandbox gateway. */
export async function fundedPassenger(request: APIRequestContext, amount: number): Promise<string> {
  const mobile = await createPassenger(request)
  await topUp(request, mobile, amount)
  return mobile
}

/** Tops `mobile`'s balance up by `amount` Tk through the sandbox gateway. */
export async function topUp(request: APIRequestContext, mobile: string, amount: number): Promise<void> {
  const token = await apiToken(request, mobile)
  const res = await request.post('/api/account/topUp', { data: { amount }, headers: { Authorization: `Bearer ${token}` } })
  const { redirectUrl } = ((await res.json()) as { data: { redirectUrl: string } }).data
  const approved = await request.post(redirectUrl, { form: { decision: 'approve' }, maxRedirects: 0 })
  expect(approved.status()).toBe(303)
}

/**
 * Signs `mobile` in for every page of `context` the way the app keeps a session (session storage:
 * token, passenger, company), without going through /login.
 */
export async function signInContext(context: BrowserContext, request: APIRequestContext, mobile: string, password = PASSWORD): Promise<void> {
  const res = await request.post('/api/checkPassenger', { data: { mobile, password } })
  expect(res.ok(), await res.text()).toBeTruthy()
  const s = ((await res.json()) as { data: { token: string; passenger: unknown; company: unknown } }).data
  await context.addInitScript((session) => {
    if (sessionStorage.getItem('token')) return
    sessionStorage.setItem('token', session.token)
    sessionStorage.setItem('passenger', JSON.stringify(session.passenger))
    sessionStorage.setItem('company', JSON.stringify(session.company))
  }, s)
}

/** A new browser context signed in as the ticket's passenger, in `lang`, on the ticket's page; answers the page (close its context after). */
export async function openOwnTicket(
  browser: Browser,
  request: APIRequestContext,
  ticket: { mobile: string; reservationId: number },
  lang: Lang,
): Promise<Page> {
  const context = await browser.newContext()
  await signInContext(context, request, ticket.mobile)
  const page = await context.newPage()
  await page.addInitScript((l) => sessionStorage.setItem('language', l), lang)
  await page.goto(`/ticket-operation?reservationId=${ticket.reservationId}`)
  await pageHeading(page)
  await expect(page.locator('html')).toHaveAttribute('lang', lang)
  return page
}

/** Marks the home page's announcements as shown (docs/spec.md section 2: shown ids are skipped). */
export async function announcementsSeen(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, title: '', titleBn: '' }))
    sessionStorage.setItem('announcement', JSON.stringify(seen))
  })
}

/**
 * What keeps the focused control from being seen (WCAG 2.4.11), or null: focus on the page body, the
 * control outside the viewport, or something else on top of it at the middle of its top edge, its
 * centre or the middle of its bottom edge (what a click there would hit instead). A control's own
 * parts (a combobox's button beside its field) do not count.
 */
export function focusObscured(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const el = document.activeElement
    if (!(el instanceof HTMLElement) || el === document.body) return 'focus is on the page body'
    const name = (e: Element) =>
      `${e.tagName.toLowerCase()} "${(e.getAttribute('aria-label') ?? e.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`
    // a control drawn as a tiny box (a visually hidden input) shows through its label
    const shown = el.getBoundingClientRect().width < 4 ? ((el as HTMLInputElement).labels?.[0] ?? el) : el
    const own = shown.closest('[data-part="control"]') ?? shown
    const r = shown.getBoundingClientRect()
    const x = r.left + r.width / 2
    const inset = Math.min(3, r.height / 2)
    for (const y of [r.top + inset, r.top + r.height / 2, r.bottom - inset]) {
      if (x < 0 || x >= innerWidth || y < 0 || y >= innerHeight) return `${name(el)} is outside the viewport (${Math.round(x)}, ${Math.round(y)})`
      const hit = document.elementFromPoint(x, y)
      if (hit && !own.contains(hit)) return `${name(el)} is covered at (${Math.round(x)}, ${Math.round(y)}) by ${name(hit)}`
    }
    return null
  })
}

/**
 * Tabs through the page from where focus is now until focus leaves the page (at most `max` steps),
 * expecting after each Tab that nothing covers the focused control. Answers how many controls it visited.
 */
export async function tabExpectingUncovered(page: Page, label: string, max = 80): Promise<number> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    if (await page.evaluate(() => document.activeElement === document.body || !document.hasFocus())) return i
    expect(await focusObscured(page), `${label}, Tab ${i + 1}`).toBeNull()
  }
  return max
}

/** The app's two languages. */
export type Lang = 'en' | 'bn'

/** `text`'s digits in `lang`'s (Bengali digits in Bengali). */
export function digits(lang: Lang, text: string): string {
  return lang === 'bn' ? text.replace(/\d/g, (d) => '০১২৩৪৫৬৭৮৯'[Number(d)]!) : text
}

/** A message of the app in `lang`, with simple `{name}` and `{name, number}` values filled in (numbers in the language's digits). */
export function m(lang: Lang, id: string, values: Record<string, string | number> = {}): string {
  const text = messages[lang][id]
  if (text === undefined) throw new Error(`no message ${id}`)
  return text.replace(/\{(\w+)(, number[^}]*)?\}/g, (whole, k: string, num?: string) =>
    k in values ? (num ? digits(lang, String(values[k])) : String(values[k])) : whole,
  )
}

/** A message as a pattern: the parts around its `{values}` match anything. */
export function mx(lang: Lang, id: string): RegExp {
  const parts = messages[lang][id]!.split(/\{\w+(?:, number[^}]*)?\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(parts.join('.*'))
}

/** On /login: a new mobile no., Continue, then the sign-up form filled in (not sent yet). */
export async function fillSignUp(page: Page, lang: Lang, mobile: string): Promise<void> {
  await page.getByLabel(m(lang, 'login.mobile')).fill(mobile)
  await page.getByRole('button', { name: m(lang, 'login.continue') }).click()
  await page.getByLabel(m(lang, 'login.fullName')).fill('Nusrat Jahan')
  await page.getByRole('textbox', { name: m(lang, 'login.email'), exact: true }).fill(`n${mobile}@example.com`)
  await page.getByLabel(m(lang, 'login.city')).fill('Dhaka')
  await page.getByLabel(m(lang, 'login.password'), { exact: true }).fill(PASSWORD)
  await page.getByLabel(m(lang, 'login.confirmPassword')).fill(PASSWORD)
}

/** On a seat page whose waitlist offers `seat`: "Book these seats", then the normal booking, to the booked heading. */
export async function bookWaitlistOffer(page: Page, seat: string): Promise<void> {
  await page
    .getByTestId('waitlist')
    .getByRole('button', { name: m('en', 'waitlist.book') })
    .click()
  await expect(page.locator(`[data-seat="${seat}"]:visible`)).toHaveAttribute('data-state', 'selected')
  await page.getByLabel(m('en', 'seatChoice.boarding')).selectOption({ index: 1 })
  await page.getByLabel(m('en', 'seatChoice.dropping')).selectOption({ index: 1 })
  const panel = page.getByTestId('booking-panel')
  await panel.getByRole('button', { name: m('en', 'booking.book') }).click()
  await expect(panel.getByRole('heading', { name: m('en', 'booking.bookedHeading') })).toBeVisible()
}

/** Every free seat of the trip held by visitors (5 a device, the most one holder may hold). */
export async function holdEveryFreeSeat(request: APIRequestContext, trip: TripRow, date: string): Promise<void> {
  const res = await request.post('/api/reservation/tripDetails', {
    data: { tripId: trip.tripId, originCode: 'DHK', destinationCode: 'CTG', originBusStationId: null, destinationBusStationId: null },
  })
  const seats = (
    (await res.json()) as { data: { seatLayout: { seats: { name: string; status: number; lockedByOther: boolean }[] } } }
  ).data.seatLayout.seats
    .filter((s) => s.name !== 'OPEN' && s.status === 0 && !s.lockedByOther)
    .map((s) => s.name)
  for (let i = 0; i < seats.length; i += 5) {
    const lock = await request.post('/api/reservation/seatLock', {
      data: { tripDate: date, coachCode: trip.coachCode, originCode: 'DHK', destinationCode: 'CTG', seatNames: seats.slice(i, i + 5), locked: true },
      headers: { 'X-Device-Id': `waitlist-filler-${trip.tripId}-${i}` },
    })
    expect((await lock.json()).data, `seats ${seats.slice(i, i + 5)}`).toBeTruthy()
  }
  // Trip searches are answered from memory for SEARCH_CACHE_MS (2 s): wait until they too say
  // the trip is sold out, or a search page opened next may still show its seats free.
  const searched = async () => {
    const search = await request.post('/api/reservation/tripSearch', { data: { originCode: 'DHK', destinationCode: 'CTG', tripDate: date } })
    return ((await search.json()) as { data: TripRow[] }).data.find((t) => t.tripId === trip.tripId)?.availableSeats
  }
  await expect.poll(searched, { message: `trip ${trip.tripId} searched as sold out`, timeout: 30_000 }).toBe(0)
}
