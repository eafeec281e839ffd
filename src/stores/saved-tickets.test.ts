import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fakeClock, type FakeClock } from '../lib/clock.ts'
import { memoryStorage, useMemoryStorages, useStorages, type KeyValue } from '../lib/storage.ts'
import * as saved from './saved-tickets.ts'
import { type Session, SessionModel } from '../models/session.ts'
import { savedTickets } from './saved-tickets-later.ts'
import { afterPageShown, pageShown, resetPageShown } from '../lib/page-shown.ts'
import { anotherTicket, iso, NOW, sold } from './ticket-fixture.ts'

const passenger = (id: number) => ({
  id,
  mobile: '01712345678',
  fullName: 'Rahim',
  email: 'r@example.com',
  city: 'Dhaka',
  balance: 0,
  createdAt: iso(NOW),
})
const signIn = (session: Session, id: number, stay = false) => {
  session.signIn(
    {
      token: `t${id}`,
      expiresAt: iso(NOW + 86_400_000),
      passenger: passenger(id),
      company: { name: 'C', phone: '1', email: 'c@example.com' },
    },
    stay,
  )
  return session.savedTicketsDropped()
}
const signOut = (session: Session) => {
  session.signOut()
  return session.savedTicketsDropped()
}
const expire = (session: Session) => {
  session.resetInvalidSession('/profile')
  return session.savedTicketsDropped()
}
/** The browser closes the tab: its session storage is gone, local storage stays; the next tab starts the app and reads its copies. */
const closeTab = (session: Session, ls: KeyValue) => {
  useStorages(memoryStorage(), ls)
  session.loadSession(afterPageShown)
  return session.savedTicketsSwept()
}
const pnrsOf = (id: number | null) => saved.savedTicketsOf(id).map((s) => s.reservation.pnr)

interface Ctx {
  clock: FakeClock
  ls: KeyValue
  ss: KeyValue
  /** The app's session in the test's tab. */
  session: Session
}
const test = suite<Ctx>('saved tickets')
test.before.each((ctx) => {
  ctx.clock = fakeClock(NOW)
  Object.assign(ctx, useMemoryStorages())
  ctx.session = new SessionModel()
  ctx.session.loadSession(afterPageShown)
})

test('a ticket is kept with the time the server sent it, and found by PNR, id or card payment', async ({ session }) => {
  await signIn(session, 3)
  saved.keepTickets(3, [sold], 'pay-1')
  const copy = saved.findSavedTicket(3, { pnr: 'ABCDEFGHJK' })
  assert.equal(copy, { reservation: sold, savedAt: NOW, paymentId: 'pay-1' })
  assert.equal(saved.findSavedTicket(3, { id: 41 }), copy)
  assert.equal(saved.findSavedTicket(3, { paymentId: 'pay-1' }), copy)
  assert.is(saved.findSavedTicket(3, { pnr: 'ZZZZZZZZZZ' }), null)
})

test('a session without Stay signed in keeps its copies in this tab only: closing it removes them', async ({ ls, ss, session }) => {
  await signIn(session, 3)
  saved.keepTickets(3, [sold])
  assert.ok(ss.getItem('savedTickets')!.includes('"pin":"1234"'))
  assert.is(ls.getItem('savedTickets'), null, 'nothing of the ticket in local storage')
  await closeTab(session, ls)
  assert.is(saved.findSavedTicket(null, { pnr: 'ABCDEFGHJK' }), null)
  assert.is(saved.findWithPin(null, 'ABCDEFGHJK', '1234'), null)
  await signIn(session, 3)
  assert.equal(pnrsOf(3), [], 'not even for the same account in a new tab')
})

test('a ticket looked up without signing in belongs to that tab', async ({ ls, session }) => {
  saved.keepTickets(null, [sold])
  assert.is(saved.findSavedTicket(null, { id: 41 })?.reservation.pin, '1234')
  assert.is(saved.findSavedTicket(3, { id: 41 }), null, 'not an account’s')
  await closeTab(session, ls)
  assert.is(saved.findSavedTicket(null, { id: 41 }), null)
})

