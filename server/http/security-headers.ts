/**
 * The security headers of every answer (Helmet's: CSP, framing, sniffing, referrer, ...), worked out
 * once at start. @fastify/helmet built Helmet's middleware again for every request (parsing the CSP
 * directives each time: about 5 % of a server's CPU in the Eid sale bench); the headers never differ
 * between requests here, so they are computed with Helmet itself and set from a table.
 */
import type { FastifyInstance } from 'fastify'
import helmet, { type HelmetOptions } from 'helmet'

/** The headers Helmet's middleware sets with `options`, as name → value. */
export function securityHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {}
  const res = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value)
    },
    removeHeader() {},
  }
  helmet(options)({} as never, res as never, (err?: unknown) => {
    if (err) throw err
  })
  return headers
}

/** Sets `securityHeaders(options)` on every answer (a route may still set its own, e.g. a stricter CSP). */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = securityHeaders(options)
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers)
    done()
  })
}
