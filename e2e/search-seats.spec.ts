/**
 * Issue 4: home search, results (filters, sort, URL round trip) and seat
 * choice (mouse, keyboard, lock conflicts, the 5-seat cap, reset, a11y),
 * against the real server with fresh demo data.
 */
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test'
import { announcementsSeen, bookThroughApi, comboboxFrameDone, dhakaDate, expectNoAxeViolations, pageHeading, withoutLiveSeatMap } from './helpers.ts'

const tomorrow = dhakaDate(1)

/**
 * Days ahead for the tests that hold seats on a Dhaka–Chattogram AC Standard trip. The tests run in
 * parallel against one server and each takes the first free seat it sees, so two of them holding seats
 * on one trip at the same time take each other's seats: the loser's lock answer is falsy and it gets the
 * lock-lost dialog instead of its seat. Every test that holds seats has a trip of its own: the mouse test
 * tomorrow's first AC Standard, the others below, and tomorrow's Non-AC, Sleeper and Business trips one
 * test each (booking.spec.ts books on days 4 to 7).
 */
const ownDay = { keyboard: dhakaDate(8), lockLost: dhakaDate(9), leaving: dhakaDate(10), unlock: dhakaDate(11), expiry: dhakaDate(12) } as const

interface TripRow {
  tripId: number
  coachType: string
  coachCode: string
  availableSeats: number
}

async function findTrips(request: APIRequestContext, date = tomorrow): Promise<TripRow[]> {
  const res = await request.post('/api/reservation/tripSearch', { data: { originCode: 'DHK', destinationCode: 'CTG', tripDate: date } })
  expect(res.ok()).toBe(true)
  return ((await res.json()) as { data: TripRow[] }).data
}

async function tripOf(request: APIRequestContext, coachType: string, date = tomorrow): Promise<TripRow> {
  const trip = (await findTrips(request, date)).find((t) => t.coachType === coachType)
  expect(trip, `a ${coachType} trip on ${date}`).toBeTruthy()
  return trip!
}

const reservationUrl = (t: TripRow, date = tomorrow) => `/reservation?tripId=${t.tripId}&from=DHK&to=CTG&date=${date}`

/** The seat buttons of the visible deck grid that are available right now. */
function availableSeats(page: Page): Locator {
  return page.getByRole('grid').locator('button[data-state="available"]:visible')
}

/** A seat button by its seat name, whatever its state (the accessible name starts `Seat <name>,`). */
function seatNamed(page: Page, name: string): Locator {
  return page.getByRole('grid').getByRole('button', { name: new RegExp(`^Seat ${name},`) })
}

/** The first available seat of the visible deck and its name, read from its accessible name. */
async function firstAvailable(page: Page): Promise<{ seat: Locator; name: string }> {
  const label = (await page
    .getByRole('grid')
    .getByRole('button', { name: /, available$/ })
    .first()
    .getAttribute('aria-label'))!
  const name = /^Seat (\S+),/.exec(label)![1]!
  return { seat: seatNamed(page, name), name }
}

/** Whether anyone but the asker holds the seat, as any other visitor's tripDetails says. */
async function heldByAnyone(request: APIRequestContext, trip: TripRow, name: string): Promise<boolean> {
  const res = await request.post('/api/reservation/tripDetails', {
    data: { tripId: trip.tripId, originCode: 'DHK', destinationCode: 'CTG', originBusStationId: null, destinationBusStationId: null },
  })
  const seats = ((await res.json()) as { data: { seatLayout: { seats: { name: string; lockedByOther: boolean }[] } } }).data.seatLayout.seats
  return seats.find((s) => s.name === name)!.lockedByOther
}

async function openSeats(page: Page, trip: TripRow, date = tomorrow) {
  await page.goto(reservationUrl(trip, date))
  await pageHeading(page)
  await expect(page.getByRole('grid').first()).toBeVisible()
}

