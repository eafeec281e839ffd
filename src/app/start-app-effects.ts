import { effect } from '@preact/signals-react'
import { loadErrorMessages } from '../i18n.ts'
import { startFocusRescue } from '../lib/focus.ts'
import { currentPath } from '../router.ts'
import { announcements, showUnseenAnnouncements } from '../stores/lookups.ts'
import { language, toastError, toastSuccess } from '../stores/ui.ts'

/**
 * Browser-facing effects of the shell: <html lang> follows the language,
 * online / offline toasts, the home page's announcements (shown in the page
 * itself, never over it), focus that never falls to the page body, and the error
 * catalogue's messages fetched (again when the connection is back, if it failed).
 * Returns a disposer.
 */
export function startAppEffects(): () => void {
  const loadErrors = () => void loadErrorMessages().catch(() => undefined)
  loadErrors()
  const onOnline = () => {
    loadErrors()
    toastSuccess({ id: 'error.CONNECTION_AVAILABLE_NOW' })
  }
  const onOffline = () => toastError({ id: 'error.NO_INTERNET_CONNECTION' })
  window.addEventListener('online', onOnline)
  window.addEventListener('offline', onOffline)

  const stopLang = effect(() => {
    document.documentElement.lang = language.value
  })

  const stopAnnouncements = effect(() => {
    const path = currentPath.value
    if (announcements.value.length === 0 || (path !== '/' && path !== '/home')) return
    showUnseenAnnouncements()
  })

  const stopRescue = startFocusRescue()

  return () => {
    stopRescue()
    window.removeEventListener('online', onOnline)
    window.removeEventListener('offline', onOffline)
    stopLang()
    stopAnnouncements()
  }
}
