/**
 * Tickets kept on this device so that they open without a network: every ticket
 * the passenger bought or opened (success page, ticket lookup, My tickets), with
 * its PNR, PIN, trip, seats and counters. A copy belongs to whoever saved it: the
 * signed-in passenger (their id), or, looked up without signing in, the browser
 * tab (ownerKey), and is shown only to them. Where it is
 * kept decides how long it lives (src/lib/ticket-shelf.ts): in session storage,
 * gone with the tab, unless the session is a Stay-signed-in one (local storage,
 * until LOGOUT or a 401) or the passenger asked to keep this ticket on this
 * device (local storage, marked `kept`: past the session's end, shown to the
 * account that kept it, and to anyone else only after they type its PIN).
 * Each copy remembers when the server last sent it. No signals: pages read a
 * copy when the server cannot answer.
 */
import type { Reservation } from '../../contract/schemas.ts'
import { now } from '../lib/clock.ts'
import { storedDeviceId } from '../lib/device-id.ts'
import { localStore, sessionStore } from '../lib/storage.ts'
import { readShelf, rememberedPassenger, type Shelf, writeShelf } from '../lib/ticket-shelf.ts'

export { rememberedPassenger }

/** A ticket as the server last sent it, and when. */
export interface SavedTicket {
  reservation: Reservation
  /** Epoch milliseconds of the server's answer this copy is. */
  savedAt: number
  /** The card payment that bought it (the success page's address). */
  paymentId?: string
  /** The passenger asked to keep it on this device ("Keep this ticket on this device"). */
  kept?: true
}

/** Copies kept per owner and storage (the furthest trips first when there are more). */
export const SAVED_TICKETS_MAX = 30

/**
 * The owner key of `passengerId`'s copies, or of this tab's when nobody is signed in
 * (`tab:<device id>`: the device id is this tab's, so another tab is another owner).
 */
export function ownerKey(passengerId: number | null): string {
  return passengerId === null ? `tab:${storedDeviceId(sessionStore())}` : String(passengerId)
}

type Where = 'session' | 'local'
const storeOf = (where: Where) => (where === 'session' ? sessionStore() : localStore())
const valid = (s: SavedTicket | null | undefined): s is SavedTicket => !!s?.reservation && typeof s.reservation === 'object'

/** `owner`'s copies in one storage. */
function copiesIn(where: Where, owner: string): SavedTicket[] {
  const list = readShelf<SavedTicket>(storeOf(where))[owner]
  return Array.isArray(list) ? list.filter(valid) : []
}

/** Replaces `owner`'s copies in one storage (furthest trips first, at most SAVED_TICKETS_MAX). */
function putIn(where: Where, owner: string, copies: SavedTicket[]): void {
  const store = storeOf(where)
  const shelf: Shelf<SavedTicket> = readShelf(store)
  shelf[owner] = copies.sort((a, b) => Date.parse(b.reservation.departureTime) - Date.parse(a.reservation.departureTime)).slice(0, SAVED_TICKETS_MAX)
  writeShelf(store, shelf)
}

/** Where a new copy of `passengerId`'s goes: local storage for a Stay-signed-in session, else this tab's. */
const newCopiesGo = (passengerId: number | null): Where => (passengerId !== null && rememberedPassenger() === passengerId ? 'local' : 'session')

/**
 * Keeps copies of `tickets` (those with a PNR and PIN) for `passengerId`, or as
 * this tab's when null, replacing older copies of the same tickets where they are.
 */
export function keepTickets(passengerId: number | null, tickets: readonly Reservation[], paymentId?: string): void {
  const keep = tickets.filter((r) => r.pnr && r.pin)
  if (keep.length === 0) return
  const owner = ownerKey(passengerId)
  const at = now()
  const local = copiesIn('local', owner)
  const session = copiesIn('session', owner)
  const target = newCopiesGo(passengerId)
  for (const r of keep) {
    const inLocal = local.findIndex((s) => s.reservation.id === r.id)
    const list = inLocal >= 0 ? local : target === 'local' ? local : session
    const i = list.findIndex((s) => s.reservation.id === r.id)
    const before = i >= 0 ? list[i] : undefined
    const pay = paymentId ?? before?.paymentId
    const copy: SavedTicket = { reservation: r, savedAt: at, ...(pay ? { paymentId: pay } : {}), ...(before?.kept ? { kept: true } : {}) }
    if (i >= 0) list[i] = copy
    else list.push(copy)
  }
  putIn('local', owner, local)
  putIn('session', owner, session)
}

