import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { css } from '../../styled-system/css'
import { LoadingOverlay } from '../../design-system/loading-overlay/index.ts'
import { afterPageSettled, pageShownAfterPaint } from '../lib/page-shown.ts'
import { preloadFiles } from '../lib/preload.ts'
import { currentRoute } from '../router.ts'
import { DATA_PAGES } from '../routes.ts'
import { FloatingActions } from './floating-actions.tsx'
import { Footer } from './footer.tsx'
import { Header } from './header.tsx'
import { RouteView } from './route-view.tsx'
import { useT } from './use-t.ts'
import { ui } from '../app-models.ts'

// Ark Toast and Ark Dialog are not needed for the first render: each host is
// fetched the first time something is queued for it.
const loadToastHost = () => import('./toast-host.tsx')
const loadDialogHost = () => import('./dialog-host.tsx')
const ToastHost = lazy(loadToastHost)
const DialogHost = lazy(loadDialogHost)

// Fetched once the page has settled all the same: the offline notification and
// error dialogs must still work after the network has dropped. Preloaded (fetched
// and compiled, not run) from the build's file list, so a slow phone's main thread
// is not busy running them; without the list (unit tests), imported. Not before the
// page's own data: on a slow connection they would share its bandwidth.
function warmOverlays() {
  if (document.getElementById('route-files')) preloadFiles('*overlays')
  else void Promise.all([loadToastHost(), loadDialogHost()]).catch(() => undefined)
}

const styles = {
  shell: css({ minHeight: '100dvh', display: 'flex', flexDirection: 'column' }),
  skip: css({
    position: 'absolute',
    insetInlineStart: '2',
    top: '2',
    zIndex: 'skip',
    px: '4',
    py: '3',
    bg: 'white',
    color: 'blue.700',
    fontWeight: 'bold',
    borderRadius: 'md',
    boxShadow: 'md',
    transform: 'translateY(-200%)',
    _focus: { transform: 'none' },
  }),
  // At least a screen tall, so the footer is never in view first and then pushed down as the page arrives (layout shift).
  main: css({ flex: '1', width: 'full', minHeight: '100dvh', maxWidth: 'page', mx: 'auto', px: '4', py: '6', _focus: { outline: 'none' } }),
}

/**
 * Keeps the page alive when an overlay host cannot load (its code did not arrive
 * before the network dropped): that overlay stays away, the page and its own
 * retry message do not. Everything a notice says is also on the page or repeated.
 */
class OverlayBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  componentDidCatch(err: unknown) {
    console.error('an overlay could not load:', err)
  }
  render() {
    return this.state.failed ? null : this.props.children
  }
}

/** Mounts `children` from the first time `when` is true, and keeps them. */
function Latch({ when, children }: { when: boolean; children: ReactNode }) {
  const [on, setOn] = useState(when)
  useEffect(() => {
    if (when) setOn(true)
  }, [when])
  return on ? (
    <OverlayBoundary>
      <Suspense fallback={null}>{children}</Suspense>
    </OverlayBoundary>
  ) : null
}

function Overlays() {
  useSignals()
  const t = useT()
  useEffect(() => {
    // any other page has shown what it is for with its first render; a data route says so itself
    const page = currentRoute.peek()?.route.page
    if (!page || !DATA_PAGES.has(page)) pageShownAfterPaint()
    afterPageSettled(warmOverlays)
  }, [])
  return (
    <>
      {ui.isLoading.value ? <LoadingOverlay label={t('common.loading')} /> : null}
      <Latch when={ui.successModalVisible.value || ui.errorModalVisible.value}>
        <DialogHost />
      </Latch>
      <Latch when={ui.toasts.value.length > 0}>
        <ToastHost />
      </Latch>
    </>
  )
}

/** The shared layout: skip link, header, main (current page), footer, floating actions, overlays. */
export function App() {
  const t = useT()
  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skip}>
        {t('a11y.skipToMain')}
      </a>
      <Header />
      <main id="main" tabIndex={-1} className={styles.main}>
        <RouteView />
      </main>
      <Footer>
        <FloatingActions />
      </Footer>
      <Overlays />
    </div>
  )
}
