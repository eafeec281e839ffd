/**
 * INP of the whole booking journey: the demo passenger (signed in, as after
 * "Stay signed in") on the home page types the cities and the date, searches,
 * chooses seats on a day's double-deck sleeper (each run its own day, so a run
 * that fails half-way leaves no held seats in the next one's way), books and pays from the
 * balance, with real clicks and keys through the real app and server, Chromium's
 * CPU throttled 4x. INP comes from the `web-vitals` package's attribution build
 * (onINP, reportAllChanges) injected into every document before the app runs;
 * each interaction's event-timing entry is kept too, to name the slow step.
 *
 * Standalone: `node --import tsx bench/journey.ts [baseUrl]` against a running
 * server with demo data (default http://127.0.0.1:8080) after `node build.mjs`.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright'
import { chromiumArgs, chromiumPath } from '../harness/browser.ts'
import { apiGet, demoSession, dhakaDate, sessionItems, topUp, type DemoSession } from './lib.ts'

/** One INP report of web-vitals (the worst interaction so far of one document). */
export interface InpReport {
  /** web-vitals metric id: one per document. */
  id: string
  value: number
  /** CSS selector of the interaction's target, '' when the element left the page. */
  target: string
  type: string
  inputDelay: number
  processing: number
  presentation: number
  loadState: string
  /** Longest script of the interaction's long animation frames: `sourceURL (invoker) ms in phase`. */
  script: string
  /** Page (path and query) when the report came. */
  url: string
}

/** One interaction seen by event timing (its longest event). */
export interface Interaction {
  /** Journey step it happened in. */
  step: string
  event: string
  duration: number
  target: string
}

/** What one journey answers. */
export interface JourneyResult {
  /** INP of the journey: the largest INP web-vitals reported over the journey's documents. */
  inp: number
  /** The report that gave `inp`. */
  worst: InpReport | null
  /** Every INP report (all documents, all changes). */
  reports: InpReport[]
  /** Interactions of 16 ms or more (event timing's floor), slowest first. */
  interactions: Interaction[]
  /** Interactions of the last document (performance.interactionCount: every click and key, however short). */
  interactionCount: number
  /** Wall time of each step, ms (4x CPU, loopback network). */
  steps: { step: string; ms: number }[]
  pnr: string
}

const VIEWPORT = { width: 412, height: 915 }

/** The attribution build as a classic script (the package's own IIFE of `web-vitals/attribution`). */
function webVitalsScript(): string {
  const esm = fileURLToPath(import.meta.resolve('web-vitals/attribution'))
  const iife = path.join(path.dirname(esm), 'web-vitals.attribution.iife.js')
  if (!fs.existsSync(iife)) throw new Error(`web-vitals attribution IIFE not found next to ${esm}`)
  return fs.readFileSync(iife, 'utf8')
}

// A string, not a function: tsx compiles this file with keepNames, whose __name() helper does
// not exist inside the page. It runs before the app in every document of the journey.
const PROBE = `(() => {
  const send = (kind, data) => window.__benchJourney && window.__benchJourney(kind, JSON.stringify(data));
  const num = (x) => (typeof x === 'number' && Number.isFinite(x) ? x : NaN);
  webVitals.onINP((m) => {
    const a = m.attribution || {};
    const s = a.longestScript;
    const script = s && s.entry
      ? (s.entry.sourceURL || '(inline)').replace(location.origin, '') + ' (' + (s.entry.invokerType || '') + ' ' + (s.entry.invoker || '') + ') ' +
        Math.round(s.intersectingDuration) + ' ms in ' + s.subpart
      : '';
    send('inp', {
      id: m.id, value: m.value, target: a.interactionTarget || '', type: a.interactionType || '',
      inputDelay: num(a.inputDelay), processing: num(a.processingDuration), presentation: num(a.presentationDelay),
      loadState: a.loadState || '', script, url: location.pathname + location.search,
    });
  }, { reportAllChanges: true, durationThreshold: 0 });
  const describe = (t) => {
    if (!t || !t.tagName) return '';
    const label = t.getAttribute('aria-label') || t.getAttribute('data-seat') || t.getAttribute('name') || (t.textContent || '').trim().slice(0, 40);
    return t.tagName.toLowerCase() + (t.id ? '#' + t.id : '') + (label ? ' "' + label + '"' : '');
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (!e.interactionId) continue;
      send('event', { at: performance.timeOrigin + e.startTime, id: e.interactionId, event: e.name, duration: e.duration, target: describe(e.target) });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
})()`

