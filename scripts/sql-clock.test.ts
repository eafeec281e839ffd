// SQL never reads the database's own clock (docs/testing.md, "Tests pass at any hour"): the app passes its time, so
// a real PostgreSQL server agrees with it and TEST_NOW moves every rule. A test that compared a stored time with
// PostgreSQL's now() failed whenever TEST_NOW was behind the machine's clock (seat-lock-nowait-on-postgres.test,
// delivery-pg.test). Searched: every string and template literal in the TypeScript of server/, harness/, bench/ and
// e2e/, and the SQL files under server/db/ (a column's `DEFAULT now()` in a migration is allowed: rows the app
// inserts name their time). Tests may write their own rows with now(); they may not compare with it or count from it.
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const root = path.resolve(import.meta.dirname, '..')
const skipDirs = new Set(['node_modules', 'dist', '.data', '.tmp'])
/** The database's clock in SQL: now(), current_timestamp, clock_timestamp(), statement_timestamp(), transaction_timestamp(), localtimestamp. */
const clock = String.raw`(?:(?<![.\w])(?:now|clock_timestamp|statement_timestamp|transaction_timestamp)\s*\(\s*\)|\bcurrent_(?:timestamp|date|time)\b|\blocaltimestamp\b)`
const dbClock = new RegExp(clock, 'i')
/**
 * The database's clock compared with or counted from (`> now()`, `now() - interval …`, `BETWEEN … AND now()`): what
 * a test may not do. A test's own rows may still be written with now() (a created_at nobody compares).
 */
const comparedClock = new RegExp(String.raw`(?:[<>]=?|between[^;]*and)\s*${clock}|${clock}\s*(?:[<>+-]|and)`, 'i')
/** Tests and their tools: only comparisons with the database clock are refused there. */
const isTestCode = (file: string) => /\.(test|spec)\.tsx?$|(^|\/)(test|e2e|bench|harness)\//.test(file)

function list(dir: string, ext: RegExp): string[] {
  if (!fs.existsSync(path.join(root, dir))) return []
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name)
    if (e.isDirectory()) return skipDirs.has(e.name) ? [] : list(rel, ext)
    return ext.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : []
  })
}

/**
 * The string and template literals of TypeScript source with the line each starts on (a small scanner: comments
 * skipped, template substitutions scanned as code; the installed TypeScript 7 has no JavaScript API).
 */
export function literals(src: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = []
  const lineAt = (i: number) => src.slice(0, i).split('\n').length
  // each open template literal's count of unclosed braces in its current substitution
  const templates: number[] = []
  let i = 0
  const template = () => {
    // inside a template's text: up to its end or its next substitution
    const start = i
    let text = ''
    while (i < src.length && src[i] !== '`' && !(src[i] === '$' && src[i + 1] === '{')) {
      text += src[i] === '\\' ? src[i++]! + (src[i++] ?? '') : src[i++]!
    }
    out.push({ line: lineAt(start), text })
    if (src[i] === '`') {
      i++
      return
    }
    i += 2
    templates.push(0)
  }
  while (i < src.length) {
    const c = src[i]!
    const next = src[i + 1]
    if (c === '/' && next === '/') i = src.indexOf('\n', i) === -1 ? src.length : src.indexOf('\n', i)
    else if (c === '/' && next === '*') i = src.indexOf('*/', i + 2) === -1 ? src.length : src.indexOf('*/', i + 2) + 2
    else if (c === "'" || c === '"') {
      const start = i++
      let text = ''
      while (i < src.length && src[i] !== c && src[i] !== '\n') text += src[i] === '\\' ? src[i++]! + (src[i++] ?? '') : src[i++]!
      i++
      out.push({ line: lineAt(start), text })
    } else if (c === '`') {
      i++
      template()
    } else if (templates.length && c === '{') {
      templates[templates.length - 1]!++
      i++
    } else if (templates.length && c === '}') {
      i++
      if (templates[templates.length - 1] === 0) {
        templates.pop()
        template()
      } else templates[templates.length - 1]!--
    } else i++
  }
  return out
}

/** `file:line: text` of each string or template literal in `file` that reads the database's clock. */
function inLiterals(file: string): string[] {
  const refused = isTestCode(file) ? comparedClock : dbClock
  return literals(fs.readFileSync(path.join(root, file), 'utf8'))
    .filter((l) => refused.test(l.text.replace(/\bDEFAULT\s+now\(\)/gi, '')))
    .map((l) => `${file}:${l.line}: ${l.text.trim().slice(0, 120)}`)
}

/** `file:line: text` of each SQL line under server/db/ that reads the database's clock (comments and column defaults aside). */
function inSql(file: string): string[] {
  return fs
    .readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .flatMap((l, i) => {
      const code = l.replace(/--.*$/, '')
      return dbClock.test(code.replace(/\bDEFAULT\s+now\(\)/gi, '')) ? [`${file}:${i + 1}: ${l.trim()}`] : []
    })
}

test('no SQL in the code or its tests reads the database clock', () => {
  const files = ['server', 'harness', 'bench', 'e2e'].flatMap((d) => list(d, /\.(ts|tsx|mts)$/))
  assert.ok(files.length > 100, `the TypeScript was found (${files.length} files)`)
  const sql = list('server/db', /\.sql$/)
  assert.ok(sql.length > 10, `the SQL files were found (${sql.length})`)
  const found = [...files.flatMap(inLiterals), ...sql.flatMap(inSql)]
  assert.equal(found, [], `SQL that reads the database's clock (pass the app's time as a parameter):\n${found.join('\n')}`)
})

test('the search finds the database clock where it is, in SQL and not in code', () => {
  const found = literals(
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a module, scanned as code
    "const at = now()\nawait db.query('SELECT 1 FROM t WHERE a > now()', [Date.now()])\n// now() in a comment\nq(`x ${f(`y ${now()}`)} clock_timestamp()`)",
  )
  assert.equal(
    found.filter((l) => dbClock.test(l.text)).map((l) => l.line),
    [2, 4],
  )
  assert.ok(dbClock.test('SELECT 1 FROM seat_locks WHERE expires_at > now()'))
  assert.not.ok(dbClock.test('const b = { t0: Date.now(), t1: performance.now() }'))
  assert.ok(comparedClock.test("WHERE admitted_at < now() - interval '1 second'"))
  assert.ok(comparedClock.test('WHERE valid_until >= current_date'))
  assert.ok(comparedClock.test("SET expiration_time = now() - interval '1 second'"))
  assert.not.ok(comparedClock.test('INSERT INTO passengers (mobile, created_at) VALUES ($1, now())'))
  assert.ok(isTestCode('server/db/migrate.test.ts') && isTestCode('e2e/round-trip.spec.ts') && isTestCode('server/test/pg.ts'))
  assert.not.ok(isTestCode('server/trips/seat-locks.ts'))
  assert.ok(dbClock.test('WHERE t.departure_at > CURRENT_TIMESTAMP'))
  assert.not.ok(dbClock.test('WHERE expires_at > $2'))
  assert.not.ok(dbClock.test('the hold knows when it ends'))
})

test.run()
