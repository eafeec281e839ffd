import { useEffect } from 'react'
import { effect } from '@preact/signals-react'
import { Toaster, toaster, TOAST_DURATION_MS } from '../../design-system/toast/index.ts'
import { reserveSpace } from './reserved-space.ts'
import { useMessageText, useT } from './use-t.ts'
import { ui } from '../app-models.ts'
import type { ToastItem } from '../models/ui.ts'

const reserveToastSpace = (px: number) => reserveSpace('--toast-space', px)

// Ids already handed to Ark; survives re-renders (language switch) so nothing is shown twice.
const shown = new Set<string>()

/** Mirrors the UI store's toast queue into the Ark toaster (loaded with the first toast). */
export default function ToastHost() {
  const t = useT()
  const text = useMessageText()
  useEffect(() => {
    let stop: (() => void) | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    const waiting: ToastItem[] = []
    // One toast per task: each creation renders the toaster, and several in one
    // task would block a slow phone's main thread for that much longer.
    const next = () => {
      timer = undefined
      const item = waiting.shift()
      if (!item) return
      toaster.create({
        id: item.id,
        type: item.type,
        title: text(item.message),
        duration: item.persistent ? Infinity : TOAST_DURATION_MS,
        action: item.action ? { label: text(item.action.label), onClick: item.action.run } : undefined,
        onStatusChange: ({ status }) => {
          if (status === 'unmounted') ui.dismissToast(item.id)
        },
      })
      if (waiting.length) timer = setTimeout(next, 0)
    }
    // Ark's toast group subscribes to the store after its first commit; toasts
    // created before that are dropped, so start mirroring one task later.
    timer = setTimeout(() => {
      timer = undefined
      stop = effect(() => {
        const ids = new Set(ui.toasts.value.map((item) => item.id))
        // a toast the app took back (dismissToast: "No internet connection" once it is back) leaves the screen too
        for (const id of shown) {
          if (ids.has(id) || waiting.some((w) => w.id === id)) continue
          shown.delete(id)
          toaster.dismiss(id)
        }
        for (const item of ui.toasts.value) {
          if (shown.has(item.id)) continue
          shown.add(item.id)
          waiting.push(item)
        }
        if (waiting.length && !timer) timer = setTimeout(next, 0)
      })
    }, 0)
    return () => {
      if (timer) clearTimeout(timer)
      stop?.()
      // not shown yet: shown again by the next host (language switch)
      for (const item of waiting) shown.delete(item.id)
    }
  }, [text])
  return <Toaster label={t('toast.region')} closeLabel={t('toast.close')} onCoverChange={reserveToastSpace} />
}
