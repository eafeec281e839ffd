/**
 * The ticket SMS with the longest realistic values (the demo network's longest city names and
 * coach codes, five three-character seats, a two-digit day, a typical APP_URL and a link token):
 * one 160-character GSM part in English, at most three 70-character Unicode parts in Bengali.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Reservation } from '../../contract/schemas.ts'
import { smsParts } from './sms-parts.ts'
import { renderTicketSms } from './ticket-messages.ts'

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