/** Types a city into the From/To combobox and picks it; the plain select (before the combobox loads) by keys. */
async function chooseCity(page: Page, label: 'From' | 'To', typed: string, name: string): Promise<void> {
  const field = page.locator(`form[role="search"]`).getByRole('combobox', { name: label }).first()
  await field.waitFor()
  if (await field.evaluate((e) => e.tagName === 'SELECT')) {
    await field.focus()
    await page.keyboard.type(typed)
    return
  }
  await field.click()
  await field.pressSequentially(typed, { delay: 60 })
  await page.getByRole('option', { name }).first().click()
}

/** The journey date typed into the date field, as a passenger on an en-US phone types it (mm dd yyyy). */
async function typeDate(page: Page, isoDate: string): Promise<void> {
  const [y, m, d] = isoDate.split('-')
  const input = page.locator('form[role="search"] input[type="date"]')
  await input.focus()
  await page.keyboard.type(`${m}${d}${y}`, { delay: 60 })
  const value = await input.inputValue()
  if (value !== isoDate) throw new Error(`typed the date ${isoDate}, the field holds "${value}"`)
}

/** The app is on the page and the lazily loaded parts have arrived (as when a passenger starts reading). */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 20_000 }).catch(() => undefined)
}

/**
 * One journey in a new browser context holding the demo passenger's session:
 * home → the announcements listed there dismissed → From, To, date typed → Search → the sleeper's Choose seats → counters
 * and two seats → Book seats → Pay from balance → the ticket.
 */
