// State a component or test can see: a model keeps every piece of its state in its own signals, written by its
// actions only. So no file in src/models/ or src/stores/ (tests and fixtures included) declares a module-level
// `let` (hidden state no component or test can see, shared by every visit), exports a writable signal for other
// files to set, or types a model's member as a writable Signal.
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const root = path.resolve(import.meta.dirname, '..')

/** The `.ts` files under `dir`, relative to the root. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name)
    return e.isDirectory() ? filesUnder(rel) : rel.endsWith('.ts') ? [rel] : []
  })
}

/** What a file declares that hides or hands out state: module-level `let`s, exported writable signals, Signal-typed members. */
export function stateLeaks(source: string): string[] {
  const leaks: string[] = []
  for (const [i, line] of source.split('\n').entries()) {
    // Biome formats every top-level statement at column 0, and nothing nested there
    if (/^(export )?let\s/.test(line)) leaks.push(`line ${i + 1}: module-level let`)
    if (/^export const \w+(\s*:\s*Signal<.*>)?\s*=\s*signal\b/.test(line) || /^export const \w+\s*:\s*Signal</.test(line))
      leaks.push(`line ${i + 1}: exported writable signal`)
    if (/^\s+(readonly\s+)?\w+\??\s*:\s*Signal</.test(line)) leaks.push(`line ${i + 1}: a member typed as a writable Signal`)
  }
  return leaks
}

test('stateLeaks finds module-level lets, exported writable signals and writable members; nothing nested or read-only', () => {
  assert.equal(stateLeaks('let a = 1\nexport let b = 2\n'), ['line 1: module-level let', 'line 2: module-level let'])
  assert.equal(stateLeaks('export const seats = signal<string[]>([])\nexport const n: Signal<number> = signal(0)\n'), [
    'line 1: exported writable signal',
    'line 2: exported writable signal',
  ])
  assert.equal(stateLeaks('interface M {\n  seats: Signal<string[]>\n}\n'), ['line 2: a member typed as a writable Signal'])
  assert.equal(
    stateLeaks(
      'function f() {\n  let x = 0\n}\nconst s = signal(0)\nexport const t = computed(() => s.value)\ninterface M {\n  seats: ReadonlySignal<string[]>\n}\n',
    ),
    [],
  )
})

test('no module-level let or writable signal handed out in src/models/ or src/stores/', () => {
  const files = [...filesUnder('src/models'), ...filesUnder('src/stores')]
  assert.ok(
    files.some((f) => f.startsWith('src/models/')),
    'no models found',
  )
  const found = files.flatMap((f) => stateLeaks(fs.readFileSync(path.join(root, f), 'utf8')).map((l) => `  ${f} ${l}`))
  assert.ok(found.length === 0, `state outside a model's signals (keep it in a model's signals, written by its actions):\n${found.join('\n')}`)
})

test.run()
