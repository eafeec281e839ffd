/**
 * scripts/exit-when-written.mjs: a process that writes a long output to a pipe whose reader is behind and then exits
 * hands over all of it, where process.exit() alone drops the rest (npm test's summary went missing so in CI).
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const helper = pathToFileURL(path.resolve(import.meta.dirname, 'exit-when-written.mjs')).href
const size = 4 * 1024 * 1024

/** Runs `exit` after writing `size` bytes and a last line; reads stdout slowly. Answers the exit code and what arrived. */
function writeThenExit(exit: string): Promise<{ code: number | null; out: string }> {
  const code = `import { exitWhenWritten } from '${helper}'\nprocess.stdout.write('z'.repeat(${size}) + '\\nthe last line\\n')\n${exit}`
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      // a reader that is behind: the pipe stays full while the process ends
      child.stdout.pause()
      setTimeout(() => child.stdout.resume(), 20)
    })
    child.on('close', (code) => resolve({ code, out }))
  })
}

test('process.exit() alone drops what the pipe has not taken (the reader here is slow enough for that)', async () => {
  const r = await writeThenExit('process.exit(3)')
  assert.is(r.code, 3)
  assert.ok(r.out.length < size, `${r.out.length} bytes arrived`)
})

test('exitWhenWritten hands over everything, then exits with the code', async () => {
  const r = await writeThenExit('await exitWhenWritten(3)')
  assert.is(r.code, 3)
  assert.is(r.out.length, size + '\nthe last line\n'.length)
  assert.ok(r.out.endsWith('\nthe last line\n'))
})

test.run()
