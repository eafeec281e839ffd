import { useSignals } from '@preact/signals-react/runtime'
import { css } from '../../styled-system/css'
import { config } from '../config.ts'
import { currentPath } from '../router.ts'
import { ArrowUpIcon, MessengerIcon } from './icons.tsx'
import { useScrolledPast } from './use-scroll-y.ts'
import { useT } from './use-t.ts'

/** Scroll-to-top appears after this many px (docs/spec.md section 9). */
export const SCROLL_TOP_THRESHOLD = 100
/** The messenger widget is hidden on these paths (docs/spec.md section 2). */
const NO_MESSENGER = new Set(['/search', '/reservation'])

const styles = {
  stack: css({
    position: 'fixed',
    insetInlineEnd: '4',
    bottom: '4',
    zIndex: 'fab',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: '3',
  }),
  fab: css({
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '12',
    height: '12',
    borderRadius: 'full',
    border: 'none',
    boxShadow: 'md',
    cursor: 'pointer',
    _focusVisible: { outline: '3px solid {colors.blue.700}', outlineOffset: '2px' },
  }),
  top: css({ bg: 'gray.900', color: 'white', _hover: { bg: 'gray.800' } }),
  messenger: css({ bg: 'blue.700', color: 'white', _hover: { bg: 'brand.900' } }),
}

/** Scroll-to-top button (after 100 px) and the Messenger chat link (not on /search and /reservation). */
export function FloatingActions() {
  useSignals()
  const t = useT()
  const showTop = useScrolledPast(SCROLL_TOP_THRESHOLD)
  const showMessenger = !NO_MESSENGER.has(currentPath.value)
  return (
    // the buttons sit over the page's end: a control that gets focus is scrolled above them (src/app/reserved-space.ts)
    <div className={styles.stack} data-reserved-space="--fab-space">
      {showTop ? (
        <button
          type="button"
          className={`${styles.fab} ${styles.top}`}
          aria-label={t('scrollTop.label')}
          onClick={() => {
            window.scrollTo({ top: 0, behavior: 'smooth' })
            document.getElementById('main')?.focus({ preventScroll: true })
          }}
        >
          <ArrowUpIcon />
        </button>
      ) : null}
      {showMessenger ? (
        <a
          className={`${styles.fab} ${styles.messenger}`}
          href={config.messengerUrl}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('messenger.label')}
        >
          <MessengerIcon />
        </a>
      ) : null}
    </div>
  )
}
