// No file in src/stores/ over 350 lines, tests and fixtures included: a store, or a store's tests, that a reader
// can hold in their head. A store that grows past it is split by what it owns (as seat-choice.ts was into
// seat-map, seat-trip, seat-locks and seat-hold), its tests by topic with shared fixtures in a *-fixture.ts.
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const root = path.resolve(import.meta.dirname, '..')
const MAX_LINES = 350

/** Lines as `wc -l` counts them, plus a last line without its newline. */
export function lineCount(text: string): number {
  if (text === '') return 0
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name)
    return e.isDirectory() ? filesUnder(rel) : [rel]
  })
}

test('lineCount counts as wc -l does, and a last line without its newline', () => {
  assert.is(lineCount(''), 0)
  assert.is(lineCount('a\n'), 1)
  assert.is(lineCount('a\nb'), 2)
  assert.is(lineCount('a\n\nb\n'), 3)
})

test(`every file in src/stores/ is at most ${MAX_LINES} lines`, () => {
  const files = filesUnder('src/stores')
  assert.ok(files.length > 20, `found only ${files.length} files in src/stores/`)
  const long = files
    .map((f) => ({ f, lines: lineCount(fs.readFileSync(path.join(root, f), 'utf8')) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ f, lines }) => `  ${f}: ${lines} lines`)
  assert.ok(long.length === 0, `over ${MAX_LINES} lines (split by topic; tests' shared setup in a *-fixture.ts):\n${long.join('\n')}`)
})

test.run()
