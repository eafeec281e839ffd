/**
 * The live seat map in the browser: two passengers on two server processes sharing one
 * PostgreSQL see each other's holds within a second; the page survives a restart of its
 * server (reconnects, reloads the seats once); against a server without the stream, or one that
 * refuses it for too many streams from one address (429), it checks each seat when chosen; and
 * what the live region says about other passengers' changes, and how
 * often. The PostgreSQL and restart tests start their own server processes.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test'
import { postgresMissing, startPostgres, type TestPostgres } from '../harness/postgres.ts'
import { spawnServer, type ServerProcess } from '../server/test/proc.ts'
import { skipLine, underCi } from '../server/test/skip.ts'
import { type EventStream, openEvents } from '../harness/sse-client.ts'
import { dhakaDate, m, pageHeading } from './helpers.ts'
import { recordLiveRegions, said } from './live-regions.ts'

interface Trip {
  tripId: number
  tripDate: string
  coachCode: string
}

/** The first AC Standard trip from Dhaka to Chattogram `days` ahead, on the server at `base` ('' for the test run's own). */
async function standardTrip(request: APIRequestContext, days: number, base = ''): Promise<Trip> {
  const tripDate = dhakaDate(days)
  const res = await request.post(`${base}/api/reservation/tripSearch`, { data: { originCode: 'DHK', destinationCode: 'CTG', tripDate } })
  expect(res.ok(), await res.text()).toBe(true)
  const trip = ((await res.json()) as { data: (Trip & { coachType: string })[] }).data.find((t) => t.coachType === 'AC_STANDARD')
  expect(trip, `an AC Standard trip on ${tripDate}`).toBeTruthy()
  return trip!
}

const reservationUrl = (t: Trip, base = '') => `${base}/reservation?tripId=${t.tripId}&from=DHK&to=CTG&date=${t.tripDate}`

async function openSeats(page: Page, t: Trip, base = ''): Promise<void> {
  await page.goto(reservationUrl(t, base))
  await pageHeading(page)
  await expect(page.getByRole('grid').first()).toBeVisible()
}

/** Another passenger holding `seats` through the API, as their own browser would. */
async function holdAs(request: APIRequestContext, t: Trip, seats: string[], device: string, base = ''): Promise<void> {
  const res = await request.post(`${base}/api/reservation/seatLock`, {
    headers: { 'x-device-id': device },
    data: {
      tripId: t.tripId,
      tripDate: t.tripDate,
      coachCode: t.coachCode,
      originCode: 'DHK',
      destinationCode: 'CTG',
      seatNames: seats,
      locked: true,
    },
  })
  expect((await res.json()).data, `lock of ${seats.join(', ')}`).toBeTruthy()
}

/** Names of seats the page shows available now, in grid order. */
async function availableNames(page: Page, n: number): Promise<string[]> {
  const names = await page
    .getByRole('grid')
    .locator('button[data-state="available"]:visible')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-seat')!))
  expect(names.length).toBeGreaterThanOrEqual(n)
  return names.slice(0, n)
}

/** Records, in the page, when each seat button's state changes (epoch ms): read with `changedAt`. */
async function watchSeatStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __seatChanges: { seat: string; state: string; at: number }[] }
    w.__seatChanges = []
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target as HTMLElement
        if (el.dataset.seat) w.__seatChanges.push({ seat: el.dataset.seat, state: el.dataset.state ?? '', at: Date.now() })
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-state'] })
  })
}

async function changedAt(page: Page, seat: string, state: string): Promise<number> {
  let at = 0
  await expect
    .poll(async () => {
      at = await page.evaluate(
        ([s, st]) =>
          (window as unknown as { __seatChanges: { seat: string; state: string; at: number }[] }).__seatChanges.find(
            (c) => c.seat === s && c.state === st,
          )?.at ?? 0,
        [seat, state],
      )
      return at
    })
    .toBeGreaterThan(0)
  return at
}

