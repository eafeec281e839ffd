import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { entryModules, messageScopes, moduleClosure, scopesUsed } from '../scripts/message-usage.ts'
import { pageFile, pageMessages, type PageKey } from './routes.ts'

// The build ships the core scopes with the entry and each page's `pageMessages` with
// the page: a message of any other scope would show as its id. Which scopes (the part
// of a message id before its first dot) code uses is read from its string literals.

const root = fileURLToPath(new URL('..', import.meta.url))
const coreConfig = JSON.parse(readFileSync(`${root}locales/core-scopes.json`, 'utf8'))
// the error catalogue's messages are loaded for every page right after the first render
const core = new Set<string>([...coreConfig.scopes, 'error'])
const scopes = messageScopes(root)
const entry = entryModules(root)

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
