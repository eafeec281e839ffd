/**
 * The ticket SMS with the longest realistic values (the demo network's longest city names and
 * coach codes, five three-character seats, a two-digit day, a typical APP_URL and a link token):
 * one 160-character GSM part in English, at most three 70-character Unicode parts in Bengali.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { paySources, type Reservation } from '../../contract/schemas.ts'
import { smsParts } from './sms-parts.ts'
import {
  type MessageContext,
  type RefundTo,
  renderCancelSms,
  renderSeatsCancelEmail,
  renderSeatsCancelSms,
  renderTicketSms,
} from './ticket-messages.ts'

const t = suite('ticket SMS')
const station = {
  id: 1,
  name: 'Kolatoli Road Counter',
  cityCode: 'COX',
  address: 'Kolatoli Road',
  phone: '01700000000',
  time: '2026-12-30T21:45:00+06:00',
}
const longest = {
  pnr: 'ABCDEFGHJK',
  pin: '8888',
  origin: { code: 'COX', name: "Cox's Bazar", nameBn: 'কক্সবাজার' },
  destination: { code: 'CTG', name: 'Chattogram', nameBn: 'চট্টগ্রাম' },
  coach: { code: '101-DHK-CTG', type: 'AC', name: 'AC Business' },
  seats: ['A10', 'B10', 'C10', 'D10', 'E10'].map((name) => ({ name, seatType: 'Standard', fare: 1400 })),
  departureTime: '2026-12-30T21:45:00+06:00',
  boardingStation: station,
} as unknown as Reservation
const link = 'https://nodiexpress.com.bd/t?k=AbCdEfGhIjKlMn_-'

t('the English ticket SMS is one GSM part and carries PNR, PIN, trip, seats and the link', () => {
  const sms = renderTicketSms(longest, 'en', link)
  assert.equal(smsParts(sms).encoding, 'GSM-7', sms)
  assert.ok(smsParts(sms).length <= 160, `${smsParts(sms).length} characters: ${sms}`)
  assert.is(smsParts(sms).parts, 1)
  for (const part of ['ABCDEFGHJK', '8888', "Cox's Bazar", 'Chattogram', '30-Dec 09:45 PM', '101-DHK-CTG', 'A10,B10,C10,D10,E10', link])
    assert.ok(sms.includes(part), part)
  assert.ok(sms.endsWith(link), 'the link ends the text, so no punctuation sticks to it')
})

t('the Bengali ticket SMS is counted in Unicode parts: at most three', () => {
  const sms = renderTicketSms(longest, 'bn', link)
  const n = smsParts(sms)
  assert.is(n.encoding, 'UCS-2')
  assert.ok(n.parts <= 3, `${n.length} characters in ${n.parts} parts: ${sms}`)
  for (const part of ['ABCDEFGHJK', 'কক্সবাজার', 'চট্টগ্রাম', '৩০-ডিসে', '101-DHK-CTG', link]) assert.ok(sms.includes(part), part)
  assert.ok(sms.endsWith(link))
})

t('a cancel whose refund is split names each part, in English (at most two GSM parts) and Bengali (at most three Unicode parts)', () => {
  const split = [
    { place: 'bkash', amount: 12_345 },
    { place: 'card', amount: 2_000 },
    { place: 'BALANCE', amount: 1_500 },
  ] as const
  const en = renderCancelSms(longest, 'en', 15_845, [...split])
  assert.is(smsParts(en).encoding, 'GSM-7', en)
  assert.ok(smsParts(en).parts <= 2, `${smsParts(en).length} characters: ${en}`)
  assert.match(en, '12,345 Tk is being refunded to your bKash wallet and 2,000 Tk to the card you paid with and 1,500 Tk to your balance;')
  const two = renderCancelSms(longest, 'en', 7_000, [
    { place: 'card', amount: 5_000 },
    { place: 'BALANCE', amount: 2_000 },
  ])
  assert.ok(smsParts(two).parts <= 2, two)
  const bn = renderCancelSms(longest, 'bn', 7_000, [
    { place: 'card', amount: 5_000 },
    { place: 'BALANCE', amount: 2_000 },
  ])
  assert.is(smsParts(bn).encoding, 'UCS-2')
  assert.ok(smsParts(bn).parts <= 3, `${smsParts(bn).length} characters in ${smsParts(bn).parts} parts: ${bn}`)
  for (const part of ['কার্ডে ৫,০০০ টাকা', 'ব্যালেন্সে ২,০০০ টাকা']) assert.ok(bn.includes(part), part)
  assert.not.match(bn, /[0-9],[0-9]/, 'amounts in Bengali digits')
  const seats = renderSeatsCancelSms(longest, 'bn', ['A10'], 7_000, [
    { place: 'bkash', amount: 5_000 },
    { place: 'BALANCE', amount: 2_000 },
  ])
  for (const part of ['বিকাশ ওয়ালেটে ৫,০০০ টাকা', 'ব্যালেন্সে ২,০০০ টাকা']) assert.ok(seats.includes(part), part)
})

// SSLCommerz's other wallets and internet banking ('wallet', 'bank') have a longer place ("the mobile wallet you paid
// with", "the bank account you paid from"): four parts
t('the Bengali SMS of seats cancelled from a ticket is at most three Unicode parts for a card, bKash, Nagad and Rocket', () => {
  for (const paidWith of paySources.filter((s) => s !== 'wallet' && s !== 'bank')) {
    const kept = { ...longest, seats: longest.seats.slice(0, 4), paidWith } as Reservation
    const split: RefundTo = [
      { place: paidWith, amount: 12_345 },
      { place: 'BALANCE', amount: 2_000 },
    ]
    for (const to of ['BALANCE', 'CARD', split] as RefundTo[]) {
      const sms = renderSeatsCancelSms(kept, 'bn', ['E10'], 14_345, to)
      const n = smsParts(sms)
      assert.ok(n.parts <= 3, `${n.length} characters in ${n.parts} parts: ${sms}`)
      for (const part of ['ABCDEFGHJK', 'E10', 'A10, B10, C10, D10']) assert.ok(sms.includes(part), `${part}: ${sms}`)
    }
  } // the e-mail keeps the whole sentence: the ticket's route and day with its PNR
  const kept = { ...longest, seats: longest.seats.slice(0, 4), paidWith: 'bkash', passengerName: 'আয়েশা' } as Reservation
  const ctx = {
    company: { name: 'Nodi Express', phone: '09610-001122', email: 'support@example.com' },
    appUrl: 'https://example.com',
    now: new Date(),
  } as MessageContext
  const mail = renderSeatsCancelEmail(kept, 'bn', ['E10'], 14_345, ctx, 'CARD')
  for (const part of ['ABCDEFGHJK', 'কক্সবাজার', 'চট্টগ্রাম', 'E10', 'বিকাশ']) assert.ok(mail.text.includes(part), `${part}: ${mail.text}`)
})

t('smsParts counts GSM and Unicode parts as the networks do', () => {
  assert.equal(smsParts('a'.repeat(160)), { encoding: 'GSM-7', length: 160, parts: 1 })
  assert.equal(smsParts('a'.repeat(161)), { encoding: 'GSM-7', length: 161, parts: 2 })
  assert.equal(smsParts(`${'a'.repeat(159)}€`), { encoding: 'GSM-7', length: 161, parts: 2 })
  assert.equal(smsParts('আ'.repeat(70)), { encoding: 'UCS-2', length: 70, parts: 1 })
  assert.equal(smsParts('আ'.repeat(71)), { encoding: 'UCS-2', length: 71, parts: 2 })
  assert.equal(smsParts(`${'a'.repeat(100)}৳`), { encoding: 'UCS-2', length: 101, parts: 2 })
  assert.equal(smsParts('আ'.repeat(135)).parts, 3)
})

t.run()
