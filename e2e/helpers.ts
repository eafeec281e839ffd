/** Shared helpers for the browser tests: the axe check, the app's routes, passengers and bookings made through the API. */
import fs from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { routes } from '../src/routes.ts'

/** Every route of docs/spec.md section 2 that a visitor can open directly (the app's route table, restricted ones left out). */
export const publicRoutes = routes.filter((r) => !r.restricted).map((r) => r.path)

/** The app's messages, by language (locales/). */
export const messages: Record<'en' | 'bn', Record<string, string>> = {
  en: JSON.parse(fs.readFileSync(new URL('../locales/en.json', import.meta.url), 'utf8')),
  bn: JSON.parse(fs.readFileSync(new URL('../locales/bn.json', import.meta.url), 'utf8')),
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

/** Runs axe with the WCAG 2.0/2.1/2.2 A and AA rules and expects no violations. */
export async function expectNoAxeViolations(page: Page, label = page.url()): Promise<void> {
  // a frame mid-animation (toasts sliding in over each other) is not what anyone uses
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5_000 })
    .catch(() => undefined)
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']).analyze()
  const summary = result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes[0]?.target.join(' ')} — ${v.help}`)
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
  expect(
    await post('/reservation/seatLock', {
      tripDate: details.tripDate,
      coachCode: details.coach.code,
      originCode,
      destinationCode,
      seatNames: seats,
      locked: true,
    }),
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
