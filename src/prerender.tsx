/**
 * Build-time prerender of the home page into index.html and of the results page's
 * frame into search.html (run by build.mjs in Node): a passenger on a slow phone
 * sees the header, the page heading and the search form's place as soon as the HTML
 * and CSS arrive, before any JavaScript has run. The
 * app then renders over it (createRoot, not hydration), with live data.
 */
import { prerenderToNodeStream } from 'react-dom/static'
import { IntlProvider } from 'react-intl'
import { App } from './app/app.tsx'
import { loadPageMessages, messagesFor } from './i18n.ts'
import { setPrerendering } from './lib/prerendering.ts'
import { showPathStatically } from './router.ts'
import { routes } from './routes.ts'

/** The static markup of the app at `path` in English, with no session and no data; `null`: header and footer only. */
export async function prerender(path: string | null): Promise<string> {
  const route = routes.find((r) => r.path === path)
  if (route) await loadPageMessages(route.page)
  showPathStatically(path)
  setPrerendering(true)
  const { prelude } = await prerenderToNodeStream(
    <IntlProvider locale="en" defaultLocale="en" messages={messagesFor('en')}>
      <App />
    </IntlProvider>,
  )
  let html = ''
  for await (const chunk of prelude) html += chunk
  setPrerendering(false)
  return html
}