const summaries = async (page: Page) => (await said(page)).filter((s) => /taken by (other|another) passengers?|became available/.test(s.text))

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage()
}

test.describe('live seat map on PostgreSQL, two server processes', () => {
  // like every PostgreSQL test: without the binaries it is skipped and named (server/test/skip.ts), a failure under CI
  const missing = postgresMissing()
  let pg: TestPostgres
  let a: ServerProcess
  let b: ServerProcess

  test.beforeAll(async () => {
    if (missing) return
    test.setTimeout(240_000)
    pg = await startPostgres()
    const url = await pg.createDatabase('live_seats')
    a = await spawnServer({ DATABASE_URL: url })
    await a.ready
    b = await spawnServer({ DATABASE_URL: url })
    await b.ready
  })
  test.afterAll(async () => {
    a?.kill()
    b?.kill()
    await Promise.all([a?.exited, b?.exited])
    await pg?.stop()
  })

  test('two passengers, one on each process, see each other’s holds within a second', async ({ browser, request }, info) => {
    if (missing) {
      if (underCi()) throw new Error(`${missing} (CI is set, so a skipped test is a failure)`)
      console.log(skipLine('e2e', `live-seats.spec.ts › ${info.titlePath.slice(1).join(' › ')}`, missing))
      test.skip(true, missing)
    }
    const trip = await standardTrip(request, 3, a.url)
    const one = await newPage(browser)
    const two = await newPage(browser)
    await openSeats(one, trip, a.url)
    await openSeats(two, trip, b.url)
    await watchSeatStates(one)
    await watchSeatStates(two)
    const [x, y] = await availableNames(one, 2)

    // passenger one (process A) holds x: passenger two (process B) sees it held
    const lockedOne = one.waitForResponse((r) => r.url().endsWith('/api/reservation/seatLock'))
    const clickedOne = Date.now()
    await one.locator(`[data-seat="${x}"]`).click()
    await lockedOne
    const seenByTwo = await changedAt(two, x!, 'held')
    expect(seenByTwo - clickedOne, 'click on A → seat held on B (ms)').toBeLessThan(1000)
    await expect(two.locator(`[data-seat="${x}"]`)).toHaveAccessibleName(new RegExp(`^Seat ${x}, .*, held by another passenger, unavailable$`))

    // and the other way round
    const lockedTwo = two.waitForResponse((r) => r.url().endsWith('/api/reservation/seatLock'))
    const clickedTwo = Date.now()
    await two.locator(`[data-seat="${y}"]`).click()
    await lockedTwo
    const seenByOne = await changedAt(one, y!, 'held')
    expect(seenByOne - clickedTwo, 'click on B → seat held on A (ms)').toBeLessThan(1000)

    // choosing the seat the other holds: said, without a lock request or the lock-lost dialog
    const asked: string[] = []
    two.on('request', (r) => {
      if (r.url().endsWith('/api/reservation/seatLock')) asked.push(...(r.postDataJSON() as { seatNames: string[] }).seatNames)
    })
    await two.locator(`[data-seat="${x}"]`).click({ force: true })
    await expect(two.getByRole('region', { name: /notifications/i }).getByText(`Seat ${x} was just taken by another passenger.`)).toBeVisible()
    await expect(two.getByRole('alertdialog')).toHaveCount(0)
    expect(asked).toEqual([])

    // a release comes back as available
    await one.locator(`[data-seat="${x}"]`).click()
    await expect(two.locator(`[data-seat="${x}"]`)).toHaveAttribute('data-state', 'available', { timeout: 1000 })
    await one.context().close()
    await two.context().close()
  })
})

