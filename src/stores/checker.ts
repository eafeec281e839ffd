/**
 * The coach supervisor's ticket checker (/checker): what `GET /api/ticketCheck` answered for a day
 * (the operator's public keys, the day's trips, the revocation list), kept in local storage so a
 * phone that opened the page once checks tickets with no network, and the trip the supervisor
 * chose. A ticket code is valid when the operator's key signed it, it is for the chosen trip, and
 * the revocation list does not void it. Actions are the only writers.
 */
import { batch, computed, signal } from '@preact/signals-react'
import type { TicketCheck } from '../../contract/schemas.ts'
import { pnrHash, type TicketCodePayload, verifyTicketCode } from '../../contract/ticket-code.ts'
import { call } from '../api/index.ts'
import { localStore, readJson, storageKeys } from '../lib/storage.ts'

/** What the checker keeps on the device. */
interface Kept {
  data: TicketCheck | null
  tripId: number | null
}

/** A check's outcome: valid (with what the code says), or why it is refused. */
export type CheckResult =
  | { kind: 'valid'; ticket: TicketCodePayload }
  | { kind: 'edited' }
  | { kind: 'foreignTrip'; ticket: TicketCodePayload }
  | { kind: 'cancelled'; ticket: TicketCodePayload }
  | { kind: 'noTrip' }

const kept = (): Kept => readJson<Kept>(localStore(), storageKeys.checker) ?? { data: null, tripId: null }

const dataState = signal<TicketCheck | null>(kept().data)
const tripIdState = signal<number | null>(kept().tripId)
const fetchingState = signal(false)
const fetchFailedState = signal(false)
const resultState = signal<{ result: CheckResult; seq: number } | null>(null)
/** The newest fetch's number (it alone says whether fetching goes on or failed). */
const newestFetch = signal(0)
/**
 * The number of the fetch whose list is shown: an older one answering after it (a slow minute's refresh) must not
 * bring back its list, and a newer one that failed (the network gone again) must not throw away this one's.
 */
const shownFetch = signal(0)

/** The last answer of the server (keys, trips, revocation list), or null before the first. */
export const data = computed(() => dataState.value)
/** The chosen trip, when it is one of the fetched day's. */
export const trip = computed(() => dataState.value?.trips.find((t) => t.id === tripIdState.value) ?? null)
export const fetching = computed(() => fetchingState.value)
/** The last fetch found no network (the kept list is shown with its time). */
export const fetchFailed = computed(() => fetchFailedState.value)
/** The last check, numbered so the same outcome twice is announced twice. */
export const result = computed(() => resultState.value)

function keep(): void {
  try {
    localStore().setItem(storageKeys.checker, JSON.stringify({ data: dataState.value, tripId: tripIdState.value } satisfies Kept))
  } catch {
    // storage full or refused: the checker works until the page closes
  }
}

/** Fetches day `date`'s keys, trips and revocation list and keeps them; offline, the kept ones stay. */
export async function fetchDay(date: string): Promise<boolean> {
  const mine = newestFetch.peek() + 1
  newestFetch.value = mine
  fetchingState.value = true
  try {
    const d = await call('ticketCheck', { query: { date } })
    // a fetch made since that has answered already shows a newer list (this one's is from before it)
    if (shownFetch.peek() > mine) return true
    batch(() => {
      shownFetch.value = mine
      dataState.value = d
      fetchFailedState.value = false
      if (!d.trips.some((t) => t.id === tripIdState.value)) tripIdState.value = null
    })
    keep()
    return true
  } catch {
    if (newestFetch.peek() === mine) fetchFailedState.value = true
    return false
  } finally {
    if (newestFetch.peek() === mine) fetchingState.value = false
  }
}

/** The supervisor's trip. */
export function chooseTrip(id: number | null): void {
  tripIdState.value = id
  resultState.value = null
  keep()
}

/** Checks a ticket code (pasted, typed or scanned) against the kept keys, chosen trip and revocation list. */
export async function check(code: string): Promise<CheckResult> {
  const d = dataState.value
  const tripId = tripIdState.value
  const seq = (resultState.value?.seq ?? 0) + 1
  const ticket = d && tripId !== null ? await verifyTicketCode(code, d.keys, crypto.subtle) : null
  let out: CheckResult
  if (!d || tripId === null) out = { kind: 'noTrip' }
  else if (!ticket) out = { kind: 'edited' }
  else if (ticket.t !== tripId) out = { kind: 'foreignTrip', ticket }
  else {
    const hash = await pnrHash(ticket.p, crypto.subtle)
    const void_ = d.revoked.some((r) => r.tripId === tripId && r.pnrHash === hash && (r.before === null || ticket.i < Date.parse(r.before)))
    out = void_ ? { kind: 'cancelled', ticket } : { kind: 'valid', ticket }
  }
  resultState.value = { result: out, seq }
  return out
}
