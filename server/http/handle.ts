/**
 * How every /api handler is declared: `handle(app, deps, 'routeName', fn)` takes the
 * method, path, auth rule and schemas from contract/api.ts, validates the body,
 * path and query (400 VALIDATION_FAILED with the failing fields), resolves the
 * caller, and wraps the result as `{ data }`. Handlers throw `AppError(code)`
 * for catalogue errors; anything else becomes a 500 INTERNAL_ERROR without a
 * stack trace in the body.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { api, type BodyOf, type ResponseOf, type RouteName } from '../../contract/api.ts'
import { MAX_ID, isStorableText } from '../../contract/schemas.ts'
import { deviceIdPattern } from '../../contract/values.ts'
import { AppError, type Auth, type Deps } from '../core.ts'

export interface Call<N extends RouteName> {
  body: BodyOf<N>
  params: Record<string, string>
  query: Record<string, string | undefined>
  /** Present when a valid bearer token came (always for `auth: 'required'`). */
  auth: Auth | null
  /** Seat-lock holder: `p:<passengerId>` when signed in, else `d:<X-Device-Id>`, else `ip:<address>`. */
  holder: string
  req: FastifyRequest
  reply: FastifyReply
}

/**
 * Registers the handler of contract route `name` under `/api`. `opts.authenticate`: how this route finds the
 * bearer token's session (the body already checked), instead of `deps.authenticate`.
 */
export function handle<N extends RouteName>(
  app: FastifyInstance,
  deps: Deps,
  name: N,
  fn: (call: Call<N>) => Promise<ResponseOf<N>>,
  opts: { authenticate?: (token: string, body: BodyOf<N>) => Promise<Auth | null> } = {},
): void {
  const def = api[name] as {
    method: string
    path: string
    auth: string
    body?: { safeParse(v: unknown): SafeResult }
    query?: { safeParse(v: unknown): SafeResult }
  }
  app.route({
    method: def.method as 'GET',
    url: '/api' + def.path,
    handler: async (req, reply) => {
      let body: unknown
      if (def.body) body = parseOrThrow(def.body, req.body ?? {})
      const query = def.query ? (parseOrThrow(def.query, req.query ?? {}) as Record<string, string>) : ((req.query ?? {}) as Record<string, string>)
      const params = (req.params ?? {}) as Record<string, string>
      for (const [k, v] of Object.entries(params)) {
        if (typeof v !== 'string' || v.length === 0 || v.length > 100) {
          throw new AppError('VALIDATION_FAILED', { fields: [{ path: k, message: 'Invalid path parameter' }] })
        }
      }
      // PostgreSQL text cannot hold these: refused here for every route rather than failing in a query.
      const unstorable = unstorableAt(params) ?? unstorableAt(query) ?? unstorableAt(body)
      if (unstorable !== null) {
        throw new AppError('VALIDATION_FAILED', { fields: [{ path: unstorable || '(body)', message: 'Contains a character that is not allowed' }] })
      }
      let auth: Auth | null = null
      const header = req.headers.authorization
      if (def.auth !== 'none' && typeof header === 'string' && header.startsWith('Bearer ')) {
        const token = header.slice(7).trim()
        auth = await (opts.authenticate ? opts.authenticate(token, body as BodyOf<N>) : deps.authenticate(token))
        if (!auth && def.auth === 'required') throw new AppError('INVALID_SESSION')
      }
      if (def.auth === 'required' && !auth) throw new AppError('INVALID_SESSION')
      const holder = auth ? `p:${auth.passengerId}` : (deviceHolder(req) ?? `ip:${req.ip}`)
      const data = await fn({ body: body as BodyOf<N>, params, query, auth, holder, req, reply })
      if (reply.sent) return reply
      return { data }
    },
  })
}

/** The visitor lock holder `d:<X-Device-Id>` of a request, or null when the header is missing or malformed. */
export function deviceHolder(req: { headers: Record<string, unknown> }): string | null {
  const device = req.headers['x-device-id']
  return typeof device === 'string' && deviceIdPattern.test(device) ? `d:${device}` : null
}

/** A path parameter holding an id (a positive int4), or VALIDATION_FAILED naming `field`. */
export function pathId(v: string | undefined, field: string): number {
  if (!v || !/^[1-9]\d{0,9}$/.test(v) || Number(v) > MAX_ID) {
    throw new AppError('VALIDATION_FAILED', { fields: [{ path: field, message: 'Must be a positive whole number' }] })
  }
  return Number(v)
}

type SafeResult =
  | { success: true; data: unknown }
  | { success: false; error: { issues: { path: PropertyKey[]; message: string; code: string; keys?: string[] }[] } }

function parseOrThrow(schema: { safeParse(v: unknown): SafeResult }, value: unknown): unknown {
  const r = schema.safeParse(value)
  if (r.success) return r.data
  const fields = r.error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys' && i.keys
      ? i.keys.map((k) => ({ path: [...i.path, k].join('.'), message: 'Unknown field' }))
      : [{ path: i.path.map(String).join('.') || '(body)', message: i.message === 'Invalid input' ? describe(i.code) : i.message }],
  )
  throw new AppError('VALIDATION_FAILED', { fields: fields.slice(0, 20) })
}

/** The dotted path of the first string at any depth that `isStorableText` refuses ('' for `v` itself), or null. */
function unstorableAt(v: unknown, path = ''): string | null {
  if (typeof v === 'string') return isStorableText(v) ? null : path
  if (v === null || typeof v !== 'object') return null
  for (const [k, x] of Object.entries(v)) {
    const found = unstorableAt(x, path ? `${path}.${k}` : k)
    if (found !== null) return found
  }
  return null
}

function describe(code: string): string {
  switch (code) {
    case 'invalid_type':
      return 'Wrong type or missing'
    case 'too_small':
      return 'Too short or too small'
    case 'too_big':
      return 'Too long or too large'
    case 'invalid_format':
      return 'Wrong format'
    default:
      return 'Invalid value'
  }
}

/** Sends a catalogue error body. Used by the app's error handler and not-found handler. */
export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(err.retryAfterSeconds))))
  return reply.status(err.status).send({
    error: { code: err.code, reason: err.message, ...(err.fields ? { fields: err.fields } : {}), ...(err.values ? { values: err.values } : {}) },
  })
}
