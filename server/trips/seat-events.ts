/**
 * The live seat map's source: which seats of a watched trip changed, in this process, whoever
 * changed them in whichever process.
 *
 * Every write that can change a seat map notifies `seat_events` from a trigger (db/functions/notify_seat_change.sql)
 * with the trip id and the writer's transaction id; PostgreSQL delivers it at commit to every
 * listening process (PGlite to this one), never for a rollback. A process that has watchers of
 * that trip reads the trip's seat states again (one `seat_states` call) and tells its watchers
 * the seats whose state or expiry differs from what it told them last. So events are always the
 * database's committed state, a notification that changed nothing sends nothing, and a burst of
 * writes costs one read per `batchMs` per trip and process, however many watchers it has.
 *
 * Holds and unpaid bookings also end by time, with no write to notify: after each read the trip
 * is read again just after its earliest expiry, so their end is sent like any other change
 * (within about `batchMs`); the expiry also travels in each event.
 */
import type { LiveSeat, LiveSeatState } from '../../contract/streams.ts'
import type { Db } from '../db/db.ts'
import { toDhakaIso } from '../lib/time.ts'

/** The notification channel the triggers of db/functions/notify_seat_change.sql notify. */
export const SEAT_EVENTS_CHANNEL = 'seat_events'

/** What a watcher of a trip is told. */
export type SeatFeedEvent = { type: 'seats'; seats: LiveSeat[] } | { type: 'trip'; change: 'changed' | 'gone' }

/** Watching trips' seats in this process. */
export interface SeatFeed {
  /**
   * Starts telling `fn` what changes on the trip; answers its seats now and the function that
   * stops, or null when there is no such trip.
   */
  watch(tripId: number, fn: (e: SeatFeedEvent) => void): Promise<{ seats: LiveSeat[]; stop: () => void } | null>
  /** Watchers in this process now. */
  readonly watchers: number
  /** Stops listening and forgets every watcher (they are told nothing more). */
  close(): Promise<void>
}

export interface SeatFeedOptions {
  /** Least time between two reads of one trip (a burst of writes is folded into one event). Default 50 ms. */
  batchMs?: number
  /** Where read failures are reported. */
  log?: (msg: string) => void
}

interface SeatRow {
  seat: LiveSeat
  /** Epoch ms the state ends by itself, or null. */
  ends: number | null
}

interface Watched {
  fns: Set<(e: SeatFeedEvent) => void>
  seats: Map<string, SeatRow>
  /** A digest of the trip row: a change to it (times, fares, layout, status) is a `trip` event. */
  trip: string | null
  /** The first read: false when the trip does not exist. */
  ready: Promise<boolean>
  reading: boolean
  /** A notification came while reading: read again when done. */
  again: boolean
  /** performance.now() of the last read's start. */
  lastRead: number
  batchTimer?: NodeJS.Timeout
  expiryTimer?: NodeJS.Timeout
}

/** A timer's longest delay (Node clamps longer ones to 1 ms). */
const MAX_DELAY = 2 ** 31 - 1
/** Read just after an expiry, so `expires_at > now` is false by then. */
const AFTER_EXPIRY_MS = 25
const RETRY_MS = 1000

