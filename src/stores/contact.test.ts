import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fakeApi } from '../api/index.ts'
import * as c from './contact.ts'
import { type Ui, UiModel } from '../models/ui.ts'

const valid = { name: 'Rahima Akter', email: 'rahima@example.com', mobile: '', subject: 'Refund', message: 'Where is my refund?' }

const test = suite<{ ui: Ui }>('contact')
test.before.each((ctx) => {
  ctx.ui = new UiModel()
  c.resetContact()
})

test('invalid form: field errors, nothing sent', async ({ ui }) => {
  const calls = fakeApi({ contactUs: () => ({ id: 1 }) })
  assert.is(await c.submitContact(ui, { ...valid, email: 'x', name: '' }), false)
  assert.equal(c.contactErrors.value, { email: 'validation.emailInvalid', name: 'validation.fullNameRequired' })
  assert.is(calls.length, 0)
})

test('valid form: posts trimmed body without empty mobile and opens the success dialog', async ({ ui }) => {
  const calls = fakeApi({ contactUs: () => ({ id: 1 }) })
  assert.is(await c.submitContact(ui, { ...valid, name: '  Rahima Akter ' }), true)
  assert.equal(calls[0]!.opts.body, { name: 'Rahima Akter', email: 'rahima@example.com', subject: 'Refund', message: 'Where is my refund?' })
  assert.ok(ui.successModalVisible.value)
  assert.equal(ui.successMessage.value, { id: 'contact.sent' })
  assert.is(ui.isLoading.value, false)
})

test('server failure opens the error dialog with the catalogue message', async ({ ui }) => {
  fakeApi({
    contactUs: () => {
      throw Object.assign(new Error('Validation failed. Check your inputs.'), {
        code: 'VALIDATION_FAILED',
        reason: 'Validation failed. Check your inputs.',
      })
    },
  })
  assert.is(await c.submitContact(ui, valid), false)
  assert.ok(ui.errorModalVisible.value)
  assert.equal(ui.errorMessage.value, { id: 'error.VALIDATION_FAILED' })
})

test('unknown codes show the server reason', async ({ ui }) => {
  fakeApi({ contactUs: () => Promise.reject({ code: 'SOMETHING_NEW', reason: 'Try later' }) })
  await c.submitContact(ui, valid)
  assert.equal(ui.errorMessage.value, { text: 'Try later' })
})

test.run()
