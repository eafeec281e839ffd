/**
 * UI state shared by every page: loading flag, success / error dialogs, the
 * toast queue, the bottom-navigation flag and the active language. Actions are
 * the only writers. No React or DOM here: the app binds these signals to
 * components (src/app/) and uvu tests them in Node.
 */
import { batch, computed, signal } from '@preact/signals-react'
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

// ---------- state ----------

const loadingCountState = signal(0)
const successMessageState = signal<Message | null>(null)
const errorMessageState = signal<Message | null>(null)
const successModalState = signal(false)
const errorModalState = signal(false)
const toastsState = signal<readonly ToastItem[]>([])
const languageState = signal<Locale>(DEFAULT_LANGUAGE)

// ---------- computed (read-only views) ----------

/** True while at least one tracked load is running. */
export const isLoading = computed(() => loadingCountState.value > 0)
export const successMessage = computed(() => successMessageState.value)
export const errorMessage = computed(() => errorMessageState.value)
export const successModalVisible = computed(() => successModalState.value)
export const errorModalVisible = computed(() => errorModalState.value)
/** Toasts that are queued or on screen, oldest first. */
export const toasts = computed(() => toastsState.value)
export const language = computed(() => languageState.value)

// ---------- actions ----------

/** Marks the start of a load; pair with stopLoading (or use withLoading). */
export function startLoading(): void {
  loadingCountState.value += 1
}

/** Marks the end of a load started with startLoading. */
export function stopLoading(): void {
  loadingCountState.value = Math.max(0, loadingCountState.value - 1)
}

/** Runs `task` with the loading flag raised (the overlay appears only if it takes > 300 ms). */
export async function withLoading<T>(task: Promise<T> | (() => Promise<T>)): Promise<T> {
  startLoading()
  try {
    return await (typeof task === 'function' ? task() : task)
  } finally {
    stopLoading()
  }
}

/** Opens the success dialog (title "Success") with `message`. */
export function showSuccess(message: Message): void {
  batch(() => {
    successMessageState.value = message
    successModalState.value = true
  })
}

/** Closes the success dialog (OK, Escape or backdrop). */
export function closeSuccess(): void {
  successModalState.value = false
}

/** Opens the error dialog (title "Error") with `message`. */
export function showError(message: Message): void {
  batch(() => {
    errorMessageState.value = message
    errorModalState.value = true
  })
}

/** Closes the error dialog. */
export function closeError(): void {
  errorModalState.value = false
}

/** Identity of a message for duplicate detection. */
export function messageKey(message: Message): string {
  return 'text' in message ? `text:${message.text}` : `id:${message.id}:${JSON.stringify(message.values ?? {})}`
}

let toastSeq = 0

/**
 * Queues a toast. Returns its id, or null when a toast with the same type and
 * text is already queued or visible (duplicates are prevented).
 */
export function showToast(type: ToastType, message: Message, opts: { persistent?: boolean; action?: ToastAction } = {}): string | null {
  const key = messageKey(message)
  if (toastsState.value.some((t) => t.type === type && messageKey(t.message) === key)) return null
  const id = `toast-${++toastSeq}`
  toastsState.value = [
    ...toastsState.value,
    { id, type, message, persistent: opts.persistent ?? false, ...(opts.action ? { action: opts.action } : {}) },
  ]
  return id
}

/** Success toast. */
export const toastSuccess = (message: Message) => showToast('success', message)
/** Error toast (e.g. a failed request's reason: `toastError({ text: err.reason })`). */
export const toastError = (message: Message) => showToast('error', message)
/** Warning toast. */
export const toastWarning = (message: Message) => showToast('warning', message)
/** Info toast; persistent ones stay until closed. */
export const toastInfo = (message: Message, persistent = false) => showToast('info', message, { persistent })

/** Forgets a toast once it has been closed or timed out (called by the toast host). */
export function dismissToast(id: string): void {
  toastsState.value = toastsState.value.filter((t) => t.id !== id)
}

/** Switches the UI language and remembers it in session storage (`language`). */
export function setLanguage(next: Locale): void {
  if (!LANGUAGES.includes(next)) return
  languageState.value = next
  sessionStore().setItem(storageKeys.language, next)
}

/** Reads the stored language at start-up; anything unknown falls back to en. */
export function loadLanguage(): Locale {
  const stored = sessionStore().getItem(storageKeys.language)
  const next = LANGUAGES.includes(stored as Locale) ? (stored as Locale) : DEFAULT_LANGUAGE
  languageState.value = next
  return next
}

/** Test helper: back to the initial state. */
export function resetUi(): void {
  batch(() => {
    loadingCountState.value = 0
    successMessageState.value = null
    errorMessageState.value = null
    successModalState.value = false
    errorModalState.value = false
    toastsState.value = []
    languageState.value = DEFAULT_LANGUAGE
  })
}

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
