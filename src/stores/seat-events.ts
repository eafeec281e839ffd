/**
 * The live seat map: while the seat page is open, one stream per tab (GET
 * reservation/seatEvents/:tripId, contract/streams.ts) brings other passengers' holds,
 * releases, bookings, sales and cancellations, and the seat-choice store shows them at once
 * (`applyLiveSeats`). Loaded with the seat page's grid, not before.
 *
 * - A server without the route (it refuses the stream before it ever opened) or a browser
 *   without EventSource: nothing live, no error, each seat is checked by the server when chosen.
 * - A stream that drops (network, server restart) or goes quiet past three heartbeats is
 *   opened again with backoff (1 s doubling to 30 s, ±20 %; at once when the network returns),
 *   then the trip's seats are reloaded once, so nothing is missed.
 * - A trip the operator cancels meanwhile (`trip` event, then TRIP_OMITTED on the reload): the
 *   seat-choice store takes the seat map down and gives the held seats back; the stream stops. Meanwhile, and while the
 *   network is down, the page says seats may be out of date (`liveStatus` stale).
 * - Screen readers are not flooded: changes are applied silently; one polite summary
 *   ("3 seats were taken by other passengers") is said at most every 10 s, after a changes
 *   settle for 2 s, and never while the passenger is moving through the grid (`busy`). When the
 *   seat the passenger is on was among those taken, the summary says so first (its name changes
 *   with its state, but a screen reader does not say the name of a control that keeps focus again).
 */
import type { LiveSeat } from '../../contract/streams.ts'
import { openStream, type StreamHandle } from '../api/streams.ts'
import { every, now } from '../lib/clock.ts'
import * as seatChoice from './seat-choice.ts'
import * as ui from './ui.ts'
import { SEAT_STREAM_SILENCE_SECONDS } from '../../contract/values.ts'

/** Least time between two summaries. */
export const SUMMARY_EVERY_MS = 10_000
/** Changes are summed up this long before the summary is said. */
export const SUMMARY_SETTLE_MS = 2_000
/** No event (heartbeats included) for this long: the stream is dead though not closed. */
export const SILENCE_MS = SEAT_STREAM_SILENCE_SECONDS * 1000
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000]
/** A seat another passenger took this recently is named as just taken when chosen. */
const JUST_TAKEN_MS = 30_000

/** Whether the browser is online, and its changes (navigator.onLine and the online/offline events by default). */
export interface Network {
  online(): boolean
  watch(fn: (online: boolean) => void): () => void
}

export interface LiveOptions {
  /** True while the passenger is moving through the seat grid: the summary waits. */
  busy?: () => boolean
  /** The seat the passenger is on (focus in the grid), or null: the summary says when it was among those taken. */
  focused?: () => string | null
  network?: Network
  /** 0 ≤ x < 1, spreads reconnects of many tabs after a server restart (Math.random by default). */
  random?: () => number
}

const browserNetwork: Network = {
  online: () => navigator.onLine !== false,
  watch(fn) {
    const on = () => fn(true)
    const off = () => fn(false)
    window.addEventListener('online', on)
    window.addEventListener('offline', off)
    return () => {
      window.removeEventListener('online', on)
      window.removeEventListener('offline', off)
    }
  },
}

/** The running stream's disposer: one per tab. */
let running: (() => void) | null = null

/** Runs `fn` once after `ms` on the store clock; answers the function that cancels it. */
function after(ms: number, fn: () => void): () => void {
  const stop = every(ms, () => {
    stop()
    fn()
  })
  return stop
}

/**
 * Follows trip `tripId`'s seats live until the returned disposer runs (the passenger leaves
 * the page). Starting it again, for this trip or another, stops the one running first.
 */
