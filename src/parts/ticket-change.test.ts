import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { iso, NOW, sold } from '../stores/ticket-fixture.ts'
import en from '../../locales/en.json'
import bn from '../../locales/bn.json'
import { fileURLToPath } from 'node:url'
import { idsNamed } from '../../scripts/message-usage.ts'
import { refundMessageId, ticketChange } from './ticket-change.ts'

test('a sold ticket, and one the passenger cancelled, tell no operator change', () => {
  assert.is(ticketChange(sold), null)
  assert.is(ticketChange({ ...sold, status: 5, cancelReason: 'TICKET_CANCELED', canceledAt: iso(NOW), refundAmount: 900 }), null)
})

test('the trip cancelled by the operator: its words and the whole refund; an unpaid booking without a refund', () => {
  const canceled = { ...sold, status: 5, cancelReason: 'TRIP_CANCELED' as const, operatorReason: 'Hartal', refundAmount: 1440 }
  assert.equal(ticketChange(canceled), { kind: 'tripCanceled', reason: 'Hartal', reasonBn: null, refund: 1440, to: 'BALANCE' })
  assert.equal(ticketChange({ ...canceled, refundAmount: null }), {
    kind: 'tripCanceled',
    reason: 'Hartal',
    reasonBn: null,
    refund: null,
    to: 'BALANCE',
  })
  assert.equal(
    ticketChange({ ...canceled, operatorReasonBn: 'হরতাল' }),
    { kind: 'tripCanceled', reason: 'Hartal', reasonBn: 'হরতাল', refund: 1440, to: 'BALANCE' },
    'the Bengali words beside the English ones',
  )
  const toCard = { to: 'CARD' as const, amount: 1440, status: 'PROCESSING' as const, refundedAt: null }
  assert.equal(
    ticketChange({ ...canceled, refund: toCard }),
    { kind: 'tripCanceled', reason: 'Hartal', reasonBn: null, refund: 1440, to: 'CARD' },
    'paid by card: back to the card',
  )
})

test('moved (10): the new coach, seats and departure, and where it came from; refused (14): the refund', () => {
  const movedFrom = { coachCode: 'OLD-1', departureTime: iso(NOW) }
  const moved = {
    ...sold,
    status: 10,
    coach: { ...sold.coach, code: '104-DHK-CTG' },
    seats: [sold.seats[0]!, { ...sold.seats[0]!, name: 'B2' }],
    movedFrom,
  }
  assert.equal(ticketChange(moved), {
    kind: 'moved',
    coach: '104-DHK-CTG',
    seats: `${sold.seats[0]!.name}, B2`,
    departure: sold.departureTime,
    from: movedFrom,
  })
  // a copy saved on the device before the field existed
  assert.is((ticketChange({ ...moved, movedFrom: undefined as never }) as { from: unknown }).from, null)
  assert.equal(ticketChange({ ...moved, status: 14, refundAmount: 1440, canceledAt: iso(NOW) }), { kind: 'moveRefused', refund: 1440, to: 'BALANCE' })
})

test('each refund state has its own words, in en and bn: a refund to the card that failed never reads as refunded', () => {
  const messages = { en: en as Record<string, string>, bn: bn as Record<string, string> }
  const card = (status: 'PROCESSING' | 'REFUNDED' | 'FAILED') => ({ to: 'CARD' as const, amount: 800, status, refundedAt: null })
  const refused = { ...sold, status: 14, refundAmount: 800, canceledAt: iso(NOW) }
  const canceled = { ...sold, status: 5, cancelReason: 'TRIP_CANCELED' as const, operatorReason: 'Hartal', refundAmount: 800, canceledAt: iso(NOW) }
  const said = (r: typeof sold) => {
    const c = ticketChange(r)
    assert.ok(c && (c.kind === 'moveRefused' || c.kind === 'tripCanceled'))
    return refundMessageId(c as Parameters<typeof refundMessageId>[0])
  }
  assert.equal(
    [
      said(refused),
      said({ ...refused, refund: card('PROCESSING') }),
      said({ ...refused, refund: card('REFUNDED') }),
      said({ ...refused, refund: card('FAILED') }),
    ],
    ['ticketChange.moveRefused', 'ticketChange.moveRefusedCard', 'ticketChange.moveRefusedCard', 'ticketChange.moveRefusedCardFailed'],
  )
  assert.equal(
    [said(canceled), said({ ...canceled, refund: card('PROCESSING') }), said({ ...canceled, refund: card('FAILED') })],
    ['ticketChange.tripCanceledRefund', 'ticketChange.tripCanceledRefundCard', 'ticketChange.tripCanceledRefundCardFailed'],
  )
  // the build bundles with a page only the ids its code names
  const named = idsNamed([fileURLToPath(new URL('./ticket-change.ts', import.meta.url))], messages.en)
  for (const id of ['ticketChange.moveRefusedCard', 'ticketChange.moveRefusedCardFailed', 'ticketChange.tripCanceledRefundCardFailed'])
    assert.ok(named.has(id), `${id} named where the build finds it`)
  for (const lang of ['en', 'bn'] as const) {
    const m = messages[lang]
    for (const id of ['ticketChange.moveRefusedCardFailed', 'ticketChange.tripCanceledRefundCardFailed']) {
      // the same words as the ticket's refund line under it ("refund failed — the operator will contact you")
      assert.ok(m[id]!.includes(m['ticket.refundCardFAILED']!.split(': ').at(-1)!.split(' — ')[1]!), `${lang} ${id} says the operator will contact`)
      assert.not.match(m[id]!, lang === 'en' ? /\brefunded\b/ : 'ফেরত দেওয়া হয়েছে', `${lang} ${id} never says refunded`)
    }
    assert.match(m['ticketChange.moveRefused']!, lang === 'en' ? 'balance' : 'ব্যালেন্সে')
    // the place the money came from (card, bKash wallet…), named by ticket.methodCard
    assert.match(m['ticketChange.moveRefusedCard']!, lang === 'en' ? 'your {place}' : 'আপনার {place}-এ')
    assert.match(m['ticket.methodCard']!, lang === 'en' ? 'bkash {bKash wallet}' : 'bkash {বিকাশ ওয়ালেট}')
  }
})

test.run()
