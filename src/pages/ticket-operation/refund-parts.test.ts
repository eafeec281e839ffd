// A refund split between the card and the balance, named part by part in en and bn (refund-parts.ts).
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { IntlMessageFormat } from 'intl-messageformat'
import bn from '../../../locales/bn.json' with { type: 'json' }
import en from '../../../locales/en.json' with { type: 'json' }
import { refundSplitText } from './refund-parts.ts'

const tOf = (messages: Record<string, string>, lang: string) => (id: string, values?: Record<string, string | number>) =>
  String(new IntlMessageFormat(messages[id]!, lang).format(values))

test('a balance-paid ticket whose change difference was paid by card: each part named, in en and bn', () => {
  const parts = [
    { to: 'CARD' as const, amount: 600, paidWith: 'card' as const },
    { to: 'BALANCE' as const, amount: 200, paidWith: null },
  ]
  const said = refundSplitText(parts, tOf(en, 'en'), 'en')!
  assert.match(said, /^600.* back to your card, 200.* to your balance$/)
  const bnSaid = refundSplitText(parts, tOf(bn, 'bn'), 'bn')!
  assert.match(bnSaid, /কার্ড/)
  assert.match(bnSaid, /ব্যালেন্সে/)
  assert.match(bnSaid, /৬০০/)
  assert.match(bnSaid, /২০০/)
  assert.not.match(bnSaid, /[0-9]/, 'Bengali digits only')
  assert.match(refundSplitText([{ to: 'CARD', amount: 300, paidWith: 'bkash' }, ...parts.slice(1)], tOf(en, 'en'), 'en')!, /bKash wallet/)
})

test('a refund to one place is no split: the single-place texts say it', () => {
  assert.is(refundSplitText([{ to: 'CARD', amount: 600, paidWith: 'card' }], tOf(en, 'en'), 'en'), null)
  assert.is(refundSplitText(undefined, tOf(en, 'en'), 'en'), null)
})

test.run()
