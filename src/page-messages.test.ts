import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pageFile, pageMessages, type PageKey } from './routes.ts'

// The build ships the core scopes with the entry and each page's `pageMessages` with
// the page: a message of any other scope would show as its id. Which scopes (the part
// of a message id before its first dot) code uses is read from its string literals.

const importRe = /(?:^|[\s;])(?:import|export)\s(?:[^'"`;]*?\sfrom\s)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g
// `'scope.id'`, `\`scope.${x}\``, and a bare `'scope'`
const literalRe = /['"`]([a-zA-Z][a-zA-Z0-9]*)(\.[\w$.{}]*)?['"`]?/g
// route titles are always in the core messages (build.mjs)
const titleRe = /\.title\w*$/

/** The scopes of locales/en.json. */
function messageScopes(root: string): Set<string> {
  const en = JSON.parse(readFileSync(join(root, 'locales/en.json'), 'utf8'))
  return new Set(Object.keys(en).map((id) => id.split('.')[0]))
}

/** Relative imports (static and dynamic) of a source file, as absolute paths. */
function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8')
  return [...src.matchAll(importRe)]
    .map((m) => resolve(dirname(file), (m[1] ?? m[2]) as string))
    .filter((f) => /\.(tsx?|mjs|js)$/.test(f) && existsSync(f))
}

/** Every source file reachable from `start` (static and dynamic imports), not walking into `stop` files. */
function moduleClosure(start: string, stop = new Set<string>()): Set<string> {
  const seen = new Set<string>()
  const walk = (f: string) => {
    if (seen.has(f) || stop.has(f)) return
    seen.add(f)
    for (const g of importsOf(f)) walk(g)
  }
  walk(start)
  return seen
}

/**
 * Scopes whose messages `files` use: `byId` from literals that start with `<scope>.`
 * (route titles left out: they are core), `named` from bare literals equal to a
 * scope (`<LegalText scope="terms">` reads `${scope}.heading`). Scope → files.
 */
function scopesUsed(files: Iterable<string>, scopes: Set<string>) {
  const byId = new Map<string, Set<string>>()
  const named = new Map<string, Set<string>>()
  const add = (map: Map<string, Set<string>>, scope: string, f: string) => {
    if (!map.has(scope)) map.set(scope, new Set())
    map.get(scope)?.add(f)
  }
  for (const f of files) {
    for (const m of readFileSync(f, 'utf8').matchAll(literalRe)) {
      const scope = m[1] as string
      if (!scopes.has(scope)) continue
      if (!m[2]) add(named, scope, f)
      else if (!titleRe.test(m[2])) add(byId, scope, f)
    }
  }
  return { byId, named }
}

const root = fileURLToPath(new URL('..', import.meta.url))
const coreConfig = JSON.parse(readFileSync(`${root}locales/core-scopes.json`, 'utf8'))
// the error catalogue's messages are loaded for every page right after the first render
const core = new Set<string>([...coreConfig.scopes, 'error'])
const scopes = messageScopes(root)
const entry = moduleClosure(`${root}src/main.tsx`, new Set([`${root}src/page-loaders.ts`]))

const where = (used: Map<string, Set<string>>, scope: string) => [...(used.get(scope) ?? [])].map((f) => relative(root, f)).join(', ')

test('the entry (shell, overlays, stores it imports) uses only core messages', () => {
  const { byId } = scopesUsed(entry, scopes)
  const extra = [...byId.keys()].filter((s) => !core.has(s))
  assert.equal(
    extra.map((s) => `${s} (${where(byId, s)})`),
    [],
  )
})

for (const [page, declared] of Object.entries(pageMessages) as [PageKey, readonly string[]][]) {
  test(`${page}: pageMessages names every scope the page's code uses, and only those`, () => {
    const files = [...moduleClosure(`${root}${pageFile(page)}`)].filter((f) => !entry.has(f))
    const { byId, named } = scopesUsed(files, scopes)
    const missing = [...byId.keys()].filter((s) => !core.has(s) && !declared.includes(s))
    assert.equal(
      missing.map((s) => `${s} (${where(byId, s)})`),
      [],
      'used but not in pageMessages',
    )
    const unused = declared.filter((s) => !byId.has(s) && !named.has(s))
    assert.equal(unused, [], 'in pageMessages but not used')
    for (const s of declared) assert.ok(scopes.has(s) && !core.has(s), `${s} is a non-core scope of en.json`)
  })
}

test('the entry names only the error messages that ship with it; the rest come after the first render', () => {
  const coreErrors = new Set<string>(coreConfig.coreErrors)
  const named = new Set<string>()
  for (const f of entry) for (const m of readFileSync(f, 'utf8').matchAll(/['"](error\.\w+)['"]/g)) named.add(m[1] as string)
  assert.equal(
    [...named].filter((id) => !coreErrors.has(id)),
    [],
    'error ids the shell shows without a request',
  )
  assert.ok(coreErrors.has('error.NO_INTERNET_CONNECTION') && coreErrors.has('error.unknown'))
})

test.run()
