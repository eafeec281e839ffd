#!/usr/bin/env node
// npm test: lint (Biome: format and lint), typecheck, build, unit tests (uvu), server tests (uvu), browser tests
// (Playwright in Debian Chromium against the real server), the booking journey on PostgreSQL, then one summary line
// `N passed, N failed, N skipped` after a line per step with its seconds. Pass step names to run only those:
// `npm test -- unit e2e` (an unknown name fails, naming the steps). Every `*.test.ts` in the tree runs, wherever
// it lives: those under server/ in the server step, the others in the unit step; a step that ran no test fails.
// The server step's files run in TEST_WORKERS (3) uvu processes that take the next file as they free up, the
// slowest first (the last run's times, in .tmp/test-times.json).
// The server and e2e-pg steps run on Node 24, the production runtime: NODE24_BIN, else this Node when it is 24,
// else the one in ~/.cache/bus-ticketing/node-24.21.0 (XDG_CACHE_HOME), installed there from the npm registry's
// node-<platform>-<arch> package when missing. NODE24_BIN=none, or an install that fails, runs them on this Node
// with one skipped test saying so.
// A test that cannot run here (no PostgreSQL binaries, no Chromium, no Node 24) is skipped and
// named in the summary; when CI is set every skipped test counts as failed.
// SERVER_TESTS (UNIT_TESTS) narrows the server (unit) step to the test files whose name matches a pattern; the
// summary names it. TEST_NOW (an ISO instant) starts the unit and server tests' clock there (scripts/test-now.mjs).
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { exitWhenWritten } from './exit-when-written.mjs'
import { reportFailures, strip } from './report-failures.mjs'

const root = path.resolve(import.meta.dirname, '..')
const only = process.argv.slice(2)
const uvu = ['--import', 'tsx', 'scripts/uvu-files.mjs']
const ci = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0'
const totals = { passed: 0, failed: 0, skipped: 0 }
const lines = []
const skipLines = []
const failLines = []
/** Settings that change what ran (SERVER_TESTS, TEST_NOW), named before the counts. */
const notes = []

/**
 * Runs `cmd`, echoing its output line by line (two at once do not mix their lines); answers its exit code and
 * output. `onChild` gets the process, with an IPC channel (a uvu worker).
 */
function run(cmd, args, env = {}, onChild = null) {
  return new Promise((resolve) => {
    let out = ''
    const stdio = ['ignore', 'pipe', 'pipe', ...(onChild ? ['ipc'] : [])]
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio })
    const echo = (stream) => {
      let partial = ''
      const write = (d) => {
        out += d
        const text = partial + d
        const end = text.lastIndexOf('\n') + 1
        partial = text.slice(end)
        if (end) stream.write(text.slice(0, end))
      }
      write.flush = () => partial && stream.write(`${partial}\n`)
      return write
    }
    const stdout = echo(process.stdout)
    const stderr = echo(process.stderr)
    child.stdout.on('data', stdout)
    child.stderr.on('data', stderr)
    onChild?.(child)
    child.on('close', (code, signal) => {
      stdout.flush()
      stderr.flush()
      resolve({ code: code ?? 1, signal, out })
    })
  })
}

const sum = (t, re) => [...t.matchAll(re)].reduce((a, m) => a + Number(m[1]), 0)

/** The `SKIPPED: <suite> — <test>: <reason>` lines of a step's output (server/test/skip.ts, e2e/run-specs.ts). */
function skippedLines(out) {
  return [...strip(out).matchAll(/^SKIPPED: .+$/gm)].map((m) => m[0])
}

/** The first lines of each failure a step printed (uvu `FAIL` blocks, Playwright `✘` lines), repeated at the end so a CI log's tail names them. */
function failureLines(out) {
  const t = strip(out).split('\n')
  const found = []
  t.forEach((line, i) => {
    if (/^\s*FAIL\s/.test(line)) found.push(...t.slice(i, i + 8).filter((l) => l.trim()))
    else if (/^\s*✘/.test(line)) found.push(line)
  })
  return found
}

/** Passed, failed and skipped tests of uvu runs; a non-zero exit without a failed test counts as one failure. */
function uvuCounts(r) {
  const t = strip(r.out)
  const ok = sum(t, /Passed:\s+(\d+)/g)
  const bad = sum(t, /Total:\s+(\d+)/g) - ok
  return { ok, bad: bad + (r.code !== 0 && bad === 0 ? 1 : 0), skipped: sum(t, /Skipped:\s+(\d+)/g) }
}

