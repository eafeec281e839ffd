import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { afterPageShown, afterPaint, isPageShown, PAINT_LATEST_MS, pageShown, pageShownAfterPaint, resetPageShown } from './page-shown.ts'

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

test.run()
