/**
 * The only route table (docs/spec.md section 2), pure data: path, title message id,
 * whether the route needs a signed-in passenger, and the page that shows it.
 * It imports nothing: the router, the build's size report and the browser
 * tests read it; `page-loaders.ts` maps each page to its lazily loaded module.
 */

/** A page: the folder under src/pages/ that holds it as `<page>/<page>-page.tsx`. */
export type PageKey =
  | 'home'
  | 'search'
  | 'locations'
  | 'contact-us'
  | 'faq'
  | 'terms'
  | 'privacy'
  | 'reservation'
  | 'queue'
  | 'reservation-success'
  | 'reservation-failure'
  | 'ticket-operation'
  | 'profile'
  | 'login'
  | 'error'
  | 'checker'

/** One entry of the route table. */
export interface AppRoute {
  path: string
  /** The page that shows this route. */
  page: PageKey
  /** Message id of the document title (and the page's name for assistive technology). */
  titleId: string
  /** Restricted routes send visitors to /login and return after login. */
  restricted: boolean
}

/**
 * The pages whose largest content is the server's answer to their address (a shared results link,
 * a seat page, a paid booking): their shells send those reads before the app has loaded (build.mjs,
 * src/early/requests.ts), and work the passenger does not see first waits until that answer has
 * shown (src/lib/page-shown.ts).
 */
export const DATA_PAGES: ReadonlySet<PageKey> = new Set<PageKey>(['search', 'reservation', 'reservation-success'])

export const AUTH_URL = '/login'
export const NOT_FOUND_URL = '/error/404'

export const routes: readonly AppRoute[] = [
  { path: '/', page: 'home', titleId: 'home.title', restricted: false },
  { path: '/home', page: 'home', titleId: 'home.title', restricted: false },
  { path: '/search', page: 'search', titleId: 'search.title', restricted: false },
  { path: '/locations', page: 'locations', titleId: 'locations.title', restricted: false },
  { path: '/contact-us', page: 'contact-us', titleId: 'contact.title', restricted: false },
  { path: '/faq', page: 'faq', titleId: 'faq.title', restricted: false },
  { path: '/terms-and-conditions', page: 'terms', titleId: 'terms.title', restricted: false },
  { path: '/privacy-policy', page: 'privacy', titleId: 'privacy.title', restricted: false },
  { path: '/reservation', page: 'reservation', titleId: 'reservation.title', restricted: false },
  { path: '/queue', page: 'queue', titleId: 'queue.title', restricted: false },
  { path: '/reservation/success', page: 'reservation-success', titleId: 'reservationSuccess.title', restricted: false },
  { path: '/reservation/failure', page: 'reservation-failure', titleId: 'reservationFailure.title', restricted: false },
  { path: '/ticket-operation', page: 'ticket-operation', titleId: 'ticketOperation.title', restricted: false },
  // the ticket SMS's short link, `/t?k=<token>`
  { path: '/t', page: 'ticket-operation', titleId: 'ticketOperation.title', restricted: false },
  { path: '/checker', page: 'checker', titleId: 'checker.title', restricted: false },
  { path: '/profile', page: 'profile', titleId: 'profile.title', restricted: true },
  { path: '/login', page: 'login', titleId: 'login.title', restricted: false },
  { path: '/error/401', page: 'error', titleId: 'errorPage.title401', restricted: false },
  { path: '/error/403', page: 'error', titleId: 'errorPage.title403', restricted: false },
  { path: '/error/404', page: 'error', titleId: 'errorPage.title404', restricted: false },
  { path: '/error/500', page: 'error', titleId: 'errorPage.title500', restricted: false },
]

/**
 * The message scopes (the part of a message id before its first dot) each page uses
 * beyond the core ones bundled with the entry (locales/core-scopes.json): the build
 * puts them in a chunk of the page's own, loaded with the page (src/i18n.ts
 * `loadPageMessages`). src/page-messages.test.ts checks this against the pages' code.
 */
export const pageMessages: Readonly<Record<PageKey, readonly string[]>> = {
  home: ['home', 'offers', 'searchForm', 'validation'],
  search: ['search', 'searchForm', 'validation', 'trips', 'coachType'],
  locations: ['locations'],
  'contact-us': ['contact', 'validation'],
  faq: ['faq'],
  terms: ['terms'],
  privacy: ['privacy'],
  reservation: [
    'reservation',
    'seatChoice',
    'seatBar',
    'seatState',
    'seat',
    'seatLegend',
    'seatType',
    'coachType',
    'trips',
    'booking',
    'validation',
    'waitlist',
    'roundTrip',
  ],
  queue: ['queue'],
  'reservation-success': ['reservationSuccess', 'payment', 'ticket', 'ticketChange', 'booking', 'coachType', 'profile'],
  'reservation-failure': ['reservationFailure', 'payment', 'booking', 'seatChoice'],
  'ticket-operation': [
    'ticketOperation',
    'ticket',
    'ticketChange',
    'dateChange',
    'booking',
    'coachType',
    'profile',
    'login',
    'validation',
    // the live seat map's own words, for a change of the ticket to another trip
    'seatChoice',
    'seatBar',
    'seatState',
    'seat',
    'seatLegend',
    'seatType',
    // the booking panel's round-trip words (in the seat page's module closure)
    'roundTrip',
  ],
  profile: ['profile', 'ticket', 'ticketChange', 'transactions', 'login', 'validation'],
  login: ['login', 'validation'],
  error: ['errorPage'],
  checker: ['checker'],
}

/** The source file of a page, from the project root. */
export function pageFile(page: PageKey): string {
  return `src/pages/${page}/${page}-page.tsx`
}
