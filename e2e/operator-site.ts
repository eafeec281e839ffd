/**
 * A spec's own site on a throwaway PostgreSQL, with the operator's command (`npm run trip`) run beside
 * it on the same database, as the operator runs it. `operatorSite()` registers the spec's hooks (the
 * spec runs serially); without PostgreSQL each test is reported skipped (a failure under CI).
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { type APIRequestContext, request as playwrightRequest, test } from '@playwright/test'
import { postgresMissing, startPostgres, type TestPostgres } from '../harness/postgres.ts'
import { skipLine, underCi } from '../server/test/skip.ts'
import { type OwnServer, startOwnServer } from './own-server.ts'

const root = path.resolve(import.meta.dirname, '..')

/** The site once `beforeAll` has run: the server, an API client on it, its database and the command. */
export interface OperatorSite {
  app: OwnServer
  api: APIRequestContext
  databaseUrl: string
  /** Runs `npm run trip -- <args>` on the site's database; answers what it printed, rejects on a non-zero exit. */
  runTrip(args: string[]): Promise<string>
}

/** Registers the hooks of a spec on its own site (database `database`, server settings `env`); answers the site. */
export function operatorSite(database: string, spec: string, env: Record<string, string> = {}): OperatorSite {
  const missing = postgresMissing()
  let pgServer: TestPostgres | undefined
  const site = {
    runTrip(args: string[]) {
      return new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'server/commands/trip-command.ts', ...args], {
          cwd: root,
          env: { ...process.env, DATABASE_URL: site.databaseUrl, NODE_ENV: 'test', PUBLIC_URL: site.app.url, LOG_LEVEL: 'error' },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        let out = ''
        child.stdout.on('data', (d) => (out += d))
        child.stderr.on('data', (d) => (out += d))
        child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`npm run trip -- ${args.join(' ')}: exit ${code}\n${out}`))))
      })
    },
  } as OperatorSite

  test.describe.configure({ mode: 'serial', timeout: 180_000 })

  test.beforeAll(async () => {
    if (missing) return
    test.setTimeout(240_000)
    pgServer = await startPostgres()
    site.databaseUrl = await pgServer.createDatabase(database)
    site.app = await startOwnServer({ DATABASE_URL: site.databaseUrl, ...env })
    site.api = await playwrightRequest.newContext({ baseURL: site.app.url })
  })

  test.afterAll(async () => {
    await site.api?.dispose()
    await site.app?.stop()
    await pgServer?.stop()
  })

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's fixtures from this pattern
  test.beforeEach(({}, info) => {
    if (!missing) return
    if (underCi()) throw new Error(`${missing} (CI is set, so a skipped test is a failure)`)
    console.log(skipLine('e2e', `${spec} › ${info.titlePath.slice(1).join(' › ')}`, missing))
    test.skip(true, missing)
  })
  return site
}
