// README.md is the front door and docs/ holds the rest; this keeps them true to the code: every environment
// variable the server (and the harness that starts it) reads is documented once in docs/configuration.md and
// every documented one is read, every relative link and #anchor resolves, every repository path named in
// `code` exists, every "`NAME` in `file`" names a file that declares it, the reverse proxy shown is the one the
// tests run, and README stays short.
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { proxySite } from '../harness/nginx.ts'
import { readConfig } from '../server/config.ts'
import {
  anchors,
  codePaths,
  constantNames,
  declaredIn,
  declares,
  documentedVariables,
  envReads,
  linkTargets,
  REPO_FOLDERS,
  slug,
  tokenize,
} from './docs-check.ts'

const root = path.resolve(import.meta.dirname, '..')
const README_MAX_LINES = 250
const CONFIGURATION = 'docs/configuration.md'
// the docs the README sends a newcomer to (docs/spec.md, the product specification, is linked too)
const GUIDES = ['operating', 'configuration', 'deploying-the-app', 'architecture', 'testing', 'performance'].map((n) => `docs/${n}.md`)
// the system's own variables, which the harness reads to find programs; no setting of this project
const SYSTEM_VARIABLES = new Set(['PATH'])

const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8')

/** Files under `dir` (paths from the root), recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name)
    return e.isDirectory() ? filesUnder(rel) : [rel]
  })
}

/** The server's code and the harness that starts it for tests (not the tests themselves): where settings are read. */
function serverSources(): string[] {
  return [...filesUnder('server'), ...filesUnder('harness')].filter(
    (f) => /\.tsx?$/.test(f) && !f.startsWith('server/test/') && !/\.test\.tsx?$/.test(f),
  )
}

/** Variable → the files that read it. */
function variablesRead(): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const f of serverSources()) {
    for (const name of envReads(read(f))) if (!SYSTEM_VARIABLES.has(name)) found.set(name, [...(found.get(name) ?? []), f])
  }
  return found
}

/** README.md and the Markdown files of docs/ (not docs/pending/, notes waiting to be folded in). */
function markdownFiles(): string[] {
  return [
    'README.md',
    ...fs
      .readdirSync(path.join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ]
}

test('the scan finds every way the server reads a variable, and nothing in comments or strings', () => {
  const src = `
    // process.env.IN_A_COMMENT, env.ALSO_IN_A_COMMENT
    /* get('IN_A_BLOCK_COMMENT') */
    const a = process.env.DIRECT ?? 'process.env.IN_A_STRING'
    const b = process.env['BRACKETS'] + \`\${process.env.IN_A_TEMPLATE}\`
    const { DESTRUCTURED, RENAMED: renamed } = process.env
    const e = process.env
    const c = e.THROUGH_AN_ALIAS
    function readAll(env = process.env) {
      const get = (k: string) => env[k]?.trim()
      const need = (k: string): string => get(k) ?? ''
      const url = (k: string, fallback?: string) => need(k) || fallback
      for (const k of ['LOOPED_A', 'LOOPED_B']) if (!get(k)) {}
      map.get('NOT_AN_ACCESSOR_CALL')
      return [get('BY_GET'), need('BY_NEED'), url('BY_URL', 'x'), env.PARAMETER, /process.env.IN_A_REGEX/.test(x)]
    }
    const later = 'LOOKS_LIKE_ONE'
  `
  assert.equal([...envReads(src)].sort(), [
    'BRACKETS',
    'BY_GET',
    'BY_NEED',
    'BY_URL',
    'DESTRUCTURED',
    'DIRECT',
    'IN_A_TEMPLATE',
    'LOOPED_A',
    'LOOPED_B',
    'PARAMETER',
    'RENAMED',
    'THROUGH_AN_ALIAS',
  ])
  assert.equal(
    tokenize('a / b / c').map((t) => t.kind),
    ['id', 'punct', 'id', 'punct', 'id'],
  )
})

test('the scan agrees with what server/config.ts reads when run, in every mode', () => {
  const scanned = envReads(read('server/config.ts'))
  const modes: Record<string, string>[] = [
    {},
    { NODE_ENV: 'production' },
    { PAYMENT_PROVIDER: 'sslcommerz', SMTP_URL: 'smtp://x', SMS_PROVIDER: 'sslwireless', SMS_FALLBACK_PROVIDER: 'bulksmsbd' },
    { SMS_API_URL: 'https://relay.example/sms' },
    { SMS_PROVIDER: 'http-json', SMS_FALLBACK_PROVIDER: 'sslwireless', METRICS_TOKEN: 'x' },
  ]
  const unseen = new Set<string>()
  for (const mode of modes) {
    const env = new Proxy(mode, {
      get(target, key) {
        if (typeof key === 'string' && !scanned.has(key)) unseen.add(key)
        return Reflect.get(target, key)
      },
      ownKeys() {
        throw new Error('readConfig lists the whole environment: read each variable by name')
      },
    })
    readConfig(env)
  }
  assert.equal([...unseen], [], 'read by readConfig but not found by the scan')
})

test(`every variable the server reads is documented once in ${CONFIGURATION}, and every one documented is read`, () => {
  const readBy = variablesRead()
  const documented = documentedVariables(read(CONFIGURATION))
  assert.ok(readBy.size > 40, `found only ${readBy.size} variables: is the scan broken?`)
  const missing = [...readBy].filter(([v]) => !documented.has(v)).map(([v, files]) => `${v} (read in ${files.join(', ')})`)
  const twice = [...documented].filter(([, n]) => n > 1).map(([v, n]) => `${v} (${n} rows)`)
  const stale = [...documented.keys()].filter((v) => !readBy.has(v))
  assert.equal(missing, [], `read by the server but not in a table row of ${CONFIGURATION}`)
  assert.equal(twice, [], `documented in more than one row of ${CONFIGURATION}`)
  assert.equal(stale, [], `documented in ${CONFIGURATION} but read nowhere in server/ or harness/`)
})

test(`README.md is at most ${README_MAX_LINES} lines and links every guide in docs/`, () => {
  const readme = read('README.md')
  const lines = readme.replace(/\n$/, '').split('\n').length
  assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines (at most ${README_MAX_LINES}: move the detail into docs/)`)
  const linked = new Set(linkTargets(readme).map((t) => path.posix.normalize(t.split('#')[0] as string)))
  assert.equal(
    GUIDES.filter((g) => !linked.has(g)),
    [],
    'guides README.md does not link',
  )
})

test('the anchors are made as GitHub makes them', () => {
  assert.is(slug('Behind a proxy: `TRUST_PROXY`'), 'behind-a-proxy-trust_proxy')
  assert.is(slug("Going live: an operator's checklist"), 'going-live-an-operators-checklist')
  assert.is(slug('Offline: the service worker and [saved tickets](x.md)'), 'offline-the-service-worker-and-saved-tickets')
  assert.equal([...anchors('# A\n## A\n```sh\n# not a heading\n```\n### A b')], ['a', 'a-1', 'a-b'])
})

test('every relative link in README.md and docs/ resolves: the file exists, an #anchor names a heading of it', () => {
  const broken: string[] = []
  for (const file of markdownFiles()) {
    for (const target of linkTargets(read(file))) {
      if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) continue
      const [rel = '', anchor] = target.split('#')
      const to = rel ? path.posix.normalize(path.posix.join(path.posix.dirname(file), rel)) : file
      if (to.startsWith('..') || !fs.existsSync(path.join(root, to))) broken.push(`${file}: ${target} (no ${to})`)
      else if (anchor !== undefined && !to.endsWith('.md'))
        broken.push(`${file}: ${target} (an anchor in a file that is not Markdown drifts with every edit)`)
      else if (anchor !== undefined && !anchors(read(to)).has(anchor)) broken.push(`${file}: ${target} (no heading #${anchor} in ${to})`)
    }
  }
  assert.equal(broken, [], 'broken links')
})

