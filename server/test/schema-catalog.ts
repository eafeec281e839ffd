/**
 * The schema of a database as comparable data: every table's columns (in order, with type, NOT NULL
 * and default), constraints, indexes, sequences, triggers, views, types and each function's full
 * definition, read from the catalog, so that two ways of building a schema can be compared exactly.
 * The migration runner's own bookkeeping tables are left out.
 */
import type { Queryable } from '../db/db.ts'

/** Section name → sorted lines describing it. */
export type Catalog = Record<string, string[]>

const RUNNER_TABLES = `('schema_migrations', 'schema_functions')`

const SECTIONS: Record<string, string> = {
  columns: `SELECT c.relname || '.' || a.attname || ' #' || row_number() OVER (PARTITION BY c.relname ORDER BY a.attnum) || ' ' ||
                   format_type(a.atttypid, a.atttypmod) || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END ||
                   coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '') || CASE WHEN a.attidentity <> '' THEN ' IDENTITY ' || a.attidentity::text ELSE '' END ||
                   CASE WHEN a.attgenerated <> '' THEN ' GENERATED' ELSE '' END AS line
              FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
              LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
             WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped AND c.relname NOT IN ${RUNNER_TABLES}`,
  // NOT NULL is read with the columns: PostgreSQL 18 (PGlite) also lists it here, 15 does not.
  constraints: `SELECT c.relname || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid) AS line
                  FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE n.nspname = 'public' AND k.contype <> 'n' AND c.relname NOT IN ${RUNNER_TABLES}`,
  indexes: `SELECT indexdef AS line FROM pg_indexes WHERE schemaname = 'public' AND tablename NOT IN ${RUNNER_TABLES}`,
  sequences: `SELECT sequencename || ' ' || data_type::text || ' ' || start_value || ' ' || increment_by || ' ' || max_value || ' ' || cycle AS line
                FROM pg_sequences WHERE schemaname = 'public'`,
  triggers: `SELECT pg_get_triggerdef(t.oid) AS line FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = 'public' AND NOT t.tgisinternal`,
  views: `SELECT viewname || ' ' || definition AS line FROM pg_views WHERE schemaname = 'public'`,
  types: `SELECT t.typname || ' ' || t.typtype::text AS line FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
           WHERE n.nspname = 'public' AND (t.typtype IN ('e', 'd', 'r', 'm')
             OR (t.typtype = 'c' AND EXISTS (SELECT 1 FROM pg_class c WHERE c.oid = t.typrelid AND c.relkind = 'c')))`,
  functions: `SELECT pg_get_functiondef(p.oid) AS line FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
               WHERE n.nspname = 'public' AND p.prokind IN ('f', 'p')`,
}

/** The schema of `db`'s public namespace (see the module comment). */
export async function catalog(db: Queryable): Promise<Catalog> {
  const out: Catalog = {}
  for (const [name, sql] of Object.entries(SECTIONS)) {
    out[name] = (await db.query<{ line: string }>(sql)).map((r) => r.line).sort()
  }
  return out
}
