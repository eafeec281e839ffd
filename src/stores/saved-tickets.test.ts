import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fakeClock, type FakeClock } from '../lib/clock.ts'
import { memoryStorage, useStorages, type KeyValue } from '../lib/storage.ts'
import * as saved from './saved-tickets.ts'
import * as session from './session.ts'
import { anotherTicket, iso, NOW, sold } from './ticket-fixture.ts'

let clock: FakeClock
let ls: KeyValue
const passenger = (id: number) => ({
  id,
  mobile: '01712345678',
  fullName: 'Rahim',
  email: 'r@example.com',
  city: 'Dhaka',
  balance: 0,
  createdAt: iso(NOW),
})
const signIn = (id: number) =>
  session.signIn({
    token: `t${id}`,
    expiresAt: iso(NOW + 86_400_000),
    passenger: passenger(id),
    company: { name: 'C', phone: '1', email: 'c@example.com' },
  })

test.before.each(() => {
  clock = fakeClock(NOW)
  ls = memoryStorage()
  useStorages(memoryStorage(), ls)
  session.loadSession()
})

test('a ticket is kept with the time the server sent it, and found by PNR, id or card payment', () => {
  saved.keepTickets(3, [sold], 'pay-1')
  const copy = saved.findSavedTicket({ pnr: 'ABCDEFGHJK' })
  assert.equal(copy, { reservation: sold, savedAt: NOW, paymentId: 'pay-1' })
  assert.equal(saved.findSavedTicket({ id: 41 }), copy)
  assert.equal(saved.findSavedTicket({ paymentId: 'pay-1' }), copy)
  assert.is(saved.findSavedTicket({ pnr: 'ZZZZZZZZZZ' }), null)
  assert.ok(ls.getItem('savedTickets')!.includes('"pin":"1234"'), 'in local storage, so it survives closing the tab')
})

test('a newer answer replaces the copy (a cancellation shows from the next look-up on), keeping its payment', () => {
  saved.keepTickets(3, [sold], 'pay-1')
  clock.advance(60_000)
  saved.keepTickets(3, [{ ...sold, status: 5, canceledAt: iso(clock.now), refundAmount: 900 }])
  assert.equal(saved.savedTicketsOf(3).length, 1)
  const copy = saved.findSavedTicket({ pnr: 'ABCDEFGHJK' })!
  assert.is(copy.reservation.status, 5)
  assert.is(copy.savedAt, NOW + 60_000)
  assert.is(copy.paymentId, 'pay-1')
})

test('only tickets with a PNR and PIN are kept (an unpaid booking has none)', () => {
  saved.keepTickets(3, [{ ...sold, id: 50, pnr: null, pin: null, status: 2 }, anotherTicket(51, 'QWERTYUIOP')])
  assert.equal(
    saved.savedTicketsOf(3).map((s) => s.reservation.id),
    [51],
  )
  saved.keepTickets(3, [{ ...sold, id: 52, pnr: null, pin: null }])
  assert.is(saved.savedTicketsOf(3).length, 1)
})

test('accounts keep their own copies; logging out removes that account’s only', () => {
  signIn(3)
  saved.keepTickets(3, [sold])
  saved.keepTickets(4, [anotherTicket(60, 'ACCOUNTFOR')])
  saved.keepTickets(null, [anotherTicket(70, 'VISITORPNR')])
  assert.equal(
    saved.savedTicketsOf(3).map((s) => s.reservation.id),
    [41],
  )
  session.signOut()
  assert.equal(saved.savedTicketsOf(3), [])
  assert.is(saved.findSavedTicket({ pnr: 'ABCDEFGHJK' }), null)
  assert.is(saved.findSavedTicket({ pnr: 'ACCOUNTFOR' })?.reservation.id, 60)
  assert.is(saved.findSavedTicket({ pnr: 'VISITORPNR' })?.reservation.id, 70)
  signIn(4)
  session.signOut()
  assert.equal(JSON.parse(ls.getItem('savedTickets')!), { visitor: [{ reservation: anotherTicket(70, 'VISITORPNR'), savedAt: NOW }] })
})

test('an expired session (401) is not a logout: the copies stay', () => {
  signIn(3)
  saved.keepTickets(3, [sold])
  session.resetInvalidSession('/profile')
  assert.is(saved.savedTicketsOf(3).length, 1)
})

test('at most SAVED_TICKETS_MAX copies per account: the trips furthest ahead are kept', () => {
  const many = Array.from({ length: saved.SAVED_TICKETS_MAX + 5 }, (_, i) => anotherTicket(100 + i, `PNR${String(i).padStart(7, '0')}`, i))
  saved.keepTickets(3, many.slice(0, 10))
  saved.keepTickets(3, many.slice(10))
  const kept = saved.savedTicketsOf(3).map((s) => s.reservation.id)
  assert.is(kept.length, saved.SAVED_TICKETS_MAX)
  assert.is(kept[0], 100 + saved.SAVED_TICKETS_MAX + 4)
  assert.not.ok(kept.includes(100) || kept.includes(104))
})

test('an unreadable or foreign value in storage reads as nothing saved, and is replaced by the next copy', () => {
  ls.setItem('savedTickets', '{not json')
  assert.is(saved.findSavedTicket({ pnr: 'ABCDEFGHJK' }), null)
  ls.setItem('savedTickets', '[1,2]')
  assert.equal(saved.savedTicketsOf(null), [])
  saved.keepTickets(null, [sold])
  assert.is(saved.findSavedTicket({ id: 41 })?.reservation.pnr, 'ABCDEFGHJK')
})

test('storage that refuses to write loses nothing else: the call does not throw', () => {
  useStorages(memoryStorage(), {
    getItem: () => null,
    setItem: () => {
      throw new DOMException('full', 'QuotaExceededError')
    },
    removeItem: () => undefined,
  })
  saved.keepTickets(3, [sold])
  assert.is(saved.findSavedTicket({ id: 41 }), null)
})

test.run()
