import { effect } from '@preact/signals-react'
import { loadErrorMessages } from '../i18n.ts'
import { currentPath } from '../router.ts'
import { takeUnseenAnnouncements, announcements } from '../stores/lookups.ts'
import { language, toastError, toastInfo, toastSuccess } from '../stores/ui.ts'

/**
 * Browser-facing effects of the shell: <html lang> follows the language,
 * online / offline toasts, home-page announcements as persistent info
 * toasts, and the error catalogue's messages fetched (again when the connection
 * is back, if it failed). Returns a disposer.
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
    const bn = language.peek() === 'bn'
    for (const a of takeUnseenAnnouncements()) toastInfo({ text: bn ? a.titleBn : a.title }, true)
  })

  return () => {
    window.removeEventListener('online', onOnline)
    window.removeEventListener('offline', onOffline)
    stopLang()
    stopAnnouncements()
  }
}
