/**
 * What message ids the app's code names, read from its source (used by build.mjs to
 * put in each page's message chunk only the ids the page's code names, and by
 * src/page-messages.test.ts to check src/routes.ts `pageMessages`). A message id is
 * `<scope>.<name>`; code names one with a string literal (`'ticket.heading'`), a
 * prefix (`\`seatState.${state}\``, `'payment.' + kind`) or, for a whole scope, a `scope`
 * attribute naming it (`<LegalText scope="terms">`; any other bare word equal to a scope,
 * such as `call('profile')` or `data-testid="ticket"`, names nothing).
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

const importRe = /(?:^|[\s;])(?:import|export)\s(?:[^'"`;]*?\sfrom\s)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g
// `'scope.id'`, `\`scope.${x}\``, and a bare `'scope'`
const literalRe = /['"`]([a-zA-Z][a-zA-Z0-9]*)(\.[\w$.{}]*)?['"`]?/g
// route titles (`<scope>.title…`, not a section's `terms.s1.title`) are always in the core messages (build.mjs)
const titleRe = /^\.title\w*$/
// `scope="terms"`: a component reading a whole scope
const scopeAttrRe = /\bscope=\{?['"`]([a-zA-Z][a-zA-Z0-9]*)['"`]/g

/** The scopes of locales/en.json. */
export function messageScopes(root: string): Set<string> {
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
export function moduleClosure(start: string, stop = new Set<string>()): Set<string> {
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
 * The modules whose messages ship with the entry (core): the entry's closure, not walking
 * into the pages (src/page-loaders.ts) nor into a page's store the entry only starts early
 * (src/app/app-search.ts, fetched by main.tsx for a shared results link, whose messages show
 * only on the search form of the pages that carry them).
 */
export function entryModules(root: string, entry = 'src/main.tsx'): Set<string> {
  return moduleClosure(join(root, entry), new Set(['src/page-loaders.ts', 'src/app/app-search.ts'].map((f) => join(root, f))))
}

/**
 * Scopes whose messages `files` use: `byId` from literals that start with `<scope>.`
 * (route titles left out: they are core), `named` from a `scope` attribute naming
 * one (`<LegalText scope="terms">` reads `${scope}.heading`). Scope → files.
 */
export function scopesUsed(files: Iterable<string>, scopes: Set<string>) {
  const byId = new Map<string, Set<string>>()
  const named = new Map<string, Set<string>>()
  const add = (map: Map<string, Set<string>>, scope: string, f: string) => {
    if (!map.has(scope)) map.set(scope, new Set())
    map.get(scope)?.add(f)
  }
  for (const f of files) {
    const src = readFileSync(f, 'utf8')
    for (const m of src.matchAll(literalRe)) {
      const scope = m[1] as string
      if (scopes.has(scope) && m[2] && !titleRe.test(m[2])) add(byId, scope, f)
    }
    for (const m of src.matchAll(scopeAttrRe)) if (scopes.has(m[1] as string)) add(named, m[1] as string, f)
  }
  return { byId, named }
}

// quoted strings and template literals apart: an id in a `${…}` of a template is found too
const quotedRe = /'([^'\\\n]*)'|"([^"\\\n]*)"/g
const templateRe = /`([^`\\]*)`/g

/**
 * The ids of `en` (id → message) that `files` name: exact ids, every id under a
 * prefix that ends in `${` or `.`, and every id of a scope named bare.
 */
export function idsNamed(files: Iterable<string>, en: Record<string, string>): Set<string> {
  const ids = Object.keys(en)
  const scopes = new Set(ids.map((id) => id.split('.')[0]))
  const out = new Set<string>()
  const addPrefix = (prefix: string) => {
    for (const id of ids) if (id.startsWith(prefix)) out.add(id)
  }
  for (const f of files) {
    const src = readFileSync(f, 'utf8')
    for (const m of src.matchAll(scopeAttrRe)) if (scopes.has(m[1] as string)) addPrefix(`${m[1]}.`)
    for (const m of [...src.matchAll(quotedRe), ...src.matchAll(templateRe)]) {
      const s = (m[1] ?? m[2]) as string
      const scope = /^[a-zA-Z]\w*/.exec(s)?.[0]
      if (!scope || !scopes.has(scope)) continue
      if (s in en) out.add(s)
      else if (s.includes('${')) addPrefix(s.slice(0, s.indexOf('${')))
      else if (s.endsWith('.')) addPrefix(s)
    }
  }
  return out
}
