/**
 * The live seat map of one seat-page visit: while the seat map is on screen, one stream (GET
 * reservation/seatEvents/:tripId, contract/streams.ts) brings other passengers' holds, releases,
 * bookings, sales and cancellations, and the seat map shows them at once.
 *
 * - A server without the route (it refuses the stream before it ever opened) or a browser
 *   without EventSource: nothing live, no error, each seat is checked by the server when chosen.
 * - A stream that drops (network, server restart) or goes quiet past three heartbeats is
 *   opened again with backoff (1 s doubling to 30 s, ±20 %; at once when the network returns),
 *   then the trip's seats are reloaded once, so nothing is missed.
 * - A trip the operator cancels meanwhile (`trip` event, then TRIP_OMITTED on the reload): the
 *   seat map is taken down and the held seats given back; the stream stops. Meanwhile, and while the
 *   network is down, the page says seats may be out of date (`liveStatus` stale).
 * - Screen readers are not flooded: changes are applied silently; one polite summary
 *   ("3 seats were taken by other passengers") is said at most every 10 s, after changes
 *   settle for 2 s, and never while the passenger is moving through the grid (`busy`). When the
 *   seat the passenger is on was among those taken, the summary says so first.
 */
import { createModel, effect, type ModelConstructor, type ReadonlySignal, signal } from '@preact/signals-core'
import { SEAT_STREAM_SILENCE_SECONDS } from '../../contract/values.ts'
import type { LiveSeat } from '../../contract/streams.ts'
import type { Opener, StreamHandle } from '../api/streams.ts'
import { every, now } from '../lib/clock.ts'
import type { Notices } from './ui.ts'
import type { SeatState } from './seat-map.ts'
import type { SeatPage } from './seat-page.ts'

/** Least time between two summaries. */
export const SUMMARY_EVERY_MS = 10_000
/** Changes are summed up this long before the summary is said. */
export const SUMMARY_SETTLE_MS = 2_000
/** No event (heartbeats included) for this long: the stream is dead though not closed. */
export const SILENCE_MS = SEAT_STREAM_SILENCE_SECONDS * 1000
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000]
/** A seat another passenger took this recently is named as just taken when chosen. */
const JUST_TAKEN_MS = 30_000

/** Whether the browser is online, and its changes. */
export interface Network {
  online(): boolean
  watch(fn: (online: boolean) => void): () => void
}

/** What the page tells the live seat map. */
export interface LiveOptions {
  /** True while the passenger is moving through the seat grid: the summary waits. */
  busy?: () => boolean
  /** The seat the passenger is on (focus in the grid), or null: the summary says when it was among those taken. */
  focused?: () => string | null
  /** The browser's network (navigator.onLine and the online/offline events, from the page). */
  network: Network
  /** Opens the stream (src/api/streams.ts openStream, which the page loads once the seat map has painted). */
  open: Opener
  /** 0 ≤ x < 1, spreads reconnects of many tabs after a server restart (Math.random by default). */
  random?: () => number
}

/** The live seat map's state and actions. */
export interface LiveFeed {
  /** The trip followed now, or null. */
  following: ReadonlySignal<number | null>
  /**
   * Follows trip `tripId`'s seats live until the returned function runs (the seat map goes) or the
   * model is disposed. Following again, this trip or another, stops the one running first.
   */
  follow(tripId: number, opts: LiveOptions): () => void
  /** Whether `name` was taken by another passenger moments ago; if so says it (visibly, once) and answers true. */
  explainUnavailable(name: string): boolean
}

/**
 * Creates the live seat map of one visit's seat page, its notices given through `ui`. The page makes it with the seat map (its
 * code loads with the seat map's, not before) and disposes it when the seat map goes.
 */
