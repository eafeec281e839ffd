import {
  Component,
  lazy,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
} from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { Button } from '../../design-system/button/index.ts'
import { LoadingOverlay } from '../../design-system/loading-overlay/index.ts'
import { loadPageMessages } from '../i18n.ts'
import { pageLoaders, type PageModule } from '../page-loaders.ts'
import { currentRoute } from '../router.ts'
import type { AppRoute, PageKey } from '../routes.ts'
import { useT } from './use-t.ts'

const pages = new Map<PageKey, LazyExoticComponent<ComponentType>>()
const loaded = new Map<PageKey, ComponentType>()

/** Loads a route's page (with `load`, by default the page's own loader) and the messages it needs. */
const loadPage = (route: AppRoute, load: () => Promise<PageModule> = pageLoaders[route.page]) =>
  Promise.all([load(), loadPageMessages(route.page)]).then(([m]) => m)

function pageFor(route: AppRoute): ComponentType {
  const ready = loaded.get(route.page)
  if (ready) return ready
  let page = pages.get(route.page)
  if (!page) {
    page = lazy(() => loadPage(route))
    pages.set(route.page, page)
  }
  return page
}

/**
 * Loads the first route's page before the first render, so that render does not
 * suspend: the page shows without a loading fallback in between (React holds a
 * revealed fallback for a while before swapping in the content). The page's data
 * for address query `search` is asked for as soon as its module is there.
 */
export async function preloadPage(route: AppRoute, search: string): Promise<void> {
  try {
    const m = await loadPage(route)
    m.startLoading?.(search)
    loaded.set(route.page, m.default)
  } catch {
    // the render suspends on it instead, and the page boundary offers a retry
  }
}

let firstPage = true

let retries = 0

/**
 * Browsers remember a failed dynamic import for the life of the document, so a
 * retry imports the same chunk under a fresh URL; if that fails too (a shared
 * chunk is missing), the page is reloaded.
 */
function retryPage(route: AppRoute, err: unknown) {
  const url = /imported module: (\S+)/.exec(String((err as Error)?.message ?? ''))?.[1]
  if (!url || retries > 1) {
    location.reload()
    return
  }
  retries++
  const fresh = `${url}${url.includes('?') ? '&' : '?'}retry=${Date.now()}`
  const load = () => import(/* @vite-ignore */ fresh) as Promise<PageModule>
  loaded.delete(route.page)
  pages.set(
    route.page,
    lazy(() => loadPage(route, load)),
  )
}

/**
 * Catches a page chunk that failed to load (network dropped) or a page that
 * crashed: shows a message with a retry instead of a blank screen.
 */
class PageBoundary extends Component<
  { children: ReactNode; title: string; text: string; retry: string; onRetry: (err: unknown) => void },
  { failed: boolean; error: unknown }
> {
  state = { failed: false, error: null as unknown }
  static getDerivedStateFromError(error: unknown) {
    return { failed: true, error }
  }
  componentDidCatch(err: unknown) {
    console.error(err)
  }
  render() {
    if (!this.state.failed) return this.props.children
    return (
      <div role="alert">
        <h1 tabIndex={-1}>{this.props.title}</h1>
        <p>{this.props.text}</p>
        <Button
          onClick={() => {
            this.props.onRetry(this.state.error)
          }}
        >
          {this.props.retry}
        </Button>
      </div>
    )
  }
}

/**
 * Runs once the page has rendered: focuses its h1 (except on first load) so screen readers start
 * there. A layout effect: focus moves in the commit that puts the page on screen, before the browser
 * paints it, so no frame shows the new page with focus fallen to the body (a passive effect may run
 * after the paint: 50–430 ms later on a slow phone).
 */
function PageReady() {
  useLayoutEffect(() => {
    if (firstPage) return
    const h1 = document.querySelector<HTMLElement>('main h1')
    if (h1) {
      if (!h1.hasAttribute('tabindex')) h1.tabIndex = -1
      h1.focus({ preventScroll: true })
    }
  }, [])
  useEffect(() => {
    if (!firstPage) return
    firstPage = false
    // the live page has replaced the prerendered one: tests and benchmarks wait for the mark
    document.documentElement.dataset.appReady = 'true'
  }, [])
  return null
}

/** Renders the current route's page; sets the title and scrolls to the top on every path change. */
export function RouteView() {
  useSignals()
  const t = useT()
  const match = currentRoute.value
  const lastPath = useRef<string | null>(null)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (!match) return
    document.title = t('app.titleTemplate', { page: t(match.route.titleId) })
  }, [match, t])

  useEffect(() => {
    if (!match || lastPath.current === match.path) return
    if (lastPath.current !== null) window.scrollTo(0, 0)
    lastPath.current = match.path
  }, [match])

  if (!match) return null
  const Page = pageFor(match.route)
  return (
    <PageBoundary
      key={`${match.path}#${attempt}`}
      title={t('common.pageLoadFailedTitle')}
      text={t('common.pageLoadFailed')}
      retry={t('common.retry')}
      onRetry={(err) => {
        retryPage(match.route, err)
        setAttempt((n) => n + 1)
      }}
    >
      <Suspense fallback={<LoadingOverlay label={t('common.loading')} />}>
        <Page key={match.path} />
        <PageReady key={`ready-${match.path}`} />
      </Suspense>
    </PageBoundary>
  )
}