test('every repository path in `code` exists, and every "`NAME` in `file`" names a file that declares it', () => {
  const wrong: string[] = []
  for (const file of markdownFiles()) {
    const md = read(file)
    for (const p of codePaths(md)) if (!fs.existsSync(path.join(root, p))) wrong.push(`${file}: \`${p}\` does not exist`)
    for (const claim of declaredIn(md)) {
      if (!codePaths(`\`${claim.path}\``).length || !fs.statSync(path.join(root, claim.path), { throwIfNoEntry: false })?.isFile()) continue
      const src = read(claim.path)
      for (const name of claim.names) if (!declares(src, name)) wrong.push(`${file}: \`${name}\` is not declared in \`${claim.path}\``)
    }
  }
  assert.equal(wrong, [], 'paths and names the docs get wrong')
})

test('every `CONSTANT_NAME` in README.md and docs/ is named in the code (a variable, error code, status or constant)', () => {
  const code = REPO_FOLDERS.flatMap((d) => (fs.existsSync(path.join(root, d)) ? filesUnder(d) : []))
    .concat(['build.mjs', 'package.json'])
    .filter((f) => !f.endsWith('.md'))
    .map(read)
    .join('\n')
  const words = new Set(code.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g))
  const gone = markdownFiles().flatMap((file) => [...constantNames(read(file))].filter((n) => !words.has(n)).map((n) => `${file}: \`${n}\``))
  assert.equal(gone, [], 'names the code no longer has')
})

test('the reverse proxy in docs/operating.md is the one harness/nginx.ts runs in the tests', () => {
  const normal = (s: string) =>
    s
      .replace(/#.*$/gm, '')
      .replace(/\s+/g, ' ')
      .replace(/127\.0\.0\.1:\d+/g, 'UPSTREAM')
      .trim()
  const locations = (s: string) => [...s.matchAll(/location [^{]+\{[^}]*\}/g)].map((m) => normal(m[0]))
  const shown = [...read('docs/operating.md').matchAll(/```nginx\n([\s\S]*?)```/g)].flatMap((m) => locations(m[1] as string))
  const run = locations(proxySite(8080, 'http://127.0.0.1:8080'))
  assert.ok(run.length === 3, 'harness/nginx.ts proxySite has the 413 location, location / and the seat stream location')
  assert.equal(shown, run, 'docs/operating.md shows the locations the proxy tests run (harness/nginx.ts proxySite), in order')
})

test.run()
