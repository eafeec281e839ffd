/**
 * The size report counts what a route's shell makes the browser download before the first
 * render, and the chunk merge keeps every module once, in groups that never import each other.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { mergeChunks, planGroups, staticClosure, type Metafile } from './merge-chunks.mjs'
import { checkBudget, shellScripts, sizeReport } from './size-report.mjs'

type Output = Metafile['outputs'][string]
type Meta = Metafile

/** A folder holding `files` (path → text), removed after `fn`. */
async function inFolder(files: Record<string, string>, fn: (dir: string) => Promise<void> | void) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundling-'))
  try {
    for (const [f, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true })
      fs.writeFileSync(path.join(dir, f), text)
    }
    await fn(dir)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const out = (imports: [string, string][] = [], extra: Partial<Output> = {}): Output => ({
  imports: imports.map(([p, kind]) => ({ path: p, kind })),
  exports: [],
  inputs: {},
  bytes: 100,
  ...extra,
})

test('shellScripts: every script and module preload of a shell, once each, in order', () => {
  const html = `<link rel="stylesheet" href="/s.css"><link rel="modulepreload" href="/assets/a.js">
    <script defer src="/config.js"></script><script type="module" src="/assets/main.js"></script>
    <link rel="modulepreload" href="/assets/a.js"><script type="application/json" id="x">{}</script>`
  assert.equal(shellScripts(html), ['/assets/a.js', '/config.js', '/assets/main.js'])
})

test('sizeReport: a preloaded file and its static imports are counted, a lazy import is not', async () => {
  const big = 'x'.repeat(5000)
  await inFolder(
    {
      'dist/index.html':
        '<script defer src="/config.js"></script><script type="module" src="/assets/main.js"></script><link rel="modulepreload" href="/assets/page.js">',
      'dist/config.js': 'window.c=1',
      'dist/assets/main.js': 'main',
      'dist/assets/page.js': 'page',
      'dist/assets/shared.js': big,
      'dist/assets/later.js': 'later'.repeat(1000),
      'dist/s.css': 'a{}',
    },
    (root) => {
      const metafile: Meta = {
        inputs: {},
        outputs: {
          'dist/assets/main.js': out([['dist/assets/later.js', 'dynamic-import']]),
          'dist/assets/page.js': out([['dist/assets/shared.js', 'import-statement']]),
          'dist/assets/shared.js': out(),
          'dist/assets/later.js': out(),
        },
      }
      const report = sizeReport({
        metafile,
        root,
        outdir: path.join(root, 'dist'),
        routes: [{ path: '/', page: 'p', shell: 'index.html' }],
        cssFile: path.join(root, 'dist/s.css'),
      })
      const row = report.routes[0]!
      assert.equal(row.files.sort(), ['dist/assets/main.js', 'dist/assets/page.js', 'dist/assets/shared.js', 'dist/config.js'])
      assert.is(row.requests, 4)
      assert.ok(row.js.raw === 4 + 4 + 5000 + 'window.c=1'.length, `raw ${row.js.raw}`)
      // over the request budget: named
      const many = { ...report, routes: [{ ...row, requests: 9 }] }
      assert.equal(checkBudget(many), ['/ loads 9 scripts before its first render > 8'])
    },
  )
})

/** A split build: entry e imports a; pages p1, p2 (lazy) share s, p2 also t; t imports s. */
function splitBuild(): Meta {
  const o = (imports: [string, string][], exports: string[], entryPoint?: string) => out(imports, { exports, ...(entryPoint ? { entryPoint } : {}) })
  return {
    inputs: {},
    outputs: {
      'd/e.js': o(
        [
          ['d/a.js', 'import-statement'],
          ['d/p1.js', 'dynamic-import'],
          ['d/p2.js', 'dynamic-import'],
        ],
        [],
        'src/main.tsx',
      ),
      'd/a.js': o([], ['a', 'b']),
      'd/p1.js': o(
        [
          ['d/a.js', 'import-statement'],
          ['d/s.js', 'import-statement'],
        ],
        ['default'],
        'src/p1-page.tsx',
      ),
      'd/p2.js': o(
        [
          ['d/s.js', 'import-statement'],
          ['d/t.js', 'import-statement'],
        ],
        ['default'],
        'src/p2-page.tsx',
      ),
      'd/s.js': o([['d/a.js', 'import-statement']], ['a']),
      'd/t.js': o([['d/s.js', 'import-statement']], ['a']),
    },
  }
}