/** Counts of a Playwright run from its JSON report, or the skip lines when no browser ran. */
function playwrightCounts(r, report) {
  if (!fs.existsSync(report)) {
    // e2e/run-specs.ts exits 1 under CI after naming the tests it could not run (counted failed below)
    const skipped = skippedLines(r.out).length
    return { ok: 0, bad: skipped ? 0 : 1, skipped }
  }
  const json = JSON.parse(fs.readFileSync(report, 'utf8'))
  const s = json.stats ?? {}
  const bad = (s.unexpected ?? 0) + (r.code !== 0 && !s.unexpected ? 1 : 0)
  return { ok: (s.expected ?? 0) + (s.flaky ?? 0), bad, skipped: s.skipped ?? 0, failures: reportFailures(json, root) }
}

async function playwrightStep(script, reportName, env = {}) {
  const report = path.join(root, 'test-results', reportName)
  fs.rmSync(report, { force: true })
  const r = await run('node', ['--import', 'tsx', script], { ...env, E2E_REPORT: report })
  return { ...playwrightCounts(r, report), out: r.out }
}

/** Every test file of the tree (paths from the root), wherever it lives; generated and installed folders excepted. */
function findTestFiles(dir = '') {
  const skip = new Set(['.git', 'node_modules', 'dist', 'styled-system', 'test-results', '.data', '.tmp'])
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .flatMap((e) => {
      const rel = path.posix.join(dir, e.name)
      if (e.isDirectory()) return skip.has(e.name) ? [] : findTestFiles(rel)
      return /\.test\.tsx?$/.test(e.name) ? [rel] : []
    })
    .sort()
}
const testFiles = findTestFiles()

