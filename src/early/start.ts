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

// ICU's first use in a page (its data and the locale lists the Intl constructors check) takes
// 13–25 ms on a fast machine, four times that on a slow phone, in whatever task comes first:
// react-intl's provider, in the app's first render, after the prerendered page has painted.
// Here it runs while that page waits for its stylesheet, before the first paint
// (docs/performance.md, "The seat page's main thread").
try {
  Intl.DateTimeFormat.supportedLocalesOf('en')
  Intl.NumberFormat.supportedLocalesOf('en')
} catch {
  // no Intl: react-intl reports it itself
}
