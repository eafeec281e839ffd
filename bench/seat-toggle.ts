/**
 * Seat toggle benchmark: on /reservation with the double-deck sleeper trip,
 * clicks seats with Chromium's CPU throttled 4x and measures, per click, the
 * time from the click reaching the page to the seat's DOM update
 * (MutationObserver) and to the next frame; also from the browser's input timestamp. Reusable from `bench/run.ts` via `measureSeatToggles(page)`.
 *
 * Standalone: `node --import tsx bench/seat-toggle.ts [baseUrl]` against a
 * running server (default http://127.0.0.1:8080) after `node build.mjs`.
 */
import { chromium, type Page } from 'playwright'
import { pathToFileURL } from 'node:url'
import { chromiumArgs, chromiumPath } from '../harness/browser.ts'

/** Per-click timings in milliseconds. */
export interface SeatToggleResult {
  clicks: number
  /** Click dispatch (first listener) → first DOM mutation of the clicked seat: the app's own time. */
  domMs: number[]
  /** Click event timestamp (browser input queue included) → first DOM mutation. */
  domFromInputMs: number[]
  /** Click dispatch → the next animation frame after the mutation. */
  frameMs: number[]
  medianDomMs: number
  medianDomFromInputMs: number
  medianFrameMs: number
  cpuThrottling: number
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** Opens the seat page of tomorrow's Dhaka–Chattogram sleeper (double-deck) trip. */
export async function openDoubleDeckTrip(page: Page, baseUrl: string): Promise<void> {
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Dhaka', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() + 86_400_000),
  )
  const res = await page.request.post(`${baseUrl}/api/reservation/tripSearch`, {
    data: { originCode: 'DHK', destinationCode: 'CTG', tripDate: date },
  })
  const trips = ((await res.json()) as { data: { tripId: number; coachType: string }[] }).data
  const trip = trips.find((t) => t.coachType === 'SLEEPER')
  if (!trip) throw new Error('no double-deck (SLEEPER) trip found for tomorrow DHK → CTG')
  await page.goto(`${baseUrl}/reservation?tripId=${trip.tripId}&from=DHK&to=CTG&date=${date}`)
  await page.getByRole('grid').first().waitFor()
}

/**
 * Clicks `clicks` times on available seats of the visible deck (each seat chosen
 * then un-chosen, so the 5-seat cap never rejects a click) with the CPU
 * throttled `cpuThrottling` times, and returns the timings.
 */
export async function measureSeatToggles(page: Page, opts: { clicks?: number; cpuThrottling?: number } = {}): Promise<SeatToggleResult> {
  const clicks = opts.clicks ?? 20
  const cpuThrottling = opts.cpuThrottling ?? 4
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuThrottling })
  const names = await page
    .getByRole('grid')
    .first()
    .locator('button[data-state="available"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-seat')!))
  if (names.length === 0) throw new Error('no available seat on the visible deck')

  await page.evaluate(() => {
    const w = window as unknown as {
      __seatBench: { t0: number; tInput: number; dom: number[]; input: number[]; frame: number[]; pending: string | null }
    }
    w.__seatBench = { t0: 0, tInput: 0, dom: [], input: [], frame: [], pending: null }
    // first listener on the page: the click's dispatch starts; e.timeStamp is when the browser created the event
    window.addEventListener(
      'click',
      (e) => {
        w.__seatBench.t0 = performance.now()
        w.__seatBench.tInput = e.timeStamp
      },
      { capture: true },
    )
    const grid = document.querySelector('[role="grid"]')!
    new MutationObserver((records) => {
      const b = w.__seatBench
      if (!b.pending) return
      const hit = records.some(
        (r) => r.type === 'attributes' && r.attributeName === 'data-state' && (r.target as HTMLElement).dataset.seat === b.pending,
      )
      if (!hit) return
      const t1 = performance.now()
      b.pending = null
      b.dom.push(t1 - b.t0)
      b.input.push(t1 - b.tInput)
      requestAnimationFrame(() => b.frame.push(performance.now() - b.t0))
    }).observe(grid, { attributes: true, subtree: true, attributeFilter: ['data-state'] })
  })

  for (let i = 0; i < clicks; i++) {
    const name = names[Math.floor(i / 2) % names.length]!
    await page.evaluate((n) => ((window as unknown as { __seatBench: { pending: string | null } }).__seatBench.pending = n), name)
    await page.locator(`[data-seat="${name}"]`).click()
    await page.waitForFunction((n) => {
      const b = (window as unknown as { __seatBench: { pending: string | null; dom: number[]; frame: number[] } }).__seatBench
      return b.pending === null && b.frame.length === b.dom.length && b.dom.length === n
    }, i + 1)
    // let the lock / unlock answer land before the next click, as a person would
    await page.waitForTimeout(150)
  }
  const { dom, input, frame } = await page.evaluate(
    () => (window as unknown as { __seatBench: { dom: number[]; input: number[]; frame: number[] } }).__seatBench,
  )
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
  await cdp.detach()
  return {
    clicks,
    domMs: dom,
    domFromInputMs: input,
    frameMs: frame,
    medianDomMs: median(dom),
    medianDomFromInputMs: median(input),
    medianFrameMs: median(frame),
    cpuThrottling,
  }
}

async function main(): Promise<void> {
  const baseUrl = process.argv[2] ?? process.env.BENCH_BASE_URL ?? 'http://127.0.0.1:8080'
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs })
  try {
    const page = await browser.newPage({ viewport: { width: 412, height: 915 } })
    await openDoubleDeckTrip(page, baseUrl)
    const r = await measureSeatToggles(page)
    console.log(
      `seat toggle (double-deck, CPU ${r.cpuThrottling}x, ${r.clicks} clicks): ` +
        `DOM updated ${r.medianDomMs.toFixed(1)} ms median after the click reached the page (max ${Math.max(...r.domMs).toFixed(1)}), ` +
        `${r.medianDomFromInputMs.toFixed(1)} ms after the browser's input timestamp; next frame painted ${r.medianFrameMs.toFixed(1)} ms median`,
    )
  } finally {
    await browser.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
