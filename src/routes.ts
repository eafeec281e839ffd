/**
 * The only route table (SPEC section 2): path, lazily imported page, title
 * message id, and whether the route needs a signed-in passenger. Pure data.
 */
import type { ComponentType } from 'react'

/** One entry of the route table. */
export interface AppRoute {
  path: string
  /** Lazy page module; its default export is the page component. */
  page: () => Promise<{ default: ComponentType }>
  /** Message id of the document title (and the page's name for assistive technology). */
  titleId: string
  /** Restricted routes send visitors to /login and return after login. */
  restricted: boolean
  /** True when the page needs only the core messages bundled with the entry (the home page). */
  coreMessages?: boolean
}

export const HOME_URL = '/'
export const AUTH_URL = '/login'
export const NOT_FOUND_URL = '/error/404'

export const routes: readonly AppRoute[] = [
  { path: '/', page: () => import('./pages/home/home-page.tsx'), titleId: 'home.title', restricted: false, coreMessages: true },
  { path: '/home', page: () => import('./pages/home/home-page.tsx'), titleId: 'home.title', restricted: false, coreMessages: true },
  { path: '/search', page: () => import('./pages/search/search-page.tsx'), titleId: 'search.title', restricted: false },
  { path: '/locations', page: () => import('./pages/locations/locations-page.tsx'), titleId: 'locations.title', restricted: false },
  { path: '/contact-us', page: () => import('./pages/contact-us/contact-us-page.tsx'), titleId: 'contact.title', restricted: false },
  { path: '/faq', page: () => import('./pages/faq/faq-page.tsx'), titleId: 'faq.title', restricted: false },
  { path: '/terms-and-conditions', page: () => import('./pages/terms/terms-page.tsx'), titleId: 'terms.title', restricted: false },
  { path: '/privacy-policy', page: () => import('./pages/privacy/privacy-page.tsx'), titleId: 'privacy.title', restricted: false },
  { path: '/reservation', page: () => import('./pages/reservation/reservation-page.tsx'), titleId: 'reservation.title', restricted: false },
  { path: '/reservation/success', page: () => import('./pages/reservation-success/reservation-success-page.tsx'), titleId: 'reservationSuccess.title', restricted: false },
  { path: '/reservation/failure', page: () => import('./pages/reservation-failure/reservation-failure-page.tsx'), titleId: 'reservationFailure.title', restricted: false },
  { path: '/ticket-operation', page: () => import('./pages/ticket-operation/ticket-operation-page.tsx'), titleId: 'ticketOperation.title', restricted: false },
  { path: '/profile', page: () => import('./pages/profile/profile-page.tsx'), titleId: 'profile.title', restricted: true },
  { path: '/login', page: () => import('./pages/login/login-page.tsx'), titleId: 'login.title', restricted: false },
  { path: '/error/401', page: () => import('./pages/error/error-page.tsx'), titleId: 'errorPage.title401', restricted: false },
  { path: '/error/403', page: () => import('./pages/error/error-page.tsx'), titleId: 'errorPage.title403', restricted: false },
  { path: '/error/404', page: () => import('./pages/error/error-page.tsx'), titleId: 'errorPage.title404', restricted: false },
  { path: '/error/500', page: () => import('./pages/error/error-page.tsx'), titleId: 'errorPage.title500', restricted: false },
]
