import { css } from '../../styled-system/css'
import { Drawer } from '../../design-system/drawer/index.ts'
import { isCurrent, navItems } from './nav-items.ts'
import { useT } from './use-t.ts'

const link = css({
  display: 'flex',
  alignItems: 'center',
  minHeight: 'touch',
  px: '3',
  borderRadius: 'sm',
  color: 'gray.900',
  textDecoration: 'none',
  fontWeight: 'medium',
  _hover: { bg: 'brand.50' },
  '&[aria-current=page]': { bg: 'brand.50', color: 'brand.800', boxShadow: 'inset 4px 0 0 {colors.brand.700}' },
})
const list = css({ listStyle: 'none', m: '0', p: '0', display: 'flex', flexDirection: 'column', gap: '1' })

/** Props for MobileMenu. */
export interface MobileMenuProps {
  open: boolean
  path: string
  onOpenChange: (open: boolean) => void
  /** Element that gets focus back when the drawer closes (the menu button). */
  finalFocus: () => HTMLElement | null
}

/** The collapsed navigation for mobile and tablet: a 220 px drawer from the start edge. */
export default function MobileMenu({ open, path, onOpenChange, finalFocus }: MobileMenuProps) {
  const t = useT()
  return (
    <Drawer.Root open={open} onOpenChange={(d) => onOpenChange(d.open)} finalFocusEl={finalFocus} lazyMount unmountOnExit>
      <Drawer.Overlay>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{t('nav.menu')}</Drawer.Title>
              <Drawer.CloseTrigger aria-label={t('nav.closeMenu')}>
                <span aria-hidden="true">×</span>
              </Drawer.CloseTrigger>
            </Drawer.Header>
            <Drawer.Body>
              <ul className={list}>
                {navItems.map((item) => (
                  <li key={item.href}>
                    <a
                      href={item.href}
                      className={link}
                      aria-current={isCurrent(item.href, path) ? 'page' : undefined}
                      onClick={() => onOpenChange(false)}
                    >
                      {t(item.labelId)}
                    </a>
                  </li>
                ))}
              </ul>
            </Drawer.Body>
          </Drawer.Content>
        </Drawer.Positioner>
      </Drawer.Overlay>
    </Drawer.Root>
  )
}
