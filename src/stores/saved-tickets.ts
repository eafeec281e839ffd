/**
 * Tickets kept on this device so that they open without a network: every ticket
 * the passenger bought or opened (success page, ticket lookup, My tickets), with
 * its PNR, PIN, trip, seats and counters, in local storage under one key. Each
 * account's copies are kept apart (under its passenger id) and removed when that
 * account logs out (session.signOut); tickets looked up without signing in are
 * kept as the visitor's. Each
 * copy remembers when the server last sent it. No signals: pages read a copy when
 * the server cannot answer.
 */
import type { Reservation } from '../../contract/schemas.ts'
import { now } from '../lib/clock.ts'
import { localStore, readJson, storageKeys } from '../lib/storage.ts'

/** A ticket as the server last sent it, and when. */
export interface SavedTicket {
  reservation: Reservation
  /** Epoch milliseconds of the server's answer this copy is. */
  savedAt: number
  /** The card payment that bought it (the success page's address). */
  paymentId?: string
}

/** Copies kept per account (the furthest trips first when there are more). */
export const SAVED_TICKETS_MAX = 30

const VISITOR = 'visitor'

type Shelf = Record<string, SavedTicket[]>

const ownerKey = (passengerId: number | null) => (passengerId === null ? VISITOR : String(passengerId))

function readShelf(): Shelf {
  const shelf = readJson<Shelf>(localStore(), storageKeys.savedTickets)
  return shelf && typeof shelf === 'object' && !Array.isArray(shelf) ? shelf : {}
}

function writeShelf(shelf: Shelf): void {
  const ls = localStore()
  try {
    if (Object.keys(shelf).length === 0) ls.removeItem(storageKeys.savedTickets)
    else ls.setItem(storageKeys.savedTickets, JSON.stringify(shelf))
  } catch {
    // storage full or refused: the tickets still show while online
  }
}

/**
 * Keeps copies of `tickets` (those with a PNR and PIN) for `passengerId`, or as a
 * visitor's when null, replacing older copies of the same tickets.
 */
export function keepTickets(passengerId: number | null, tickets: readonly Reservation[], paymentId?: string): void {
  const keep = tickets.filter((r) => r.pnr && r.pin)
  if (keep.length === 0) return
  const shelf = readShelf()
  const key = ownerKey(passengerId)
  const at = now()
  const byId = new Map((shelf[key] ?? []).map((s) => [s.reservation.id, s]))
  for (const r of keep) {
    const before = byId.get(r.id)
    const pay = paymentId ?? before?.paymentId
    byId.set(r.id, { reservation: r, savedAt: at, ...(pay ? { paymentId: pay } : {}) })
  }
  shelf[key] = [...byId.values()]
    .sort((a, b) => Date.parse(b.reservation.departureTime) - Date.parse(a.reservation.departureTime))
    .slice(0, SAVED_TICKETS_MAX)
  writeShelf(shelf)
}

/**
 * The newest saved copy on this device of the ticket with this PNR, reservation
 * id or card payment, whoever saved it (a ticket's own address opens after the
 * tab that signed in has closed); null when there is none.
 */
export function findSavedTicket(by: { pnr: string } | { id: number } | { paymentId: string }): SavedTicket | null {
  const match = (s: SavedTicket) =>
    'pnr' in by ? s.reservation.pnr === by.pnr : 'id' in by ? s.reservation.id === by.id : s.paymentId === by.paymentId
  const found = Object.values(readShelf())
    .flat()
    .filter((s) => s?.reservation && match(s))
  return found.sort((a, b) => b.savedAt - a.savedAt)[0] ?? null
}

/** The saved copies of one account (null: the visitor's), furthest trips first. */
export function savedTicketsOf(passengerId: number | null): SavedTicket[] {
  return readShelf()[ownerKey(passengerId)] ?? []
}