test('a Stay-signed-in session keeps its copies on the device, for that account only, until LOGOUT', async ({ ls, session }) => {
  await signIn(session, 3, true)
  saved.keepTickets(3, [sold])
  await closeTab(session, ls)
  assert.is(saved.findSavedTicket(3, { pnr: 'ABCDEFGHJK' })?.reservation.pin, '1234', 'offline after the tab closed')
  assert.is(saved.findSavedTicket(null, { pnr: 'ABCDEFGHJK' }), null, 'not for a signed-out tab')
  assert.is(saved.findSavedTicket(4, { pnr: 'ABCDEFGHJK' }), null, 'not for another account')
  assert.is(saved.findWithPin(4, 'ABCDEFGHJK', '1234'), null, 'not even with its PIN: it was not kept by choice')
  await signOut(session)
  assert.is(ls.getItem('savedTickets'), null)
})

test('another account signing in on the device: the previous one’s copies go, but those kept by choice', async ({ ls, session }) => {
  await signIn(session, 3, true)
  saved.keepTickets(3, [sold, anotherTicket(60, 'KEPTBYTHEM')])
  saved.keepOnDevice(3, anotherTicket(60, 'KEPTBYTHEM'), true)
  await signIn(session, 4)
  assert.equal(pnrsOf(4), [])
  assert.is(saved.findSavedTicket(4, { pnr: 'KEPTBYTHEM' }), null)
  assert.not.ok(ls.getItem('savedTickets')!.includes('ABCDEFGHJK'))
  assert.ok(saved.isKept(60))
})

test('Keep this ticket on this device: past the tab and a 401, shown to its account, to others only with its PIN; LOGOUT removes it', async ({
  ls,
  ss,
  session,
}) => {
  await signIn(session, 3)
  saved.keepTickets(3, [sold, anotherTicket(60, 'NOTKEPTPNR')])
  assert.not.ok(saved.isKept(41))
  saved.keepOnDevice(3, sold, true)
  assert.ok(saved.isKept(41))
  assert.not.ok(ss.getItem('savedTickets')!.includes('ABCDEFGHJK'), 'one copy, moved')
  await expire(session)
  assert.equal(pnrsOf(3), ['ABCDEFGHJK'], 'the 401 took the copy not kept')
  await closeTab(session, ls)
  assert.is(saved.findSavedTicket(null, { pnr: 'ABCDEFGHJK' }), null, 'not at its address for the next person')
  assert.is(saved.findSavedTicket(4, { pnr: 'ABCDEFGHJK' }), null)
  assert.is(saved.findWithPin(null, 'ABCDEFGHJK', '9999'), null)
  assert.is(saved.findWithPin(null, 'ABCDEFGHJK', '1234')?.reservation.id, 41, 'whoever types the PIN')
  await signIn(session, 3)
  assert.is(saved.findSavedTicket(3, { pnr: 'ABCDEFGHJK' })?.kept, true, 'the account that kept it, signed in again')
  // a newer answer keeps it kept
  saved.keepTickets(3, [{ ...sold, status: 5 }])
  assert.ok(saved.isKept(41))
  await signOut(session)
  assert.is(ls.getItem('savedTickets'), null)
  assert.is(saved.findWithPin(null, 'ABCDEFGHJK', '1234'), null)
})

test('unticking Keep this ticket on this device takes it back to this tab only, and leaves no kept copy of it', async ({ ls, session }) => {
  saved.keepOnDevice(null, sold, true)
  assert.is(saved.findSavedTicket(null, { id: 41 })?.savedAt, NOW, 'saved when there was no copy yet')
  saved.keepOnDevice(null, sold, false)
  assert.is(ls.getItem('savedTickets'), null)
  assert.is(saved.findSavedTicket(null, { id: 41 })?.kept, undefined)
  // kept in a tab since closed: whoever opens it with its PIN sees it is kept, and may untick it
  saved.keepOnDevice(null, sold, true)
  await closeTab(session, ls)
  assert.ok(saved.isKept(41))
  saved.keepOnDevice(null, sold, false)
  assert.not.ok(saved.isKept(41))
  assert.is(ls.getItem('savedTickets'), null)
})

