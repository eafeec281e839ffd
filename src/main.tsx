/**
 * Root: IntlProvider with the active locale's messages, the app shell (which
 * hosts the one Toaster), and store start-up.
 */
import { StrictMode, startTransition, useEffect, useLayoutEffect, useState } from 'react'
import type * as ReactDomClient from 'react-dom/client'
import { IntlProvider } from 'react-intl'
import { useSignals } from '@preact/signals-react/runtime'
import { configureApi, loadBeforeErrors, preloadApi } from './api/index.ts'
import { App } from './app/app.tsx'
import { preloadPage } from './app/route-view.tsx'
import { startAppEffects } from './app/start-app-effects.ts'
import { config } from './config.ts'
import { loadErrorMessages, loadMessages, messagesFor } from './i18n.ts'
import { afterPageSettled, afterPageShown } from './lib/page-shown.ts'
import { preloadFiles } from './lib/preload.ts'
import { navigate, resolvePath, startRouter } from './router.ts'
import type { Locale } from './lib/dates.ts'
import { lookups, session, ui } from './app-models.ts'
import { DEFAULT_LANGUAGE } from './models/ui.ts'

function Root() {
  useSignals()
  const wanted = ui.language.value
  const [active, setActive] = useState<Locale>(() => (messagesFor(wanted) ? wanted : DEFAULT_LANGUAGE))
  useEffect(() => {
    let live = true
    loadMessages(wanted).then(() => live && setActive(wanted))
    return () => {
      live = false
    }
  }, [wanted])
  // the first commit has replaced the prerendered page: its controls are live now (build.mjs marks the shell)
  useLayoutEffect(() => document.getElementById('root')?.removeAttribute('data-prerendered'), [])
  return (
    <IntlProvider locale={active === 'bn' ? 'bn-BD' : 'en'} defaultLocale="en" messages={messagesFor(active)}>
      <App />
    </IntlProvider>
  )
}

async function start() {
  // the shelf's file (to sweep saved tickets of no session any more) is no request before the page has shown
  session.loadSession(afterPageShown)
  // before the first request, which carries it (Accept-Language), as the shell's early requests do
  const locale = ui.loadLanguage()
  configureApi({
    baseUrl: () => config.apiBaseUrl,
    token: () => session.token.value,
    deviceId: session.deviceId,
    language: () => ui.language.value,
    currentPath: () => location.pathname + location.search,
    onUnauthorized: (path) => {
      session.resetInvalidSession(path)
      navigate('/login', { replace: true })
    },
  })
  loadBeforeErrors(loadErrorMessages)
  // The fetch wrapper is not needed to paint: it loads next to the first page
  // instead of in the entry's file.
  preloadApi()
  // a shared or reloaded results link: start the trip search while the page's code loads, and
  // before the page renders, so the page's own first search takes it over: an answer that is
  // already there (src/early/requests.ts) must not let the page's search finish before the link's starts
  const linkSearch =
    location.pathname === '/search' && location.search
      ? import('./app/app-search.ts').then(
          (s) => s.appSearch.searchFromLink(location.search.slice(1)),
          // its code could not be loaded: the results page searches itself (and reports the network)
          () => undefined,
        )
      : null
  void lookups.startLookups(location.href)
  const first = resolvePath(location.pathname, session.isSignedIn.value)
  // every file the first route's render needs, at once instead of one import level at a time
  if (first.kind === 'route') preloadFiles(first.route.path)
  await Promise.all([loadMessages(locale), first.kind === 'route' ? preloadPage(first.route, location.search) : null, linkSearch])
  document.documentElement.lang = locale
  startRouter()
  startAppEffects()
  // The shell may hold the route's prerendered page. React replaces it in its first commit (a
  // root that does not hydrate clears its container then), which comes once the page has rendered
  // (its code was loaded above): one step, never the prerendered form beside the live one.
  // React DOM is 205 KB of the entry's 320 KB: its module body runs here, once the page's code and
  // messages have arrived, in a task of its own instead of in the entry's one long evaluation (a
  // require esbuild bundles in place, where an import would run it with the entry; docs/performance.md)
  // and after a yield: the router's and app effects' start above end the task they ran in
  await new Promise((resume) => setTimeout(resume))
  const { createRoot } = require('react-dom/client') as typeof ReactDomClient
  const root = createRoot(document.getElementById('root')!)
  // a transition lets React render in slices and yield to input on slow phones
  startTransition(() =>
    root.render(
      <StrictMode>
        <Root />
      </StrictMode>,
    ),
  )
  // the service worker and the new-version notice, once the page has settled (not in the entry): the
  // worker's install fetches and stores every file of the build, work for later pages and offline use
  // that must not compete with this page's lazy parts and live data (docs/performance.md)
  // a browser that refuses workers (private mode, a policy) runs without one: no offline pages, no update notice, everything else works
  if ('serviceWorker' in navigator)
    afterPageSettled(() => void import('./app/app-updates.ts').then((m) => m.startAppUpdates()).catch(() => undefined))
}

void start()
