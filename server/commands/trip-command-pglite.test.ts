/**
 * The operator's command (npm run trip) on the embedded database (PGlite, DATA_DIR): one process
 * at a time, so while the site runs on the folder the command says to stop the site and changes
 * nothing; a folder with no database is said as such, not made into an empty one.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startServer } from '../../harness/spawn-server.ts'
import { openDb } from '../db/db.ts'
import { tempDir } from '../test/helpers.ts'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const t = suite('trip command on PGlite')

function trip(dir: string, args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'server/commands/trip-command.ts', ...args], {
    cwd: repo,
    env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', NODE_ENV: 'development' },
    encoding: 'utf8',
  })
}

async function tripStatus(dir: string, id: number): Promise<string | undefined> {
  const db = await openDb({ dataDir: dir })
  try {
    const [r] = await db.query<{ status: string }>('SELECT status FROM trips WHERE id = $1', [id])
    return r?.status
  } finally {
    await db.close()
  }
}

t('while the site runs on the folder: stop the site, exit 1, nothing changed', async () => {
  const dir = tempDir()
  const site = await startServer({ DATA_DIR: dir })
  try {
    for (const args of [['cancel', '1', '--reason', 'Flood', '--reason-bn', 'বন্যা'], ['refunds']]) {
      const busy = trip(dir, args)
      assert.is(busy.status, 1, busy.stderr + busy.stdout)
      assert.match(busy.stderr, `The database in ${path.resolve(dir)} is in use by another process (pid ${site.pid}), most likely the running site`)
      assert.match(busy.stderr, 'PGlite) takes one process at a time. Stop the site, run this command again, then start the site.')
      assert.match(busy.stderr, 'Nothing was changed.')
    }
    const [r] = (await (await fetch(`${site.url}/api/originCities`)).json()).data
    assert.ok(r, 'the site still answers')
  } finally {
    await site.kill()
  }
  assert.is(await tripStatus(dir, 1), 'OPEN', 'the refused cancel changed nothing')
  // stopped, the same command runs
  const done = trip(dir, ['cancel', '1', '--reason', 'Flood', '--reason-bn', 'বন্যা'])
  assert.is(done.status, 0, done.stderr + done.stdout)
  assert.is(await tripStatus(dir, 1), 'OMITTED')
})

t('a folder with no database: said, exit 1, no empty database made', () => {
  const dir = tempDir()
  const r = trip(dir, ['refunds'])
  assert.is(r.status, 1, r.stderr + r.stdout)
  assert.match(
    r.stderr,
    `No database in ${path.resolve(dir)}. Run the command in the site's folder, or set DATA_DIR (or DATABASE_URL) as the site has it.`,
  )
  assert.not.ok(fs.existsSync(path.join(dir, 'pgdata')), 'no database made')
})

t.run()
