import { startTransition, useEffect, useState, type ComponentType, type ReactNode } from 'react'
import { Button } from '../../design-system/button/index.ts'
import { useT } from '../app/use-t.ts'
import { afterPageShown } from '../lib/page-shown.ts'

/** A part of a page that is not in its first render, with `preload` to fetch it early. */
export type Deferred<P> = ComponentType<P & { fallback?: ReactNode }> & { preload: () => Promise<unknown> }

/**
 * A page part loaded after the page's first render: widgets a passenger reaches
 * only later (the SMS code field, the booking form once seats are held, the QR
 * code) stay out of what a slow phone downloads before the page shows. The part is
 * fetched when the page mounts (`usePreload`) or first rendered, and renders at
 * once when it has arrived; until then `fallback` shows (nothing by default), and
 * a part that cannot be fetched (offline) offers a retry. `afterShown`: a part below what the
 * page is for (the ticket's QR code under the payment's answer) is fetched only once the page
 * has shown and painted that (src/lib/page-shown.ts), so its files do not hold up that paint.
 */
export function deferred<P extends object>(
  load: () => Promise<ComponentType<P>>,
  opts: { transition?: boolean; afterShown?: boolean } = {},
): Deferred<P> {
  let loaded: ComponentType<P> | undefined
  let pending: Promise<ComponentType<P>> | undefined
  const preload = () => {
    pending ??= load().then(
      (c) => (loaded = c),
      (err) => {
        pending = undefined
        throw err
      },
    )
    return pending
  }
  function Part({ fallback = null, ...props }: P & { fallback?: ReactNode }) {
    const t = useT()
    const [, setArrived] = useState(0)
    const [failed, setFailed] = useState(false)
    useEffect(() => {
      if (loaded || failed) return
      let live = true
      const fetchPart = () => {
        if (!live) return
        preload().then(
          // `transition`: a large part (the seat map) renders in slices, yielding to input on a slow phone
          () => {
            if (!live) return
            if (opts.transition) startTransition(() => setArrived((n) => n + 1))
            else setArrived((n) => n + 1)
          },
          () => live && setFailed(true),
        )
      }
      if (opts.afterShown) afterPageShown(fetchPart)
      else fetchPart()
      return () => {
        live = false
      }
    }, [failed])
    if (loaded) {
      const C = loaded
      return <C {...(props as P)} />
    }
    if (failed) {
      return (
        <p role="alert">
          {t('app.partFailed')}{' '}
          <Button variant="outline" onClick={() => setFailed(false)}>
            {t('common.retry')}
          </Button>
        </p>
      )
    }
    return <>{fallback}</>
  }
  return Object.assign(Part, { preload })
}

/** Fetches deferred parts once the page has rendered, so they are there when the passenger reaches them. */
export function usePreload(...parts: { preload: () => Promise<unknown> }[]): void {
  // the parts are module constants: once, after the first render
  useEffect(() => {
    for (const p of parts) p.preload().catch(() => undefined)
  }, [])
}