// TEST_NOW reaches the test processes and every node process they start (spawned servers, CLIs) as a preload
const testNow = process.env.TEST_NOW
  ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(path.join(root, 'scripts/test-now.mjs'))}`.trim() }
  : {}

/** The files of a step narrowed by the pattern in env `filter` (on file names); a stray filter is named in the summary. */
function narrowed(files, filter) {
  const pattern = process.env[filter]
  const chosen = pattern ? files.filter((f) => new RegExp(pattern, 'i').test(path.basename(f))) : files
  if (pattern) notes.push(`${filter}=${pattern} is set: ${chosen.length} of ${files.length} test files ran`)
  return chosen
}

/** Runs `files` in one uvu process, narrowed by env `filter`. */
async function uvuStep(files, filter, env = {}) {
  const chosen = narrowed(files, filter)
  if (!chosen.length) return { ok: 0, bad: 0, skipped: 0, out: '' }
  const r = await run('node', [...uvu, ...chosen], { ...env, ...testNow })
  return { ...uvuCounts(r), out: r.out }
}

const timesFile = path.join(root, '.tmp', 'test-times.json')

/** The last run's seconds per test file (none on a clean clone). */
function lastTimes() {
  try {
    return JSON.parse(fs.readFileSync(timesFile, 'utf8'))
  } catch {
    return {}
  }
}

/**
 * Runs `files` (narrowed by env `filter`) in TEST_WORKERS uvu processes (scripts/uvu-files.mjs --queue), each taking
 * the next file when it is free, the slowest of the last run first (unknown ones, new or on a clean clone, by size).
 * A worker that dies is one failure (the file it ran is named) and another takes its place.
 */
async function uvuWorkersStep(files, filter, env = {}) {
  const chosen = narrowed(files, filter)
  if (!chosen.length) return { ok: 0, bad: 0, skipped: 0, out: '' }
  const times = lastTimes()
  const cost = (f) => times[f] ?? 1e6 + fs.statSync(path.join(root, f)).size
  const queue = [...chosen].sort((a, b) => cost(b) - cost(a))
  const workers = Math.max(1, Math.min(Number(process.env.TEST_WORKERS) || 3, queue.length))
  const lost = []
  let spools = 0
  const worker = async () => {
    let current = null
    // what the worker's file printed so far (scripts/uvu-files.mjs keeps it there), and what the worker wrote since it
    // took that file: a worker that V8 itself ends writes its message straight to stderr, past the held output
    const spool = path.join(os.tmpdir(), `uvu-worker-${process.pid}-${++spools}.out`)
    let since = ''
    const r = await run('node', [...uvu, '--queue'], { ...env, ...testNow, UVU_SPOOL: spool }, (child) => {
      const seen = (d) => {
        since = (since + d).slice(-20_000)
      }
      child.stdout.on('data', seen)
      child.stderr.on('data', seen)
      child.on('message', (m) => {
        if (m.done) times[m.done] = m.ms / 1000
        current = queue.shift() ?? null
        since = ''
        child.send({ file: current })
      })
    })
    // a signal is named: one from outside (SIGKILL, SIGTERM) is told apart from the worker's own exit
    const end = r.signal ? `was ended by ${r.signal}` : `exited (code ${r.code})`
    if (current) lost.push(lostFile(current, end, since, spool))
    fs.rmSync(spool, { force: true })
    const more = current && queue.length ? await worker() : []
    // a worker that died is counted once, above, not again for its exit code
    return [{ ...uvuCounts(current ? { ...r, code: 0 } : r), out: r.out }, ...more]
  }
  const results = (await Promise.all(Array.from({ length: workers }, worker))).flat()
  // the files of today (a removed one is forgotten), written whole: a nested run (test-runner.test.ts) writes it too
  const known = Object.fromEntries(Object.entries(times).filter(([f]) => fs.existsSync(path.join(root, f))))
  fs.mkdirSync(path.dirname(timesFile), { recursive: true })
  fs.writeFileSync(`${timesFile}.${process.pid}`, JSON.stringify(known, null, 1))
  fs.renameSync(`${timesFile}.${process.pid}`, timesFile)
  const total = (k) => results.reduce((a, r) => a + r[k], 0)
  const out = results.map((r) => r.out).join('\n') + lost.map((l) => `\n   FAIL  ${l}\n`).join('')
  return { ok: total('ok'), bad: total('bad') + lost.length, skipped: total('skipped'), out }
}

/**
 * The summary's lines for a file whose worker died: which file and how, then the first lines the worker wrote of its
 * own (V8's fatal message, say) and the last lines the file had printed (its suite, the tests passed so far). Seven
 * lines at most after the first, which the Failures list shows whole.
 */
function lostFile(file, end, since, spool) {
  const lines = (text) =>
    strip(text)
      .split('\n')
      .map((l) => l.trimEnd())
      .filter((l) => l.trim() && !/^#\s*$/.test(l.trim()))
  // what came after the last file's summary (uvu's Duration line) was the worker's own; the file's held output is in
  // the spool
  const last = since.lastIndexOf('Duration:')
  const nl = last < 0 ? -1 : since.indexOf('\n', last)
  const own = lines(last < 0 ? since : nl < 0 ? '' : since.slice(nl + 1))
  let printed = []
  try {
    printed = lines(fs.readFileSync(spool, 'utf8'))
  } catch {
    // no spool: the worker died before it took a file
  }
  return [
    `${file}: its worker ${end} before it finished`,
    ...(own.length ? own.slice(0, 4).map((l) => `    the worker wrote: ${l.trim()}`) : ['    the worker wrote nothing of its own']),
    ...(printed.length ? printed.slice(-3).map((l) => `    the file had printed: ${l.trim()}`) : ['    the file had printed nothing']),
  ].join('\n')
}

/** Node 24 here, found or installed once per run: `{ bin, version }`, or `{ missing }` saying why there is none. */
let node24
const NODE24_VERSION = '24.21.0'

async function findNode24() {
  const version = (bin) => execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()
  const given = process.env.NODE24_BIN
  if (given === 'none') return { missing: 'NODE24_BIN=none' }
  if (given) return fs.existsSync(given) ? { bin: given, version: version(given) } : { missing: `no Node at NODE24_BIN=${given}` }
  if (process.versions.node.startsWith('24.')) return { bin: process.execPath, version: process.version }
  const pkg = `node-${process.platform}-${process.arch}`
  const dir = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'bus-ticketing', `node-${NODE24_VERSION}`)
  const bin = path.join(dir, 'node_modules', pkg, 'bin', 'node')
  if (!fs.existsSync(bin)) {
    console.log(`Installing Node ${NODE24_VERSION} (${pkg}@${NODE24_VERSION} from the npm registry) into ${dir}`)
    fs.mkdirSync(dir, { recursive: true })
    const args = ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${pkg}@${NODE24_VERSION}`]
    const r = await run('npm', args)
    if (r.code !== 0 || !fs.existsSync(bin)) return { missing: `could not install ${pkg}@${NODE24_VERSION} into ${dir} (npm exited ${r.code})` }
  }
  return { bin, version: version(bin) }
}

