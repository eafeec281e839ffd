/**
 * server/serve.ts on one open database, as `npm run dev` uses it (scripts/dev-server.ts): a stopped server leaves
 * nothing of its own running (no timer its code started, no listening port) and the server served again on the
 * same open database answers with its data.
 */
import { createHook } from 'node:async_hooks'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { freePort } from '../../harness/spawn-server.ts'
import { openDb } from '../db/db.ts'
import { serve } from '../serve.ts'
import { pgliteTemplate, tempDir } from './helpers.ts'

const serverCode = `${path.sep}server${path.sep}`
/** The creation stacks of the live timers the server's own code started (the database's are its own). */
const timers = new Map<number, string>()
createHook({
  init(id, type) {
    if (type !== 'Timeout') return
    const stack = new Error().stack ?? ''
    if (stack.split('\n').some((l) => l.includes(serverCode) && !l.includes(`${serverCode}test${path.sep}`))) timers.set(id, stack)
  },
  destroy(id) {
    timers.delete(id)
  },
}).enable()

/** Polls `check` until it holds; fails naming `what` after 10 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 10_000; !check(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
  }
}

test('stop leaves nothing of the server running; serving again on the open database answers with the demo data', async () => {
  const dir = tempDir()
  fs.cpSync(await pgliteTemplate(), path.join(dir, 'pgdata'), { recursive: true })
  const db = await openDb({ dataDir: dir, databaseUrl: '' })
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  try {
    for (const round of [1, 2]) {
      const served = await serve(db, { port, host: '127.0.0.1', where: 'pglite' })
      const cities = await fetch(`${base}/api/originCities`)
      assert.is(cities.status, 200, `round ${round}`)
      assert.ok(((await cities.json()) as { data: unknown[] }).data.length > 0, 'the demo network is there')
      await served.stop()
      assert.is(await fetch(`${base}/api/originCities`).catch(() => null), null, 'nothing listens')
      await until(() => !process.getActiveResourcesInfo().includes('TCPServerWrap'), 'the listening socket to close')
      assert.equal([...timers.values()], [], `round ${round}: a timer the server started outlives stop`)
    }
  } finally {
    await db.close()
  }
})

test.run()
