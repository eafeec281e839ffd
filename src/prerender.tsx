/**
 * Build-time prerender of every route's first render into its own HTML file (run by
 * build.mjs in Node): a passenger on a slow phone sees the header, the page heading,
 * its text and the place of its form or its data as soon as the HTML and CSS arrive,
 * before any JavaScript has run. The app then renders over it (createRoot, not
 * hydration), with live data and the passenger's language.
 */
import { prerenderToNodeStream } from 'react-dom/static'
import { IntlProvider } from 'react-intl'
import { App } from './app/app.tsx'
import { loadPageMessages, messagesFor } from './i18n.ts'
import { setPrerendering } from './lib/prerendering.ts'
import { showPathStatically } from './router.ts'
import { routes } from './routes.ts'

/**
 * The query a passenger arrives with on pages that show nothing useful without one
 * (the results link to a trip, the gateway returns with a payment): their HTML is
 * what such a visit shows before the server answers, not the page's "nothing here" text.
 */
const usualQuery: Readonly<Record<string, string>> = {
  '/reservation': '?tripId=1&from=DHK&to=CTG',
  '/reservation/success': '?paymentId=prerendered',
  '/reservation/failure': '?paymentId=prerendered',
}

/** The static markup of the app at `path` in English, with no session and no data; `null`: header and footer only. */
export async function prerender(path: string | null): Promise<string> {
  const route = routes.find((r) => r.path === path)
  if (route) await loadPageMessages(route.page)
  showPathStatically(path, (path && usualQuery[path]) ?? '')
  setPrerendering(true)
  const { prelude } = await prerenderToNodeStream(
    <IntlProvider locale="en" defaultLocale="en" messages={messagesFor('en')}>
      <App />
    </IntlProvider>,
    // the page in place: a long one is otherwise sent apart, to be moved in by an inline script (none runs here)
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  )
  let html = ''
  for await (const chunk of prelude) html += chunk
  setPrerendering(false)
  return html
}
