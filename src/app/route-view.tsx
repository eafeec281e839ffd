import { lazy, Suspense, useEffect, useRef, type ComponentType, type LazyExoticComponent } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { LoadingOverlay } from '../../design-system/loading-overlay/index.ts'
import { currentRoute } from '../router.ts'
import type { AppRoute } from '../routes.ts'
import { useT } from './use-t.ts'

const pages = new Map<AppRoute['page'], LazyExoticComponent<ComponentType>>()
function pageFor(route: AppRoute) {
  let page = pages.get(route.page)
  if (!page) {
    page = lazy(route.page)
    pages.set(route.page, page)
  }
  return page
}

let firstPage = true

/** Runs once the page has rendered: focus its h1 (except on first load) so screen readers start there. */
function PageReady() {
  useEffect(() => {
    if (firstPage) {
      firstPage = false
      return
    }
    const h1 = document.querySelector<HTMLElement>('main h1')
    if (h1) {
      if (!h1.hasAttribute('tabindex')) h1.tabIndex = -1
      h1.focus({ preventScroll: true })
    }
  }, [])
  return null
}

/** Renders the current route's page; sets the title and scrolls to the top on every path change. */
export function RouteView() {
  useSignals()
  const t = useT()
  const match = currentRoute.value
  const lastPath = useRef<string | null>(null)

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
    <Suspense fallback={<LoadingOverlay label={t('common.loading')} />}>
      <Page key={match.path} />
      <PageReady key={`ready-${match.path}`} />
    </Suspense>
  )
}