/** Seat names the server says this page's visitor (its X-Device-Id) holds, and those held by someone else. */
async function serverLocks(page: Page, trip: TripRow): Promise<{ mine: string[]; others: string[] }> {
  return page.evaluate(async (tripId) => {
    const res = await fetch('/api/reservation/tripDetails', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Device-Id': sessionStorage.getItem('deviceId') ?? '' },
      body: JSON.stringify({ tripId, originCode: 'DHK', destinationCode: 'CTG', originBusStationId: null, destinationBusStationId: null }),
    })
    const { data } = (await res.json()) as { data: { seatLayout: { seats: { name: string; lockedByMe: boolean; lockedByOther: boolean }[] } } }
    return {
      mine: data.seatLayout.seats
        .filter((s) => s.lockedByMe)
        .map((s) => s.name)
        .sort(),
      others: data.seatLayout.seats
        .filter((s) => s.lockedByOther)
        .map((s) => s.name)
        .sort(),
    }
  }, trip.tripId)
}

async function otherPassenger(browser: Browser): Promise<Page> {
  const ctx = await browser.newContext()
  return ctx.newPage()
}

/** Waits until the plain city selects have been swapped for the type-ahead comboboxes. */
async function enhanced(page: Page) {
  await expect(page.locator('input[role="combobox"]')).toHaveCount(2)
}

async function pickCity(page: Page, label: 'From' | 'To', typed: string, option: string) {
  await enhanced(page)
  const input = page.getByRole('combobox', { name: label })
  await input.click()
  // the list opened by the click moves the caret to the field's end a frame later: typing must come after it
  await comboboxFrameDone(page)
  await input.fill(typed)
  await page.getByRole('option', { name: option }).click()
  await expect(input).toHaveValue(option)
  // and focus comes back to this field a frame after the choice: the next step must not race it
  await comboboxFrameDone(page)
}

// Home-page announcements in the page push the form's neighbours down; these tests start from the
// page without them (SPEC: shown titles are skipped, compared by id).
test.beforeEach(async ({ context }) => {
  await announcementsSeen(context)
})

test('on a phone, opened straight from a link, the double-deck sleeper with sold berths shows its seat map (not "Loading…" for ever)', async ({
  page,
  request,
}) => {
  // on a phone; the demo data sells berths on the sleeper from three days ahead; nothing is held or booked here
  await page.setViewportSize({ width: 412, height: 915 })
  const date = dhakaDate(3)
  const res = await request.post('/api/reservation/tripSearch', { data: { originCode: 'DHK', destinationCode: 'CTG', tripDate: date } })
  const trips = ((await res.json()) as { data: { tripId: number; coachType: string }[] }).data
  const sleeper = trips.find((t) => /sleeper/i.test(t.coachType))
  expect(sleeper, 'a sleeper trip three days ahead').toBeTruthy()
  await page.goto(`/reservation?tripId=${sleeper!.tripId}&from=DHK&to=CTG&date=${date}`)
  await pageHeading(page)
  await expect(page.getByRole('grid').first()).toBeVisible()
  await page.reload()
  await expect(page.getByRole('grid').first()).toBeVisible()
})

