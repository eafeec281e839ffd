import { lazy, Suspense, useRef, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { css, cx } from '../../styled-system/css'
import { button } from '../../styled-system/recipes'
import { config, displayPhone } from '../config.ts'
import { currentPath, navigate } from '../router.ts'
import { MailIcon, MenuIcon, PhoneIcon } from './icons.tsx'
import { LanguageSwitch } from './language-switch.tsx'
import { isCurrent, navItems } from './nav-items.ts'
import { useScrolledPast } from './use-scroll-y.ts'
import { useRichT, useT } from './use-t.ts'
import { session, ui } from '../app-models.ts'

// The drawer (Ark Dialog) is only downloaded when the menu is first opened.
const MobileMenu = lazy(() => import('./mobile-menu.tsx'))

const styles = {
  header: css({
    position: 'sticky',
    top: '0',
    zIndex: 'header',
    bg: 'white',
    transition: 'box-shadow 200ms',
    '&[data-elevated=true]': { boxShadow: 'md' },
    // a short viewport (a phone held sideways, 400 % zoom) keeps its height for the page: the header scrolls away
    '@media (max-height: 32em)': { position: 'static' },
    // so does it when with the bottom bar it would cover half the screen (text-only zoom: the media query's
    // em stays the browser's, src/app/reserved-space.ts sets data-crowded)
    'html[data-crowded] &': { position: 'static' },
  }),
  topBar: css({ bg: 'brand.900', color: 'white', fontSize: 'sm' }),
  topInner: css({
    maxWidth: 'page',
    mx: 'auto',
    px: '4',
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    columnGap: '4',
  }),
  help: css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: '3' }),
  helpLabel: css({ fontWeight: 'bold' }),
  topLink: css({
    display: 'inline-flex',
    alignItems: 'center',
    gap: '1',
    minHeight: 'touch',
    color: 'white',
    textDecoration: 'none',
    _hover: { textDecoration: 'underline' },
    _focusVisible: { outline: '3px solid white', outlineOffset: '1px' },
  }),
  emailLink: css({ display: 'none', sm: { display: 'inline-flex' } }),
  // Narrow or at a large text size, the name wraps first and LOGIN / LOGOUT moves to a line of its own
  // second: nothing is pushed off the side (WCAG 1.4.10).
  mainBar: css({
    maxWidth: 'page',
    mx: 'auto',
    px: '4',
    minHeight: '16',
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: '2',
    rowGap: '1',
    py: '1',
    sm: { columnGap: '4' },
  }),
  brand: css({
    flex: '1 1 0',
    lg: { flex: 'none' },
    display: 'inline-flex',
    alignItems: 'center',
    minHeight: 'touch',
    fontSize: 'xl',
    fontWeight: 'bold',
    lineHeight: 'tight',
    color: 'brand.800',
    textDecoration: 'none',
  }),
  nav: css({ display: 'flex', justifyContent: 'flex-end', lg: { flex: '1', justifyContent: 'center' } }),
  navList: css({ display: 'none', lg: { display: 'flex' }, gap: '1', listStyle: 'none', m: '0', p: '0' }),
  navLink: css({
    display: 'inline-flex',
    alignItems: 'center',
    minHeight: 'touch',
    px: '3',
    color: 'gray.900',
    textDecoration: 'none',
    borderRadius: 'sm',
    fontWeight: 'medium',
    _hover: { bg: 'brand.50' },
    '&[aria-current=page]': { color: 'brand.800', boxShadow: 'inset 0 -3px 0 {colors.brand.700}' },
  }),
  menuButton: css({ lg: { display: 'none' } }),
  auth: css({ display: 'flex', alignItems: 'center', marginInlineStart: 'auto' }),
}

/** Site header: help line, language switch, navigation (drawer below 1024 px), LOGIN / LOGOUT. */
export function Header() {
  useSignals()
  const t = useT()
  const rt = useRichT()
  const path = currentPath.value
  const scrolled = useScrolledPast(0)
  const [menuOpen, setMenuOpen] = useState(false)
  const [menuLoaded, setMenuLoaded] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  const onHome = path === '/' || path === '/home'
  const phone = config.supportPhone
  // the number in the page's digits; the link dials the same number
  const shownPhone = displayPhone(phone, ui.language.value)
  const email = config.supportEmail

  return (
    // the band it covers is kept as scroll padding (src/app/reserved-space.ts)
    <header className={styles.header} data-elevated={!onHome || scrolled} data-reserved-space="--header-space">
      <div className={styles.topBar}>
        <div className={styles.topInner}>
          <div className={styles.help}>
            <span className={styles.helpLabel}>{t('header.help')}:</span>
            <a className={styles.topLink} href={`tel:${phone}`} aria-label={t('header.callUs', { phone: shownPhone })}>
              <PhoneIcon />
              {shownPhone}
            </a>
            <a className={cx(styles.topLink, styles.emailLink)} href={`mailto:${email}`}>
              <MailIcon />
              {/* the address is read as English whatever the page's language, inside a sentence in the page's */}
              {rt('header.emailUs', { email: <span lang="en">{email}</span> })}
            </a>
          </div>
          <LanguageSwitch />
        </div>
      </div>
      <div className={styles.mainBar}>
        <a href="/" className={styles.brand} aria-label={t('header.homeLink')}>
          {t('app.name')}
        </a>
        <nav aria-label={t('a11y.mainNavigation')} className={styles.nav}>
          <ul className={styles.navList}>
            {navItems.map((item) => (
              <li key={item.href}>
                <a href={item.href} className={styles.navLink} aria-current={isCurrent(item.href, path) ? 'page' : undefined}>
                  {t(item.labelId)}
                </a>
              </li>
            ))}
          </ul>
          <button
            ref={menuButton}
            type="button"
            className={cx(button({ variant: 'ghost', size: 'icon' }), styles.menuButton)}
            aria-label={t('nav.openMenu')}
            aria-haspopup="dialog"
            aria-expanded={menuOpen}
            onClick={() => {
              setMenuLoaded(true)
              setMenuOpen(true)
            }}
          >
            <MenuIcon />
          </button>
        </nav>
        <div className={styles.auth}>
          {session.isSignedIn.value ? (
            <button
              type="button"
              className={button({ variant: 'outline' })}
              onClick={() => {
                // the account model's file (and the API client) load on demand; if that fails the session is still forgotten
                void import('../models/account.ts').then((m) => m.logout(session), session.signOut)
                navigate('/')
              }}
            >
              {t('nav.logout')}
            </button>
          ) : (
            <a href="/login" className={button({ variant: 'solid' })}>
              {t('nav.login')}
            </a>
          )}
        </div>
      </div>
      {menuLoaded ? (
        <Suspense fallback={null}>
          <MobileMenu open={menuOpen} path={path} onOpenChange={setMenuOpen} finalFocus={() => menuButton.current} />
        </Suspense>
      ) : null}
    </header>
  )
}
