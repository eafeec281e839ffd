/**
 * The page module of each page in the route table, loaded lazily (one chunk a
 * page). Apart from `routes.ts` so the table imports nothing: pages import the
 * router, which reads the table, and no import leads back here.
 */
import type { ComponentType } from 'react'
import type { PageKey } from './routes.ts'

/**
 * A lazy page module: its default export is the page component; `startLoading`, where
 * there is one, asks for the page's data at address query `search` before the app's
 * first page renders (src/lib/early-load.ts).
 */
export type PageModule = { default: ComponentType; startLoading?: (search: string) => void }

/** Page key → its module's loader. */
export const pageLoaders: Record<PageKey, () => Promise<PageModule>> = {
  home: () => import('./pages/home/home-page.tsx'),
  search: () => import('./pages/search/search-page.tsx'),
  locations: () => import('./pages/locations/locations-page.tsx'),
  'contact-us': () => import('./pages/contact-us/contact-us-page.tsx'),
  faq: () => import('./pages/faq/faq-page.tsx'),
  terms: () => import('./pages/terms/terms-page.tsx'),
  privacy: () => import('./pages/privacy/privacy-page.tsx'),
  reservation: () => import('./pages/reservation/reservation-page.tsx'),
  queue: () => import('./pages/queue/queue-page.tsx'),
  'reservation-success': () => import('./pages/reservation-success/reservation-success-page.tsx'),
  'reservation-failure': () => import('./pages/reservation-failure/reservation-failure-page.tsx'),
  'ticket-operation': () => import('./pages/ticket-operation/ticket-operation-page.tsx'),
  profile: () => import('./pages/profile/profile-page.tsx'),
  login: () => import('./pages/login/login-page.tsx'),
  error: () => import('./pages/error/error-page.tsx'),
  checker: () => import('./pages/checker/checker-page.tsx'),
}
