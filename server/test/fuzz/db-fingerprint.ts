/**
 * "Nothing was written": a fingerprint of every table in the public schema (row
 * count plus an order-independent checksum of the rows' text), cheap enough to
 * compare around each request of a fuzz run.
 *
 *   const w = writeWatch(db);
 *   await w.before();                 // before each request
 *   const changed = await w.changed(); // after a refused one: tables that differ
 *
 * Speed: checksumming every row costs ~15 ms on the seeded database, so it is done
 * only where something may have changed. PostgreSQL gives every transaction that
 * writes a row an id: when the snapshot horizon (`pg_snapshot_xmax`, the next id)
 * has not moved, nothing was written anywhere. When it moved (a write, or a write
 * rolled back), each table's row versions (count and sum of `xmin`, ~4 ms for all)
 * say which tables were touched, and only those are checksummed again.
 */
import type { Queryable } from '../../db/db.ts'

/**
 * What a refused request may legitimately change, per table: `'*'` for the whole
 * table, or the columns left out of its checksum. Everything else must stay as it was.
 */
export const MAY_CHANGE_ON_REFUSAL: Record<string, '*' | string[]> = {
  // A wrong one-time code is refused (INVALID_OTP_PROVIDED) and still counted on
  // purpose: five wrong tries end the code (server/account/otp.ts).
  otps: ['attempts'],
  // Attempt limits record refused attempts (wrong PIN, sent codes, contact
  // messages) so that the next ones can be throttled: counting them is the point.
  limit_events: '*',
}

/** Table name → `count:checksum`. */
export type Fingerprint = Record<string, string>

interface Statements {
  /** Columns per table, to notice a migration. */
  key: string
  /** Per table: count and the sum of row-version ids (xmin). Changes with any insert, update or delete. */
  versions: string
  /** Per table: count and the checksum of the rows' text (minus the columns left out). */
  content: Map<string, string>
}

let statements: Statements | null = null

const quote = (name: string) => '"' + name.replace(/"/g, '""') + '"'
const literal = (s: string) => "'" + s.replace(/'/g, "''") + "'"

async function prepare(db: Queryable): Promise<Statements> {
  // the catalog itself, not information_schema's views over it: the same tables and columns in a tenth of the time
  // (~20 ms against ~200 ms on PGlite), and this runs after every request that wrote
  const cols = await db.query<{ table_name: string; column_name: string }>(
    `SELECT c.relname AS table_name, a.attname AS column_name
       FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY c.relname, a.attnum`,
  )
  const byTable = new Map<string, string[]>()
  for (const c of cols) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name])
  const key = [...byTable].map(([t, c]) => `${t}(${c.join(',')})`).join(';')
  if (statements?.key === key) return statements
  const versions: string[] = []
  const content = new Map<string, string>()
  for (const [table, columns] of byTable) {
    const rule = MAY_CHANGE_ON_REFUSAL[table]
    if (rule === '*') continue
    const kept = columns.filter((c) => !rule?.includes(c)).map((c) => `x.${quote(c)}`)
    versions.push(`SELECT ${literal(table)} AS t, count(*)::text || ':' || coalesce(sum(x.xmin::text::bigint), 0)::text AS h FROM ${quote(table)} x`)
    content.set(
      table,
      `SELECT count(*)::text || ':' || coalesce(sum(hashtextextended(ROW(${kept.join(', ')})::text, 0)), 0)::text AS h FROM ${quote(table)} x`,
    )
  }
  statements = { key, versions: versions.join(' UNION ALL '), content }
  return statements
}

async function perTable(db: Queryable, sql: string): Promise<Fingerprint> {
  const rows = await db.query<{ t: string; h: string }>(sql)
  return Object.fromEntries(rows.map((r) => [r.t, r.h]))
}

async function contentOf(db: Queryable, st: Statements, table: string): Promise<string> {
  const [r] = await db.query<{ h: string }>(st.content.get(table)!)
  return r!.h
}

/** Count and checksum of the rows of every table (minus MAY_CHANGE_ON_REFUSAL). */
export async function fingerprint(db: Queryable): Promise<Fingerprint> {
  const st = await prepare(db)
  const out: Fingerprint = {}
  for (const table of st.content.keys()) out[table] = await contentOf(db, st, table)
  return out
}

/** Tables whose fingerprints differ. */
export function diff(a: Fingerprint, b: Fingerprint): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((t) => a[t] !== b[t]).sort()
}

async function horizon(db: Queryable): Promise<string> {
  const [r] = await db.query<{ x: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x')
  return r!.x
}

/**
 * Watches for writes around requests (see the module comment). Row checksums are
 * kept per table and recomputed only for tables whose row versions moved, so a
 * request that wrote to `sessions` does not rehash `trips`.
 */
export function writeWatch(db: Queryable): { before(): Promise<void>; changed(): Promise<string[]>; checks(): number } {
  let state: { xmax: string; versions: Fingerprint; content: Fingerprint } | null = null
  let checks = 0
  const refresh = async (): Promise<string[]> => {
    const xmax = await horizon(db)
    if (state?.xmax === xmax) return []
    checks++
    const st = await prepare(db)
    const versions = await perTable(db, st.versions)
    if (!state) {
      state = { xmax, versions, content: await fingerprint(db) }
      return []
    }
    const content = { ...state.content }
    for (const table of st.content.keys()) {
      if (versions[table] !== state.versions[table] || content[table] === undefined) content[table] = await contentOf(db, st, table)
    }
    const changed = diff(state.content, content)
    state = { xmax, versions, content }
    return changed
  }
  return {
    async before() {
      await refresh()
    },
    async changed() {
      if (!state) throw new Error('writeWatch: before() was not called')
      return refresh()
    },
    /** How many times row versions were compared (the horizon had moved). */
    checks: () => checks,
  }
}