test('an expired session (401) removes the copies it saved', async ({ ls, session }) => {
  await signIn(session, 3, true)
  saved.keepTickets(3, [sold])
  await expire(session)
  assert.equal(pnrsOf(3), [])
  assert.is(ls.getItem('savedTickets'), null)
})

test('copies of an older version, or of a session ended in another tab, are swept at start, once the page has shown', async ({ ls, session }) => {
  resetPageShown()
  ls.setItem('savedTickets', JSON.stringify({ visitor: [{ reservation: sold, savedAt: NOW }], 3: [{ reservation: sold, savedAt: NOW }] }))
  session.loadSession(afterPageShown)
  // the shelf's file is not fetched before the page's first paint: with the module already loaded (saved-tickets.ts
  // imports it), a sweep that did not wait would be done after one turn of the event loop
  await new Promise((r) => setTimeout(r, 0))
  assert.ok(ls.getItem('savedTickets'))
  pageShown()
  await session.savedTicketsDropped()
  assert.is(ls.getItem('savedTickets'), null)
})

test('the start sweep goes before the first read of the saved tickets, shown or not', async ({ ls, session }) => {
  resetPageShown()
  ls.setItem('savedTickets', JSON.stringify({ visitor: [{ reservation: sold, savedAt: NOW }], 3: [{ reservation: sold, savedAt: NOW }] }))
  session.loadSession(afterPageShown)
  const store = await savedTickets(session)
  assert.is(ls.getItem('savedTickets'), null)
  assert.equal(store.savedTicketsOf(3), [])
  resetPageShown()
})

test('a newer answer replaces the copy (a cancellation shows from the next look-up on), keeping its payment', ({ clock }) => {
  saved.keepTickets(3, [sold], 'pay-1')
  clock.advance(60_000)
  saved.keepTickets(3, [{ ...sold, status: 5, canceledAt: iso(clock.now), refundAmount: 900 }])
  assert.equal(saved.savedTicketsOf(3).length, 1)
  const copy = saved.findSavedTicket(3, { pnr: 'ABCDEFGHJK' })!
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

test('at most SAVED_TICKETS_MAX copies per account: the trips furthest ahead are kept', () => {
  const many = Array.from({ length: saved.SAVED_TICKETS_MAX + 5 }, (_, i) => anotherTicket(100 + i, `PNR${String(i).padStart(7, '0')}`, i))
  saved.keepTickets(3, many.slice(0, 10))
  saved.keepTickets(3, many.slice(10))
  const kept = saved.savedTicketsOf(3).map((s) => s.reservation.id)
  assert.is(kept.length, saved.SAVED_TICKETS_MAX)
  assert.is(kept[0], 100 + saved.SAVED_TICKETS_MAX + 4)
  assert.not.ok(kept.includes(100) || kept.includes(104))
})

test('an unreadable or foreign value in storage reads as nothing saved, and is replaced by the next copy', ({ ss }) => {
  ss.setItem('savedTickets', '{not json')
  assert.is(saved.findSavedTicket(null, { pnr: 'ABCDEFGHJK' }), null)
  ss.setItem('savedTickets', '[1,2]')
  assert.equal(saved.savedTicketsOf(null), [])
  saved.keepTickets(null, [sold])
  assert.is(saved.findSavedTicket(null, { id: 41 })?.reservation.pnr, 'ABCDEFGHJK')
})

test('storage that refuses to write loses nothing else: the call does not throw', () => {
  const refusing = {
    getItem: () => null,
    setItem: () => {
      throw new DOMException('full', 'QuotaExceededError')
    },
    removeItem: () => undefined,
  }
  useStorages(refusing, refusing)
  saved.keepTickets(3, [sold])
  assert.is(saved.findSavedTicket(3, { id: 41 }), null)
})

test.run()