/** The saved copies `passengerId` (null: this tab) may see, newest answers first. */
function visibleTo(passengerId: number | null): SavedTicket[] {
  const owner = ownerKey(passengerId)
  return [...copiesIn('session', owner), ...copiesIn('local', owner)].sort((a, b) => b.savedAt - a.savedAt)
}

const matches = (by: { pnr: string } | { id: number } | { paymentId: string }) => (s: SavedTicket) =>
  'pnr' in by ? s.reservation.pnr === by.pnr : 'id' in by ? s.reservation.id === by.id : s.paymentId === by.paymentId

/**
 * The newest copy of the ticket with this PNR, reservation id or card payment
 * that `passengerId` (null: this tab) saved; null when they have none. Another
 * account's or tab's copy is never found here.
 */
export function findSavedTicket(passengerId: number | null, by: { pnr: string } | { id: number } | { paymentId: string }): SavedTicket | null {
  return visibleTo(passengerId).find(matches(by)) ?? null
}

/**
 * The copy of the ticket with this PNR for someone who typed its PIN: their own,
 * or one kept on this device by anyone (knowing the PIN, they could ask the
 * server for it too); null when there is none or the PIN differs.
 */
export function findWithPin(passengerId: number | null, pnr: string, pin: string): SavedTicket | null {
  const kept = Object.values(readShelf<SavedTicket>(localStore()))
    .flat()
    .filter((s) => valid(s) && s.kept === true)
  return [...visibleTo(passengerId), ...kept].find((s) => s.reservation.pnr === pnr && s.reservation.pin === pin) ?? null
}

/** The saved copies of one account (null: this tab's), furthest trips first. */
export function savedTicketsOf(passengerId: number | null): SavedTicket[] {
  return visibleTo(passengerId).sort((a, b) => Date.parse(b.reservation.departureTime) - Date.parse(a.reservation.departureTime))
}

/** Whether this ticket is kept on this device (by anyone: whoever sees the ticket may see that, and untick it). */
export function isKept(reservationId: number): boolean {
  return Object.values(readShelf<SavedTicket>(localStore()))
    .flat()
    .some((s) => valid(s) && s.reservation.id === reservationId && s.kept === true)
}

/**
 * "Keep this ticket on this device": on, `passengerId`'s copy (null: this tab's) moves to
 * local storage marked `kept` (saved now when there was none); off, it goes back to
 * where the session's copies live (this tab's storage, or local for a Stay-signed-in
 * session), and every other kept copy of the ticket goes (one kept by a tab since closed
 * has no other way out; whoever sees the ticket could fetch it with its PIN anyway).
 */
export function keepOnDevice(passengerId: number | null, r: Reservation, keep: boolean): void {
  if (!r.pnr || !r.pin) return
  const owner = ownerKey(passengerId)
  const same = (s: SavedTicket) => s.reservation.id === r.id
  if (!keep) {
    const shelf = readShelf<SavedTicket>(localStore())
    for (const [o, copies] of Object.entries(shelf))
      if (o !== owner && Array.isArray(copies)) shelf[o] = copies.filter((s) => !(valid(s) && same(s) && s.kept))
    writeShelf(localStore(), shelf)
  }
  const local = copiesIn('local', owner)
  const session = copiesIn('session', owner)
  const before = local.find(same) ?? session.find(same)
  const { kept: _, ...copy } = before ?? { reservation: r, savedAt: now() }
  const rest = (list: SavedTicket[]) => list.filter((s) => !same(s))
  const where = keep ? 'local' : newCopiesGo(passengerId)
  const moved: SavedTicket = keep ? { ...copy, kept: true } : copy
  putIn('local', owner, where === 'local' ? [...rest(local), moved] : rest(local))
  putIn('session', owner, where === 'session' ? [...rest(session), moved] : rest(session))
}

/** The owner key of the copy a ticket link (`/t?k=<token>`) opened: whoever has the link sees it. */
const linkOwner = (token: string) => `link:${token}`

/** Keeps the ticket a link opened (without its PIN) in local storage, so the link shows it again offline. */
export function keepLinkTicket(token: string, r: Reservation): void {
  putIn('local', linkOwner(token), [{ reservation: r, savedAt: now(), kept: true }])
}

/** The copy the ticket link `token` opened on this device, or null. */
export function findLinkTicket(token: string): SavedTicket | null {
  return copiesIn('local', linkOwner(token))[0] ?? null
}
