/**
 * Server-Sent Event streams under the API base: an addition to docs/spec.md section 7, kept
 * apart from the JSON `{ data }` routes of api.ts (and from the fuzz test that sends those).
 * A stream is opened with GET (`text/event-stream`); a request it refuses (bad parameter,
 * unknown trip, too many streams) answers the catalogue error as JSON instead. Each event's
 * `data` is one JSON value, its schema below under the event's name.
 */
import * as z from 'zod/mini'
import { id, instant } from './scalars.ts'

/** What a seat is to everyone but its holder: the holder is never sent. */
export const liveSeatStates = ['available', 'held', 'booked', 'sold'] as const

/** One seat's state now, and when a hold or an unpaid booking ends by itself (null: it does not). */
export const liveSeat = z.object({ name: z.string(), state: z.enum(liveSeatStates), expiresAt: z.nullable(instant) })

export const seatEventsData = {
  /** First event of every connection: every seat of the trip (the OPEN placeholder is no seat). */
  snapshot: z.object({ tripId: id, seats: z.array(liveSeat) }),
  /** The seats that changed since the last event (a hold, its release or expiry, a booking, a sale, a cancellation). */
  seats: z.object({ tripId: id, seats: z.array(liveSeat) }),
  /** The trip itself changed (times, fares, layout, status) or is gone: reload it. The stream ends after `gone`. */
  trip: z.object({ tripId: id, change: z.enum(['changed', 'gone']) }),
  /** Sent every heartbeat interval (default 15 s) so that proxies keep the stream open and the app knows it is alive. */
  ping: z.object({ at: instant }),
}

export const streams = {
  /** The live seat map of one trip: `seats` whenever a seat's state changes, from any server process. */
  seatEvents: { path: '/reservation/seatEvents/:tripId', events: seatEventsData },
} as const

export type StreamName = keyof typeof streams
export type LiveSeat = z.infer<typeof liveSeat>
export type LiveSeatState = (typeof liveSeatStates)[number]
/** The event names of a stream. */
export type EventNameOf<S extends StreamName> = keyof (typeof streams)[S]['events'] & string
/** The `data` of one event of a stream. */
export type EventOf<S extends StreamName, E extends EventNameOf<S>> = z.infer<(typeof streams)[S]['events'][E]>