/**
 * `step` on Node 24, the production runtime: its binary first on PATH, so the runner, every server process
 * and the tools it spawns are Node 24. Without one the step runs on this Node, with one skipped test saying
 * so (CI counts it failed).
 */
function onNode24(name, step) {
  return async () => {
    node24 ??= await findNode24()
    if (node24.bin) {
      notes.push(`${name}: ran on Node ${node24.version} (${node24.bin})`)
      return step({ PATH: `${path.dirname(node24.bin)}${path.delimiter}${process.env.PATH ?? ''}` })
    }
    const r = await step()
    const line = `SKIPPED: ${name} — on Node 24: ${node24.missing}; it ran on Node ${process.version}\n`
    process.stdout.write(line)
    return { ...r, skipped: (r.skipped ?? 0) + 1, out: r.out + line }
  }
}

const steps = {
  async lint() {
    const r = await run('npm', ['run', '--silent', 'lint'])
    return r.code === 0 ? { ok: 1, bad: 0 } : { ok: 0, bad: 1 }
  },
  async typecheck() {
    // styled-system/ is generated (git-ignored): a clean clone has none until Panda runs
    const r = await run('npm', ['run', '--silent', 'typecheck'])
    return r.code === 0 ? { ok: 1, bad: 0 } : { ok: 0, bad: 1 }
  },
  async build() {
    const r = await run('node', ['build.mjs'])
    return r.code === 0 ? { ok: 1, bad: 0 } : { ok: 0, bad: 1 }
  },
  async unit() {
    // the components import styled-system/ (generated, git-ignored): `npm test -- unit` on a clean clone generates it too
    if (!fs.existsSync(path.join(root, 'styled-system', 'css'))) {
      const r = await run('npx', ['panda', 'codegen', '--silent'])
      if (r.code !== 0) return { ok: 0, bad: 1 }
    }
    return uvuStep(
      testFiles.filter((f) => !f.startsWith('server/')),
      'UNIT_TESTS',
    )
  },
  server: onNode24('server', (env = {}) =>
    uvuWorkersStep(
      testFiles.filter((f) => f.startsWith('server/')),
      'SERVER_TESTS',
      { NODE_ENV: 'test', ...env },
    ),
  ),
  e2e: () => playwrightStep('e2e/run.ts', 'e2e.json'),
  // The booking journey again, with the server on a real PostgreSQL server.
  'e2e-pg': onNode24('e2e-pg', (env = {}) => playwrightStep('e2e/on-postgres.ts', 'e2e-pg.json', env)),
}

const unknown = only.filter((name) => !Object.hasOwn(steps, name))
if (unknown.length) {
  console.error(`Unknown step${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. The steps are: ${Object.keys(steps).join(', ')}.`)
  process.exit(1)
}
if (process.env.TEST_NOW) notes.push(`TEST_NOW=${process.env.TEST_NOW}: the unit and server tests ran with the clock started there`)

for (const [name, step] of Object.entries(steps)) {
  if (only.length && !only.includes(name)) continue
  console.log(`\n=== ${name} ===`)
  const t0 = Date.now()
  let { ok, bad, skipped = 0, out = '', failures } = await step()
  skipLines.push(...skippedLines(out))
  if (bad) failLines.push(...(failures?.length ? failures : failureLines(out)).map((l) => `${name}: ${l.trim()}`))
  if (ok + bad + skipped === 0) {
    // a step that ran nothing proves nothing
    bad = 1
    failLines.push(`${name}: ran no test`)
  }
  if (ci && skipped) {
    // under CI nothing may go untested
    bad += skipped
    skipped = 0
  }
  totals.passed += ok
  totals.failed += bad
  totals.skipped += skipped
  lines.push(`${name}: ${ok} passed, ${bad} failed, ${skipped} skipped (${((Date.now() - t0) / 1000).toFixed(1)} s)`)
}
if (skipLines.length) console.log(`\n${ci ? 'Not run (CI is set: counted as failed)' : 'Skipped (not run)'}:\n  ${skipLines.join('\n  ')}`)
if (failLines.length) console.log(`\nFailures:\n  ${failLines.slice(0, 60).join('\n  ')}`)
if (notes.length) console.log(`\n${notes.join('\n')}`)
console.log('\n' + lines.join('\n'))
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
await exitWhenWritten(totals.failed ? 1 : 0)
