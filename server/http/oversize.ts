/**
 * Oversize request bodies: the rest of the body is read and dropped before the 413 is
 * sent, so the answer arrives whole and the connection stays open. A server that answers
 * and closes while the client (a reverse proxy) is still sending makes the proxy's send or
 * read fail: nginx then answers 502 instead of the 413 and counts the backend as failed
 * (`max_fails`), taking it out for every other visitor.
 */
import type { IncomingMessage } from 'node:http'

/** Bytes of an oversize body read and dropped before answering 413: nginx's default `client_max_body_size` (1m). */
export const OVERSIZE_DRAIN_BYTES = 1024 * 1024

/** How long the rest of an oversize body may take to arrive. */
export const OVERSIZE_DRAIN_MS = 10_000

/**
 * Reads and drops what is left of `req`'s body; answers true when it ended within
 * `maxBytes` and `timeoutMs` (the connection may then stay open), false when it is
 * larger, slower, or broke off (the connection must close after the answer).
 */
export function drainBody(req: IncomingMessage, maxBytes = OVERSIZE_DRAIN_BYTES, timeoutMs = OVERSIZE_DRAIN_MS): Promise<boolean> {
  if (req.complete || req.readableEnded) return Promise.resolve(true)
  if (req.destroyed) return Promise.resolve(false)
  const declared = Number(req.headers['content-length'])
  if (declared > maxBytes) return Promise.resolve(false)
  return new Promise((resolve) => {
    let seen = 0
    const finish = (whole: boolean) => {
      clearTimeout(timer)
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onFail)
      req.off('close', onClose)
      resolve(whole)
    }
    const onData = (chunk: Buffer) => {
      seen += chunk.length
      if (seen > maxBytes) finish(false)
    }
    const onEnd = () => finish(true)
    const onFail = () => finish(false)
    const onClose = () => finish(req.complete)
    const timer = setTimeout(() => finish(false), timeoutMs)
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onFail)
    req.on('close', onClose)
    req.resume()
  })
}
