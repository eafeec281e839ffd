/** Header navigation of docs/spec.md section 2, in order. */
export const navItems = [
  { href: '/', labelId: 'nav.home' },
  { href: '/ticket-operation', labelId: 'nav.ticketOperation' },
  { href: '/profile', labelId: 'nav.profile' },
  { href: '/locations', labelId: 'nav.locations' },
  { href: '/contact-us', labelId: 'nav.contactUs' },
  { href: '/faq', labelId: 'nav.faq' },
] as const

/** True when `href` is the current page (home also answers at /home). */
export function isCurrent(href: string, path: string): boolean {
  return href === '/' ? path === '/' || path === '/home' : path === href
}
