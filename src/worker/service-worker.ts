/**
 * The service worker (`/sw.js`, built by scripts/service-worker.mjs with this
 * build's version and file list). It keeps one cache per version holding the
 * hashed assets, the HTML shells (one per route, and app.html) and config.js,
 * so a repeat visit needs nothing from the network but the API:
 *
 * - pages (navigations) come from the network first, so a new deploy is seen on
 *   the next visit; without an answer in NETWORK_WAIT_MS, or offline, the
 *   shell of this version answers (the app then renders the path itself);
 * - `config.js` likewise (operators edit it in place), and its latest answer is kept;
 * - hashed assets come from the cache (their names change with their content);
 * - /api and the server's own pages are never touched: saved tickets live in the
 *   app's storage, not in an HTTP cache.
 *
 * A new version installs next to the old one and waits: the page tells the
 * passenger (src/app/app-updates.ts) and sends `activate` when they reload, or
 * at once when the page already runs the new version. No imports: it runs alone.
 */

declare const __APP_VERSION__: string
declare const __PRECACHE__: string[]

interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request
  respondWith(answer: Promise<Response>): void
}
interface MessageFromPage extends ExtendableEvent {
  readonly data: unknown
  readonly ports: readonly MessagePort[]
}
interface WorkerScope {
  readonly location: Location
  readonly clients: { claim(): Promise<void> }
  skipWaiting(): Promise<void>
  addEventListener(type: 'install' | 'activate', listener: (e: ExtendableEvent) => void): void
  addEventListener(type: 'fetch', listener: (e: FetchEvent) => void): void
  addEventListener(type: 'message', listener: (e: MessageFromPage) => void): void
}

const scope = self as unknown as WorkerScope
const VERSION = __APP_VERSION__
const CACHE_PREFIX = 'nodi-app-'
const CACHE = CACHE_PREFIX + VERSION
const PRECACHED = new Set(__PRECACHE__)
/** How long a page waits for the network before this version's shell answers (a flaky connection). */
const NETWORK_WAIT_MS = 4000
/** Paths the server answers itself: the API, the development outbox, the card gateways, operations. */
const SERVER_PATHS = /^\/(api|dev|sandbox|gateway|metrics|healthz|readyz)(\/|$)/

/**
 * The shell the server sends for `path` (server/app.ts, docs/nginx-app.conf): index.html for
 * / and /home, the route's own `<path>.html` where the build wrote one, else app.html.
 */
function shellFor(path: string): string {
  const p = path.replace(/\/+$/, '')
  if (p === '' || p === '/home') return '/index.html'
  return PRECACHED.has(`${p}.html`) ? `${p}.html` : '/app.html'
}

/** The network's answer, or null when there is none within `ms` (or none at all). */
async function network(request: Request, ms: number): Promise<Response | null> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms)
  })
  try {
    return await Promise.race([fetch(request), late])
  } catch {
    return null
  } finally {
    clearTimeout(timer)
  }
}

/** Network first; this version's copy of `file` when the network has no good answer. */
async function networkFirst(request: Request, file: string, keep: boolean): Promise<Response> {
  const fresh = await network(request, NETWORK_WAIT_MS)
  if (fresh && fresh.status < 500) {
    if (keep && fresh.ok) {
      const copy = fresh.clone()
      void caches.open(CACHE).then((c) => c.put(file, copy))
    }
    return fresh
  }
  const cached = await caches.match(file, { cacheName: CACHE })
  return cached ?? fresh ?? Response.error()
}

/** This version's copy, or the network when it has none. */
async function cacheFirst(request: Request, file: string): Promise<Response> {
  return (await caches.match(file, { cacheName: CACHE })) ?? fetch(request)
}

/** How often install asks for one file before it gives up (a dropped connection on a mobile network). */
const FETCH_TRIES = 3

/**
 * This deploy's copy of `url`, asked again after a dropped connection or a 5xx. A hashed asset's
 * name fixes its bytes, so its first ask may take the HTTP cache's copy (the page that registered
 * the worker has just downloaded most of them; a phone then does not download them twice); every
 * other file (a shell, config.js), and any second ask, goes past the HTTP cache (`reload`).
 */
async function fetchForCache(url: string): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const cache: RequestCache = attempt === 1 && url.startsWith('/assets/') ? 'default' : 'reload'
    const res = await fetch(new Request(url, { cache })).catch((err: unknown) => err)
    if (res instanceof Response) {
      if (res.ok) return res
      // a 4xx from the server will not mend itself (the file is not there): the install fails at once;
      // one the HTTP cache kept (an ask before the deploy had finished) is asked past it
      if ((res.status < 500 && cache === 'reload') || attempt >= FETCH_TRIES) throw new TypeError(`${url}: HTTP ${res.status}`)
    } else if (attempt >= FETCH_TRIES) throw res
    await new Promise((resolve) => setTimeout(resolve, 1000 * attempt))
  }
}

scope.addEventListener('install', (event) => {
  // Each file is fetched (and asked again) on its own: one dropped connection among the build's
  // files costs that file a second try, not the whole install (which would leave the device
  // without its offline copy until the next visit). A failed install leaves no half-filled cache.
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE)
      try {
        await Promise.all([...PRECACHED].map(async (url) => cache.put(url, await fetchForCache(url))))
      } catch (err) {
        await caches.delete(CACHE)
        throw err
      }
    })(),
  )
})

scope.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name)
      // the first visit's page is served from here too from now on (its lazy pages, offline)
      await scope.clients.claim()
    })(),
  )
})

scope.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type
  if (type === 'version') event.ports[0]?.postMessage(VERSION)
  else if (type === 'activate') event.waitUntil(scope.skipWaiting())
  // a page this worker does not control yet (it loaded while the worker was activating, past its claim)
  else if (type === 'claim') event.waitUntil(scope.clients.claim())
})

scope.addEventListener('fetch', (event) => {
  const request = event.request
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin !== scope.location.origin || SERVER_PATHS.test(url.pathname)) return
  if (request.mode === 'navigate') event.respondWith(networkFirst(request, shellFor(url.pathname), false))
  else if (url.pathname === '/config.js') event.respondWith(networkFirst(request, '/config.js', true))
  else if (PRECACHED.has(url.pathname)) event.respondWith(cacheFirst(request, url.pathname))
})
