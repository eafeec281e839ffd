import type { ReactNode } from 'react'
import { css } from '../../styled-system/css'
import { config } from '../config.ts'
import { FacebookIcon, InstagramIcon, YoutubeIcon } from './icons.tsx'
import { useT } from './use-t.ts'

const styles = {
  footer: css({ bg: 'brand.900', color: 'white', mt: '12' }),
  inner: css({
    maxWidth: 'page',
    mx: 'auto',
    px: '4',
    py: '6',
    display: 'flex',
    flexDirection: 'column',
    gap: '4',
    md: { flexDirection: 'row', alignItems: 'center', justifyContent: 'space-between' },
  }),
  links: css({ display: 'flex', flexWrap: 'wrap', columnGap: '4', listStyle: 'none', m: '0', p: '0' }),
  link: css({
    display: 'inline-flex',
    alignItems: 'center',
    minHeight: 'touch',
    color: 'white',
    textDecoration: 'underline',
    textUnderlineOffset: '3px',
    _focusVisible: { outline: '3px solid white', outlineOffset: '2px' },
  }),
  social: css({ display: 'flex', gap: '2', listStyle: 'none', m: '0', p: '0' }),
  socialLink: css({
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: 'touch',
    height: 'touch',
    borderRadius: 'full',
    color: 'white',
    border: '1px solid white',
    _hover: { bg: 'brand.800' },
    _focusVisible: { outline: '3px solid white', outlineOffset: '2px' },
  }),
  rights: css({ fontSize: 'sm', m: '0' }),
}

function Social({ href, label, children }: { href: string; label: string; children: ReactNode }) {
  return (
    <li>
      <a className={styles.socialLink} href={href} aria-label={label} rel="noopener noreferrer" target="_blank">
        {children}
      </a>
    </li>
  )
}

/** Site footer: year and rights, home / terms / privacy links, three social links; `children` (the floating actions) stay inside the contentinfo landmark. */
export function Footer({ children }: { children?: ReactNode }) {
  const t = useT()
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <ul className={styles.links} aria-label={t('a11y.footerNavigation')}>
          <li>
            <a className={styles.link} href="/#">
              {t('footer.home')}
            </a>
          </li>
          <li>
            <a className={styles.link} href="/terms-and-conditions">
              {t('footer.terms')}
            </a>
          </li>
          <li>
            <a className={styles.link} href="/privacy-policy">
              {t('footer.privacy')}
            </a>
          </li>
        </ul>
        <ul className={styles.social} aria-label={t('a11y.socialLinks')}>
          <Social href={config.facebookUrl} label={t('footer.facebook')}>
            <FacebookIcon />
          </Social>
          <Social href={config.youtubeUrl} label={t('footer.youtube')}>
            <YoutubeIcon />
          </Social>
          <Social href={config.instagramUrl} label={t('footer.instagram')}>
            <InstagramIcon />
          </Social>
        </ul>
        <p className={styles.rights}>{t('footer.rights', { year: new Date().getFullYear() })}</p>
      </div>
      {children}
    </footer>
  )
}
