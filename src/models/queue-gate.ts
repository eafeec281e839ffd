/**
 * The seat page's question to the waiting room: is this trip's date a rush date this browser
 * has no admission for (yet)? Then the passenger waits on /queue first. Any failure lets the
 * seat page be: the server refuses a lock without an admission anyway.
 */
import type { CallFn } from '../api/index.ts'
import type { KeyValue } from '../lib/storage.ts'

/** The local-storage key of the queue token the server issued this browser (every tab shares one place). */
export const QUEUE_TOKEN_KEY = 'queueToken'

/** The trip as the seat page knows it. */
export interface GateTrip {
  tripId: number
  tripDate: string
  originCode: string
  destinationCode: string
}

/** The waiting page's address for `trip` when its date is a rush date, not sold out, without an admission here, else null. */
export async function waitingRoomFor(trip: GateTrip, deps: { call: CallFn; storage: KeyValue }): Promise<string | null> {
  const key = { tripDate: trip.tripDate, originCode: trip.originCode, destinationCode: trip.destinationCode }
  const s = await deps.call('queue', { body: { ...key, token: deps.storage.getItem(QUEUE_TOKEN_KEY) } }).catch(() => null)
  // a sold-out date: the seat page has the trip's waitlist, which needs no turn
  if (!s || s.state === 'open' || s.state === 'admitted' || s.state === 'soldOut') return null
  return `/queue?tripId=${trip.tripId}&from=${trip.originCode}&to=${trip.destinationCode}&date=${trip.tripDate}`
}
