import { useEffect } from 'react'
import { effect } from '@preact/signals-react'
import { Toaster, toaster, TOAST_DURATION_MS } from '../../design-system/toast/index.ts'
import { dismissToast, toasts } from '../stores/ui.ts'
import { useMessageText, useT } from './use-t.ts'

// Ids already handed to Ark; survives re-renders (language switch) so nothing is shown twice.
const shown = new Set<string>()

/** Mirrors the UI store's toast queue into the Ark toaster (loaded with the first toast). */
export default function ToastHost() {
  const t = useT()
  const text = useMessageText()
  useEffect(() => {
    let stop: (() => void) | undefined
    // Ark's toast group subscribes to the store after its first commit; toasts
    // created before that are dropped, so start mirroring one task later.
    const timer = setTimeout(() => {
      stop = effect(() => {
        for (const item of toasts.value) {
          if (shown.has(item.id)) continue
          shown.add(item.id)
          toaster.create({
            id: item.id,
            type: item.type,
            title: text(item.message),
            duration: item.persistent ? Infinity : TOAST_DURATION_MS,
            onStatusChange: ({ status }) => {
              if (status === 'unmounted') dismissToast(item.id)
            },
          })
        }
      })
    }, 0)
    return () => {
      clearTimeout(timer)
      stop?.()
    }
  }, [text])
  return <Toaster closeLabel={t('toast.close')} />
}
