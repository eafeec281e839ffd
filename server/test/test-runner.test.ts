/**
 * `npm test`'s runner (scripts/test.mjs) itself, dry runs with PostgreSQL or
 * Chromium hidden (PG_BIN=none, CHROME_PATH=none): tests that cannot run are
 * counted as skipped, never as passed, and named; under CI they count as failed.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const root = path.resolve(import.meta.dirname, '../..')

/**
 * Runs `node scripts/test.mjs <step>` with `env` (CI unset unless given; this Node standing in for Node 24 unless
 * NODE24_BIN is given); answers its exit code and output without colours.
 */
function runner(step: string, env: Record<string, string>, opts: { slowReader?: boolean } = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const { CI: _ci, ...rest } = process.env
    const child = spawn('node', ['scripts/test.mjs', step], {
      cwd: root,
      env: { ...rest, NODE24_BIN: process.execPath, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      // a reader that is behind (a CI log): the pipe stays full while the runner writes its last lines
      if (opts.slowReader) {
        child.stdout.pause()
        setTimeout(() => child.stdout.resume(), 20)
      }
    })
    child.stderr.on('data', (d) => (out += d))
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removes the terminal colour codes uvu prints
    child.on('close', (code) => resolve({ code: code ?? 1, out: out.replace(/\x1b\[[0-9;]*m/g, '') }))
  })
}

/** The last two lines: the step's line and the closing line. */
const closing = (out: string) =>
  out
    .trim()
    .split('\n')
    .slice(-2)
    .map((l) => l.replace(/ \([\d.]+ s\)$/, ''))

