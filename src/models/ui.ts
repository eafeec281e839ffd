/**
 * UI state shared by every page, one for the app (src/app-models.ts): loading flag, success / error dialogs, the
 * toast queue and the active language. Actions are the only writers. No React or DOM here: the app binds these
 * signals to components (src/app/) and uvu makes a fresh instance in Node.
 */
import { computed, createModel, type ModelConstructor, type ReadonlySignal, signal } from '@preact/signals-core'
import { requestError } from '../api/api-error.ts'
import { messagesFor } from '../i18n.ts'
import { sessionStore, storageKeys } from '../lib/storage.ts'
import type { Locale } from '../lib/dates.ts'

/** Something to show the user: a message id (+ ICU values) or ready text such as a server reason. */
export type Message = { id: string; values?: Record<string, string | number> } | { text: string }

/** Toast kinds; each maps to an Ark toast type and colour. */
export type ToastType = 'success' | 'error' | 'info' | 'warning'

/** The one button a toast may offer beside its text (e.g. Reload); using it also closes the toast. */
export interface ToastAction {
  label: Message
  run: () => void
}

/** A toast the app should show. */
export interface ToastItem {
  id: string
  type: ToastType
  message: Message
  /** Stays until closed (announcements); otherwise hidden after 30 s. */
  persistent: boolean
  action?: ToastAction
}

export const LANGUAGES: readonly Locale[] = ['en', 'bn']
export const DEFAULT_LANGUAGE: Locale = 'en'

/** Identity of a message for duplicate detection. */
export function messageKey(message: Message): string {
  return 'text' in message ? `text:${message.text}` : `id:${message.id}:${JSON.stringify(message.values ?? {})}`
}

/** The UI state's read-only views and actions. */
export interface Ui {
  /** True while at least one tracked load is running. */
  isLoading: ReadonlySignal<boolean>
  successMessage: ReadonlySignal<Message | null>
  errorMessage: ReadonlySignal<Message | null>
  successModalVisible: ReadonlySignal<boolean>
  errorModalVisible: ReadonlySignal<boolean>
  /** Toasts that are queued or on screen, oldest first. */
  toasts: ReadonlySignal<readonly ToastItem[]>
  language: ReadonlySignal<Locale>
  /** Runs `task` with the loading flag raised (the overlay appears only if it takes > 300 ms). */
  withLoading<T>(task: Promise<T> | (() => Promise<T>)): Promise<T>
  /** Opens the success dialog (title "Success") with `message`. */
  showSuccess(message: Message): void
  /** Closes the success dialog (OK, Escape or backdrop). */
  closeSuccess(): void
  /** Opens the error dialog (title "Error") with `message`. */
  showError(message: Message): void
  /** Closes the error dialog. */
  closeError(): void
  /** Queues a toast. Returns its id, or null when a toast with the same type and text is already queued or visible (duplicates are prevented). */
  showToast(type: ToastType, message: Message, opts?: { persistent?: boolean; action?: ToastAction }): string | null
  /** Success toast. */
  toastSuccess(message: Message): string | null
  /** Error toast (e.g. a failed request's reason: `toastError({ text: err.reason })`). */
  toastError(message: Message): string | null
  /** Warning toast. */
  toastWarning(message: Message): string | null
  /** Info toast; persistent ones stay until closed. */
  toastInfo(message: Message, persistent?: boolean): string | null
  /** Forgets a toast once it has been closed or timed out (called by the toast host). */
  dismissToast(id: string): void
  /** Switches the UI language and remembers it in session storage (`language`). */
  setLanguage(next: Locale): void
  /** Reads the stored language at start-up; anything unknown falls back to en. */
  loadLanguage(): Locale
}

/** The notices a model may give: the error dialog and toasts. */
export type Notices = Pick<Ui, 'showError' | 'toastError' | 'toastWarning' | 'toastInfo'>

/** Creates the app's UI state (src/app-models.ts), in English until `loadLanguage`. */
export const UiModel: ModelConstructor<Ui> = createModel((): Ui => {
  const loadingCount = signal(0)
  const successMessage = signal<Message | null>(null)
  const errorMessage = signal<Message | null>(null)
  const successModalVisible = signal(false)
  const errorModalVisible = signal(false)
  const toasts = signal<readonly ToastItem[]>([])
  const language = signal<Locale>(DEFAULT_LANGUAGE)
  // the last toast's number: each toast's id is new
  const toastSeq = signal(0)

  const showToast: Ui['showToast'] = (type, message, opts = {}) => {
    const key = messageKey(message)
    if (toasts.value.some((t) => t.type === type && messageKey(t.message) === key)) return null
    const id = `toast-${++toastSeq.value}`
    toasts.value = [...toasts.value, { id, type, message, persistent: opts.persistent ?? false, ...(opts.action ? { action: opts.action } : {}) }]
    return id
  }

  return {
    isLoading: computed(() => loadingCount.value > 0),
    successMessage,
    errorMessage,
    successModalVisible,
    errorModalVisible,
    toasts,
    language,

    async withLoading(task) {
      loadingCount.value += 1
      try {
        return await (typeof task === 'function' ? task() : task)
      } finally {
        loadingCount.value -= 1
      }
    },

    showSuccess(message) {
      successMessage.value = message
      successModalVisible.value = true
    },

    closeSuccess() {
      successModalVisible.value = false
    },

    showError(message) {
      errorMessage.value = message
      errorModalVisible.value = true
    },

    closeError() {
      errorModalVisible.value = false
    },

    showToast,
    toastSuccess: (message) => showToast('success', message),
    toastError: (message) => showToast('error', message),
    toastWarning: (message) => showToast('warning', message),
    toastInfo: (message, persistent = false) => showToast('info', message, { persistent }),

    dismissToast(id) {
      toasts.value = toasts.value.filter((t) => t.id !== id)
    },

    setLanguage(next) {
      if (!LANGUAGES.includes(next)) return
      language.value = next
      sessionStore().setItem(storageKeys.language, next)
    },

    loadLanguage() {
      const stored = sessionStore().getItem(storageKeys.language)
      const next = LANGUAGES.includes(stored as Locale) ? (stored as Locale) : DEFAULT_LANGUAGE
      language.value = next
      return next
    },
  }
})

/**
 * What to show for a failed request (anything thrown, or the RequestError a
 * store kept): the app's message for its catalogue code (`error.<CODE>`, with
 * the server's values), otherwise the server's reason as text. English has a
 * message for every catalogue code (locales.test.ts), and those messages ship
 * with the first render, so the catalogue itself does not have to.
 */
export function messageForError(err: unknown): Message {
  const { code, reason, values } = requestError(err)
  const id = `error.${code}`
  if (messagesFor('en')?.[id]) return values ? { id, values } : { id }
  return reason ? { text: reason } : { id: 'error.unknown' }
}
