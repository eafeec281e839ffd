/**
 * Test harness: a fresh app on a throwaway PGlite folder, migrated and seeded,
 * with a movable clock. Used by every server test.
 *
 *   const t = await startTestApp();            // or startTestApp({ now: new Date('2026-01-10T04:00:00Z') })
 *   const r = await t.call('POST', '/api/checkPassenger', { body: {...}, token });
 *   r.status, r.body (parsed JSON), r.headers
 *   t.clock.advance(181_000);                  // deps.now() moves, nothing else does
 *   await t.lastCode('01712345678');           // newest one-time code sent by SMS
 *   const s = await t.signUp('01812345678');   // registers + verifies: { token, passenger }
 *   await t.close();
 */
import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Session } from '../../contract/schemas.ts'
import { buildApp, type AppOptions } from '../app.ts'
import type { ServerConfig } from '../config.ts'
import { openDb, type Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import type { Deps } from '../core.ts'
import { migrate } from '../db/migrate.ts'
import { seed } from '../seed/index.ts'
import { ONE_ADDRESS_LIMITS, pgliteTemplate, tempDir } from '../../harness/app-fixture.ts'

export interface TestClock {
  now(): Date
  set(d: Date): void
  advance(ms: number): void
}

export interface CallResult<T = any> {
  status: number
  body: T
  headers: Record<string, string | string[] | number | undefined>
  text: string
}

export interface TestApp {
  app: FastifyInstance
  deps: Deps
  db: Db
  clock: TestClock
  dir: string
  call<T = any>(
    method: string,
    url: string,
    opts?: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string },
  ): Promise<CallResult<T>>
  lastCode(to: string): Promise<string | null>
  signUp(mobile: string, extra?: { password?: string; fullName?: string }): Promise<Session>
  close(): Promise<void>
}

export const TEST_PASSWORD = 'Secret@123'

export { ONE_ADDRESS_LIMITS, pgliteTemplate, tempDir }

/** Starts a migrated, seeded app on a fresh PGlite folder (or `databaseUrl`). */
export async function startTestApp(
  opts: {
    now?: Date
    daysAhead?: number
    app?: AppOptions
    databaseUrl?: string
    production?: boolean
    passwordMaxAgeDays?: number
    config?: Partial<ServerConfig>
  } = {},
): Promise<TestApp> {
  const dir = tempDir()
  if (!opts.databaseUrl) fs.cpSync(await pgliteTemplate(), path.join(dir, 'pgdata'), { recursive: true })
  const db = await openDb({ dataDir: dir, databaseUrl: opts.databaseUrl ?? '' })
  let current = opts.now ?? new Date()
  const clock: TestClock = {
    now: () => new Date(current),
    set: (d) => void (current = new Date(d)),
    advance: (ms) => void (current = new Date(current.getTime() + ms)),
  }
  const deps = createDeps(db, {
    now: clock.now,
    production: opts.production ?? false,
    publicUrl: 'http://localhost:8080',
    passwordMaxAgeDays: opts.passwordMaxAgeDays,
    config: { ...ONE_ADDRESS_LIMITS, ...opts.config },
  })
  await migrate(db, (tx) => seed(tx, deps, { daysAhead: opts.daysAhead }))
  const app = await buildApp(deps, {
    logLevel: false,
    rateLimitMax: 1_000_000,
    authRateLimitMax: 1_000_000,
    distDir: path.join(dir, 'no-dist'),
    ...opts.app,
  })
  await app.ready()

  const call: TestApp['call'] = async (method, url, o = {}) => {
    const headers: Record<string, string> = { accept: 'application/json', ...o.headers }
    if (o.token) headers.authorization = `Bearer ${o.token}`
    let payload: string | undefined = o.raw
    if (o.body !== undefined) {
      payload = JSON.stringify(o.body)
      headers['content-type'] ??= 'application/json'
    }
    const res = await app.inject({ method: method as 'GET', url, headers, payload })
    let body: unknown
    try {
      body = res.json()
    } catch {
      body = undefined
    }
    return { status: res.statusCode, body: body as any, headers: res.headers, text: res.body }
  }

  // Production stores no code column: the code is read from the SMS text (nothing delivers it in these tests).
  const lastCode = async (to: string) => {
    const rows = await db.query<{ code: string | null }>(
      `SELECT coalesce(code, substring(body FROM '^([0-9]{6}) is your ')) AS code FROM outbox_messages
        WHERE "to" = $1 AND channel = 'SMS' AND (code IS NOT NULL OR body ~ '^[0-9]{6} is your ') ORDER BY id DESC LIMIT 1`,
      [to],
    )
    return rows[0]?.code ?? null
  }

  const signUp: TestApp['signUp'] = async (mobile, extra = {}) => {
    const r = await call('POST', '/api/register', {
      body: {
        mobile,
        fullName: extra.fullName ?? 'Test Passenger',
        email: 'test@example.com',
        city: 'Dhaka',
        password: extra.password ?? TEST_PASSWORD,
      },
    })
    if (r.status !== 200) throw new Error(`register failed: ${r.status} ${r.text}`)
    const code = await lastCode(r.body.data.mobile)
    const v = await call('POST', '/api/verifyMobileVerificationCode', { body: { mobile, code, registrationToken: r.body.data.registrationToken } })
    if (v.status !== 200) throw new Error(`verify failed: ${v.status} ${v.text}`)
    return v.body.data as Session
  }

  return {
    app,
    deps,
    db,
    clock,
    dir,
    call,
    lastCode,
    signUp,
    async close() {
      await app.close()
      await db.close()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Row count of a table (tests use it to prove nothing changed). */
export async function count(db: Db, table: string): Promise<number> {
  const [r] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)
  return r!.n
}

/**
 * Whether a secret shows in a server's output (its log, stdout). A secret of digits only (a PIN's 4, a code's 6)
 * counts only as a number of its own: inside a longer run of digits (a time stamp, a response time, a port) it is
 * chance, not a leak (CI once failed on a PIN of 0908 found inside such a number).
 */
export function leaksSecret(out: string, secret: string): boolean {
  if (!/^\d+$/.test(secret)) return out.includes(secret)
  return new RegExp(`(?<![\\d.])${secret}(?![\\d.])`).test(out)
}