export const LiveFeedModel: ModelConstructor<LiveFeed, [SeatPage, Notices]> = createModel((page: SeatPage, ui: Notices): LiveFeed => {
  const following = signal<number | null>(null)
  /** Seats other passengers took while the trip was followed: seat → when. */
  const takenAt = signal(new Map<string, number>())
  /** Stops the stream followed now. */
  const stopping = signal<(() => void) | null>(null)

  const stop = () => {
    const s = stopping.peek()
    stopping.value = null
    s?.()
  }
  // the visit ends: the stream goes with it
  effect(() => stop)

  function follow(tripId: number, opts: LiveOptions): () => void {
    stop()
    const { network } = opts
    const busy = opts.busy ?? (() => false)
    const focused = opts.focused ?? (() => null)
    const random = opts.random ?? Math.random
    const taken = new Map<string, number>()
    // this stream's connection and summary bookkeeping (nothing on screen derives from it)
    const s = {
      handle: null as StreamHandle | null,
      stopped: false,
      opened: false,
      attempt: 0,
      lastHeard: now(),
      cancelRetry: null as (() => void) | null,
      /** Events that came while the seats were being reloaded: applied after the reload. */
      held: null as { tripId: number; seats: LiveSeat[] }[] | null,
      firstChange: 0,
      lastSummary: -Number.POSITIVE_INFINITY,
    }
    /** Each changed seat's state at the last summary. */
    const before = new Map<string, SeatState>()
    takenAt.value = taken
    following.value = tripId

    const apply = (e: { tripId: number; seats: LiveSeat[] }) => {
      if (s.held) {
        s.held.push(e)
        return
      }
      for (const c of page.applyLive(e.tripId, e.seats)) {
        if (!before.has(c.name)) before.set(c.name, c.from)
        if (c.from === 'available') taken.set(c.name, now())
        else if (c.to === 'available') taken.delete(c.name)
      }
      if (before.size > 0 && s.firstChange === 0) s.firstChange = now()
    }

    const summarise = () => {
      if (before.size === 0) return
      const t = now()
      if (t - s.firstChange < SUMMARY_SETTLE_MS || t - s.lastSummary < SUMMARY_EVERY_MS || busy()) return
      const here = focused()
      let takenCount = 0
      let freed = 0
      let hereTaken = false
      for (const [name, was] of before) {
        const is = page.seatState(name).peek()
        if (is === 'selected') continue
        if (was === 'available' && is !== 'available') {
          takenCount++
          if (name === here) hereTaken = true
        } else if (was !== 'available' && is === 'available') freed++
      }
      before.clear()
      s.firstChange = 0
      if (takenCount + freed === 0) return
      s.lastSummary = t
      page.announceOthers(takenCount, freed, hereTaken ? here : null)
    }

    const reload = async () => {
      if (s.held) return
      s.held = []
      try {
        await page.reloadSeats(tripId)
      } finally {
        const queued = s.held ?? []
        s.held = null
        if (!s.stopped) for (const e of queued) apply(e)
      }
      // the operator cancelled the trip: the page says so, nothing more to follow
      if (page.tripCanceled.peek()) off()
    }

    const close = () => {
      s.handle?.close()
      s.handle = null
    }

    const retry = () => {
      close()
      s.cancelRetry?.()
      s.cancelRetry = null
      if (s.stopped) return
      if (!network.online()) return
      const base = BACKOFF_MS[Math.min(s.attempt, BACKOFF_MS.length - 1)]!
      s.attempt++
      s.cancelRetry = after(Math.round(base * (0.8 + 0.4 * random())), connect)
    }

    const lost = () => {
      if (s.stopped) return
      page.setLiveStatus('stale')
      retry()
    }

    function connect(): void {
      s.cancelRetry = null
      if (s.stopped) return
      const reconnect = s.opened
      s.lastHeard = now()
      s.handle = opts.open(
        'seatEvents',
        { tripId },
        {
          open() {
            s.attempt = 0
            s.lastHeard = now()
            s.opened = true
            page.setLiveStatus('live')
            // missed while away: the seats are read again once
            if (reconnect) void reload()
          },
          event(name, data) {
            s.lastHeard = now()
            if (name === 'snapshot' || name === 'seats') apply(data as { tripId: number; seats: LiveSeat[] })
            else if (name === 'trip') {
              // the trip changed (times, fares, layout) or is gone: the page shows what the server says now
              if ((data as { change: string }).change === 'gone') off()
              void reload()
            }
          },
          error(refused) {
            // refused before it ever opened: this server has no live seat map: the page checks seats when chosen
            if (refused && !s.opened) return off()
            lost()
          },
        },
      )
      if (!s.handle) off()
    }

    /** Nothing live from here on (no route, no EventSource, the trip is gone): no note, no retries. */
    function off(): void {
      close()
      s.stopped = true
      page.setLiveStatus('off')
    }

    const stopWatch = network.watch((online) => {
      if (s.stopped) return
      if (!online) {
        s.cancelRetry?.()
        s.cancelRetry = null
        close()
        page.setLiveStatus('stale')
        return
      }
      if (!s.handle) {
        s.attempt = 0
        s.cancelRetry?.()
        connect()
      }
    })
    // a summary waiting for its time, and a stream that went silent
    const stopTicks = every(1_000, () => {
      summarise()
      if (s.handle && s.opened && now() - s.lastHeard > SILENCE_MS) lost()
    })

    page.setLiveStatus(network.online() ? 'connecting' : 'stale')
    if (network.online()) connect()

    const dispose = () => {
      if (stopping.peek() === dispose) stopping.value = null
      s.stopped = true
      close()
      s.cancelRetry?.()
      stopWatch()
      stopTicks()
      if (takenAt.peek() === taken) takenAt.value = new Map()
      if (following.peek() === tripId) following.value = null
      page.setLiveStatus('off')
    }
    stopping.value = dispose
    return dispose
  }

  return {
    following,
    follow,
    explainUnavailable(name) {
      const at = takenAt.peek().get(name)
      if (at === undefined || now() - at >= JUST_TAKEN_MS) return false
      // said visibly, once; choosing it again says its state in the live region
      takenAt.peek().delete(name)
      ui.toastInfo({ id: 'seatChoice.takenJustNow', values: { name } })
      return true
    },
  }
})

/** Runs `fn` once after `ms` on the store clock; answers the function that cancels it. */
function after(ms: number, fn: () => void): () => void {
  const stop = every(ms, () => {
    stop()
    fn()
  })
  return stop
}
