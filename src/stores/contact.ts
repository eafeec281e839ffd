/**
 * The contact form (SPEC: Contact Us): validation errors per field, the sending
 * flag, and the submit action that posts to /reservation/contactUs and opens
 * the success dialog.
 */
import { batch, computed, signal } from '@preact/signals-react'
import { call } from '../api/index.ts'
import { validateContactForm, type ContactForm, type FieldErrors } from '../lib/validation.ts'
import { messageForError, type Ui } from '../models/ui.ts'

const errorsState = signal<FieldErrors<keyof ContactForm>>({})
const sendingState = signal(false)
const sentCountState = signal(0)

/** Field → message id of the current validation errors. */
export const contactErrors = computed(() => errorsState.value)
export const contactSending = computed(() => sendingState.value)
/** Increments after each successful send (pages reset their form on change). */
export const contactSentCount = computed(() => sentCountState.value)

/** Re-validates one field after the user edits it (only once it has shown an error). */
export function revalidateContactField(form: ContactForm, field: keyof ContactForm): void {
  if (!errorsState.value[field]) return
  const next = { ...errorsState.value }
  const id = validateContactForm(form)[field]
  if (id) next[field] = id
  else delete next[field]
  errorsState.value = next
}

/** Validates and sends; returns true on success (the success dialog of `ui` is then open). */
export async function submitContact(ui: Pick<Ui, 'withLoading' | 'showSuccess' | 'showError'>, form: ContactForm): Promise<boolean> {
  const errors = validateContactForm(form)
  errorsState.value = errors
  if (Object.keys(errors).length > 0 || sendingState.value) return false
  const body = {
    name: form.name.trim(),
    email: form.email.trim(),
    subject: form.subject.trim(),
    message: form.message.trim(),
    ...(form.mobile.trim() ? { mobile: form.mobile.trim() } : {}),
  }
  sendingState.value = true
  try {
    await ui.withLoading(call('contactUs', { body }))
    batch(() => {
      sentCountState.value += 1
      errorsState.value = {}
    })
    ui.showSuccess({ id: 'contact.sent' })
    return true
  } catch (err) {
    ui.showError(messageForError(err))
    return false
  } finally {
    sendingState.value = false
  }
}

/** Test helper. */
export function resetContact(): void {
  batch(() => {
    errorsState.value = {}
    sendingState.value = false
  })
}
