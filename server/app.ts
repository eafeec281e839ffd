/**
 * The HTTP application: security headers, compression, rate limits, CORS for
 * the app's origins when it is served elsewhere (server/http/cors.ts), the /api
 * routes, the development outbox, the built front end with its SPA fallback,
 * and one error format (`{ error: { code, reason, fields? } }`) for everything.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify'
import compress from '@fastify/compress'
import rateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import { api, type RouteName } from '../contract/api.ts'
import type { TrustProxy } from './config.ts'
import { IMMUTABLE, registerAssets } from './http/assets.ts'
import { addCorsHeaders, registerCors } from './http/cors.ts'
import { AppError, type Deps } from './core.ts'
import { sendError } from './http/handle.ts'
import { addressKey, onRefusal, take, type Limit } from './http/limits.ts'
import { registerOperations, type ReadinessChecks } from './http/operations.ts'
import { drainBody } from './http/oversize.ts'
import { redactUrl } from './http/redact.ts'
import { registerSecurityHeaders } from './http/security-headers.ts'
import { registerDevOutbox } from './delivery/outbox.ts'
import * as auth from './routes/auth.ts'
import * as bookings from './routes/bookings.ts'
import * as contact from './routes/contact.ts'
import * as coupons from './routes/coupons.ts'
import * as lookups from './routes/lookups.ts'
import * as payments from './routes/payments.ts'
import * as profile from './routes/profile.ts'
import * as queue from './routes/queue.ts'
import * as seatEvents from './routes/seat-events.ts'
import * as seatLocks from './routes/seat-locks.ts'
import * as tickets from './routes/tickets.ts'
import * as trips from './routes/trips.ts'
import * as waitlist from './routes/waitlist.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export interface AppOptions {
  /** Folder of the built front end (default `dist/` at the repository root). */
  distDir?: string
  /** Requests per minute per client address on every route (env RATE_LIMIT_MAX, default 60000). */
  rateLimitMax?: number
  /** Requests per minute per client address on each sign-in / one-time-code route (env AUTH_RATE_LIMIT_MAX, default 30). */
  authRateLimitMax?: number
  /** Fastify logger level, or false for none (env LOG_LEVEL, default 'warn'). */
  logLevel?: string | false
  /** Where log lines go (default stdout; tests read them). */
  logStream?: NodeJS.WritableStream
  /** Whose X-Forwarded-For is believed (default the config's, env TRUST_PROXY). */
  trustProxy?: TrustProxy
  /** Extra /readyz checks, e.g. `{ 'delivery worker': () => worker.running() }`. */
  readiness?: ReadinessChecks
}

/** Routes that send one-time codes, check passwords or tell whether a mobile is registered get the strict per-address limit. */
const authLimitedRoutes: RouteName[] = [
  'passengerByMobile',
  'login',
  'register',
  'sendOtp',
  'verifyOtp',
  'verifyMobile',
  'resendMobileCode',
  'setNewPassword',
  'changePassword',
  'verifyCancelTicketOtp',
  'cancelInitialize',
  'cancel',
]

const hashedFile = /-[A-Z0-9]{8}\.[a-z0-9]+$/

/** The HTML files of a built app outside assets/ (its shells), as paths relative to `dist` with '/'. */
function shellsIn(dist: string): Set<string> {
  const files = fs.readdirSync(dist, { recursive: true }).map((f) => String(f).split(path.sep).join('/'))
  return new Set(files.filter((f) => f.endsWith('.html') && !f.startsWith('assets/')))
}

/**
 * The shell that answers page path `url` (the service worker and docs/nginx-app.conf agree):
 * index.html for / and /home (the prerendered home page), the route's own `<path>.html` where
 * the build wrote one (its prerendered first render), else app.html (header and footer).
 */
