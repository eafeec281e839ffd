/**
 * The event streams of contract/streams.ts: `openStream('seatEvents', { tripId }, handlers)` opens an
 * EventSource under the API base (which may be another origin) and hands over each event's data
 * once its schema accepts it (anything else is dropped). The caller decides about reconnecting:
 * on any error the EventSource is closed, never left to retry on its own. Tests answer with
 * `fakeStreams()`.
 */
import { streams, type EventNameOf, type EventOf, type StreamName } from '../../contract/streams.ts'
import { apiBaseUrl } from './index.ts'

/** What a stream tells its opener. */
export interface StreamHandlers<S extends StreamName> {
  /** The server accepted the stream. */
  open(): void
  /** One event, its data checked. */
  event<E extends EventNameOf<S>>(name: E, data: EventOf<S, E>): void
  /**
   * The stream is gone. `refused`: the server answered something other than a stream (an error
   * status such as 404 from a server without this route, 429, 503); otherwise the connection failed or dropped.
   */
  error(refused: boolean): void
}

/** An open stream. */
export interface StreamHandle {
  close(): void
}

/** Opens a stream: `openStream`, or a stand-in. */
export type Opener = <S extends StreamName>(name: S, params: Record<string, string | number>, handlers: StreamHandlers<S>) => StreamHandle | null

const real: Opener = (name, params, handlers) => {
  const Source = globalThis.EventSource
  if (!Source) return null
  const def = streams[name]
  const url = apiBaseUrl() + def.path.replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(String(params[k])))
  const source = new Source(url)
  source.onopen = () => handlers.open()
  source.onerror = () => {
    // CLOSED: the answer was no event stream (the browser gives up on it); CONNECTING: the network
    const refused = source.readyState === Source.CLOSED
    source.close()
    handlers.error(refused)
  }
  for (const [event, schema] of Object.entries(def.events)) {
    source.addEventListener(event, (e) => {
      let data: unknown
      try {
        data = JSON.parse((e as MessageEvent<string>).data)
      } catch {
        return
      }
      const checked = schema.safeParse(data)
      if (checked.success) handlers.event(event as never, checked.data as never)
    })
  }
  return { close: () => source.close() }
}

let opener: Opener = real

/**
 * Opens stream `name` (path parameters in `params`); answers its handle, or null when this
 * browser has no EventSource.
 */
export const openStream: Opener = (name, params, handlers) => opener(name, params, handlers)

/** A stream a test opened through `fakeStreams`: its name, parameters and handlers, to play the server. */
export interface FakeStream {
  name: StreamName
  params: Record<string, string | number>
  handlers: StreamHandlers<StreamName>
  closed: boolean
}

/**
 * Replaces the EventSource with a recorder (tests): each `openStream` is answered with a stream
 * the test drives through its handlers; `unsupported` plays a browser without EventSource.
 * Answers the streams opened, in order.
 */
export function fakeStreams(opts: { unsupported?: boolean } = {}): FakeStream[] {
  const opened: FakeStream[] = []
  opener = (name, params, handlers) => {
    if (opts.unsupported) return null
    const s: FakeStream = { name, params, handlers: handlers as unknown as StreamHandlers<StreamName>, closed: false }
    opened.push(s)
    return {
      close: () => {
        s.closed = true
      },
    }
  }
  return opened
}