export function startSeatEvents(tripId: number, opts: LiveOptions = {}): () => void {
  running?.()
  const network = opts.network ?? browserNetwork
  const busy = opts.busy ?? (() => false)
  const focused = opts.focused ?? (() => null)
  const random = opts.random ?? Math.random
  let handle: StreamHandle | null = null
  let stopped = false
  let opened = false
  let attempt = 0
  let lastHeard = now()
  let cancelRetry: (() => void) | null = null
  /** Events that came while the seats were being reloaded: applied after the reload. */
  let held: { tripId: number; seats: LiveSeat[] }[] | null = null
  // summary bookkeeping: each changed seat's state at the last summary
  const before = new Map<string, seatChoice.SeatState>()
  let firstChange = 0
  let lastSummary = -Infinity
  /** Seats other passengers took while the page was open: seat → when. */
  const takenAt = new Map<string, number>()
  seatChoice.setUnavailableExplainer((name) => {
    const at = takenAt.get(name)
    if (at === undefined || now() - at >= JUST_TAKEN_MS) return false
    // said visibly, once; choosing it again says its state in the live region
    takenAt.delete(name)
    ui.toastInfo({ id: 'seatChoice.takenJustNow', values: { name } })
    return true
  })

  const apply = (e: { tripId: number; seats: LiveSeat[] }) => {
    if (held) {
      held.push(e)
      return
    }
    for (const c of seatChoice.applyLiveSeats(e.tripId, e.seats)) {
      if (!before.has(c.name)) before.set(c.name, c.from)
      if (c.from === 'available') takenAt.set(c.name, now())
      else if (c.to === 'available') takenAt.delete(c.name)
    }
    if (before.size > 0 && firstChange === 0) firstChange = now()
  }

  const summarise = () => {
    if (before.size === 0) return
    const t = now()
    if (t - firstChange < SUMMARY_SETTLE_MS || t - lastSummary < SUMMARY_EVERY_MS || busy()) return
    const here = focused()
    let taken = 0
    let freed = 0
    let hereTaken = false
    for (const [name, was] of before) {
      const is = seatChoice.seatState(name).peek()
      if (is === 'selected') continue
      if (was === 'available' && is !== 'available') {
        taken++
        if (name === here) hereTaken = true
      } else if (was !== 'available' && is === 'available') freed++
    }
    before.clear()
    firstChange = 0
    if (taken + freed === 0) return
    lastSummary = t
    seatChoice.announceOthers(taken, freed, hereTaken ? here : null)
  }

  const reload = async () => {
    if (held) return
    held = []
    try {
      await seatChoice.reloadSeats(tripId)
    } finally {
      const queued = held ?? []
      held = null
      if (!stopped) for (const e of queued) apply(e)
    }
    // the operator cancelled the trip: the page says so, nothing more to follow
    if (seatChoice.tripCanceled.peek()) off()
  }

  const close = () => {
    handle?.close()
    handle = null
  }

  const retry = () => {
    close()
    cancelRetry?.()
    cancelRetry = null
    if (stopped) return
    if (!network.online()) return
    const base = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!
    attempt++
    cancelRetry = after(Math.round(base * (0.8 + 0.4 * random())), connect)
  }

  const lost = () => {
    if (stopped) return
    seatChoice.setLiveStatus('stale')
    retry()
  }

  function connect(): void {
    cancelRetry = null
    if (stopped) return
    const reconnect = opened
    lastHeard = now()
    handle = openStream(
      'seatEvents',
      { tripId },
      {
        open() {
          attempt = 0
          lastHeard = now()
          opened = true
          seatChoice.setLiveStatus('live')
          // missed while away: the seats are read again once
          if (reconnect) void reload()
        },
        event(name, data) {
          lastHeard = now()
          if (name === 'snapshot' || name === 'seats') apply(data as { tripId: number; seats: LiveSeat[] })
          else if (name === 'trip') {
            // the trip changed (times, fares, layout) or is gone: the page shows what the server says now
            if ((data as { change: string }).change === 'gone') off()
            void reload()
          }
        },
        error(refused) {
          // refused before it ever opened: this server has no live seat map: the page checks seats when chosen
          if (refused && !opened) return off()
          lost()
        },
      },
    )
    if (!handle) off()
  }

  /** Nothing live from here on (no route, no EventSource, the trip is gone): no note, no retries. */
  function off(): void {
    close()
    stopped = true
    seatChoice.setLiveStatus('off')
  }

  const stopWatch = network.watch((online) => {
    if (stopped) return
    if (!online) {
      cancelRetry?.()
      cancelRetry = null
      close()
      seatChoice.setLiveStatus('stale')
      return
    }
    if (!handle) {
      attempt = 0
      cancelRetry?.()
      connect()
    }
  })
  // a summary waiting for its time, and a stream that went silent
  const stopTicks = every(1_000, () => {
    summarise()
    if (handle && opened && now() - lastHeard > SILENCE_MS) lost()
  })

  seatChoice.setLiveStatus(network.online() ? 'connecting' : 'stale')
  if (network.online()) connect()

  const dispose = () => {
    if (running === dispose) running = null
    stopped = true
    close()
    cancelRetry?.()
    stopWatch()
    stopTicks()
    seatChoice.setUnavailableExplainer(null)
    seatChoice.setLiveStatus('off')
  }
  running = dispose
  return dispose
}
