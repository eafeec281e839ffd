/**
 * A throwaway PostgreSQL 15 server on a free 127.0.0.1 port, for the server tests, the browser tests and the
 * benchmark.
 *
 *   const pg = await startPostgres();          // throws when there are no binaries (see postgresMissing)
 *   pg.url;                                    // postgres://postgres@127.0.0.1:<port>/postgres
 *   const url2 = await pg.createDatabase('x'); // a fresh empty database on the same server
 *   await pg.stop();                           // stops the server and removes its folder
 *
 * PG_BIN, when set, is the only folder looked in: `PG_BIN=none` hides PostgreSQL
 * (to see how the PostgreSQL tests report themselves skipped).
 *
 * initdb refuses to run as root, so as root the binaries run as the `postgres`
 * user (runuser) in a temp folder owned by it. fsync is off: throwaway data.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from './spawn-server.ts'

export interface TestPostgres {
  /** Connection URL of the default `postgres` database. */
  url: string
  /** Creates an empty database and answers its URL. */
  createDatabase(name: string): Promise<string>
  /** Stops the server and deletes its data folder. */
  stop(): Promise<void>
}

const hasBinaries = (dir: string) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))

function findBinDir(): string | null {
  if (process.env.PG_BIN) return hasBinaries(process.env.PG_BIN) ? process.env.PG_BIN : null
  const candidates = ['/usr/lib/postgresql/15/bin']
  try {
    for (const v of fs.readdirSync('/usr/lib/postgresql').sort().reverse()) candidates.push(`/usr/lib/postgresql/${v}/bin`)
  } catch {
    // no Debian-style install
  }
  for (const dir of candidates) if (hasBinaries(dir)) return dir
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' })
  if (which.status === 0 && which.stdout.trim()) return path.dirname(which.stdout.trim())
  return null
}

/** The path of one of PostgreSQL's programs (pgbench, psql); throws when none is installed. */
export function pgBinary(name: string): string {
  const bin = findBinDir()
  if (!bin) throw new Error(postgresMissing() ?? 'no PostgreSQL binaries')
  return path.join(bin, name)
}

/** Why PostgreSQL tests cannot run on this machine, or null when they can. */
export function postgresMissing(): string | null {
  if (findBinDir()) return null
  return process.env.PG_BIN
    ? `no PostgreSQL binaries (initdb, pg_ctl) in PG_BIN=${process.env.PG_BIN}`
    : 'no PostgreSQL binaries (initdb, pg_ctl): apt-get install postgresql (15 or later), or set PG_BIN to their folder'
}

/** Starts a private PostgreSQL server on a free 127.0.0.1 port; throws when none is installed (see onPostgres). */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = findBinDir()
  if (!bin) throw new Error(postgresMissing()!)
  const asRoot = process.getuid?.() === 0
  const run = (cmd: string, args: string[]) => {
    const full = path.join(bin, cmd)
    if (asRoot) return execFileSync('runuser', ['-u', 'postgres', '--', full, ...args], { stdio: 'pipe', encoding: 'utf8' })
    return execFileSync(full, args, { stdio: 'pipe', encoding: 'utf8' })
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgtest-'))
  const data = path.join(dir, 'data')
  if (asRoot) {
    fs.chmodSync(dir, 0o755)
    execFileSync('chown', ['postgres:postgres', dir])
  }
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync'])
  let port = 0
  let started = false
  for (let attempt = 0; attempt < 3 && !started; attempt++) {
    port = await freePort()
    try {
      run('pg_ctl', [
        '-D',
        data,
        '-w',
        '-t',
        '30',
        '-l',
        path.join(dir, 'server.log'),
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
        'start',
      ])
      started = true
    } catch (err) {
      if (attempt === 2) {
        const log = fs.existsSync(path.join(dir, 'server.log')) ? fs.readFileSync(path.join(dir, 'server.log'), 'utf8') : ''
        fs.rmSync(dir, { recursive: true, force: true })
        throw new Error(`could not start PostgreSQL: ${(err as Error).message}\n${log}`)
      }
    }
  }
  const base = `postgres://postgres@127.0.0.1:${port}`
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
    } catch {
      // already down
    }
    fs.rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', () => void stop())
  return {
    url: `${base}/postgres`,
    async createDatabase(name: string) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error('database name must be a plain identifier')
      const pg = (await import('pg')).default
      const c = new pg.Client({ connectionString: `${base}/postgres` })
      await c.connect()
      try {
        await c.query(`CREATE DATABASE ${name}`)
      } finally {
        await c.end()
      }
      return `${base}/${name}`
    },
    stop,
  }
}
