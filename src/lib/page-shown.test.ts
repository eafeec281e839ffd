import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { afterPageShown, isPageShown, pageShown, resetPageShown } from './page-shown.ts'

test.before.each(resetPageShown)
test.after(resetPageShown)

test('work waits until the page has shown what it is for, then runs once, in order', () => {
  const ran: string[] = []
  afterPageShown(() => ran.push('lookups'))
  afterPageShown(() => ran.push('errors'))
  assert.equal(ran, [])
  assert.not.ok(isPageShown())
  pageShown()
  assert.equal(ran, ['lookups', 'errors'])
  pageShown()
  assert.equal(ran, ['lookups', 'errors'])
})

test('once the page has shown, work runs at once', () => {
  pageShown()
  const ran: string[] = []
  afterPageShown(() => ran.push('combobox'))
  assert.equal(ran, ['combobox'])
})

test.run()
