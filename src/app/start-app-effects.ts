import { effect } from '@preact/signals-react'
import { loadErrorMessages } from '../i18n.ts'
import { afterPageShown } from '../lib/page-shown.ts'
import { ui } from '../app-models.ts'

/**
 * Browser-facing effects of the shell: <html lang> follows the language,
 * online / offline toasts, focus kept in view and off the page body, and the error
 * catalogue's messages fetched (again when the connection is back, if it failed).
 * Returns a disposer.
 */
export function startAppEffects(): () => void {
  const loadErrors = () => void loadErrorMessages().catch(() => undefined)
  afterPageShown(loadErrors)
  // "No internet connection" goes when the connection is back (it said what is no longer true), and
  // "available now" goes when it drops again: one notice says how the connection is
  let offlineToast: string | null = null
  let onlineToast: string | null = null
  const onOnline = () => {
    loadErrors()
    if (offlineToast) ui.dismissToast(offlineToast)
    offlineToast = null
    onlineToast = ui.toastSuccess({ id: 'error.CONNECTION_AVAILABLE_NOW' })
  }
  const onOffline = () => {
    if (onlineToast) ui.dismissToast(onlineToast)
    onlineToast = null
    offlineToast = ui.toastError({ id: 'error.NO_INTERNET_CONNECTION' }) ?? offlineToast
  }
  window.addEventListener('online', onOnline)
  window.addEventListener('offline', onOffline)

  const stopLang = effect(() => {
    document.documentElement.lang = ui.language.value
  })

  // fetched after the first render, like everything the first paint does not need
  let stopFocusCare: (() => void) | undefined
  let live = true
  afterPageShown(
    () =>
      void import('./reserved-space.ts').then((m) => {
        if (live) stopFocusCare = m.startFocusCare()
      }),
  )

  return () => {
    live = false
    stopFocusCare?.()
    window.removeEventListener('online', onOnline)
    window.removeEventListener('offline', onOffline)
    stopLang()
  }
}
