/**
 * The navaid instance: listens to link clicks and history, resolves the path
 * against the route table and writes the current-route signal. Unknown paths
 * and unknown /error/... paths redirect to /error/404; restricted routes send
 * visitors to /login and remember where they were going (`redirectUrl`).
 */
import navaid, { type Router } from 'navaid'
import { computed, signal } from '@preact/signals-react'
import { AUTH_URL, NOT_FOUND_URL, routes, type AppRoute } from './routes.ts'
import { session } from './app-models.ts'

/** The route on screen. */
export interface RouteMatch {
  route: AppRoute
  /** Normalised pathname ("/reservation/success"). */
  path: string
  /** Query string including "?", or "". */
  search: string
}

/** Outcome of resolving a pathname. */
export type Resolution = { kind: 'route'; route: AppRoute } | { kind: 'redirect'; to: string; remember?: string }

const byPath = new Map(routes.map((r) => [r.path, r]))

/** Strips a trailing slash and the query / hash. */
export function normalizePath(pathname: string): string {
  const p = pathname.replace(/[?#].*$/, '').replace(/\/+$/, '')
  return p === '' ? '/' : p
}

/** Resolves a pathname against the route table (pure; no history access). */
export function resolvePath(pathname: string, signedIn: boolean): Resolution {
  const path = normalizePath(pathname)
  const route = byPath.get(path)
  if (!route) return { kind: 'redirect', to: NOT_FOUND_URL }
  if (route.restricted && !signedIn) return { kind: 'redirect', to: AUTH_URL, remember: path }
  return { kind: 'route', route }
}

const currentState = signal<RouteMatch | null>(null)

/** The current route (null before the router starts). */
export const currentRoute = computed(() => currentState.value)
/** The current pathname. */
export const currentPath = computed(() => currentState.value?.path ?? '/')

let router: Router | null = null

/** Goes to `path` (pushes a history entry unless `replace`). */
export function navigate(path: string, opts: { replace?: boolean } = {}): void {
  if (router) router.route(path, opts.replace)
}

function run(): void {
  const result = resolvePath(location.pathname, session.isSignedIn.value)
  if (result.kind === 'redirect') {
    if (result.remember) session.rememberRedirect(result.remember + location.search)
    navigate(result.to, { replace: true })
    return
  }
  currentState.value = { route: result.route, path: normalizePath(location.pathname), search: location.search }
}

/**
 * Shows `path` with query `search` (or no page: the bare shell) without a browser, for the
 * build-time prerender; a restricted page as a passenger signed in sees it before their data arrives.
 */
export function showPathStatically(path: string | null, search = ''): void {
  const result = path === null ? null : resolvePath(path, true)
  currentState.value = result?.kind === 'route' ? { route: result.route, path: normalizePath(path!), search } : null
}

/** Starts listening to history and link clicks; returns a function that stops it. */
export function startRouter(): () => void {
  router = navaid('/', run).on('*', run)
  router.listen()
  return () => {
    router?.unlisten?.()
    router = null
  }
}
