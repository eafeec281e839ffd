/**
 * PGlite's calls out of WebAssembly stay on V8's generic wrapper: no wrapper is compiled, so none is freed where
 * Node 24.21.0's V8 crashes (wasm-wrappers.ts). Each case runs in a child process, since the setting is per process:
 * the child prints each wrapper V8 compiles (`--print-wasm-stub-code`, "kind: wasm-to-js").
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { tempDir } from '../test/helpers.ts'
import { tiersWrappersUp } from './wasm-wrappers.ts'

const dir = tempDir()
const url = (file: string) => JSON.stringify(pathToFileURL(path.join(import.meta.dirname, file)).href)

// a module importing one JavaScript function and calling it n times: (import "e" "f" (func (param i32))), run(n)
const calls = `
const bytes = new Uint8Array([0,97,115,109,1,0,0,0, 1,5,1,96,1,127,0, 2,7,1,1,101,1,102,0,0, 3,2,1,0,
  7,7,1,3,114,117,110,0,1, 10,20,1,18,0,3,64,32,0,16,0,32,0,65,1,107,34,0,13,0,11,11])
let sum = 0
const { instance } = await WebAssembly.instantiate(bytes, { e: { f: (x) => { sum += x } } })
instance.exports.run(5000)
// on stderr: V8 prints the wrappers on stdout through its own buffer, which may cut into a line
console.error('calls', sum)
`

/** Runs `script` in a child with the compiled wrappers printed; answers how many it compiled, and the calls made. */
function wrappersCompiled(name: string, script: string): { wrappers: number; calls: string; stderr: string } {
  const file = path.join(dir, `${name}.mts`)
  fs.writeFileSync(file, script)
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--print-wasm-stub-code', file], {
    encoding: 'utf8',
    // the embedded database, whatever the run around it uses
    env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: '' },
    maxBuffer: 64 * 1024 * 1024,
  })
  assert.is(r.status, 0, `${name} exited ${r.status} ${r.signal ?? ''}: ${r.stderr.slice(-2000)}`)
  return {
    wrappers: (r.stdout.match(/^kind: wasm-to-js$/gm) ?? []).length,
    calls: r.stderr.match(/^calls \d+$/m)?.[0] ?? 'no calls line',
    stderr: r.stderr,
  }
}

test('without the setting, V8 compiles a wrapper for a function WebAssembly calls often (what the test detects)', () => {
  const r = wrappersCompiled('plain', calls)
  assert.is(r.calls, 'calls 12502500')
  assert.ok(r.wrappers >= 1, `wrappers compiled: ${r.wrappers}`)
})

test('keepWasmWrappersGeneric: the same calls compile no wrapper', () => {
  const r = wrappersCompiled('kept', `import { keepWasmWrappersGeneric } from ${url('wasm-wrappers.ts')}\nkeepWasmWrappersGeneric()\n${calls}`)
  assert.is(r.calls, 'calls 12502500')
  assert.is(r.wrappers, 0)
  assert.not.match(r.stderr, /unrecognized flag/)
})

test('the budget is set only where V8 has it: Node 24 and 22, not Node 20, which would print an error', () => {
  assert.ok(tiersWrappersUp('13.6.233.17-node.53'))
  assert.ok(tiersWrappersUp('12.4.254.21-node.33'))
  assert.ok(tiersWrappersUp('11.7.439.0'))
  assert.not.ok(tiersWrappersUp('11.3.244.8-node.33'))
  assert.not.ok(tiersWrappersUp('10.2.154.26-node.26'))
})

test('opening the embedded database sets it: PGlite itself and later WebAssembly compile no wrapper', () => {
  const data = JSON.stringify(path.join(dir, 'data'))
  const r = wrappersCompiled(
    'pglite',
    `import { openDb } from ${url('db.ts')}
const db = await openDb({ dataDir: ${data} })
for (let i = 0; i < 300; i++) await db.query('SELECT $1::int + 1 AS n', [i])
await db.close()
${calls}`,
  )
  assert.is(r.calls, 'calls 12502500')
  assert.is(r.wrappers, 0)
})

test.run()
