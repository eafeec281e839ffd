/**
 * The live seat map: GET /api/reservation/seatEvents/:tripId, a Server-Sent Events stream
 * (contract/streams.ts) of the trip's seat changes, fed by seat-events.ts. Not a JSON route:
 * `handle()` answers `{ data }`, so the parameter check and the trip's checks are done here,
 * and a refusal is the catalogue error as JSON like everywhere else.
 */
import { PassThrough } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { Gauge, type Registry } from 'prom-client'
import { streams, type EventNameOf, type EventOf } from '../../contract/streams.ts'
import { AppError, type Deps } from '../core.ts'
import { pathId } from '../http/handle.ts'
import { addressKey } from '../http/limits.ts'
import { createSeatFeed, type SeatFeed } from '../trips/seat-events.ts'
import { createStreamSlots } from '../trips/stream-slots.ts'
import { toDhakaIso } from '../lib/time.ts'
import { assertOnSale, findTrip } from '../trips/trips.ts'

/** Bytes a stream may have waiting for a client that does not read before it is dropped (the app reconnects and reloads). */
const MAX_BUFFERED = 64 * 1024

/** Registers the seat-events stream; streams end when the app closes (a restart: the app reconnects). */
export function register(app: FastifyInstance, deps: Deps): void {
  const feed = createSeatFeed(deps.db, deps.now)
  // one address's open streams, counted in the database across processes (SEAT_STREAMS_PER_ADDRESS)
  const slots = createStreamSlots(deps.db, {
    max: deps.config.seatStreamsPerAddress,
    renewMs: deps.config.seatStreamHeartbeatMs,
    now: deps.now,
    refused: () => deps.metrics.refused('seat-streams-per-address'),
  })
  const open = new Set<() => void>()
  // open streams would hold the server's close until their clients leave
  app.addHook('preClose', async () => {
    for (const end of [...open]) end()
  })
  app.addHook('onClose', async () => {
    await slots.close()
    await feed.close()
  })
  countStreams(deps.metrics.registry, feed)

  app.route({
    method: 'GET',
    url: `/api${streams.seatEvents.path}`,
    // compression would hold events back until a block fills
    compress: false,
    handler: async (req, reply) => {
      const tripId = pathId((req.params as { tripId?: string }).tripId, 'tripId')
      const trip = await findTrip(deps.db, tripId)
      if (!trip) throw new AppError('TRIP_NOT_FOUND')
      assertOnSale(trip, deps.now())
      if (feed.watchers >= deps.config.seatStreamsMax) {
        throw new AppError('TOO_MANY_REQUESTS', {
          status: 503,
          reason: 'Too many live seat maps are open on this server. Seats still work without it.',
          retryAfterSeconds: 30,
        })
      }

      const slot = await slots.take(addressKey(req.ip, deps.config.ipv6ClientPrefix), tripId)
      const out = new PassThrough()
      let ended = false
      let started = false
      const early: string[] = []
      let stop = () => {}
      let beat: NodeJS.Timeout | undefined
      const end = () => {
        if (ended) return
        ended = true
        stop()
        clearInterval(beat)
        open.delete(end)
        void slot.release()
        out.end()
      }
      const send = <E extends EventNameOf<'seatEvents'>>(event: E, data: EventOf<'seatEvents', E>) => {
        if (ended) return
        const text = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
        if (!started) {
          early.push(text)
          return
        }
        // a client that does not read: dropped rather than buffered without end
        if (out.writableLength + reply.raw.writableLength > MAX_BUFFERED) return end()
        out.write(text)
      }
      const watch = await feed
        .watch(tripId, (e) => {
          if (e.type === 'seats') return send('seats', { tripId, seats: e.seats })
          send('trip', { tripId, change: e.change })
          if (e.change === 'gone') end()
        })
        .catch(async (err: unknown) => {
          await slot.release()
          throw err
        })
      if (!watch) {
        await slot.release()
        throw new AppError('TRIP_NOT_FOUND')
      }
      stop = watch.stop
      open.add(end)
      reply.raw.on('close', end)
      // the client may have left while the trip was being read
      if (req.raw.socket?.destroyed) end()
      beat = setInterval(() => send('ping', { at: toDhakaIso(deps.now()) }), deps.config.seatStreamHeartbeatMs)
      beat.unref()
      if (!ended) {
        // the first event is every seat now; changes seen meanwhile follow it
        out.write(`event: snapshot\ndata: ${JSON.stringify({ tripId, seats: watch.seats })}\n\n`)
        started = true
        for (const text of early.splice(0)) out.write(text)
      }
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        // nginx: pass each event on at once instead of buffering the response
        .header('x-accel-buffering', 'no')
      return reply.send(out)
    },
  })
}

/** `seat_event_streams`: the live seat maps this process keeps open (read at each scrape). */
function countStreams(registry: Registry, feed: SeatFeed): void {
  const name = 'seat_event_streams'
  registry.removeSingleMetric(name)
  new Gauge({
    name,
    help: 'Live seat-map streams (GET /api/reservation/seatEvents/:tripId) open in this process',
    registers: [registry],
    collect() {
      this.set(feed.watchers)
    },
  })
}
