import { test } from 'uvu'
import * as assert from 'uvu/assert'
import {
  afterPageSettled,
  afterPageShown,
  afterPaint,
  isPageShown,
  PAINT_LATEST_MS,
  pageShown,
  pageShownAfterPaint,
  resetPageShown,
  SETTLE_AFTER_LOAD_MS,
} from './page-shown.ts'

test.before.each(resetPageShown)
test.after(resetPageShown)

test('work waits until the page has shown what it is for, then runs once, in order', () => {
  const ran: string[] = []
  afterPageShown(() => ran.push('lookups'))
  afterPageShown(() => ran.push('errors'))
  assert.equal(ran, [])
  assert.not.ok(isPageShown())
  pageShown()
  assert.equal(ran, ['lookups', 'errors'])
  pageShown()
  assert.equal(ran, ['lookups', 'errors'])
})

test('once the page has shown, work runs at once', () => {
  pageShown()
  const ran: string[] = []
  afterPageShown(() => ran.push('combobox'))
  assert.equal(ran, ['combobox'])
})

/** A browser that reports the largest paint: the observer's callback, to be fed entries. */
function fakeLargestPaint(): { report: (startTime: number) => void; restore: () => void } {
  const real = globalThis.PerformanceObserver
  let callback: ((list: { getEntries: () => { startTime: number }[] }) => void) | undefined
  class Fake {
    static supportedEntryTypes = ['largest-contentful-paint']
    constructor(cb: typeof callback) {
      callback = cb
    }
    observe() {}
    disconnect() {
      callback = undefined
    }
  }
  globalThis.PerformanceObserver = Fake as unknown as typeof PerformanceObserver
  return {
    report: (startTime) => callback?.({ getEntries: () => [{ startTime }] }),
    restore: () => {
      globalThis.PerformanceObserver = real
    },
  }
}

test('the page counts as shown once the browser reports the paint of what it rendered, not at its commit', () => {
  const lcp = fakeLargestPaint()
  try {
    const ran: string[] = []
    afterPageShown(() => ran.push('error messages'))
    pageShownAfterPaint()
    assert.equal(ran, [])
    lcp.report(performance.now() - 1000)
    assert.equal(ran, [], 'a paint from before the render is not it')
    lcp.report(performance.now())
    assert.equal(ran, ['error messages'])
  } finally {
    lcp.restore()
  }
})

test('a paint that is never reported (a hidden tab, nothing larger) lets the work go after PAINT_LATEST_MS', async () => {
  const lcp = fakeLargestPaint()
  try {
    const at = performance.now()
    const waited = await new Promise<number>((resolve) => afterPaint(() => resolve(performance.now() - at)))
    assert.ok(waited >= PAINT_LATEST_MS - 5, `ran after ${waited} ms`)
  } finally {
    lcp.restore()
  }
})

/** A loading page's document and window, with timers and idle callbacks the test runs by hand. */
function fakeLoadingPage() {
  const g = globalThis as Record<string, unknown>
  const saved = { document: g.document, window: g.window, setTimeout: g.setTimeout, requestIdleCallback: g.requestIdleCallback }
  const log: string[] = []
  const pending: { what: string; run: () => void }[] = []
  let onLoad: (() => void) | undefined
  const doc = { readyState: 'interactive' }
  g.document = doc
  g.window = { addEventListener: (type: string, fn: () => void) => type === 'load' && (onLoad = fn) }
  g.setTimeout = (fn: () => void, ms: number) => pending.push({ what: `timer ${ms}`, run: fn })
  g.requestIdleCallback = (fn: () => void, o: { timeout: number }) => pending.push({ what: `idle (at most ${o.timeout})`, run: fn })
  return {
    log,
    load: () => {
      doc.readyState = 'complete'
      onLoad?.()
    },
    /** Runs the oldest timer or idle callback, saying which it was. */
    next: () => {
      const p = pending.shift()
      if (!p) return 'nothing'
      p.run()
      return p.what
    },
    restore: () => Object.assign(g, saved),
  }
}

test('work for later waits for the page to have shown, its load, SETTLE_AFTER_LOAD_MS and an idle moment', () => {
  const page = fakeLoadingPage()
  try {
    const ran: string[] = []
    afterPageSettled(() => ran.push('service worker'))
    pageShown()
    assert.is(page.next(), 'timer 5000', 'the page-shown fallback (nothing left for it to do)')
    assert.is(page.next(), 'nothing', 'the load has not come')
    page.load()
    assert.is(page.next(), `timer ${SETTLE_AFTER_LOAD_MS}`)
    assert.equal(ran, [])
    assert.is(page.next(), 'idle (at most 4000)')
    assert.equal(ran, ['service worker'])
  } finally {
    page.restore()
  }
})

test('a page that has loaded and shown already: the work waits SETTLE_AFTER_LOAD_MS and an idle moment', () => {
  const page = fakeLoadingPage()
  try {
    page.load()
    pageShown()
    const ran: string[] = []
    afterPageSettled(() => ran.push('overlays'))
    assert.is(page.next(), `timer ${SETTLE_AFTER_LOAD_MS}`)
    assert.is(page.next(), 'idle (at most 4000)')
    assert.equal(ran, ['overlays'])
  } finally {
    page.restore()
  }
})

test.run()
