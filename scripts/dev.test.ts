/**
 * `npm run dev` (scripts/dev.mjs) in a copy of the project: it serves the app with its demo data, a changed page is
 * served after a rebuild of the client alone, and a changed server file is served by the same server process on the
 * database it keeps open (a changed database adapter starts the process again). The
 * times from the save to the change being served are printed (DEV_TEST_PORT: the port, else a free one).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { freePort } from '../harness/spawn-server.ts'

const root = path.resolve(import.meta.dirname, '..')
// what `npm run dev` reads: the client's and the server's sources, the build's helpers and the demo data
const copied = [
  'src',
  'server',
  'contract',
  'locales',
  'design-system',
  'data',
  'scripts',
  'package.json',
  'panda.config.ts',
  'tsconfig.json',
  'build.mjs',
]
const START_MS = 240_000
const CHANGE_MS = 60_000

/** Polls `check` every 25 ms until it holds; fails naming `what` after `ms`. */
async function until(check: () => boolean | Promise<boolean>, what: string, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !(await check()); await new Promise((r) => setTimeout(r, 25))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
  }
}

let dir = ''
let dev: ChildProcess | null = null
let out = ''
let base = ''

/** Every script the shell at / loads, and what they import, as text (hashed names: each fetched once). */
const seen = new Map<string, string>()
async function servedScripts(): Promise<string[]> {
  const shell = await (await fetch(`${base}/`)).text()
  const entry = /<script type="module" src="([^"]+)"/.exec(shell)?.[1]
  if (!entry) return []
  const queue = [new URL(entry, base).href]
  const texts: string[] = []
  const visited = new Set<string>()
  while (queue.length) {
    const url = queue.shift()!
    if (visited.has(url)) continue
    visited.add(url)
    let text = seen.get(url)
    if (text === undefined) {
      const r = await fetch(url)
      if (!r.ok) continue
      text = await r.text()
      seen.set(url, text)
    }
    texts.push(text)
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.\/[^"]+\.js)"/g)) queue.push(new URL(m[1]!, url).href)
  }
  return texts
}

/** Whether GET `p` answers 2xx; throws once `npm run dev` has exited. */
async function ok(p: string): Promise<boolean> {
  if (dev?.exitCode !== null) throw new Error(`npm run dev exited (${dev?.exitCode}):\n${out}`)
  return (await fetch(`${base}${p}`).catch(() => null))?.ok ?? false
}

test.before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-loop-'))
  for (const f of copied) fs.cpSync(path.join(root, f), path.join(dir, f), { recursive: true })
  fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(dir, 'node_modules'))
  const port = Number(process.env.DEV_TEST_PORT) || (await freePort())
  base = `http://127.0.0.1:${port}`
  const { DATABASE_URL: _db, NODE_ENV: _env, DIST_DIR: _dist, DATA_DIR: _data, ...env } = process.env
  // its own process group: the end stops npm, the watcher and the server together
  dev = spawn('npm', ['run', 'dev'], {
    cwd: dir,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  dev.stdout!.on('data', (d) => (out += d))
  dev.stderr!.on('data', (d) => (out += d))
})

test.after(async () => {
  if (dev?.pid && dev.exitCode === null) {
    const exited = new Promise((r) => dev!.once('exit', r))
    process.kill(-dev.pid, 'SIGTERM')
    await exited
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

test('npm run dev serves the app with its demo data', async () => {
  const t0 = performance.now()
  await until(() => ok('/api/originCities'), `npm run dev to answer:\n${out}`, START_MS)
  const cities = (await (await fetch(`${base}/api/originCities`)).json()) as { data: unknown[] }
  assert.ok(cities.data.length > 0, 'the demo network is there')
  const scripts = await servedScripts()
  assert.ok(scripts.length > 1, 'the shell loads the entry, which imports the pages')
  const config = await (await fetch(`${base}/config.js`)).text()
  assert.match(config, 'serviceWorker: false')
  console.log(`  npm run dev: first answer ${Math.round(performance.now() - t0)} ms after the start`)
})

test('a changed page is served after the client alone is rebuilt', async () => {
  const marker = `dev-probe-${process.pid}-${Date.now()}`
  const page = path.join(dir, 'src/pages/home/notices.tsx')
  assert.not.ok((await servedScripts()).some((s) => s.includes(marker)))
  const t0 = performance.now()
  // a legal comment: esbuild keeps it in the page's chunk, and the page's behaviour is unchanged
  fs.appendFileSync(page, `//! ${marker}\n`)
  await until(async () => (await servedScripts()).some((s) => s.includes(marker)), `the changed page to be served:\n${out}`, CHANGE_MS)
  console.log(`  npm run dev: page change served ${Math.round(performance.now() - t0)} ms after the save`)
  assert.match(out, /\[dev\] client rebuilt in \d+ ms \(src\/pages\/home\/notices\.tsx\)/)
  assert.is(out.match(/Ready on /g)?.length, 1, 'the server was not restarted')
})

/** The stylesheet the shell at / links. */
async function servedCss(): Promise<string> {
  const href = /<link rel="stylesheet" href="([^"]+)"/.exec(await (await fetch(`${base}/`)).text())?.[1]
  return href ? (await fetch(new URL(href, base))).text() : ''
}

test('a style a page starts using is in the stylesheet served next', async () => {
  // a value no file of the project uses
  const rule = /outline-offset:\s*7\.25px/
  assert.not.match(await servedCss(), rule)
  const t0 = performance.now()
  fs.appendFileSync(path.join(dir, 'src/pages/home/notices.tsx'), `export const devProbeStyle = css({ outlineOffset: '7.25px' })\n`)
  await until(async () => rule.test(await servedCss()), `the new style to be served:\n${out}`, CHANGE_MS)
  console.log(`  npm run dev: new style served ${Math.round(performance.now() - t0)} ms after the save`)
})

test('a changed server file is served in the same server process, on the database it keeps open', async () => {
  const marker = `dev-probe-${process.pid}-${Date.now()}`
  const t0 = performance.now()
  // a module the server imports, not its entry: the changed code is loaded afresh, not only the entry
  fs.appendFileSync(path.join(dir, 'server/app.ts'), `console.log('${marker}')\n`)
  // the marker is printed by the new code as it loads, before it is ready
  const reloaded = () => {
    const at = out.indexOf(marker)
    return at >= 0 && out.indexOf('Ready on ', at) > at
  }
  await until(reloaded, `the server to serve the new code:\n${out}`, CHANGE_MS)
  await until(() => ok('/api/originCities'), 'the reloaded server to answer', CHANGE_MS)
  console.log(`  npm run dev: server change answered ${Math.round(performance.now() - t0)} ms after the save`)
  assert.is(out.match(/Ready on /g)?.length, 2)
  assert.match(out, /\[dev\] server reloaded in \d+ ms \(the database kept open\)/)
  assert.is(out.match(/\[dev\] server ready /g)?.length, 1, 'one server process, started once')
})

test('a changed database adapter starts the server process again', async () => {
  const t0 = performance.now()
  fs.appendFileSync(path.join(dir, 'server/db/db.ts'), '\n')
  await until(() => out.match(/\[dev\] server ready /g)?.length === 2, `a second server process to be ready:\n${out}`, CHANGE_MS)
  assert.ok(await ok('/api/originCities'))
  console.log(`  npm run dev: database adapter change answered ${Math.round(performance.now() - t0)} ms after the save`)
})

test.run()
