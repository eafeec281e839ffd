/**
 * Cross-origin calls to /api from a web app served on another origin (a CDN or
 * static host, docs/deploying-the-app.md): only the origins in
 * CORS_ORIGINS, only the methods of the route table and the headers the app
 * sends. The app's credential is a bearer header, never a cookie, so
 * `Access-Control-Allow-Credentials` is never sent.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { api } from '../../contract/api.ts'
import { QUEUE_TOKEN_HEADER } from '../../contract/values.ts'
import { AppError } from '../core.ts'
import { sendError } from './handle.ts'

/** Every method the route table uses. */
export const CORS_METHODS = [...new Set(Object.values(api).map((r) => r.method))]
/** The request headers the app sends (src/api/client.ts). */
export const CORS_HEADERS = ['Authorization', 'X-Device-Id', QUEUE_TOKEN_HEADER, 'Content-Type', 'Accept', 'Accept-Language']
/** How long a browser may reuse a preflight answer (Chromium keeps one at most 2 hours). */
export const CORS_MAX_AGE_SECONDS = 7200

const allowedHeaders = new Set(CORS_HEADERS.map((h) => h.toLowerCase()))

/**
 * Sets a header on the reply and on the raw response: a route that writes the
 * raw response itself (an event stream) still carries it.
 */
function both(reply: FastifyReply, name: string, value: string): void {
  reply.header(name, value)
  reply.raw.setHeader(name, value)
}

/** Why a preflight is refused, or null when it may go ahead. */
function refusal(origin: string | undefined, allowed: ReadonlySet<string>, method: string, headers: string): string | null {
  if (!origin || !allowed.has(origin)) return `The origin ${origin ?? '(none)'} may not call this API (CORS_ORIGINS).`
  if (!(CORS_METHODS as string[]).includes(method)) return `The method ${method} is not allowed.`
  const unknown = headers
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .find((h) => h && !allowedHeaders.has(h))
  return unknown ? `The header ${unknown} is not allowed.` : null
}

const isApi = (url: string) => /^\/api(\/|\?|$)/.test(url)

/**
 * Adds `Vary: Origin` to an /api answer, and allows a listed origin to read it.
 * For the answers no hook sees (a malformed URL is refused before any hook runs).
 */
export function addCorsHeaders(req: FastifyRequest, reply: FastifyReply, origins: readonly string[]): void {
  if (origins.length === 0 || !isApi(req.url)) return
  // the answer differs by Origin: a shared cache must not hand one origin's answer to another
  both(reply, 'vary', 'Origin')
  const origin = req.headers.origin
  if (origin && origins.includes(origin)) both(reply, 'access-control-allow-origin', origin)
}

/** Answers preflights and adds the CORS headers to every /api answer for the origins in `origins`. */
export function registerCors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return
  const allowed = new Set(origins)
  app.addHook('onRequest', async (req, reply) => {
    if (!isApi(req.url)) return
    const requested = req.headers['access-control-request-method']
    if (req.method !== 'OPTIONS' || typeof requested !== 'string') return addCorsHeaders(req, reply, origins)
    const origin = req.headers.origin
    reply.header('vary', 'Origin')
    const why = refusal(origin, allowed, requested.toUpperCase(), String(req.headers['access-control-request-headers'] ?? ''))
    if (why) return sendError(reply, new AppError('PERMISSION_DENIED', { reason: why }))
    return reply
      .code(204)
      .header('access-control-allow-origin', origin!)
      .header('access-control-allow-methods', CORS_METHODS.join(', '))
      .header('access-control-allow-headers', CORS_HEADERS.join(', '))
      .header('access-control-max-age', String(CORS_MAX_AGE_SECONDS))
      .send()
  })
}
