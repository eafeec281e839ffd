import * as assert from 'uvu/assert'
import { ApiError } from '../api/api-error.ts'
import { modelSuite } from './model-suite.ts'
import { messageForError, UiModel } from './ui.ts'

const test = modelSuite('ui', () => new UiModel())

test('loading flag is raised while any load runs', async ({ m: ui }) => {
  assert.is(ui.isLoading.value, false)
  const ends: (() => void)[] = []
  const loads = [0, 1].map(() => ui.withLoading(new Promise<void>((end) => ends.push(end))))
  ends[0]!()
  await loads[0]
  assert.is(ui.isLoading.value, true, 'raised while the other load runs')
  ends[1]!()
  await loads[1]
  assert.is(ui.isLoading.value, false)
  let during = false
  await ui.withLoading(async () => {
    during = ui.isLoading.value
  })
  assert.ok(during)
  assert.is(ui.isLoading.value, false)
  const failure = new Error('x')
  const settled = await ui.withLoading(Promise.reject(failure)).then(
    () => 'resolved',
    (e: unknown) => e,
  )
  assert.is(settled, failure, 'the failure reaches the caller')
  assert.is(ui.isLoading.value, false, 'lowered after a failure')
})

test('success and error dialogs open with their message and close', ({ m: ui }) => {
  ui.showSuccess({ id: 'contact.sent' })
  assert.ok(ui.successModalVisible.value)
  assert.equal(ui.successMessage.value, { id: 'contact.sent' })
  ui.closeSuccess()
  assert.not.ok(ui.successModalVisible.value)
  ui.showError({ text: 'These seats are NOT available' })
  assert.ok(ui.errorModalVisible.value)
  assert.equal(ui.errorMessage.value, { text: 'These seats are NOT available' })
  ui.closeError()
  assert.not.ok(ui.errorModalVisible.value)
})

test('toasts: duplicates (same type and text) are refused while shown', ({ m: ui }) => {
  const a = ui.toastError({ text: 'No available trip' })
  const b = ui.toastError({ text: 'No available trip' })
  const c = ui.toastSuccess({ text: 'No available trip' })
  assert.ok(a)
  assert.is(b, null)
  assert.ok(c, 'another type is not a duplicate')
  assert.is(ui.toasts.value.length, 2)
  ui.dismissToast(a!)
  assert.ok(ui.toastError({ text: 'No available trip' }), 'allowed again once dismissed')
})

test('toasts: message ids compare with their values', ({ m: ui }) => {
  assert.ok(ui.toastWarning({ id: 'error.MAX_SEAT_WARNING', values: { count: 5 } }))
  assert.is(ui.toastWarning({ id: 'error.MAX_SEAT_WARNING', values: { count: 5 } }), null)
  assert.ok(ui.toastWarning({ id: 'error.MAX_SEAT_WARNING', values: { count: 4 } }))
})

test('toasts: persistent info toasts are flagged', ({ m: ui }) => {
  ui.toastInfo({ text: 'Eid schedule' }, true)
  assert.is(ui.toasts.value[0]!.persistent, true)
})

test('toasts: one may offer an action (the new-version notice’s Reload), kept until closed', ({ m: ui }) => {
  let ran = 0
  ui.showToast('info', { id: 'app.updateReady' }, { persistent: true, action: { label: { id: 'app.updateReload' }, run: () => ran++ } })
  const shown = ui.toasts.value[0]!
  assert.equal(shown.action?.label, { id: 'app.updateReload' })
  assert.is(shown.persistent, true)
  shown.action!.run()
  assert.is(ran, 1)
  ui.toastInfo({ text: 'Eid schedule' })
  assert.is(ui.toasts.value[1]!.action, undefined)
})

test('language is stored under `language` and unknown values fall back to en', ({ ss, m: ui }) => {
  ui.setLanguage('bn')
  assert.is(ui.language.value, 'bn')
  assert.is(ss.getItem('language'), 'bn')
  ss.setItem('language', 'fr')
  assert.is(ui.loadLanguage(), 'en')
  ss.setItem('language', 'bn')
  assert.is(ui.loadLanguage(), 'bn')
})

test('a failed request shows its catalogue message with the server values, else the server reason, else a generic text', () => {
  const limited = new ApiError('TOO_MANY_ATTEMPTS', 'Too many wrong PINs. Try again in 12 minutes.', 429, undefined, { minutes: 12 })
  assert.equal(messageForError(limited), { id: 'error.TOO_MANY_ATTEMPTS', values: { minutes: 12 } })
  assert.equal(messageForError({ code: 'SEAT_UNAVAILABLE', reason: 'These seats are NOT available' }), { id: 'error.SEAT_UNAVAILABLE' })
  assert.equal(messageForError({ code: 'SOMETHING_NEW', reason: 'Try later' }), { text: 'Try later' })
  assert.equal(messageForError({ code: 'SOMETHING_NEW', reason: '' }), { id: 'error.unknown' })
  assert.equal(
    messageForError(new Error('boom')),
    { id: 'error.INTERNAL_ERROR' },
    "not from the server: the catalogue text, not the programmer's message",
  )
})

test.run()
