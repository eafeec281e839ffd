/**
 * The waiting room of a rush date, for one visit of its page: joins this browser's place (or
 * finds it again: the queue token is kept in local storage, so a refresh or a second tab has the
 * same place), then asks where it stands as often as the server says, through dropped
 * connections. What a screen reader is told changes when the state does, and a new place at most
 * once a minute.
 */
import { batch, computed, signal } from '@preact/signals-react'
import type { QueueStatus } from '../../contract/schemas.ts'
import { ApiError } from '../api/api-error.ts'
import type { CallFn } from '../api/index.ts'
import type { KeyValue } from '../lib/storage.ts'
import { QUEUE_TOKEN_KEY } from './queue-gate.ts'

/** A rush date as the page's address names it. */
export interface RushRef {
  tripDate: string
  originCode: string
  destinationCode: string
}

/** What the model works with: the API, where the token is kept, a clock and a timer. */
export interface WaitingRoomDeps {
  call: CallFn
  storage: KeyValue
  now: () => number
  /** Runs `fn` after `ms`; answers its cancel. */
  later: (fn: () => void, ms: number) => () => void
}

/** A new place is said to screen readers at most this often. */
export const ANNOUNCE_EVERY_MS = 60_000
/** The longest wait before asking again after a failure. */
const MAX_RETRY_MS = 30_000
const NETWORK = new Set(['NO_INTERNET_CONNECTION', 'SERVICE_UNREACHABLE', 'REQUEST_TIMEOUT'])

/**
 * The waiting room model: `createWaitingRoom(rush, deps)`, then `start()` (answers the stop). A plain
 * factory, not signals' createModel: that one's code would join every route's first script.
 */
export function createWaitingRoom(rush: RushRef, deps: WaitingRoomDeps) {
  const status = signal<QueueStatus | null>(null)
  /** False while the server cannot be reached (the place is kept; asking goes on). */
  const connected = signal(true)
  /** A catalogue error code the server answered (e.g. TOO_MANY_REQUESTS), until the next answer. */
  const errorCode = signal<string | null>(null)
  const announcement = signal<{ id: string; values: Record<string, number>; seq: number } | null>(null)
  const announcedAt = signal(Number.NEGATIVE_INFINITY)
  const mayChooseSeats = computed(() => status.value?.state === 'admitted' || status.value?.state === 'open')

  const take = (s: QueueStatus) => {
    if (s.token) deps.storage.setItem(QUEUE_TOKEN_KEY, s.token)
    const before = status.peek()
    const now = deps.now()
    const moved = s.place !== null && s.place !== announcement.peek()?.values?.place && now - announcedAt.peek() >= ANNOUNCE_EVERY_MS
    batch(() => {
      status.value = s
      connected.value = true
      errorCode.value = null
      if (before?.state !== s.state || moved) {
        const values = { place: s.place ?? 0, ahead: s.ahead ?? 0, waiting: s.waiting }
        announcement.value = { id: `queue.say.${s.state}`, values, seq: (announcement.peek()?.seq ?? 0) + 1 }
        announcedAt.value = now
      }
    })
  }

  const failed = (err: unknown) => {
    const code = err instanceof ApiError ? err.code : 'SERVICE_UNREACHABLE'
    batch(() => {
      connected.value = !NETWORK.has(code)
      errorCode.value = NETWORK.has(code) ? null : code
    })
  }

  /** Asks the server over and over; answers the stop. The first ask joins (`again`: at the back). */
  const run = (again: boolean) => {
    let stopped = false
    let cancel: () => void = () => undefined
    let failures = 0
    const ask = async (join: boolean, joinAgain: boolean) => {
      const token = deps.storage.getItem(QUEUE_TOKEN_KEY)
      try {
        const key = { tripDate: rush.tripDate, originCode: rush.originCode, destinationCode: rush.destinationCode }
        const body = { ...key, token, ...(join ? { join } : {}), ...(joinAgain ? { again: true } : {}) }
        const s = await deps.call('queue', { body })
        if (stopped) return
        failures = 0
        take(s)
        if (s.state === 'open') return
        // a place that is gone (a cleared token, another browser's sign-in) is joined again
        const next = s.state === 'notJoined' && !join
        cancel = deps.later(() => void ask(next, false), next ? 0 : s.pollSeconds * 1000)
      } catch (err) {
        if (stopped) return
        failed(err)
        failures++
        cancel = deps.later(() => void ask(join, joinAgain), Math.min(MAX_RETRY_MS, 1000 * 2 ** Math.min(failures, 5)))
      }
    }
    void ask(true, again)
    return () => {
      stopped = true
      cancel()
    }
  }
  const stops: (() => void)[] = []
  const stopAll = () => {
    for (const stop of stops.splice(0)) stop()
  }

  /** Joins (or finds) the place, then keeps asking; answers the stop. */
  const start = () => {
    stopAll()
    stops.push(run(false))
    return stopAll
  }

  /** An admission that ran out: queues again at the back, and keeps asking. */
  const joinAgain = () => {
    stopAll()
    stops.push(run(true))
  }

  return { status, connected, errorCode, announcement, mayChooseSeats, start, joinAgain }
}

/** One waiting room model. */
export type WaitingRoomModel = ReturnType<typeof createWaitingRoom>
