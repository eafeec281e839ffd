/**
 * Where saved tickets (src/stores/saved-tickets.ts) live, and who owns them: a "shelf"
 * `{ [owner]: copies[] }` under `savedTickets` in session storage (this tab's copies, gone
 * when the tab closes) and one in local storage (the copies of a Stay-signed-in session, and
 * the tickets a passenger chose to keep on this device), each by owner (saved-tickets.ts
 * ownerKey). Small and without the contract: the session store fetches it to remove copies
 * at start, sign-in, sign-out and a 401, without the saved-tickets store.
 */
import { type KeyValue, localStore, readJson, sessionStore, storageKeys } from './storage.ts'

/** What the shelf needs to know of a copy (the whole copy is saved-tickets.ts SavedTicket). */
export interface ShelfCopy {
  /** The passenger asked to keep it on this device: it outlives the session (not a sign-out). */
  kept?: true
}

export type Shelf<C extends ShelfCopy = ShelfCopy> = Record<string, C[]>

export function readShelf<C extends ShelfCopy>(store: KeyValue): Shelf<C> {
  const shelf = readJson<Shelf<C>>(store, storageKeys.savedTickets)
  return shelf && typeof shelf === 'object' && !Array.isArray(shelf) ? shelf : {}
}

export function writeShelf<C extends ShelfCopy>(store: KeyValue, shelf: Shelf<C>): void {
  for (const owner of Object.keys(shelf)) if (!shelf[owner]?.length) delete shelf[owner]
  try {
    if (Object.keys(shelf).length === 0) store.removeItem(storageKeys.savedTickets)
    else store.setItem(storageKeys.savedTickets, JSON.stringify(shelf))
  } catch {
    // storage full or refused: the tickets still show while online
  }
}

/** Removes, from both storages, every copy for which `drop(owner, copy, inLocal)` is true. */
export function dropCopies(drop: (owner: string, copy: ShelfCopy, inLocal: boolean) => boolean): void {
  for (const store of [sessionStore(), localStore()]) {
    const shelf = readShelf(store)
    let changed = false
    for (const [owner, copies] of Object.entries(shelf)) {
      if (!Array.isArray(copies)) {
        delete shelf[owner]
        changed = true
        continue
      }
      const left = copies.filter((c) => !(c && typeof c === 'object') || !drop(owner, c, store === localStore()))
      if (left.length !== copies.length) {
        shelf[owner] = left
        changed = true
      }
    }
    if (changed) writeShelf(store, shelf)
  }
}

/** The passenger id of the Stay-signed-in session in local storage, or null when there is none. */
export function rememberedPassenger(): number | null {
  const ls = localStore()
  if (!ls.getItem(storageKeys.token)) return null
  const id = readJson<{ id?: unknown }>(ls, storageKeys.passenger)?.id
  return typeof id === 'number' ? id : null
}

/** At start: local copies neither kept by choice nor the Stay-signed-in session's (an older version's, or a session's since ended elsewhere). */
export function dropAtStart(): void {
  const r = rememberedPassenger()
  dropCopies((o, c, inLocal) => inLocal && c.kept !== true && o !== String(r))
}

/** `id` signs in: the copies of whoever used the tab or device before (but those kept by choice), and `id`'s own in local storage without Stay signed in. */
export function dropAtSignIn(id: number, stay: boolean): void {
  dropCopies((o, c, inLocal) => c.kept !== true && (o !== String(id) || (inLocal && !stay)))
}

/** `id`'s session ends: at LOGOUT every copy of theirs, at a 401 those not kept by choice. */
export function dropAtEnd(id: number, evenKept: boolean): void {
  dropCopies((o, c) => o === String(id) && (evenKept || c.kept !== true))
}
