/**
 * The service worker from the page's side (src/worker/service-worker.ts):
 * registers `/sw.js` on pages the build made (they carry the build's version),
 * tells the passenger when a newer version of the app is ready, with a Reload
 * button, and never reloads on its own (a form may be half filled). A new worker
 * that is this page's own version (the page came from the network) takes over at
 * once, silently. `serviceWorker: false` in config.js removes the worker and its
 * caches instead. Loaded when the page has finished loading, not with the entry.
 */
import { config } from '../config.ts'
import { ui } from '../app-models.ts'

/** The build's version, in a meta element of every HTML shell (scripts/service-worker.mjs). */
export const VERSION_META = 'app-version'
/** How often an open tab asks whether a new version was deployed. */
const CHECK_EVERY_MS = 30 * 60_000
const CACHE_PREFIX = 'nodi-app-'

/** The version of the running page, or null when no build made it (no worker then). */
function pageVersion(): string | null {
  return document.querySelector<HTMLMetaElement>(`meta[name="${VERSION_META}"]`)?.content || null
}

/** Asks a worker for its version (null when it does not answer in time). */
function versionOf(worker: ServiceWorker): Promise<string | null> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    // a waiting worker may first have to start, which on a busy phone takes seconds
    const timer = setTimeout(() => resolve(null), 10_000)
    channel.port1.onmessage = (e) => {
      clearTimeout(timer)
      resolve(typeof e.data === 'string' ? e.data : null)
    }
    worker.postMessage({ type: 'version' }, [channel.port2])
  })
}

/** Removes every worker and cache of this app (the operator turned the worker off). */
async function removeWorker(): Promise<void> {
  const registrations = await navigator.serviceWorker.getRegistrations()
  await Promise.all(registrations.map((r) => r.unregister()))
  const names = typeof caches === 'undefined' ? [] : await caches.keys()
  await Promise.all(names.filter((n) => n.startsWith(CACHE_PREFIX)).map((n) => caches.delete(n)))
}

/** Starts the service worker and the new-version notice (or removes the worker when config.js turns it off). */
export async function startAppUpdates(): Promise<void> {
  const container = navigator.serviceWorker
  if (!container) return
  if (!config.serviceWorker) return removeWorker()
  const mine = pageVersion()
  if (!mine || !/^https?:$/.test(location.protocol)) return

  let notified = false
  const offerReload = (activate: ServiceWorker | null) => {
    if (notified) return
    notified = true
    ui.showToast(
      'info',
      { id: 'app.updateReady' },
      {
        persistent: true,
        action: {
          label: { id: 'app.updateReload' },
          run: () => {
            // the waiting worker takes over first, so the reload gets the new version
            if (activate?.state === 'installed') {
              container.addEventListener('controllerchange', () => location.reload(), { once: true })
              activate.postMessage({ type: 'activate' })
            } else location.reload()
          },
        },
      },
    )
  }

  /** A worker that finished installing and waits for the old one's pages. */
  const waiting = async (worker: ServiceWorker) => {
    if (!container.controller) return
    if ((await versionOf(worker)) === mine) worker.postMessage({ type: 'activate' })
    else offerReload(worker)
  }

  /** Follows a worker that is installing until it waits. */
  const follow = (worker: ServiceWorker | null) => {
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed') void waiting(worker)
    })
  }

  const registration = await container.register('/sw.js', { updateViaCache: 'none' })
  const check = () => void registration.update().catch(() => undefined)
  // The first worker takes the open pages over when it activates, but a page whose load crossed that
  // moment (its navigation began before, its document came after) is left out, and with it its lazy
  // pages offline: once a worker is active, a page it does not control asks to be taken over.
  void container.ready.then((ready) => {
    if (!container.controller) ready.active?.postMessage({ type: 'claim' })
  })
  // the page's own load may have found the new worker already
  if (registration.waiting) void waiting(registration.waiting)
  else follow(registration.installing)
  registration.addEventListener('updatefound', () => follow(registration.installing))
  // a page from a newer build than the worker that served it: the browser's own check after a
  // navigation may come late or not at all, so ask for this build's worker now
  void (async () => {
    const active = container.controller
    if (active && !registration.installing && !registration.waiting && (await versionOf(active)) !== mine) check()
  })()
  // another tab activated a newer version: this page's code is now the old one
  container.addEventListener('controllerchange', async () => {
    const active = container.controller
    if (active && (await versionOf(active)) !== mine) offerReload(null)
  })
  setInterval(check, CHECK_EVERY_MS)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check()
  })
}
