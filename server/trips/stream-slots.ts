/**
 * Live seat-map streams per client address, counted in the database (`seat_streams`) so the
 * limit holds however many server processes share it: a stream takes a slot before it opens
 * and gives it back when it ends. Slots of a process that died are not counted for ever:
 * each slot has a lease the process renews while the stream is open (every `renewMs`), and a
 * slot whose lease ran out is not counted and is deleted by the next process to look.
 *
 * Taking a slot counts and inserts in one transaction under an advisory lock on the address,
 * so simultaneous requests on any process are counted one after the other: exactly `max`
 * pass, never more. An address already at its limit is refused by one read before that.
 */
import type { Db } from '../db/db.ts'
import { AppError } from '../core.ts'
import { addTime } from '../lib/time.ts'

/** A taken slot: `release()` gives it back (once; later calls do nothing). */
export interface StreamSlot {
  release(): Promise<void>
}

export interface StreamSlots {
  /** Takes a slot for `address` on `tripId`, or throws 429 TOO_MANY_REQUESTS when it has `max` open. */
  take(address: string, tripId: number): Promise<StreamSlot>
  /** Slots this process holds now. */
  readonly held: number
  /** Gives back every slot still held and stops renewing (the server closes). */
  close(): Promise<void>
}

export interface StreamSlotOptions {
  /** Streams one address may have open on all processes (SEAT_STREAMS_PER_ADDRESS). */
  max: number
  /** How often the leases of open slots are renewed (the stream heartbeat); a lease lasts three of these. */
  renewMs: number
  now: () => Date
  /** Told of every refusal (metrics). */
  refused?: () => void
  /** Where a failed renewal or release is reported. */
  log?: (msg: string) => void
}

/** What a refusal tells the app: the catalogue's code and reason; it may try again in this many seconds. */
export const SLOT_RETRY_SECONDS = 30

export function createStreamSlots(db: Db, opts: StreamSlotOptions): StreamSlots {
  const log = opts.log ?? ((msg: string) => console.error(msg))
  const leaseMs = opts.renewMs * 3
  const held = new Set<number>()
  const releasing = new Set<Promise<void>>()

  const renew = async () => {
    if (held.size === 0) return
    const now = opts.now()
    await db.query('UPDATE seat_streams SET lease_until = $1 WHERE id = ANY($2::bigint[])', [addTime(now, { milliseconds: leaseMs }), [...held]])
    await db.query('DELETE FROM seat_streams WHERE lease_until < $1', [now])
  }
  const timer = setInterval(() => {
    renew().catch((err: Error) => log(`[seat streams] renewing leases: ${err.message}`))
  }, opts.renewMs)
  timer.unref()

  const give = (id: number): Promise<void> => {
    if (!held.delete(id)) return Promise.resolve()
    const p = db
      .query('DELETE FROM seat_streams WHERE id = $1', [id])
      .then(
        () => undefined,
        (err: Error) => log(`[seat streams] releasing a slot: ${err.message}`),
      )
      .finally(() => releasing.delete(p))
    releasing.add(p)
    return p
  }

  return {
    async take(address, tripId) {
      const now = opts.now()
      // an address already at its limit (a crowd behind a carrier's address) is refused with one read, no transaction or lock
      const [live] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM seat_streams WHERE address = $1 AND lease_until > $2', [
        address,
        now,
      ])
      const id =
        live!.n >= opts.max
          ? null
          : await db.transaction(async (tx) => {
              await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', ['seat-streams', address])
              await tx.query('DELETE FROM seat_streams WHERE address = $1 AND lease_until <= $2', [address, now])
              const [open] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM seat_streams WHERE address = $1', [address])
              if (open!.n >= opts.max) return null
              const [row] = await tx.query<{ id: string | number }>(
                'INSERT INTO seat_streams (address, trip_id, opened_at, lease_until) VALUES ($1, $2, $3, $4) RETURNING id',
                [address, tripId, now, addTime(now, { milliseconds: leaseMs })],
              )
              return Number(row!.id)
            })
      if (id === null) {
        opts.refused?.()
        throw new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: SLOT_RETRY_SECONDS })
      }
      held.add(id)
      return { release: () => give(id) }
    },
    get held() {
      return held.size
    },
    async close() {
      clearInterval(timer)
      await Promise.all([...held].map(give))
      await Promise.all([...releasing])
    },
  }
}