// memo.test.ts needs nothing (its tests counted from the file); every test of delivery-pg.test.ts is on PostgreSQL
// (their names, read from the file)
const serverFiles = { PG_BIN: 'none', SERVER_TESTS: '^(memo|delivery-pg)\\.test\\.ts$' }
const memoTests = [...fs.readFileSync(path.join(root, 'server/lib/memo.test.ts'), 'utf8').matchAll(/^test\(/gm)].length
const pgTests = [...fs.readFileSync(path.join(root, 'server/delivery/delivery-pg.test.ts'), 'utf8').matchAll(/^test\('(.+?)', async/gm)].map(
  (m) => m[1]!,
)

test('PostgreSQL hidden: its tests are counted skipped and named, the run passes', async () => {
  const r = await runner('server', serverFiles)
  assert.ok(pgTests.length >= 2, 'the file has its PostgreSQL tests')
  const n = pgTests.length
  assert.equal(closing(r.out), [`server: ${memoTests} passed, 0 failed, ${n} skipped`, `${memoTests} passed, 0 failed, ${n} skipped`], r.out)
  assert.is(r.code, 0, r.out)
  const reason = 'no PostgreSQL binaries (initdb, pg_ctl) in PG_BIN=none'
  assert.equal(
    [...r.out.matchAll(/^ {2}SKIPPED: (.+)$/gm)].map((m) => m[1]),
    pgTests.map((name) => `delivery on PostgreSQL — ${name}: ${reason}`),
  )
})

test('PostgreSQL hidden under CI: the same tests fail, with the reason, and the run fails', async () => {
  const r = await runner('server', { ...serverFiles, CI: 'true' })
  const n = pgTests.length
  assert.equal(closing(r.out), [`server: ${memoTests} passed, ${n} failed, 0 skipped`, `${memoTests} passed, ${n} failed, 0 skipped`], r.out)
  assert.is(r.code, 1)
  assert.match(r.out, /no PostgreSQL binaries \(initdb, pg_ctl\) in PG_BIN=none \(CI is set, so a skipped test is a failure\)/)
})

test('e2e-pg with PostgreSQL hidden: every browser test of the journey is counted skipped; under CI each counts as failed', async () => {
  const r = await runner('e2e-pg', { PG_BIN: 'none' })
  const skipped = [...r.out.matchAll(/^ {2}SKIPPED: e2e-pg — booking\.spec\.ts › .+: no PostgreSQL binaries/gm)].length
  assert.ok(skipped >= 5, r.out)
  assert.equal(closing(r.out), [`e2e-pg: 0 passed, 0 failed, ${skipped} skipped`, `0 passed, 0 failed, ${skipped} skipped`], r.out)
  assert.is(r.code, 0)
  const ci = await runner('e2e-pg', { PG_BIN: 'none', CI: 'true' })
  assert.equal(closing(ci.out), [`e2e-pg: 0 passed, ${skipped} failed, 0 skipped`, `0 passed, ${skipped} failed, 0 skipped`], ci.out)
  assert.is(ci.code, 1)
})

test('e2e with Chromium hidden: every spec is counted skipped, with how to install Chromium', async () => {
  const r = await runner('e2e', { CHROME_PATH: 'none' })
  const skipped = [
    ...r.out.matchAll(
      /^ {2}SKIPPED: e2e — \S+\.spec\.ts › .+: no Chromium at CHROME_PATH=none: install Debian's package \(`apt-get install chromium`\)/gm,
    ),
  ]
  assert.ok(skipped.length > 20, r.out)
  assert.ok(skipped.some((m) => m[0].includes('a11y.spec.ts › axe: every route, en, 375px')))
  assert.equal(closing(r.out), [`e2e: 0 passed, 0 failed, ${skipped.length} skipped`, `0 passed, 0 failed, ${skipped.length} skipped`], r.out)
  assert.is(r.code, 0)
})

test('the server and e2e-pg steps name the Node they ran on; with no Node 24 they run on this one and one skipped test says so', async () => {
  const ran = await runner('server', { SERVER_TESTS: '^memo\\.test\\.ts$' })
  assert.is(ran.code, 0, ran.out)
  assert.match(ran.out, `server: ran on Node ${process.version} (${process.execPath})`)
  const none = await runner('server', { NODE24_BIN: 'none', SERVER_TESTS: '^memo\\.test\\.ts$' })
  assert.equal(closing(none.out), [`server: ${memoTests} passed, 0 failed, 1 skipped`, `${memoTests} passed, 0 failed, 1 skipped`], none.out)
  assert.match(none.out, /^ {2}SKIPPED: server — on Node 24: NODE24_BIN=none; it ran on Node v\d+/m)
  const ci = await runner('e2e-pg', { NODE24_BIN: 'none', PG_BIN: 'none', CI: 'true' })
  assert.match(ci.out, /^ {2}SKIPPED: e2e-pg — on Node 24: NODE24_BIN=none/m)
  assert.is(ci.code, 1)
})

test('an unknown step fails at once, naming the steps', async () => {
  const r = await runner('servre', {})
  assert.is(r.code, 1, r.out)
  assert.match(r.out, 'Unknown step: servre. The steps are: lint, typecheck, build, unit, server, e2e, e2e-pg.')
  assert.not.match(r.out, '=== ')
})

test('a step that ran no test fails, and the SERVER_TESTS that narrowed it is named', async () => {
  const r = await runner('server', { SERVER_TESTS: '^no-such-file\\.test\\.ts$' })
  assert.equal(closing(r.out), ['server: 0 passed, 1 failed, 0 skipped', '0 passed, 1 failed, 0 skipped'], r.out)
  assert.is(r.code, 1)
  assert.match(r.out, /^ {2}server: ran no test$/m)
  assert.match(r.out, /^SERVER_TESTS=\^no-such-file\\\.test\\\.ts\$ is set: 0 of \d+ test files ran$/m)
})

test('a test file runs wherever it lives: scripts/ in the unit step, server/network/ in the server step', async () => {
  const name = `zz-runner-probe-${process.pid}`
  const probe = (where: string) => {
    const file = path.join(root, where, `${name}.test.ts`)
    fs.writeFileSync(
      file,
      `import { test } from 'uvu'\nimport * as assert from 'uvu/assert'\ntest('probe in ${where}', () => assert.ok(true))\ntest.run()\n`,
    )
    return file
  }
  const files = [probe('scripts'), probe('server/network')]
  try {
    const unit = await runner('unit', { UNIT_TESTS: `^${name}\\.test\\.ts$` })
    assert.equal(closing(unit.out), ['unit: 1 passed, 0 failed, 0 skipped', '1 passed, 0 failed, 0 skipped'], unit.out)
    assert.match(unit.out, `scripts/${name}.test.ts`)
    assert.match(unit.out, /^UNIT_TESTS=.+ is set: 1 of \d+ test files ran$/m)
    const server = await runner('server', { SERVER_TESTS: `^${name}\\.test\\.ts$` })
    assert.equal(closing(server.out), ['server: 1 passed, 0 failed, 0 skipped', '1 passed, 0 failed, 0 skipped'], server.out)
    assert.match(server.out, `server/network/${name}.test.ts`)
    assert.is(server.code, 0)
  } finally {
    for (const f of files) fs.rmSync(f, { force: true })
  }
})

/** Writes server/network/<name>.test.ts with `body` after uvu's imports; answers its path. */
function serverProbe(name: string, body: string): string {
  const file = path.join(root, 'server/network', `${name}.test.ts`)
  fs.writeFileSync(file, `import fs from 'node:fs'\nimport { test } from 'uvu'\n${body}\ntest.run()\n`)
  return file
}

test('server test files run in two workers at once: two files that each wait for the other both pass', async () => {
  const name = `zz-runner-pair-${process.pid}`
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runner-pair-'))
  const waitFor = (me: string, other: string) => `test('${me} meets ${other}', async () => {
  fs.writeFileSync('${dir}/${me}', '')
  const deadline = Date.now() + 60_000
  while (!fs.existsSync('${dir}/${other}')) {
    if (Date.now() > deadline) throw new Error('${other} never ran beside ${me}')
    await new Promise((r) => setTimeout(r, 20))
  }
})`
  const files = [serverProbe(`${name}-a`, waitFor('a', 'b')), serverProbe(`${name}-b`, waitFor('b', 'a'))]
  try {
    const r = await runner('server', { SERVER_TESTS: `^${name}-` })
    assert.equal(closing(r.out), ['server: 2 passed, 0 failed, 0 skipped', '2 passed, 0 failed, 0 skipped'], r.out)
  } finally {
    for (const f of files) fs.rmSync(f, { force: true })
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('a server test file that ends its process is one failure, named; the files after it still run', async () => {
  const name = `zz-runner-exit-${process.pid}`
  // the larger file goes first on a run with no times for them
  const files = [
    serverProbe(`${name}-ends`, `// ${'padding '.repeat(200)}\ntest('ends the process', () => process.exit(7))`),
    serverProbe(`${name}-after`, `test('runs after it', () => {})`),
  ]
  try {
    const r = await runner('server', { SERVER_TESTS: `^${name}-`, TEST_WORKERS: '1' })
    assert.equal(closing(r.out), ['server: 1 passed, 1 failed, 0 skipped', '1 passed, 1 failed, 0 skipped'], r.out)
    assert.match(r.out, `server/network/${name}-ends.test.ts: its worker exited (code 7) before it finished`)
  } finally {
    for (const f of files) fs.rmSync(f, { force: true })
  }
})

test('a server test file whose worker another process ends by a signal: the summary names the file and the signal', async () => {
  const name = `zz-runner-signal-${process.pid}`
  // the larger file goes first on a run with no times for them
  const files = [
    serverProbe(
      `${name}-ended`,
      `// ${'padding '.repeat(200)}\ntest('ended from outside', async () => {\n  console.log('said before the end')\n  process.kill(process.pid, 'SIGTERM')\n  await new Promise((r) => setTimeout(r, 10_000))\n})`,
    ),
    serverProbe(`${name}-after`, `test('runs after it', () => {})`),
  ]
  try {
    const r = await runner('server', { SERVER_TESTS: `^${name}-`, TEST_WORKERS: '1' })
    assert.equal(closing(r.out), ['server: 1 passed, 1 failed, 0 skipped', '1 passed, 1 failed, 0 skipped'], r.out)
    assert.match(r.out, `server/network/${name}-ended.test.ts: its worker was ended by SIGTERM before it finished`)
    // what the file printed before it, and the file named by the worker itself
    assert.match(r.out, 'said before the end')
    assert.match(r.out, `"server/network/${name}-ended.test.ts" ended the worker: SIGTERM from another process`)
  } finally {
    for (const f of files) fs.rmSync(f, { force: true })
  }
})

test('a server test file whose worker dies of a signal it does not catch (as V8 ends a process it crashes in): the summary shows what the worker wrote and the file printed', async () => {
  const name = `zz-runner-crash-signal-${process.pid}`
  // SIGUSR2 stands in for V8's SIGTRAP (no core file wherever core dumps are on); neither runs the exit handlers that
  // write the held output. V8 writes its message straight to stderr, as the probe does.
  const files = [
    serverProbe(
      `${name}-dies`,
      `// ${'padding '.repeat(200)}\ntest('passes first', () => {})\ntest('dies', async () => {\n  console.log('said before the crash')\n  fs.writeSync(2, '\\n#\\n# Fatal error in , line 0\\n# Check failed: probe of the runner.\\n#\\n')\n  process.kill(process.pid, 'SIGUSR2')\n  await new Promise((r) => setTimeout(r, 10_000))\n})`,
    ),
    serverProbe(`${name}-after`, `test('runs after it', () => {})`),
  ]
  try {
    const r = await runner('server', { SERVER_TESTS: `^${name}-`, TEST_WORKERS: '1' })
    assert.equal(closing(r.out), ['server: 1 passed, 1 failed, 0 skipped', '1 passed, 1 failed, 0 skipped'], r.out)
    const summary = r.out.slice(r.out.lastIndexOf('Failures:'))
    assert.match(summary, `server/network/${name}-dies.test.ts: its worker was ended by SIGUSR2 before it finished`)
    assert.match(summary, 'the worker wrote: # Check failed: probe of the runner.')
    assert.match(summary, /the file had printed: .*said before the crash/)
  } finally {
    for (const f of files) fs.rmSync(f, { force: true })
  }
})

test('a server test file whose process dies of an error no test awaited: the summary names the error, not only the file', async () => {
  const name = `zz-runner-crash-${process.pid}`
  const files = [
    serverProbe(
      `${name}-rejects`,
      `test('rejects after it returned', async () => {
  setTimeout(() => void Promise.reject(new Error('left behind by a test')), 5)
  await new Promise((r) => setTimeout(r, 200))
})`,
    ),
    serverProbe(`${name}-after`, `test('runs after it', () => {})`),
  ]
  try {
    const r = await runner('server', { SERVER_TESTS: `^${name}-`, TEST_WORKERS: '1' })
    assert.equal(closing(r.out), ['server: 1 passed, 1 failed, 0 skipped', '1 passed, 1 failed, 0 skipped'], r.out)
    const summary = r.out.slice(r.out.lastIndexOf('Failures:'))
    assert.match(summary, `${name}-rejects.test.ts" ended the worker: an unhandled rejection`)
    assert.match(summary, 'Error: left behind by a test')
  } finally {
    for (const f of files) fs.rmSync(f, { force: true })
  }
})

test('a test file with a long output: all of it reaches the summary (a write to the pipe takes only what fits), and the summary its reader, however slow', async () => {
  const name = `zz-runner-long-${process.pid}`
  const files = [
    serverProbe(
      name,
      `test('prints four megabytes', () => {
  console.log('z'.repeat(4 * 1024 * 1024))
})
test('fails after it', () => {
  throw new Error('the last words of a long output')
})`,
    ),
  ]
  try {
    const r = await runner('server', { SERVER_TESTS: `^${name}` }, { slowReader: true })
    // (a line cut short: a lost end leaves the four megabytes last)
    const last = closing(r.out).map((l) => l.slice(0, 100))
    assert.equal(last, ['server: 1 passed, 1 failed, 0 skipped', '1 passed, 1 failed, 0 skipped'], r.out.slice(-300))
    assert.match(r.out.slice(r.out.lastIndexOf('Failures:')), 'the last words of a long output')
    const printed = r.out.match(/z{1000,}/g)?.join('').length ?? 0
    assert.is(printed, 4 * 1024 * 1024, 'every byte the test printed')
  } finally {
    for (const f of files) fs.rmSync(f, { force: true })
  }
})

test('CI runs with CI set, so a skipped test fails there', () => {
  assert.match(fs.readFileSync(path.join(root, '.ci/run'), 'utf8'), /^export CI=true\nnpm test$/m)
})

test.run()
