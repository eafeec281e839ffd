/**
 * assets/early-<hash>.js, which build.mjs bundles on its own and the data routes' HTML shells
 * load right after config.js: sends the page's first reads (src/early/requests.ts) at once,
 * before the app's code has arrived. Never throws: the app asks for itself whatever is not here.
 */
import { todayInDhaka } from '../../contract/dhaka-dates.ts'
import { storedDeviceId } from '../lib/device-id.ts'
import { EARLY_KEYS, EARLY_MAX_AGE_MS, type EarlyEntry, earlyRequests } from './requests.ts'

try {
  // storage that is missing or refuses (private modes) throws: the app asks for itself
  const ss = sessionStorage
  // src/models/session.ts loadSession: this tab's session first, then a stay-signed-in one
  const token = ss.getItem(EARLY_KEYS.token) ?? localStorage.getItem(EARLY_KEYS.token)
  const lang = ss.getItem(EARLY_KEYS.language)
  const list = earlyRequests({
    pathname: location.pathname,
    search: location.search.slice(1),
    href: location.href,
    baseUrl: () => window.__APP_CONFIG__?.apiBaseUrl ?? '/api',
    token: () => token,
    deviceId: () => storedDeviceId(ss),
    language: () => (lang === 'bn' ? 'bn' : 'en'),
    today: () => todayInDhaka(),
  })
  const at = performance.now()
  globalThis.__EARLY_REQUESTS__ = list.map(
    (r): EarlyEntry => ({ ...r, at, response: fetch(r.url, { method: r.method, headers: r.headers, body: r.body }) }),
  )
  // an answer nobody takes (the app chose otherwise) is not an unhandled rejection
  for (const e of globalThis.__EARLY_REQUESTS__) e.response.catch(() => undefined)
  // and is let go once too old to be taken
  setTimeout(() => {
    for (const e of globalThis.__EARLY_REQUESTS__ ?? [])
      void e.response.then(
        (r) => r.body?.cancel(),
        () => undefined,
      )
    globalThis.__EARLY_REQUESTS__ = []
  }, EARLY_MAX_AGE_MS)
} catch {
  // storage or fetch unavailable: the app asks for itself
}
