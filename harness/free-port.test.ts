/**
 * `freePort` with FREE_PORTS hands two processes two different ports: each checks a port is free by binding it and
 * letting it go, so before either server binds, both would see the range's first port free (two test workers once
 * started two servers on one port this way). Processes that only pick ports and bind nothing show it.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const root = path.resolve(import.meta.dirname, '..')

/** The ports one process picks with FREE_PORTS=`range`. */
async function pick(range: string, count: number): Promise<number[]> {
  const code = `const { freePort } = await import('./harness/spawn-server.ts'); const p = []; for (let i = 0; i < ${count}; i++) p.push(await freePort()); console.log(JSON.stringify(p))`
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: root,
    env: { ...process.env, FREE_PORTS: range },
  })
  return JSON.parse(stdout.trim().split('\n').at(-1)!)
}

test('two processes picking from one FREE_PORTS range get different ports', async () => {
  // a range of its own, away from the ones the other tests use
  const lo = 47000 + (process.pid % 500) * 4
  const range = `${lo}-${lo + 3}`
  const [a, b] = await Promise.all([pick(range, 2), pick(range, 2)])
  const all = [...a!, ...b!]
  assert.is(new Set(all).size, 4, `ports handed out: ${all.join(', ')}`)
  for (const p of all) assert.ok(p >= lo && p <= lo + 3, `${p} is in ${range}`)
})

test.run()