test.describe('home search', () => {
  test('the plain city select swapped for the combobox while it has focus hands focus to the combobox', async ({ page }) => {
    // the combobox chunk is held back until the passenger is in the From select
    let release = () => {}
    const held = new Promise<void>((r) => (release = r))
    await page.route(/city-combobox[^/]*\.js$/, async (route) => {
      await held
      await route.continue()
    })
    await page.goto('/')
    await pageHeading(page)
    const from = page.locator('select[name="from"]')
    const to = page.locator('select[name="to"]')
    // the form takes input once the city lists are there (hidden and inert until then)
    await expect(from).toBeVisible()
    await from.focus()
    await expect(from).toBeFocused()
    const arrived = page.waitForResponse(/city-combobox[^/]*\.js$/)
    release()
    // the chunk has arrived and run (importing it again resolves once it has; the swap waits for the From select to lose focus)
    const chunk = (await arrived).url()
    await page.evaluate(async (u) => void (await import(u)), chunk)
    await expect(from).toBeVisible()
    await expect(from).toBeFocused()
    // moving straight to the To select: the swap replaces it while it has focus
    await to.focus()
    await enhanced(page)
    await expect(page.getByRole('combobox', { name: 'To' })).toBeFocused()
  })

  test('search from the home page puts the search in the URL and lists trips', async ({ page }) => {
    await page.goto('/')
    await pageHeading(page)
    await expectNoAxeViolations(page, 'home')
    await pickCity(page, 'From', 'dha', 'Dhaka')
    await pickCity(page, 'To', 'chat', 'Chattogram')
    await page.getByLabel('Journey date').fill(tomorrow)
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/search\\?from=DHK&to=CTG&date=${tomorrow}$`))
    await expect(page.getByRole('button', { name: 'Choose seats' }).first()).toBeVisible()
    // the modify-search bar keeps the values
    await expect(page.getByRole('combobox', { name: 'From' })).toHaveValue('Dhaka')
    await expect(page.getByRole('combobox', { name: 'To' })).toHaveValue('Chattogram')
    await expect(page.getByLabel('Journey date')).toHaveValue(tomorrow)
  })

  test('same origin and destination is refused beside the field; swap exchanges them', async ({ page }) => {
    await page.goto('/')
    await pickCity(page, 'From', 'Syl', 'Sylhet')
    await pickCity(page, 'To', 'syl', 'Sylhet')
    await expect(page.getByText('Origin and destination cannot be the same')).toBeVisible()
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect(page).toHaveURL(/\/$/)
    await pickCity(page, 'To', 'Dha', 'Dhaka')
    await expect(page.getByText('Origin and destination cannot be the same')).toHaveCount(0)
    await page.getByRole('button', { name: 'Swap From and To' }).click()
    await expect(page.getByRole('combobox', { name: 'From' })).toHaveValue('Dhaka')
    await expect(page.getByRole('combobox', { name: 'To' })).toHaveValue('Sylhet')
  })

  test('the journey date cannot be before today (Asia/Dhaka) and defaults to today', async ({ page }) => {
    await page.goto('/')
    const date = page.getByLabel('Journey date')
    await expect(date).toHaveValue(dhakaDate(0))
    await expect(date).toHaveAttribute('min', dhakaDate(0))
  })

  test('offers are shown with their coupon codes', async ({ page }) => {
    await page.goto('/')
    const offers = page.getByRole('region', { name: 'Offers' })
    await expect(offers.getByText('Coupon code:').first()).toBeVisible()
    await expect(offers.locator('code').first()).toHaveText(/^[A-Z0-9]+$/)
  })

  test('axe: combobox open and date field focused', async ({ page }) => {
    await page.goto('/')
    await pageHeading(page)
    await enhanced(page)
    const from = page.getByRole('combobox', { name: 'From' })
    await from.click()
    await expect(page.getByRole('listbox')).toBeVisible()
    await expectNoAxeViolations(page, 'home with the From combobox open')
    await page.keyboard.press('Escape')
    // a native date input: its picker is browser chrome, outside the page's DOM
    await page.getByLabel('Journey date').focus()
    await expectNoAxeViolations(page, 'home with the date field focused')
  })
})

test.describe('results', () => {
  test('filters, sort, previous/next day and the URL round trip', async ({ page }) => {
    await page.goto(`/search?from=DHK&to=CTG&date=${tomorrow}`)
    await pageHeading(page)
    const cards = page.getByRole('list', { name: 'Available trips' }).getByRole('listitem')
    await expect(cards.first()).toBeVisible()
    const total = await cards.count()
    expect(total).toBeGreaterThan(2)
    await expectNoAxeViolations(page, 'search results')

    // each trip shows coach, times, duration, counters, fare, seats and the button
    const first = cards.first()
    await expect(first.getByText(/^Coach \S+$/)).toBeVisible()
    await expect(first.getByText(/^\d{2}:\d{2} (AM|PM)$/).first()).toBeVisible()
    await expect(first.getByText(/\d+ h \d+ min/)).toBeVisible()
    await expect(first.getByText('Boarding')).toBeVisible()
    await expect(first.getByText(/\d[\d,]* Tk/)).toBeVisible()
    await expect(first.getByText(/seats? available/)).toBeVisible()

    // coach type
    await page.getByLabel('Coach type').selectOption('SLEEPER')
    await expect(cards).toHaveCount(1)
    await expect(cards.first()).toContainText('AC Sleeper')
    await expect(page).toHaveURL(/coach=SLEEPER/)

    // URL round trip: reload keeps search and filters
    await page.reload()
    await expect(page.getByLabel('Coach type')).toHaveValue('SLEEPER')
    await expect(cards).toHaveCount(1)
    await page.getByLabel('Coach type').selectOption('')
    await expect(cards).toHaveCount(total)

    // time periods: All first, then the server's periods
    const periods = page.getByLabel('Departure time', { exact: true })
    await expect(periods.locator('option').first()).toHaveText('All')
    await periods.selectOption({ label: 'Morning' })
    const morning = await cards.count()
    expect(morning).toBeLessThan(total)
    await periods.selectOption({ label: 'All' })
    await expect(cards).toHaveCount(total)

    // sort by fare: ascending
    await page.getByLabel('Sort by').selectOption('fare')
    const fares = (await cards.locator('text=/^[\\d,]+ Tk$/').allInnerTexts()).map((f) => Number(f.replace(/\D/g, '')))
    expect(fares).toEqual([...fares].sort((a, b) => a - b))

    // next day, then back keeps the first search
    await page.getByRole('button', { name: 'Next day' }).click()
    await expect(page).toHaveURL(new RegExp(`date=${dhakaDate(2)}`))
    await expect(page.getByLabel('Journey date')).toHaveValue(dhakaDate(2))
    await expect(cards.first()).toBeVisible()
    await page.goBack()
    await expect(page).toHaveURL(new RegExp(`date=${tomorrow}`))
    await expect(page.getByLabel('Journey date')).toHaveValue(tomorrow)
    await page.getByRole('button', { name: 'Previous day' }).click()
    await expect(page).toHaveURL(new RegExp(`date=${dhakaDate(0)}`))
    await expect(page.getByRole('button', { name: 'Previous day' })).toBeDisabled()
  })

  test('an empty result shows the server reason in an error toast and keeps the form', async ({ page }) => {
    // no road between Sylhet and Khulna in the demo data
    await page.goto(`/search?from=SYL&to=KHL&date=${tomorrow}`)
    await pageHeading(page)
    await expect(page.getByRole('region', { name: /notifications/i }).getByText('No available trip')).toBeVisible()
    await expect(page.getByRole('combobox', { name: 'From' })).toHaveValue('Sylhet')
    await expect(page.getByRole('combobox', { name: 'To' })).toHaveValue('Khulna')
  })
})

test.describe('seat choice', () => {
  test('a seat page opened at its address asks for its trip and for each lookup list once', async ({ page, request }) => {
    const trip = await tripOf(request, 'AC_STANDARD')
    const asked: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/api/')) asked.push(new URL(r.url()).pathname)
    })
    await page.goto(reservationUrl(trip))
    await pageHeading(page)
    await expect(page.getByRole('grid').first()).toBeVisible()
    await page.waitForLoadState('networkidle')
    const times = (p: string) => asked.filter((a) => a === p).length
    expect(times('/api/reservation/tripDetails')).toBe(1)
    for (const list of ['/api/originCities', '/api/destinationCities', '/api/timePeriods', '/api/announcements', '/api/offers'])
      expect(times(list), list).toBe(1)
  })

  test('mouse: five seats on a Dhaka–Chattogram trip for tomorrow, held on the server by this visitor only', async ({ page, browser }) => {
    await page.goto(`/search?from=DHK&to=CTG&date=${tomorrow}`)
    await page
      .getByRole('list', { name: 'Available trips' })
      .getByRole('listitem')
      .filter({ hasText: 'AC Standard' })
      .first()
      .getByRole('button', { name: 'Choose seats' })
      .click()
    await expect(page).toHaveURL(/\/reservation\?tripId=\d+&from=DHK&to=CTG/)
    const tripId = Number(new URL(page.url()).searchParams.get('tripId'))
    const seats = availableSeats(page)
    const names: string[] = []
    for (let i = 0; i < 5; i++) {
      const seat = seats.first()
      const name = (await seat.getAttribute('data-seat'))!
      await seat.click()
      await expect(page.locator(`[data-seat="${name}"]`)).toHaveAttribute('aria-pressed', 'true')
      names.push(name)
    }
    await expect(page.getByTestId('selected-seats')).toHaveText(names.join(', '))
    await expect(page.getByText(/Your seats are held for/)).toBeVisible()
    await expect.poll(async () => (await serverLocks(page, { tripId } as TripRow)).mine).toEqual([...names].sort())
    // and no one else: another visitor sees those seats held by someone else and holds none
    const other = await otherPassenger(browser)
    await other.goto('/faq')
    const seen = await serverLocks(other, { tripId } as TripRow)
    expect(seen.mine).toEqual([])
    expect(seen.others).toEqual(expect.arrayContaining(names))
    await other.context().close()
    // the live region announces the change and the running total
    await expect(page.getByRole('status').filter({ hasText: 'Seat' })).toContainText('5 seats selected, total')
  })

  test('keyboard only: home page to five held seats', async ({ page }) => {
    await page.goto('/')
    await pageHeading(page)
    await enhanced(page)
    const from = page.getByRole('combobox', { name: 'From' })
    await from.focus()
    await page.keyboard.type('Dhak')
    await page.keyboard.press('Enter')
    await expect(from).toHaveValue('Dhaka')
    // Tab: combobox trigger, swap, then To
    const to = page.getByRole('combobox', { name: 'To' })
    for (let i = 0; i < 5 && !(await to.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab')
    await expect(to).toBeFocused()
    await page.keyboard.type('Chatto')
    await page.keyboard.press('Enter')
    await expect(to).toHaveValue('Chattogram')
    const date = page.getByLabel('Journey date')
    for (let i = 0; i < 5 && !(await date.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab')
    await expect(date).toBeFocused()
    // the native date field takes typed digits in the browser's order (en-US: mm dd yyyy)
    const [y, m, d] = ownDay.keyboard.split('-')
    await page.keyboard.type(`${m}${d}${y}`)
    await expect(date).toHaveValue(ownDay.keyboard)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`/search\\?from=DHK&to=CTG&date=${ownDay.keyboard}$`))

    // Tab to the first trip's Choose seats button
    const choose = page.getByRole('button', { name: 'Choose seats' }).first()
    await expect(choose).toBeVisible()
    for (let i = 0; i < 40 && !(await choose.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab')
    await expect(choose).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/reservation\?/)
    const tripId = Number(new URL(page.url()).searchParams.get('tripId'))

    // one tab stop into the grid
    const grid = page.getByRole('grid').first()
    await expect(grid).toBeVisible()
    for (let i = 0; i < 30 && !(await grid.evaluate((el) => el.contains(document.activeElement))); i++) await page.keyboard.press('Tab')
    const inGrid = () => page.evaluate(() => document.activeElement?.getAttribute('data-seat') ?? '')
    const start = await inGrid()
    expect(start).not.toBe('')
    expect(await grid.locator('button[tabindex="0"]').count()).toBe(1)

    const chosen: string[] = []
    for (let guard = 0; chosen.length < 5 && guard < 60; guard++) {
      const name = await inGrid()
      const state = await page.locator(`[data-seat="${name}"]`).getAttribute('data-state')
      if (state === 'available') {
        await page.keyboard.press(chosen.length % 2 ? 'Space' : 'Enter')
        await expect(page.locator(`[data-seat="${name}"]`)).toHaveAttribute('aria-pressed', 'true')
        chosen.push(name)
      }
      await page.keyboard.press('ArrowRight')
      if ((await inGrid()) === name) {
        await page.keyboard.press('ArrowDown')
        await page.keyboard.press('Home')
      }
    }
    expect(chosen).toHaveLength(5)
    await expect.poll(async () => (await serverLocks(page, { tripId } as TripRow)).mine).toEqual([...chosen].sort())
  })

  test('accessible names say seat, deck, type, fare and state; unavailable seats cannot be toggled', async ({ page, request }) => {
    const trip = await tripOf(request, 'AC_BUSINESS')
    await openSeats(page, trip)
    const any = page.getByRole('button', { name: /^Seat [A-Z0-9]+, lower deck, (Business|Extra), [\d,]+ Tk, available$/ }).first()
    await expect(any).toBeVisible()
    // a seat another passenger bought on this trip
    const {
      seats: [name],
    } = await bookThroughApi(request, trip, { pay: true })
    await page.reload()
    const sold = seatNamed(page, name!)
    await expect(sold).toHaveAccessibleName(new RegExp(`^Seat ${name}, lower deck, (Business|Extra), [\\d,]+ Tk, sold, unavailable$`))
    await expect(sold).toHaveAttribute('aria-disabled', 'true')
    const asked: string[] = []
    page.on('request', (r) => {
      if (r.url().endsWith('/api/reservation/seatLock')) asked.push(...(r.postDataJSON() as { seatNames: string[] }).seatNames)
    })
    await sold.click({ force: true })
    await sold.focus()
    await page.keyboard.press('Space')
    // a seat that can be chosen, after it: its lock is asked for, the sold one's never was
    const { seat: free, name: freeName } = await firstAvailable(page)
    await free.click()
    await expect.poll(() => asked).toContain(freeName)
    expect(asked).not.toContain(name)
    await expect(page.getByTestId('selected-seats')).toHaveText(freeName)
    await expect(sold).toHaveAttribute('aria-pressed', 'false')
    await expect(sold).toHaveAccessibleName(/, sold, unavailable$/)
    await expect(page.getByRole('alertdialog')).toHaveCount(0)
  })

  test('another passenger trying a seat the first one holds gets the lock-lost dialog (without the live seat map)', async ({
    page,
    browser,
    request,
  }) => {
    const trip = await tripOf(request, 'AC_STANDARD', ownDay.lockLost)
    const other = await otherPassenger(browser)
    // a server without the live seat map: the other page goes stale
    await withoutLiveSeatMap(other)
    await openSeats(page, trip, ownDay.lockLost)
    await openSeats(other, trip, ownDay.lockLost)
    const seat = availableSeats(page).first()
    const name = (await seat.getAttribute('data-seat'))!
    await seat.click()
    await expect.poll(async () => (await serverLocks(page, trip)).mine).toEqual([name])

    // the other passenger's page still shows it available: their lock attempt fails
    const theirs = other.locator(`[data-seat="${name}"]`)
    await expect(theirs).toHaveAttribute('data-state', 'available')
    await theirs.click()
    const dialog = other.getByRole('alertdialog', { name: 'Error' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText(`This seat (${name}) has been locked by another Passenger.`)
    await expect(theirs).toHaveAttribute('data-state', 'held')
    await expect(other.getByTestId('selected-seats')).toHaveText('none yet')
    await expectNoAxeViolations(other, 'lock-lost dialog open')
    await dialog.getByRole('button', { name: 'OK' }).click()
    await expect(dialog).toHaveCount(0)
    expect((await serverLocks(other, trip)).mine).toEqual([])
    expect((await serverLocks(page, trip)).mine).toEqual([name])
    await other.context().close()
  })

  test('a 6th seat shows the warning toast and is rejected; reset releases everything', async ({ page, request }) => {
    const trip = await tripOf(request, 'NON_AC')
    await openSeats(page, trip)
    for (let i = 0; i < 5; i++) await availableSeats(page).first().click()
    await expect.poll(async () => (await serverLocks(page, trip)).mine.length).toBe(5)
    const sixth = availableSeats(page).first()
    const sixthName = (await sixth.getAttribute('data-seat'))!
    await sixth.click()
    await expect(page.getByRole('region', { name: /notifications/i }).getByText('You can select at most 5 seats')).toBeVisible()
    await expect(page.locator(`[data-seat="${sixthName}"]`)).toHaveAttribute('data-state', 'available')
    expect((await serverLocks(page, trip)).mine).toHaveLength(5)

    await page.getByRole('button', { name: 'Reset selection' }).click()
    await expect(page.getByTestId('selected-seats')).toHaveText('none yet')
    await expect(page.getByText(/Your seats are held for/)).toHaveCount(0)
    await expect.poll(async () => (await serverLocks(page, trip)).mine).toEqual([])
  })

  test('leaving the page and closing the tab release held seats', async ({ page, browser, request }) => {
    const trip = await tripOf(request, 'AC_STANDARD', ownDay.leaving)
    await openSeats(page, trip, ownDay.leaving)
    await availableSeats(page).first().click()
    await expect.poll(async () => (await serverLocks(page, trip)).mine.length).toBe(1)
    await page.getByRole('banner').getByRole('link', { name: 'FAQ' }).first().click()
    await pageHeading(page)
    await expect.poll(async () => (await serverLocks(page, trip)).mine).toEqual([])

    const ctx = await browser.newContext()
    const tab = await ctx.newPage()
    await openSeats(tab, trip, ownDay.leaving)
    const name = (await availableSeats(tab).first().getAttribute('data-seat'))!
    await availableSeats(tab).first().click()
    await expect.poll(async () => (await serverLocks(page, trip)).others).toContain(name)
    await tab.close({ runBeforeUnload: true })
    await expect.poll(async () => (await serverLocks(page, trip)).others, { timeout: 10_000 }).not.toContain(name)
    await ctx.close()
  })

  test('clicking a chosen seat again releases it, on the server too', async ({ page, request }) => {
    const trip = await tripOf(request, 'AC_STANDARD', ownDay.unlock)
    await openSeats(page, trip, ownDay.unlock)
    const { seat, name } = await firstAvailable(page)
    await seat.click()
    await expect(seat).toHaveAttribute('aria-pressed', 'true')
    await expect.poll(async () => (await serverLocks(page, trip)).mine).toEqual([name])
    expect(await heldByAnyone(request, trip, name)).toBe(true)

    await seat.click()
    await expect(seat).toHaveAttribute('aria-pressed', 'false')
    await expect(seat).toHaveAccessibleName(/, available$/)
    await expect(page.getByRole('status').filter({ hasText: `Seat ${name} released.` })).toBeAttached()
    await expect(page.getByTestId('selected-seats')).toHaveText('none yet')
    await expect(page.getByRole('heading', { name: 'Seat hold' })).toHaveCount(0)
    await expect.poll(async () => (await serverLocks(page, trip)).mine).toEqual([])
    expect(await heldByAnyone(request, trip, name)).toBe(false)
  })

  test('the seat hold runs out: a warning with Keep my seats 2 minutes before, then the seats are released', async ({ page, request }) => {
    const trip = await tripOf(request, 'AC_STANDARD', ownDay.expiry)
    // only the browser's clock moves: the live seat map, silent for that long, would reload the seats with the server's own hold times
    await withoutLiveSeatMap(page)
    await page.clock.install()
    await openSeats(page, trip, ownDay.expiry)
    const { seat, name } = await firstAvailable(page)
    await seat.click()
    await expect.poll(async () => (await serverLocks(page, trip)).mine).toEqual([name])
    await expect(page.getByRole('heading', { name: 'Seat hold' })).toBeVisible()
    await expect(page.getByText(/^Your seats are held for 1[45]:\d\d$/)).toBeVisible()
    await expect(page.getByRole('button', { name: 'Keep my seats' })).toHaveCount(0)

    await page.clock.fastForward('13:30')
    await expect(page.getByRole('status').filter({ hasText: 'Less than 2 minutes left to hold your seats.' })).toBeAttached()
    await expect(page.getByRole('button', { name: 'Keep my seats' })).toBeVisible()
    await expectNoAxeViolations(page, 'seat hold ending')

    await page.clock.fastForward('02:00')
    await expect(
      page.getByRole('region', { name: /notifications/i }).getByText('Your seat hold has run out, so the seats were released.', { exact: false }),
    ).toBeVisible()
    await expect(seat).toHaveAccessibleName(/, available$/)
    await expect(page.getByTestId('selected-seats')).toHaveText('none yet')
    await expect(page.getByRole('heading', { name: 'Seat hold' })).toHaveCount(0)
    // released on the server at once, though the lock itself had minutes left by the server's clock
    await expect.poll(async () => (await serverLocks(page, trip)).mine).toEqual([])
    expect(await heldByAnyone(request, trip, name)).toBe(false)
  })

  test('trip details that cannot be loaded open the error dialog with the reason', async ({ page, request }) => {
    // a trip that does not exist: the server's reason
    await page.goto(`/reservation?tripId=999999&from=DHK&to=CTG&date=${tomorrow}`)
    await pageHeading(page)
    let dialog = page.getByRole('alertdialog', { name: 'Error' })
    await expect(dialog).toContainText('Trip not found.')
    await expect(page.getByRole('grid')).toHaveCount(0)
    await expectNoAxeViolations(page, 'trip details error dialog')
    await dialog.getByRole('button', { name: 'OK' }).click()
    await expect(dialog).toHaveCount(0)

    // the server failing on a trip that exists: the dialog again, and no seat map to click
    const trip = await tripOf(request, 'AC_STANDARD')
    await page.route('**/api/reservation/tripDetails', (route) =>
      route.fulfill({ status: 500, json: { error: { code: 'INTERNAL_ERROR', reason: 'Internal server error' } } }),
    )
    await page.goto(reservationUrl(trip))
    dialog = page.getByRole('alertdialog', { name: 'Error' })
    await expect(dialog).toContainText('Something went wrong. Please try again.')
    await expect(page.getByRole('grid')).toHaveCount(0)
    await expect(dialog.getByRole('button', { name: 'OK' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(dialog).toHaveCount(0)
    // once the server answers again, a reload shows the seats
    await page.unroute('**/api/reservation/tripDetails')
    await page.reload()
    await expect(page.getByRole('grid').first()).toBeVisible()
  })

  test('axe: the seat grid on both decks, and keyboard deck switch', async ({ page, request }) => {
    const trip = await tripOf(request, 'SLEEPER')
    await openSeats(page, trip)
    const lower = page.getByRole('grid', { name: 'Lower deck seats' })
    await expect(lower).toBeVisible()
    await availableSeats(page).first().click()
    await expectNoAxeViolations(page, 'seat grid, lower deck')
    const upperTab = page.getByRole('tab', { name: 'Upper deck' })
    await upperTab.click()
    const upper = page.getByRole('grid', { name: 'Upper deck seats' })
    await expect(upper).toBeVisible()
    await expect(upper.getByRole('button', { name: /, upper deck, Sleeper( Horizontal)?, [\d,]+ Tk, / }).first()).toBeVisible()
    await expectNoAxeViolations(page, 'seat grid, upper deck')
    await page.getByRole('tab', { name: 'Upper deck' }).focus()
    await page.keyboard.press('ArrowLeft')
    await expect(lower).toBeVisible()
  })
})
