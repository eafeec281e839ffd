/**
 * A Server-Sent Events client for tests and the benchmark: opens a stream with a plain HTTP
 * GET, parses its events (event name, JSON data, the time each arrived) and waits for one.
 *
 *   const s = await openEvents(`${base}/api/reservation/seatEvents/${tripId}`)
 *   s.status, s.headers
 *   const e = await s.next((e) => e.event === 'seats')   // rejects after 5 s
 *   s.close()
 */
import http from 'node:http'

/** One event as it arrived: `data` parsed as JSON, `at` from performance.now(). */
export interface SseEvent {
  event: string
  data: any
  at: number
}

export interface EventStream {
  status: number
  headers: http.IncomingHttpHeaders
  /** Every event so far, in order. */
  events: SseEvent[]
  /** The body when the answer is not a stream (an error as JSON). */
  body(): Promise<string>
  /** The first event after the `from`th (default: the ones not yet taken by `next`) that `match` accepts. */
  next(match?: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>
  /** Resolves when the server ends the stream. */
  ended: Promise<void>
  /** Called with each event as it arrives (the benchmark's timing). */
  onEvent?: (e: SseEvent) => void
  close(): void
}

/** Opens `url` (from `opts.localAddress` when given) and resolves once the response headers are in. */
export function openEvents(url: string, headers: Record<string, string> = {}, opts: { localAddress?: string } = {}): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers }, ...opts }, (res) => {
      res.setEncoding('utf8')
      let raw = ''
      let taken = 0
      const waiters = new Set<() => void>()
      let endedResolve!: () => void
      const ended = new Promise<void>((r) => (endedResolve = r))
      const stream: EventStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        body: () => ended.then(() => raw),
        ended,
        next(match = () => true, timeoutMs = 5000) {
          return new Promise((ok, fail) => {
            const check = () => {
              for (let i = taken; i < stream.events.length; i++) {
                if (match(stream.events[i]!)) {
                  taken = i + 1
                  waiters.delete(check)
                  clearTimeout(timer)
                  ok(stream.events[i]!)
                  return
                }
              }
            }
            const timer = setTimeout(() => {
              waiters.delete(check)
              fail(new Error(`no matching event in ${timeoutMs} ms; got ${JSON.stringify(stream.events.slice(taken).map((e) => e.event))}`))
            }, timeoutMs)
            waiters.add(check)
            check()
          })
        },
        close() {
          req.destroy()
        },
      }
      const feed = sseParser((event, data) => {
        const e: SseEvent = { event, data: JSON.parse(data), at: performance.now() }
        stream.events.push(e)
        stream.onEvent?.(e)
        for (const w of [...waiters]) w()
      })
      res.on('data', (chunk: string) => {
        raw += chunk
        feed(chunk)
      })
      res.on('end', endedResolve)
      res.on('close', endedResolve)
      res.on('error', endedResolve)
      resolve(stream)
    })
    req.on('error', reject)
  })
}

/**
 * Splits a text/event-stream into its events: answers the function to feed each text chunk to;
 * `fn` gets each event's name and its data lines joined (events without data are skipped).
 */
export function sseParser(fn: (event: string, data: string) => void): (chunk: string) => void {
  let buf = ''
  return (chunk) => {
    buf += chunk
    for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
      const block = buf.slice(0, i)
      buf = buf.slice(i + 2)
      let event = 'message'
      const data: string[] = []
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7)
        else if (line.startsWith('data: ')) data.push(line.slice(6))
      }
      if (data.length > 0) fn(event, data.join('\n'))
    }
  }
}
