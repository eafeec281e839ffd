/**
 * What load balancers and monitoring read: `GET /healthz` (the process answers),
 * `GET /readyz` (the database answers, every migration is applied, the delivery
 * worker runs, the SMTP server accepts our login; 503 otherwise and while shutting down) and `GET /metrics`
 * (Prometheus, only when METRICS_TOKEN is set, behind that bearer token). None of
 * them says more than ready or not: the reason goes to the log.
 */
import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Deps } from '../core.ts'
import { listMigrations } from '../db/migrate.ts'

/** Extra readiness checks (e.g. the delivery worker runs); each answers true when fine. */
export type ReadinessChecks = Record<string, () => boolean>

const DB_TIMEOUT_MS = 2000

/** Registers /healthz, /readyz and, with a token configured, /metrics. */
export function registerOperations(app: FastifyInstance, deps: Deps, checks: ReadinessChecks = {}): void {
  const expected = listMigrations().map((m) => m.version)
  let closing = false
  app.addHook('onClose', async () => {
    closing = true
  })
  const noStore = { 'cache-control': 'no-store' }

  app.get('/healthz', async (_req, reply) => reply.headers(noStore).send({ status: 'ok' }))

  app.get('/readyz', async (req, reply) => {
    const problem = closing ? 'shutting down' : await notReady(deps, expected, checks)
    if (problem) {
      req.log.warn({ problem }, 'not ready')
      return reply.code(503).headers(noStore).send({ status: 'not ready' })
    }
    return reply.headers(noStore).send({ status: 'ready' })
  })

  const token = deps.config.metricsToken
  if (!token) return
  const want = Buffer.from(`Bearer ${token}`)
  app.get('/metrics', async (req, reply) => {
    const got = Buffer.from(String(req.headers.authorization ?? ''))
    if (got.length !== want.length || !timingSafeEqual(got, want)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .headers(noStore)
        .send({ error: { code: 'INVALID_SESSION', reason: 'A metrics token is required.' } })
    }
    const body = await deps.metrics.registry.metrics()
    return reply.headers(noStore).type(deps.metrics.registry.contentType).send(body)
  })
}

async function notReady(deps: Deps, expected: string[], checks: ReadinessChecks): Promise<string | null> {
  try {
    const rows = await withTimeout(deps.db.query<{ version: string }>('SELECT version FROM schema_migrations'), DB_TIMEOUT_MS)
    const done = new Set(rows.map((r) => r.version))
    const missing = expected.filter((v) => !done.has(v))
    if (missing.length > 0) return `migrations not applied: ${missing.join(', ')}`
  } catch (err) {
    return `database: ${(err as Error).message}`
  }
  for (const [name, ok] of Object.entries(checks)) if (!ok()) return `${name} is down`
  return null
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)
    p.then(
      (v) => {
        clearTimeout(timer)
        resolve(v)
      },
      (e: unknown) => {
        clearTimeout(timer)
        reject(e)
      },
    )
  })
}
