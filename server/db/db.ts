/**
 * The one database adapter: embedded PGlite in DATA_DIR when DATABASE_URL is
 * unset, a real PostgreSQL pool when it is set. Same SQL on both.
 *
 * Rules every caller keeps (measured):
 * - inside `transaction`, use only the `tx` handle (an outer query hangs on PGlite);
 * - race-sensitive writes are one atomic statement or `SELECT ... FOR UPDATE`;
 * - int8/numeric come back as JS numbers on both (parsed here), timestamps as Date,
 *   dates as 'yyyy-mm-dd' strings.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { keepWasmWrappersGeneric } from './wasm-wrappers.ts'

export interface Queryable {
  /** Runs one parameterised statement ($1, $2, ...) and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
}

/** The handle inside `transaction`: queries plus multi-statement scripts (migrations). */
export interface Tx extends Queryable {
  /** Runs a script of several statements without parameters. */
  exec(sql: string): Promise<void>
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** Runs `fn` in one transaction on its own connection; commits, or rolls back on throw. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>
  /**
   * Calls `fn` with the payload of each notification on `channel` (NOTIFY, pg_notify: delivered
   * at commit, never for a rolled-back transaction). `onGap` runs when the listening connection
   * dropped and is back: notifications sent meanwhile were missed. Answers the function that stops.
   */
  listen(channel: string, fn: (payload: string) => void, onGap?: () => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

export interface OpenOptions {
  databaseUrl?: string
  dataDir?: string
  /** Pool size for PostgreSQL: connections for single statements, and as many again for transactions. */
  max?: number
}

/** Opens the database chosen by the options (or DATABASE_URL / DATA_DIR). */
export async function openDb(opts: OpenOptions = {}): Promise<Db> {
  const url = opts.databaseUrl ?? process.env.DATABASE_URL
  if (url) return openPostgres(url, opts.max ?? 10)
  return openPglite(opts.dataDir ?? process.env.DATA_DIR ?? '.data')
}

/** Statements `prepared` named: their text to the name each pooled connection prepares them under. */
const preparedNames = new Map<string, string>()

/**
 * Marks a hot single statement (a waiting-room poll, a session look-up) to be prepared on each pooled PostgreSQL
 * connection the first time it runs there and only executed after: PostgreSQL then skips parsing and planning it
 * on every call, most of such a statement's cost. Answers `sql` unchanged; PGlite runs it as any other.
 */
export function prepared(sql: string): string {
  if (!preparedNames.has(sql)) preparedNames.set(sql, `s${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`)
  return sql
}

async function openPostgres(url: string, max: number): Promise<Db> {
  const pg = (await import('pg')).default
  // int8 (count, sum, bigserial) and numeric as numbers, like PGlite
  pg.types.setTypeParser(20, (v: string) => Number(v))
  pg.types.setTypeParser(1700, (v: string) => Number(v))
  // date as the plain 'yyyy-mm-dd' string (pg's default is a local-midnight Date)
  pg.types.setTypeParser(1082, (v: string) => v)
  const pool = new pg.Pool({ connectionString: url, max })
  // transactions get their own connections: a crowd's long write transactions (bookings, payments) never make
  // single-statement reads (waiting-room polls, searches, session look-ups) wait for a connection
  const txPool = new pg.Pool({ connectionString: url, max })
  for (const p of [pool, txPool]) p.on('error', (err) => console.error('[db] idle client error:', err.message))
  const listener = pgListener(pg, url)
  return {
    kind: 'postgres',
    async query(sql, params) {
      const name = preparedNames.get(sql)
      const r = name ? await pool.query({ name, text: sql, values: params as unknown[] }) : await pool.query(sql, params as unknown[])
      return r.rows
    },
    async transaction(fn) {
      const client = await txPool.connect()
      try {
        await client.query('BEGIN')
        const tx: Tx = {
          async query(sql, params) {
            return (await client.query(sql, params as unknown[])).rows
          },
          async exec(sql) {
            await client.query(sql)
          },
        }
        const out = await fn(tx)
        await client.query('COMMIT')
        return out
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw err
      } finally {
        client.release()
      }
    },
    async exec(sql) {
      await pool.query(sql)
    },
    listen: listener.listen,
    async close() {
      await listener.close()
      await Promise.all([pool.end(), txPool.end()])
    },
  }
}

interface Listening {
  fn: (payload: string) => void
  onGap?: () => void
}

/**
 * LISTEN on PostgreSQL: one dedicated connection per process (a pooled one would be handed
 * to other queries), opened by the first `listen` and LISTENing every channel asked. When it
 * drops (server restart, network, an administrator's pg_terminate_backend) it is opened again
 * with backoff (0.25 s doubling to 5 s), every channel is listened to again and each `onGap` runs.
 */
function pgListener(pg: typeof import('pg').default, url: string) {
  const channels = new Map<string, Set<Listening>>()
  let current: import('pg').Client | null = null
  let connecting: Promise<import('pg').Client> | null = null
  let closed = false
  let delay = 250
  let retry: NodeJS.Timeout | undefined

  const dropped = (c: import('pg').Client, err?: Error) => {
    if (closed || current !== c) return
    current = null
    connecting = null
    console.error(`[db] the LISTEN connection dropped${err ? `: ${err.message}` : ''}; reconnecting`)
    void c.end().catch(() => undefined)
    reconnect()
  }
  const connect = async () => {
    const c = new pg.Client({ connectionString: url, keepAlive: true, application_name: 'listener' })
    c.on('notification', (m) => {
      for (const l of channels.get(m.channel) ?? []) l.fn(m.payload ?? '')
    })
    c.on('error', (err) => dropped(c, err))
    c.on('end', () => dropped(c))
    try {
      await c.connect()
      for (const ch of channels.keys()) await c.query(`LISTEN ${ch}`)
    } catch (err) {
      void c.end().catch(() => undefined)
      throw err
    }
    if (closed) {
      void c.end().catch(() => undefined)
      throw new Error('the database is closed')
    }
    current = c
    return c
  }
  const open = () => {
    connecting ??= connect().catch((err: unknown) => {
      connecting = null
      throw err
    })
    return connecting
  }
  const reconnect = () => {
    retry = setTimeout(() => {
      if (closed) return
      open().then(
        () => {
          delay = 250
          for (const set of channels.values()) for (const l of set) l.onGap?.()
        },
        (err: Error) => {
          if (closed) return
          console.error(`[db] LISTEN reconnect failed: ${err.message}; next try in ${delay * 2} ms`)
          delay = Math.min(delay * 2, 5000)
          reconnect()
        },
      )
    }, delay)
    retry.unref()
  }

  return {
    async listen(channel: string, fn: (payload: string) => void, onGap?: () => void): Promise<() => Promise<void>> {
      // the name goes into SQL as an identifier
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`not a channel name: ${channel}`)
      const entry: Listening = { fn, onGap }
      const known = channels.get(channel)
      const set = known ?? new Set<Listening>()
      set.add(entry)
      channels.set(channel, set)
      try {
        const c = await open()
        if (!known) await c.query(`LISTEN ${channel}`)
      } catch (err) {
        set.delete(entry)
        if (set.size === 0) channels.delete(channel)
        throw err
      }
      return async () => {
        if (!set.delete(entry) || set.size > 0) return
        channels.delete(channel)
        await current?.query(`UNLISTEN ${channel}`).catch(() => undefined)
      }
    },
    async close() {
      closed = true
      clearTimeout(retry)
      const c = current ?? (connecting ? await connecting.catch(() => null) : null)
      current = null
      await c?.end().catch(() => undefined)
    },
  }
}

async function openPglite(dataDir: string): Promise<Db> {
  const dir = path.resolve(dataDir)
  fs.mkdirSync(dir, { recursive: true })
  const release = takeLock(dir)
  // before the first instance: V8 crashes now and then freeing its compiled wrappers for PGlite (wasm-wrappers.ts)
  keepWasmWrappersGeneric()
  const { PGlite, types } = await import('@electric-sql/pglite')
  let pgl: InstanceType<typeof PGlite>
  try {
    if (process.env.NODE_ENV === 'test') await copyEmptyCluster(path.join(dir, 'pgdata'), PGlite)
    pgl = await PGlite.create(path.join(dir, 'pgdata'), {
      parsers: { [types.DATE]: (v: string) => v, [types.NUMERIC]: (v: string) => Number(v) },
    })
  } catch (err) {
    release()
    throw err
  }
  const fix = <T>(rows: T[]) => rows.map((r) => normalise(r as Record<string, unknown>) as T)
  return {
    kind: 'pglite',
    async query(sql, params) {
      return fix((await pgl.query(sql, params as unknown[])).rows as never[])
    },
    async transaction(fn) {
      return pgl.transaction(async (t) =>
        fn({
          async query(sql, params) {
            return fix((await t.query(sql, params as unknown[])).rows as never[])
          },
          async exec(sql) {
            await t.exec(sql)
          },
        }),
      )
    },
    async exec(sql) {
      await pgl.exec(sql)
    },
    async listen(channel, fn) {
      // the embedded database is in this process: nothing between it and the listener can drop
      const stop = await pgl.listen(channel, fn)
      return async () => {
        if (!pgl.closed) await stop()
      }
    },
    async close() {
      try {
        await pgl.close()
      } finally {
        release()
      }
    },
  }
}

function normalise(row: Record<string, unknown>): Record<string, unknown> {
  for (const k in row) if (typeof row[k] === 'bigint') row[k] = Number(row[k])
  return row
}

/** Error thrown when another live process (`pid`) holds the data folder `dir`. */
export class DataDirLockedError extends Error {
  constructor(
    message: string,
    readonly dir: string,
    readonly pid: number | null = null,
  ) {
    super(message)
  }
}

/**
 * Holds an exclusive lock file in the PGlite data folder: two processes on one
 * folder silently lose acknowledged writes, so a second one is refused.
 */
/**
 * Test mode: a new PGlite folder starts as a copy of an empty cluster made once per PGlite version in the temp
 * folder. PGlite's initdb costs about 2 s of CPU per new database and the test suites open a few hundred; a copy
 * opens in 0.3 s. The copy is the same files initdb writes (one system identifier for all, which nothing reads).
 * The template keeps a list of its files and their sizes: one a temp cleaner has partly removed is made again.
 */
export async function copyEmptyCluster(
  pgdata: string,
  PGlite: { create(dir: string): Promise<{ close(): Promise<void> }> },
  template = defaultEmptyCluster(),
): Promise<void> {
  if (fs.existsSync(pgdata)) return
  if (!clusterComplete(template)) {
    if (fs.existsSync(template)) {
      // set aside whole first: a process copying it now keeps its files, a new one never sees half of it
      const broken = `${template}.broken-${process.pid}-${Date.now()}`
      try {
        fs.renameSync(template, broken)
        fs.rmSync(broken, { recursive: true, force: true })
      } catch {
        // another process set it aside first
      }
    }
    // built aside and renamed into place whole, so a process starting at the same time never copies half of one
    const building = fs.mkdtempSync(`${template}.building-`)
    await (await PGlite.create(building)).close()
    fs.writeFileSync(path.join(building, MANIFEST), JSON.stringify(listFiles(building)))
    try {
      fs.renameSync(building, template)
    } catch {
      fs.rmSync(building, { recursive: true, force: true })
    }
  }
  fs.cpSync(template, pgdata, { recursive: true, filter: (src) => path.basename(src) !== MANIFEST })
}

/** The list of the empty cluster's files, written last into its folder. */
const MANIFEST = 'bus-ticketing-files.json'

function defaultEmptyCluster(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'))
  const pkg = JSON.parse(fs.readFileSync(path.join(entry, '..', '..', 'package.json'), 'utf8')) as { version: string }
  return path.join(os.tmpdir(), `bus-ticketing-empty-pglite-${pkg.version}`)
}

/** Each file under `dir` (relative path) and its size. */
function listFiles(dir: string): Record<string, number> {
  const out: Record<string, number> = {}
  for (const rel of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const st = fs.statSync(path.join(dir, rel))
    if (st.isFile()) out[rel] = st.size
  }
  return out
}

/** Whether `dir` holds every file its list names, at its size. */
function clusterComplete(dir: string): boolean {
  try {
    const files = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as Record<string, number>
    return Object.entries(files).every(([rel, size]) => fs.statSync(path.join(dir, rel), { throwIfNoEntry: false })?.size === size)
  } catch {
    return false
  }
}

function takeLock(dir: string): () => void {
  const file = path.join(dir, 'server.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx')
      fs.writeSync(fd, String(process.pid))
      fs.closeSync(fd)
      let released = false
      const release = () => {
        if (released) return
        released = true
        // a process that opens and closes many folders (a test file) keeps no listener per folder
        process.off('exit', release)
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file)
        } catch {
          // already gone
        }
      }
      process.once('exit', release)
      return release
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const pid = Number(fs.readFileSync(file, 'utf8'))
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(
          `The data folder ${dir} is in use by another server process (pid ${pid}). ` +
            'Stop it first, or start this one with another DATA_DIR, or use DATABASE_URL for several processes.',
          dir,
          pid,
        )
      }
      // stale lock from a process that died: take it over
      fs.rmSync(file, { force: true })
    }
  }
  throw new DataDirLockedError(`Could not lock the data folder ${dir}.`, dir)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * A text[] or int[] column's value as strings: an array from PostgreSQL, or the
 * `{a,b}` text PGlite may answer for arrays built in a query.
 */