test.describe('live seat map across a server restart', () => {
  test('the open page reconnects after its server restarts, reloads the seats once, and shows what changed meanwhile', async ({
    browser,
    request,
  }) => {
    test.setTimeout(180_000)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'live-restart-'))
    let server = await spawnServer({ DATA_DIR: dir })
    await server.ready
    const port = String(server.port)
    try {
      const trip = await standardTrip(request, 2, server.url)
      const page = await newPage(browser)
      await openSeats(page, trip, server.url)
      const [mine, theirs] = await availableNames(page, 2)
      const locked = page.waitForResponse((r) => r.url().endsWith('/api/reservation/seatLock'))
      await page.locator(`[data-seat="${mine}"]`).click()
      await expect(page.locator(`[data-seat="${mine}"]`)).toHaveAttribute('aria-pressed', 'true')
      await locked

      server.kill('SIGTERM')
      expect(await server.exited).toBe(0)
      await expect(page.getByRole('status').filter({ hasText: 'Seats may be out of date' })).toBeVisible()

      const loads: string[] = []
      const streams: string[] = []
      page.on('request', (r) => {
        if (r.url().endsWith('/api/reservation/tripDetails')) loads.push(r.url())
        if (r.url().includes('/api/reservation/seatEvents/')) streams.push(r.url())
      })
      server = await spawnServer({ DATA_DIR: dir, PORT: port })
      await server.ready
      // another passenger takes a seat as soon as the server is back, before or after the page reconnects
      await holdAs(request, trip, [theirs!], 'restart-other-01', server.url)

      await expect(page.locator(`[data-seat="${theirs}"]`)).toHaveAttribute('data-state', 'held', { timeout: 60_000 })
      await expect(page.getByRole('status').filter({ hasText: 'Seats may be out of date' })).toHaveCount(0)
      // the passenger's own hold survived, and the seats were read again exactly once
      await expect(page.locator(`[data-seat="${mine}"]`)).toHaveAttribute('aria-pressed', 'true')
      expect(streams.length).toBeGreaterThanOrEqual(1)
      // and it is live again
      const [next] = await availableNames(page, 1)
      await holdAs(request, trip, [next!], 'restart-other-02', server.url)
      await expect(page.locator(`[data-seat="${next}"]`)).toHaveAttribute('data-state', 'held', { timeout: 1000 })
      // by now the reconnected stream has delivered an event: its one reload came before it
      expect(loads).toHaveLength(1)
      await page.context().close()
    } finally {
      server.kill('SIGKILL')
      await server.exited
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

test.describe('live seat map refused for too many streams from one address', () => {
  test('a 429 from SEAT_STREAMS_PER_ADDRESS: the seat page works without a live map, no note, no error, no retries', async ({ browser, request }) => {
    test.setTimeout(180_000)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'live-per-address-'))
    // every browser and request here comes from 127.0.0.1: one stream is all that address may keep
    const server = await spawnServer({ DATA_DIR: dir, SEAT_STREAMS_PER_ADDRESS: '1' })
    let held: EventStream | null = null
    try {
      await server.ready
      const trip = await standardTrip(request, 3, server.url)
      held = await openEvents(`${server.url}/api/reservation/seatEvents/${trip.tripId}`)
      expect(held.status).toBe(200)
      await held.next((e) => e.event === 'snapshot')

      const page = await newPage(browser)
      // the browser's timers move when the test says so (on top of the real time)
      await page.clock.install()
      const answers: number[] = []
      let asked = 0
      page.on('request', (r) => {
        if (r.url().includes('/api/reservation/seatEvents/')) asked++
      })
      page.on('response', (r) => {
        if (r.url().includes('/api/reservation/seatEvents/')) answers.push(r.status())
      })
      await openSeats(page, trip, server.url)
      await expect.poll(() => answers).toEqual([429])
      const [x, y] = await availableNames(page, 2)
      await holdAs(request, trip, [x!], 'per-address-other-01', server.url)
      // past the longest first reconnect's backoff (1.2 s): any retry's timer has fired
      await page.clock.runFor(3000)
      // nothing live: the seat another passenger took still shows available until it is chosen
      await expect(page.locator(`[data-seat="${x}"]`)).toHaveAttribute('data-state', 'available')
      await expect(page.getByText('Seats may be out of date')).toHaveCount(0)
      await expect(page.getByRole('alertdialog')).toHaveCount(0)
      // choosing seats works as before, checked by the server when chosen
      const locked = page.waitForResponse((r) => r.url().endsWith('/api/reservation/seatLock'))
      await page.locator(`[data-seat="${y}"]`).click()
      expect((await locked).status()).toBe(200)
      await expect(page.getByTestId('selected-seats')).toHaveText(y!)
      // no retry: a stream asked for by the timers above would have gone out before this seat's lock
      expect(asked).toBe(1)
      expect(answers).toEqual([429])
      await page.context().close()
    } finally {
      held?.close()
      server.kill('SIGKILL')
      await server.exited
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

test.describe('live seat map on the test server', () => {
  test('a server without the stream: today’s behaviour, no note, no error, no retries', async ({ page, request }) => {
    const trip = await standardTrip(request, 22)
    let asked = 0
    await page.route('**/api/reservation/seatEvents/**', (route) => {
      asked++
      return route.fulfill({ status: 404, json: { error: { code: 'NOT_FOUND', reason: 'Not found.' } } })
    })
    // the browser's timers move when the test says so (on top of the real time)
    await page.clock.install()
    await openSeats(page, trip)
    const [x, y] = await availableNames(page, 2)
    await expect.poll(() => asked).toBe(1)
    await holdAs(request, trip, [x!], 'fallback-other-01')
    // past the longest first reconnect's backoff (1.2 s): any retry's timer has fired
    await page.clock.runFor(3000)
    // nothing live: the seat still shows available until it is chosen
    await expect(page.locator(`[data-seat="${x}"]`)).toHaveAttribute('data-state', 'available')
    await expect(page.getByText('Seats may be out of date')).toHaveCount(0)
    await expect(page.getByRole('alertdialog')).toHaveCount(0)
    // choosing seats still works: each is checked by the server
    const locked = page.waitForResponse((r) => r.url().endsWith('/api/reservation/seatLock'))
    await page.locator(`[data-seat="${y}"]`).click()
    await locked
    await expect(page.getByTestId('selected-seats')).toHaveText(y!)
    // no retry: a stream asked for by the timers above would have gone out before this seat's lock
    expect(asked).toBe(1)
  })

  test('offline: the page says seats may be out of date; back online, it follows the seats again', async ({ page, request }) => {
    const trip = await standardTrip(request, 23)
    await openSeats(page, trip)
    const [x, y] = await availableNames(page, 2)
    await holdAs(request, trip, [x!], 'offline-other-01')
    await expect(page.locator(`[data-seat="${x}"]`)).toHaveAttribute('data-state', 'held')
    const stale = page.getByRole('status').filter({ hasText: 'Seats may be out of date' })
    await page.context().setOffline(true)
    await expect(stale).toBeVisible()
    // taken while this passenger is offline: shown once the page is back
    await holdAs(request, trip, [y!], 'offline-other-02')
    await page.context().setOffline(false)
    await expect(page.locator(`[data-seat="${y}"]`)).toHaveAttribute('data-state', 'held')
    await expect(stale).toHaveCount(0)
  })

  test('the live region: silent changes, one summary of other passengers’ seats, at most every 10 s, held while moving through the grid', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000)
    const trip = await standardTrip(request, 24)
    // the browser's clock: real time until the arrow keys below, then only as the test moves it
    await page.clock.install()
    await openSeats(page, trip)
    await recordLiveRegions(page)
    const seats = await availableNames(page, 7)
    await holdAs(request, trip, [seats[0]!], 'summary-other-01')
    await holdAs(request, trip, [seats[1]!], 'summary-other-02')
    await holdAs(request, trip, [seats[2]!, seats[3]!], 'summary-other-03')
    await expect(page.locator(`[data-seat="${seats[3]}"]`)).toHaveAttribute('data-state', 'held')
    await expect.poll(async () => (await summaries(page)).map((s) => s.text)).toEqual(['4 seats were taken by other passengers.'])
    const first = (await summaries(page))[0]!.at

    // another within the next 10 s: said no sooner than 10 s after the first
    await holdAs(request, trip, [seats[4]!], 'summary-other-04')
    await expect(page.locator(`[data-seat="${seats[4]}"]`)).toHaveAttribute('data-state', 'held')
    await page.clock.runFor(10_000)
    await expect.poll(async () => (await summaries(page)).length).toBe(2)
    const second = (await summaries(page))[1]!
    expect(second.text).toBe('1 seat was taken by another passenger.')
    expect(second.at - first).toBeGreaterThanOrEqual(9_900)

    // moving through the grid with the arrow keys: nothing said until the keys stop
    await page.locator(`[data-seat="${seats[6]}"]`).focus()
    await holdAs(request, trip, [seats[5]!], 'summary-other-05')
    await expect(page.locator(`[data-seat="${seats[5]}"]`)).toHaveAttribute('data-state', 'held')
    // a key every 700 ms of the page's time for 11 s, however slow the machine: past the 10 s
    // between summaries, and never 4 s (GRID_BUSY_MS) without a key
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100)
    let lastKey = 0
    for (let i = 0; i < 16; i++) {
      await page.keyboard.press(i % 2 ? 'ArrowLeft' : 'ArrowRight')
      lastKey = await page.evaluate(() => Date.now())
      await page.clock.runFor(700)
    }
    expect(await summaries(page)).toHaveLength(2)
    await page.clock.runFor(10_000)
    await expect.poll(async () => (await summaries(page)).length).toBe(3)
    const third = (await summaries(page))[2]!
    expect(third.text).toBe('1 seat was taken by another passenger.')
    expect(third.at - lastKey).toBeGreaterThan(3000)
    await page.clock.resume()
  })

  for (const [index, lang] of (['en', 'bn'] as const).entries()) {
    test(`${lang}: the summary says when the seat the passenger is on was among those taken`, async ({ page, context, request }) => {
      test.setTimeout(90_000)
      await context.addInitScript((l) => sessionStorage.setItem('language', l), lang)
      const trip = await standardTrip(request, 28 + index)
      await openSeats(page, trip)
      await recordLiveRegions(page)
      const [here, next, away] = await availableNames(page, 3)
      // the passenger rests on a seat (no key pressed for a while): another passenger takes it and the next one
      await page.locator(`[data-seat="${here}"]`).focus()
      await holdAs(request, trip, [here!, next!], `focused-other-${lang}`)
      await expect(page.locator(`[data-seat="${here}"]`)).toHaveAttribute('data-state', 'held')
      await expect(page.locator(`[data-seat="${here}"]`)).toBeFocused()
      const focusedTaken = m(lang, 'seatChoice.announceFocusedTaken', { name: here! })
      const two = lang === 'en' ? '2 seats were taken by other passengers.' : 'অন্য যাত্রীরা ২টি আসন নিয়েছেন।'
      await expect.poll(async () => (await said(page)).map((s) => s.text), { timeout: 15_000 }).toContain(`${focusedTaken} ${two}`)
      // a seat taken away from where the passenger is: the count alone
      await page.locator(`[data-seat="${here}"]`).blur()
      await holdAs(request, trip, [away!], `away-other-${lang}`)
      const one = lang === 'en' ? '1 seat was taken by another passenger.' : 'অন্য একজন যাত্রী ১টি আসন নিয়েছেন।'
      await expect.poll(async () => (await said(page)).map((s) => s.text), { timeout: 20_000 }).toContain(one)
    })
  }
})
