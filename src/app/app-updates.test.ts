import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { startAppUpdates, VERSION_META } from './app-updates.ts'

/** A service worker that answers its version as the real one does (src/worker/service-worker.ts). */
function fakeWorker(version: string, state = 'activated'): ServiceWorker {
  return {
    state,
    addEventListener() {},
    postMessage(message: { type: string }, ports: MessagePort[]) {
      if (message.type !== 'version') return
      ports[0]?.postMessage(version)
      // an open channel keeps the test process alive (the page's end closes with this one)
      ports[0]?.close()
    },
  } as unknown as ServiceWorker
}

/** A browser whose page is of build `page`, controlled by a worker of build `active`; counts update checks. */
function fakeBrowser(page: string, active: string): { updates: () => number; restore: () => void } {
  const g = globalThis as Record<string, unknown>
  const saved = { navigator: g.navigator, document: g.document, location: g.location, setInterval: g.setInterval }
  let updates = 0
  const registration = {
    installing: null,
    waiting: null,
    addEventListener() {},
    update: async () => {
      updates++
    },
  }
  const container = {
    controller: fakeWorker(active),
    register: async () => registration,
    ready: new Promise(() => {}),
    addEventListener() {},
  }
  const define = (name: string, value: unknown) => Object.defineProperty(globalThis, name, { value, configurable: true, writable: true })
  define('navigator', { serviceWorker: container })
  // the half-hourly check would keep the test process alive
  define('setInterval', () => 0)
  define('location', { protocol: 'http:' })
  define('document', {
    querySelector: (selector: string) => (selector === `meta[name="${VERSION_META}"]` ? { content: page } : null),
    addEventListener() {},
    visibilityState: 'visible',
  })
  return {
    updates: () => updates,
    restore: () => {
      for (const [name, value] of Object.entries(saved)) define(name, value)
    },
  }
}

/** Resolves once `ready()` holds (the version question is answered through a MessageChannel, a task later). */
async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 1))
}

test('a page of a newer build than the worker that served it asks for the new worker at once', async () => {
  const browser = fakeBrowser('b2', 'b1')
  try {
    await startAppUpdates()
    await until(() => browser.updates() > 0)
    assert.is(browser.updates(), 1)
  } finally {
    browser.restore()
  }
})

test.run()