export function pgArray(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String)
  if (typeof v === 'string')
    return v
      .replace(/^\{|\}$/g, '')
      .split(',')
      .map((x) => x.replace(/^"|"$/g, ''))
      .filter(Boolean)
  return []
}

/**
 * Runs an operator's command on the server's database (DATABASE_URL, or DATA_DIR while the
 * server is stopped) and exits with the status `run` answers. Exit 1 with what to do, before
 * anything is read or written, when the embedded database's folder is held by another process
 * (the running site: PGlite takes one process at a time) or holds no database (the command would
 * otherwise make an empty one there).
 */
export async function runCommandOnDb(run: (db: Db) => Promise<number>): Promise<never> {
  const dir = path.resolve(process.env.DATA_DIR ?? '.data')
  if (!process.env.DATABASE_URL && !fs.existsSync(path.join(dir, 'pgdata'))) {
    console.error(`No database in ${dir}. Run the command in the site's folder, or set DATA_DIR (or DATABASE_URL) as the site has it.`)
    process.exit(1)
  }
  let db: Db
  try {
    db = await openDb()
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(
        `The database in ${err.dir} is in use by another process${err.pid ? ` (pid ${err.pid})` : ''}, most likely the running site: ` +
          'the embedded database (PGlite) takes one process at a time. Stop the site, run this command again, then start the site. ' +
          'On PostgreSQL (DATABASE_URL) the command runs beside the site. Nothing was changed.',
      )
      process.exit(1)
    }
    throw err
  }
  let code = 1
  try {
    code = await run(db)
  } finally {
    await db.close()
  }
  process.exit(code)
}