/** Creates the feed on `db`, reading seat states as of `now()`. It listens on the first watch. */
export function createSeatFeed(db: Db, now: () => Date, opts: SeatFeedOptions = {}): SeatFeed {
  const batchMs = opts.batchMs ?? 50
  const log = opts.log ?? ((msg: string) => console.error(msg))
  const watched = new Map<number, Watched>()
  let listening: Promise<() => Promise<void>> | null = null
  let closed = false

  const read = async (tripId: number): Promise<{ trip: string; seats: SeatRow[] } | null> => {
    const rows = await db.query<{ trip: string; name: string | null; state: LiveSeatState; expires_at: Date | null }>(
      `SELECT md5(t::text) AS trip, s.name, s.state, s.expires_at
         FROM trips t LEFT JOIN LATERAL seat_states(t.layout_id, t.id, $2) s ON true
        WHERE t.id = $1`,
      [tripId, now()],
    )
    if (rows.length === 0) return null
    const seats = rows
      .filter((r) => r.name !== null)
      .map((r) => ({
        seat: { name: r.name!, state: r.state, expiresAt: r.expires_at ? toDhakaIso(r.expires_at) : null },
        ends: r.expires_at ? r.expires_at.getTime() : null,
      }))
    return { trip: rows[0]!.trip, seats }
  }

  const tell = (w: Watched, e: SeatFeedEvent) => {
    for (const fn of [...w.fns]) {
      try {
        fn(e)
      } catch (err) {
        log(`[seat-events] a watcher failed: ${(err as Error).message}`)
      }
    }
  }

  const forget = (tripId: number, w: Watched) => {
    clearTimeout(w.batchTimer)
    clearTimeout(w.expiryTimer)
    if (watched.get(tripId) === w) watched.delete(tripId)
  }

  /** Takes in a read: tells the watchers what changed and plans the read after the next expiry. */
  const apply = (tripId: number, w: Watched, r: Awaited<ReturnType<typeof read>>) => {
    const first = w.trip === null
    if (!r) {
      forget(tripId, w)
      if (!first) tell(w, { type: 'trip', change: 'gone' })
      return
    }
    const changed: LiveSeat[] = []
    const next = new Map<string, SeatRow>()
    let earliest = Infinity
    const at = now().getTime()
    for (const row of r.seats) {
      next.set(row.seat.name, row)
      const prev = w.seats.get(row.seat.name)
      if (!prev || prev.seat.state !== row.seat.state || prev.seat.expiresAt !== row.seat.expiresAt) changed.push(row.seat)
      if (row.ends !== null && row.ends > at) earliest = Math.min(earliest, row.ends)
    }
    const tripChanged = !first && w.trip !== r.trip
    w.trip = r.trip
    w.seats = next
    clearTimeout(w.expiryTimer)
    if (earliest !== Infinity) {
      w.expiryTimer = setTimeout(() => kick(tripId), Math.min(MAX_DELAY, earliest - at + AFTER_EXPIRY_MS))
      w.expiryTimer.unref()
    }
    if (first) return
    if (tripChanged) tell(w, { type: 'trip', change: 'changed' })
    if (changed.length > 0) tell(w, { type: 'seats', seats: changed })
  }

  const refresh = async (tripId: number, w: Watched): Promise<boolean> => {
    w.reading = true
    w.again = false
    w.lastRead = performance.now()
    try {
      const r = await read(tripId)
      if (watched.get(tripId) !== w) return false
      apply(tripId, w, r)
      return r !== null
    } catch (err) {
      // the first read answers the watch: its failure is the watch's
      if (w.trip === null) {
        forget(tripId, w)
        throw err
      }
      if (watched.get(tripId) !== w || closed) return false
      log(`[seat-events] reading trip ${tripId} failed: ${(err as Error).message}`)
      // the database is back soon or the watchers time out; either way, try again
      w.again = true
      w.lastRead = performance.now() + RETRY_MS - batchMs
      return true
    } finally {
      w.reading = false
      if (w.again && watched.get(tripId) === w) kick(tripId)
    }
  }

  /** A trip's seats may have changed: read them again, at most once per batchMs. */
  function kick(tripId: number): void {
    const w = watched.get(tripId)
    if (!w) return
    if (w.reading) {
      w.again = true
      return
    }
    if (w.batchTimer) return
    const wait = Math.max(0, w.lastRead + batchMs - performance.now())
    w.batchTimer = setTimeout(() => {
      w.batchTimer = undefined
      void refresh(tripId, w).catch(() => undefined)
    }, wait)
    w.batchTimer.unref()
  }

  const onNotify = (payload: string) => {
    const tripId = Number.parseInt(payload, 10)
    if (watched.has(tripId)) kick(tripId)
  }
  // notifications were missed while the listening connection was down
  const onGap = () => {
    for (const tripId of watched.keys()) kick(tripId)
  }
  const listen = () => {
    listening ??= db.listen(SEAT_EVENTS_CHANNEL, onNotify, onGap).catch((err: unknown) => {
      listening = null
      throw err
    })
    return listening
  }

  return {
    async watch(tripId, fn) {
      if (closed) throw new Error('the seat feed is closed')
      // listening first: a write committed after the first read below is then never missed
      await listen()
      let w = watched.get(tripId)
      if (!w) {
        const created: Watched = {
          fns: new Set(),
          seats: new Map(),
          trip: null,
          ready: Promise.resolve(false),
          reading: false,
          again: false,
          lastRead: -Infinity,
        }
        watched.set(tripId, created)
        created.ready = refresh(tripId, created)
        w = created
      }
      const mine = w
      mine.fns.add(fn)
      const stop = () => {
        if (mine.fns.delete(fn) && mine.fns.size === 0) forget(tripId, mine)
      }
      let found: boolean
      try {
        found = await mine.ready
      } catch (err) {
        stop()
        throw err
      }
      if (!found || watched.get(tripId) !== mine) {
        stop()
        return null
      }
      return { seats: [...mine.seats.values()].map((r) => r.seat), stop }
    },
    get watchers() {
      let n = 0
      for (const w of watched.values()) n += w.fns.size
      return n
    },
    async close() {
      closed = true
      for (const [tripId, w] of watched) forget(tripId, w)
      const stop = await listening?.catch(() => null)
      listening = null
      await stop?.()
    },
  }
}
