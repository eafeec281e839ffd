/**
 * The waitlist of one sold-out trip for the signed-in passenger (server/waitlist/): their entry
 * (place, or the seats offered to them and until when), and joining, leaving and reading it
 * again. Made per seat-page visit (`createWaitlist`); its `start` reads the entry now and again
 * every so often, so an offer shows without a reload.
 */
import { batch, computed, type ReadonlySignal, signal } from '@preact/signals-react'
import type { WaitlistEntry } from '../../contract/schemas.ts'
import { type RequestError, requestError } from '../api/api-error.ts'
import { call } from '../api/index.ts'

/** How often the entry is read again while the page is open. */
export const WAITLIST_POLL_MS = 5000

/** One trip's waitlist for the passenger: state, then the actions that are its only writers. */
export interface Waitlist {
  /** The passenger's entry; null when not on the list, undefined until first read. */
  entry: ReadonlySignal<WaitlistEntry | undefined>
  /** True while seats are held for the passenger. */
  offered: ReadonlySignal<boolean>
  /** The last join or leave that failed. */
  error: ReadonlySignal<RequestError | null>
  busy: ReadonlySignal<boolean>
  refresh(): Promise<void>
  join(seats: number): Promise<boolean>
  leave(): Promise<boolean>
  /** Reads the entry now and every `everyMs`; answers the stop. */
  start(everyMs?: number): () => void
}

/** The waitlist of trip `tripId`. */
export function createWaitlist(tripId: number): Waitlist {
  const entryState = signal<WaitlistEntry | undefined>(undefined)
  const errorState = signal<RequestError | null>(null)
  const busyState = signal(false)
  const params = { tripId }

  const refresh = async () => {
    try {
      entryState.value = await call('waitlist', { params })
    } catch {
      // a missed read is read again at the next poll
    }
  }
  const act = async (send: () => Promise<WaitlistEntry>): Promise<boolean> => {
    batch(() => {
      busyState.value = true
      errorState.value = null
    })
    try {
      entryState.value = await send()
      return true
    } catch (err) {
      errorState.value = requestError(err)
      return false
    } finally {
      busyState.value = false
    }
  }
  return {
    entry: computed(() => entryState.value),
    offered: computed(() => entryState.value?.status === 'OFFERED'),
    error: computed(() => errorState.value),
    busy: computed(() => busyState.value),
    refresh,
    join: (seats) => act(() => call('joinWaitlist', { body: { tripId, seats } })),
    leave: () => act(() => call('leaveWaitlist', { body: { tripId } }).then(() => null)),
    start(everyMs = WAITLIST_POLL_MS) {
      void refresh()
      const timer = setInterval(() => void refresh(), everyMs)
      return () => clearInterval(timer)
    },
  }
}