export async function journeyOnce(
  browser: Browser,
  base: string,
  session: DemoSession,
  opts: { cpuThrottling?: number; daysAhead?: number } = {},
): Promise<JourneyResult> {
  const rate = opts.cpuThrottling ?? 4
  // two sleeper berths cost up to 4,000 Tk: top the balance up first (sandbox gateway), not timed
  await topUp(base, session.token, 5000)
  const ctx = await browser.newContext({
    viewport: VIEWPORT,
    locale: 'en-US',
    storageState: { cookies: [], origins: [{ origin: new URL(base).origin, localStorage: sessionItems(session) }] },
  })
  const reports: InpReport[] = []
  const events: { at: number; id: number; event: string; duration: number; target: string }[] = []
  await ctx.exposeFunction('__benchJourney', (kind: string, json: string) => {
    const data = JSON.parse(json)
    if (kind === 'inp') reports.push(data as InpReport)
    else if (kind === 'event') events.push(data)
  })
  await ctx.addInitScript({ content: `${webVitalsScript()}\n;${PROBE}` })
  const steps: { step: string; start: number; ms: number }[] = []
  const step = async (name: string, fn: () => Promise<void>) => {
    const start = Date.now()
    try {
      await fn()
    } catch (err) {
      // what the passenger would have seen: alerts and notifications on the page
      const said = await page
        .locator('[role="alert"], [role="status"]')
        .allInnerTexts()
        .catch(() => [])
      const shown = said.map((x) => x.trim()).filter(Boolean)
      throw new Error(
        `journey step "${name}" failed: ${(err as Error).message.split('\n')[0]}${shown.length ? `; the page said: ${shown.join(' | ')}` : ''}`,
      )
    }
    steps.push({ step: name, start, ms: Date.now() - start })
  }
  const announcements = await apiGet<{ title: string }[]>(base, '/announcements')
  const page = await ctx.newPage()
  try {
    const tripDate = dhakaDate(opts.daysAhead ?? 1)
    // the session stays attached: Chromium drops the throttling when it detaches
    const cdp = await ctx.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate })
    await step('home page load', async () => {
      await page.goto(base + '/')
      await page.locator('html[data-app-ready]').waitFor({ state: 'attached' })
      await page.locator('form[role="search"]:not([inert])').waitFor()
      await settled(page)
    })
    await step('announcements dismissed', async () => {
      // a first visit lists each announcement under the search form, each with its dismiss button
      const list = page.getByRole('region', { name: 'Announcements' })
      for (const a of announcements) {
        const item = list.getByRole('listitem').filter({ hasText: a.title })
        await item.getByRole('button', { name: 'Dismiss notification' }).click({ timeout: 20_000 })
        await item.waitFor({ state: 'detached' })
      }
    })
    await step('From, To and date typed', async () => {
      await chooseCity(page, 'From', 'dha', 'Dhaka')
      await chooseCity(page, 'To', 'chat', 'Chattogram')
      await typeDate(page, tripDate)
    })
    await step('Search → results', async () => {
      await page.locator('form[role="search"] button[type="submit"]').click()
      await page.getByRole('button', { name: 'Choose seats' }).first().waitFor()
      await settled(page)
    })
    await step('Choose seats → seat map', async () => {
      const card = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('button', { name: 'Choose seats' }) })
        .filter({ hasText: /sleeper/i })
        .first()
      await card.getByRole('button', { name: 'Choose seats' }).click()
      await page.getByRole('grid').first().waitFor()
      await settled(page)
    })
    await step('counters and two seats chosen', async () => {
      for (const label of ['Boarding counter', 'Dropping counter']) {
        // keys on the closed select, as on a phone's keyboard: the first counter
        await page.getByLabel(label).focus()
        await page.keyboard.press('ArrowDown')
      }
      for (let i = 0; i < 2; i++) {
        const seat = page.getByRole('grid').locator('button[data-state="available"]:visible').first()
        const name = (await seat.getAttribute('data-seat'))!
        await seat.click()
        await page.locator(`[data-seat="${name}"]:visible[data-state="selected"]`).waitFor()
      }
    })
    await step('Book seats → pay panel', async () => {
      await page.getByTestId('booking-panel').getByRole('button', { name: 'Book seats' }).click()
      await page.getByRole('heading', { name: 'Pay for your booking' }).waitFor({ timeout: 30_000 })
      await settled(page)
    })
    let pnr = ''
    await step('Pay from balance → ticket', async () => {
      await page.getByRole('button', { name: 'Pay from balance' }).click()
      const refused = page.getByRole('alert').filter({ hasText: /\S/ })
      await page.getByTestId('ticket-pnr').or(refused).first().waitFor({ timeout: 30_000 })
      if (await refused.count()) throw new Error(`payment refused: ${await refused.first().innerText()}`)
      pnr = (await page.getByTestId('ticket-pnr').innerText()).trim()
      await settled(page)
    })
    // web-vitals reports in an idle callback after the last paint: wait until the reports stop
    let before = -1
    for (let i = 0; i < 20 && before !== reports.length + events.length; i++) {
      before = reports.length + events.length
      await page.waitForTimeout(500)
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
    const interactionCount = Number(await page.evaluate('performance.interactionCount'))
    const worst = reports.reduce<InpReport | null>((w, r) => (!w || r.value > w.value ? r : w), null)
    const byId = new Map<number, Interaction & { at: number }>()
    for (const e of events) {
      const have = byId.get(e.id)
      if (have && have.duration >= e.duration) continue
      const s = [...steps].reverse().find((x) => x.start <= e.at)
      byId.set(e.id, { step: s?.step ?? 'before the journey', event: e.event, duration: e.duration, target: e.target, at: e.at })
    }
    return {
      inp: worst?.value ?? 0,
      worst,
      reports,
      interactions: [...byId.values()].sort((a, b) => b.duration - a.duration).map(({ at: _, ...x }) => x),
      interactionCount,
      steps: steps.map(({ step, ms }) => ({ step, ms })),
      pnr,
    }
  } finally {
    await ctx.close()
  }
}

async function main(): Promise<void> {
  const base = process.argv[2] ?? process.env.BENCH_BASE_URL ?? 'http://127.0.0.1:8080'
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs })
  try {
    const r = await journeyOnce(browser, base, await demoSession(base), { daysAhead: Number(process.argv[3] ?? 1) })
    console.log(JSON.stringify(r, null, 2))
  } finally {
    await browser.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