function shellFor(url: string, shells: Set<string>): string {
  const p = url.replace(/\/+$/, '')
  if (p === '' || p === '/home') return 'index.html'
  const own = `${p.slice(1)}.html`
  if (shells.has(own)) return own
  return shells.has('app.html') ? 'app.html' : 'index.html'
}

/**
 * TRUST_PROXY as Fastify's `trustProxy`. A hop count is a function: Fastify refuses a bare
 * number (it cannot check the nearest peer), so with hops the server must be reachable only
 * through its proxies (docs/operating.md, "Behind a proxy"). `n` hops: the socket's address and the n - 1
 * right-most X-Forwarded-For entries are proxies; the entry before them (written by the
 * outermost trusted proxy, from the address it saw) is the client. Never `true`.
 */
function fastifyTrust(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (!trust) return false
  if ('hops' in trust) {
    const { hops } = trust
    return (_address, hop) => hop < hops
  }
  return trust.addresses
}

/** Builds the Fastify application on `deps` (not yet listening). */
export async function buildApp(deps: Deps, opts: AppOptions = {}): Promise<FastifyInstance> {
  const env = process.env
  const logLevel = opts.logLevel ?? env.LOG_LEVEL ?? 'warn'
  const app = Fastify({
    logger:
      logLevel === false
        ? false
        : {
            level: logLevel,
            ...(opts.logStream ? { stream: opts.logStream } : {}),
            // PNRs, PINs, codes and tokens travel in some paths: never in a log line
            serializers: {
              req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
            },
          },
    bodyLimit: 64 * 1024,
    trustProxy: fastifyTrust(opts.trustProxy ?? deps.config.trustProxy),
    return503OnClosing: true,
    // Router-level rejections (bad URL encoding, over-long path parameter) in the catalogue format.
    frameworkErrors: (err, req, reply) => {
      addCorsHeaders(req, reply, deps.config.corsOrigins)
      return sendError(reply, new AppError('VALIDATION_FAILED', { fields: [{ path: '(url)', message: err.message.slice(0, 200) }] }))
    },
  })

  // JSON only: a form on another site can post urlencoded, multipart or text/plain bodies
  // from a visitor's browser without asking, never JSON. Only the card gateway's callback
  // routes accept urlencoded bodies, each in its own plugin scope.
  app.removeContentTypeParser('text/plain')

  app.setErrorHandler(async (err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) return sendError(reply, err)
    const status = (err as FastifyError).statusCode
    if (status === 429) return sendError(reply, new AppError('TOO_MANY_REQUESTS'))
    if (status === 413) {
      // Fastify asked for the connection to close; once the whole body is read it may stay open.
      if (await drainBody(req.raw)) reply.removeHeader('connection')
      return sendError(reply, new AppError('VALIDATION_FAILED', { status: 413, reason: 'The request is too large.' }))
    }
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendError(reply, new AppError('VALIDATION_FAILED', { status, fields: [{ path: '(body)', message: err.message.slice(0, 200) }] }))
    }
    req.log.error({ err, url: redactUrl(req.url), method: req.method }, 'unhandled error')
    return sendError(reply, new AppError('INTERNAL_ERROR'))
  })

  registerCors(app, deps.config.corsOrigins)

  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        // Ark UI positions popovers with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
    },
    // HSTS only makes sense behind HTTPS in production.
    strictTransportSecurity: deps.config.production ? undefined : false,
  })
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 })

  // Shutting down: requests already running finish, and their connections close after
  // the answer instead of idling on (a kept-alive socket would hold the close open).
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
    app.server.closeIdleConnections?.()
  })
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close')
  })

  const stopCounting = onRefusal((bucket) => deps.metrics.refused(bucket))
  app.addHook('onClose', async () => {
    stopCounting()
  })
  app.addHook('onResponse', async (req, reply) => {
    deps.metrics.request(req.method, req.routeOptions.url ?? '(unmatched)', reply.statusCode, reply.elapsedTime / 1000)
  })

  // API answers carry personal data (profiles, balances, tickets, sessions): no shared or
  // browser cache may keep them.
  app.addHook('onSend', async (req, reply) => {
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store')
  })

  // Sign-in, sign-up and code routes: AUTH_RATE_LIMIT_MAX requests a minute per client
  // address and route, counted in the database so the limit holds across processes.
  const authMax = opts.authRateLimitMax ?? deps.config.authRateLimitMax
  const authRoutes = new Map(authLimitedRoutes.map((n) => [`${api[n].method} /api${api[n].path}`, n]))
  app.addHook('onRoute', (route) => {
    const name = authRoutes.get(`${route.method} ${route.url}`)
    if (!name) return
    const limit: Limit = {
      bucket: `auth:${name}`,
      max: authMax,
      windowMs: 60_000,
      code: 'TOO_MANY_REQUESTS',
      reason: 'Too many requests. Please wait {minutes} minute(s).',
    }
    const check = async (req: FastifyRequest) => {
      await take(deps.db, limit, addressKey(req.ip, deps.config.ipv6ClientPrefix), deps.now())
    }
    route.preValidation = [...(Array.isArray(route.preValidation) ? route.preValidation : route.preValidation ? [route.preValidation] : []), check]
  })
  await app.register(rateLimit, {
    global: true,
    max: opts.rateLimitMax ?? deps.config.rateLimitMax,
    timeWindow: 60_000,
    errorResponseBuilder: () => new AppError('TOO_MANY_REQUESTS'),
  })

  lookups.register(app, deps)
  auth.register(app, deps)
  profile.register(app, deps)
  contact.register(app, deps)
  trips.register(app, deps)
  seatLocks.register(app, deps)
  queue.register(app, deps)
  seatEvents.register(app, deps)
  bookings.register(app, deps)
  coupons.register(app, deps)
  payments.register(app, deps)
  tickets.register(app, deps)
  waitlist.register(app, deps)
  registerDevOutbox(app, deps)
  registerOperations(app, deps, opts.readiness)

  const dist = path.resolve(opts.distDir ?? path.join(root, 'dist'))
  const haveDist = fs.existsSync(path.join(dist, 'index.html'))
  const shells = haveDist ? shellsIn(dist) : new Set<string>()
  if (haveDist) {
    const cacheControl = (reply: { header: (k: string, v: string) => unknown }, file: string) => {
      const rel = path.relative(dist, file).split(path.sep).join('/')
      reply.header('cache-control', hashedFile.test(rel) ? IMMUTABLE : 'no-cache')
    }
    // the shells, config.js and the worker, compressed when sent: edited in place (config.js by the operator),
    // a compressed copy beside them could be older than the file
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: true,
      cacheControl: false,
      allowedPath: (p) => p !== '/meta.json' && !p.startsWith('/assets/'),
      setHeaders: cacheControl,
    })
    // hashed assets: from memory, with the build's brotli-11 and gzip-9 copies beside each, sent as they are
    // (smaller than compressing each answer on the fly: 84 KB instead of ~105 KB for the entry's file)
    registerAssets(app, path.join(dist, 'assets'))
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0]!
    const isApp = (req.method === 'GET' || req.method === 'HEAD') && !/^\/(api|dev|sandbox|gateway|metrics|healthz|readyz)(\/|$)/.test(url)
    if (!isApp) return sendError(reply, new AppError('NOT_FOUND'))
    // A missing file with an extension (e.g. an old hashed chunk) is a real 404, not the app.
    if (/\.[a-z0-9]+$/i.test(url) && !url.endsWith('.html')) return reply.code(404).type('text/plain; charset=utf-8').send('Not found')
    if (!haveDist) {
      return reply.code(503).type('text/plain; charset=utf-8').send('The web app is not built yet: run npm run build, then restart the server.')
    }
    reply.header('cache-control', 'no-cache')
    return reply.sendFile(shellFor(url, shells))
  })

  return app
}