test('planGroups: the entry closure is one group; each chunk is in one group; a render over its limit gets fewer', () => {
  const metafile = splitBuild()
  const firstRenders = new Map([
    ['p1', ['d/p1.js']],
    ['p2', ['d/p2.js']],
  ])
  const loose = planGroups({ metafile, entryOut: 'd/e.js', firstRenders })
  assert.is(loose.get('d/e.js'), 'app')
  assert.is(loose.get('d/a.js'), 'app')
  // by the renders needing them: p1 alone, p2 with t, s shared
  assert.is.not(loose.get('d/s.js'), loose.get('d/p1.js'))
  assert.is(loose.get('d/p2.js'), loose.get('d/t.js'))
  const groupsOf = (g: Map<string, string>, files: string[]) => {
    const closure = new Set<string>()
    for (const f of files) staticClosure(metafile, f, closure)
    return new Set([...closure].map((f) => g.get(f)).filter((k) => k !== 'app'))
  }
  assert.is(groupsOf(loose, ['d/p2.js']).size, 2)
  const tight = planGroups({ metafile, entryOut: 'd/e.js', firstRenders, maxGroups: () => 1 })
  for (const page of ['d/p1.js', 'd/p2.js']) assert.is(groupsOf(tight, [page]).size, 1, page)
  assert.is(tight.size, loose.size)
})

test('mergeChunks: merged files run every module once, keep lazy pages lazy, and name each file by its content', async () => {
  const metafile = splitBuild()
  const code: Record<string, string> = {
    'd/a.js': 'globalThis.__runs = (globalThis.__runs ?? 0) + 1; let n = 0; function bump() { return ++n } export { bump as a, n as b }',
    'd/s.js': 'import { a as bump } from "./a.js"; function viaS() { return bump() } export { viaS as a }',
    'd/t.js': 'import { a as viaS } from "./s.js"; function viaT() { return viaS() } export { viaT as a }',
    'd/p1.js': 'import { a as bump } from "./a.js"; import { a as viaS } from "./s.js"; export default function p1() { return [bump(), viaS()] }',
    'd/p2.js': 'import { a as viaS } from "./s.js"; import { a as viaT } from "./t.js"; export default function p2() { return [viaS(), viaT()] }',
    'd/e.js':
      'import { a as bump } from "./a.js"; globalThis.__entry = { bump, p1: () => import("./p1.js").then((m) => m.default()), p2: () => import("./p2.js").then((m) => m.default()) }',
  }
  const groups = planGroups({
    metafile,
    entryOut: 'd/e.js',
    firstRenders: new Map([
      ['p1', ['d/p1.js']],
      ['p2', ['d/p2.js']],
    ]),
  })
  await inFolder({}, async (root) => {
    const merged = await mergeChunks({ metafile, files: new Map(Object.entries(code)), groups, outBase: 'd', root })
    assert.is(merged.outputs.size, new Set(groups.values()).size)
    for (const [name, text] of merged.outputs) {
      assert.match(name, /^[\w-]+-[0-9A-F]{8}\.js$/)
      fs.mkdirSync(path.join(root, 'd'), { recursive: true })
      fs.writeFileSync(path.join(root, 'd', name.replace(/\.js$/, '.mjs')), text.replace(/\.js"/g, '.mjs"'))
    }
    const g = globalThis as unknown as { __runs?: number; __entry: { bump: () => number; p1: () => Promise<number[]>; p2: () => Promise<number[]> } }
    delete g.__runs
    await import(pathToFileURL(path.join(root, merged.fileOf.get('d/e.js')!.replace(/\.js$/, '.mjs'))).href)
    // one counter shared by the entry and both lazy pages: each module ran once
    assert.is(g.__entry.bump(), 1)
    assert.equal(await g.__entry.p1(), [2, 3])
    assert.equal(await g.__entry.p2(), [4, 5])
    assert.is(g.__runs, 1)
    // a group's file imports another's by its final name; the names differ with the content
    const main = merged.outputs.get(path.basename(merged.fileOf.get('d/e.js')!))!
    assert.not.match(main, /group:/)
    assert.is(new Set(merged.fileOf.values()).size, merged.outputs.size)
  })
})

test.run()
