import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readFileSync } from 'node:fs'
import { parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser'
import { createIntl } from '@formatjs/intl'
import { errorCodes } from '../contract/errors.ts'

const load = (name: string) => JSON.parse(readFileSync(new URL(`./${name}.json`, import.meta.url), 'utf8')) as Record<string, string>
const en = load('en')
const bn = load('bn')

test('en and bn have exactly the same keys', () => {
  const enKeys = Object.keys(en).sort()
  const bnKeys = Object.keys(bn).sort()
  assert.equal(
    enKeys.filter((k) => !(k in bn)),
    [],
    'missing in bn',
  )
  assert.equal(
    bnKeys.filter((k) => !(k in en)),
    [],
    'missing in en',
  )
})

test('message ids are <scope>.<camelKey> (codes such as error.SEAT_UNAVAILABLE keep their names)', () => {
  for (const id of Object.keys(en)) {
    assert.ok(/^[a-z][a-zA-Z0-9]*(\.([a-z][a-zA-Z0-9]*|[A-Z][A-Za-z0-9_]*))+$/.test(id), id)
  }
})

test('every message parses as ICU in both languages', () => {
  for (const [name, messages] of [
    ['en', en],
    ['bn', bn],
  ] as const) {
    for (const [id, text] of Object.entries(messages)) {
      try {
        parse(text)
      } catch (e) {
        assert.unreachable(`${name} ${id}: ${(e as Error).message}`)
      }
    }
  }
})

/** Argument names used by a message (plural / select options are walked too). */
function argumentNames(text: string): string[] {
  const names = new Set<string>()
  const walk = (els: MessageFormatElement[]) => {
    for (const el of els) {
      if ('value' in el && el.type !== 0 && typeof el.value === 'string') names.add(el.value)
      if ('options' in el) for (const opt of Object.values(el.options)) walk(opt.value)
      if ('children' in el) walk(el.children)
    }
  }
  walk(parse(text))
  return [...names].sort()
}

test('bn uses the same placeholders as en', () => {
  for (const id of Object.keys(en)) assert.equal(argumentNames(bn[id] ?? ''), argumentNames(en[id]!), id)
})

test('every error code of the catalogue has a message', () => {
  for (const code of errorCodes) assert.ok(en[`error.${code}`], `error.${code}`)
})

test('SPEC texts are kept verbatim', () => {
  assert.is(en['seat.lockLost'], 'This seat ({names}) has been locked by another Passenger.')
  assert.is(en['error.SEAT_UNAVAILABLE'], 'These seats are NOT available')
  assert.is(en['error.BAD_CREDENTIALS'], 'Invalid Credentials')
  assert.is(en['dialog.successTitle'], 'Success')
  assert.is(en['dialog.errorTitle'], 'Error')
  assert.is(en['nav.login'], 'LOGIN')
  assert.is(en['validation.confirmPasswordMismatch'], "Confirm password doesn't match")
})

test('every message formats in its language with values for its placeholders (as react-intl will)', () => {
  for (const [locale, messages] of [
    ['en', en],
    ['bn', bn],
  ] as const) {
    const errors: string[] = []
    const intl = createIntl({ locale, messages, onError: (e) => void errors.push(`${locale}: ${e.message}`) })
    for (const id of Object.keys(messages)) {
      const values = Object.fromEntries(argumentNames(messages[id]!).map((n) => [n, 2]))
      const text = intl.formatMessage({ id }, values)
      assert.type(text, 'string', id)
      assert.not.match(text, /\{|\}/, `${locale} ${id} left a placeholder: ${text}`)
    }
    assert.equal(errors, [])
  }
})

/**
 * Arguments the app passes numbers to (counts, durations, percentages, years, ids). In Bengali they
 * must come out in Bengali digits, like dates and prices: so each is a `number` (or plural) argument,
 * formatted by the locale, never a plain `{count}`, which prints the number as it is (3.1.2).
 */
const NUMBER_ARGS = new Set(['year', 'index', 'count', 'limit', 'minutes', 'hours', 'percent', 'shown', 'id'])
/** Arguments named like a number argument elsewhere that carry one in this message only. */
const NUMBER_ARGS_IN: Record<string, string[]> = { 'trips.count': ['total'] }
/** Messages that show a code as it is printed and typed (a PNR is Latin letters and digits). */
const CODES = new Set(['ticket.pnrHint'])

test("every number is written in the language's digits: Bengali messages print no Western digit", () => {
  const intl = createIntl({ locale: 'bn', messages: bn })
  const western: string[] = []
  for (const id of Object.keys(bn)) {
    const numeric = new Set([...NUMBER_ARGS, ...(NUMBER_ARGS_IN[id] ?? [])])
    const values = Object.fromEntries(argumentNames(bn[id]!).map((n) => [n, numeric.has(n) ? 1234 : 'x']))
    const text = intl.formatMessage({ id }, values)
    if (/[0-9]/.test(text) && !CODES.has(id)) western.push(`${id}: ${text}`)
  }
  assert.equal(western, [])
})

test('no placeholder text', () => {
  for (const messages of [en, bn]) {
    for (const text of Object.values(messages)) assert.not.match(text, /lorem|ipsum|TODO/i)
  }
})

test.run()
