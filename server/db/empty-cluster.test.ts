/** Test mode's empty PGlite cluster: copied into each new folder, made again when a temp cleaner removed part of it. */
import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { copyEmptyCluster } from './db.ts'
import { keepWasmWrappersGeneric } from './wasm-wrappers.ts'
import { tempDir } from '../test/helpers.ts'

/** Opens a copied cluster and answers one query. */
async function opens(pgdata: string): Promise<boolean> {
  const db = await PGlite.create(pgdata)
  try {
    const { rows } = await db.query<{ one: number }>('SELECT 1 AS one')
    return rows[0]?.one === 1
  } finally {
    await db.close()
  }
}

// this file opens PGlite itself, not through openDb
keepWasmWrappersGeneric()
const root = tempDir()
const template = path.join(root, 'empty')

test('a new folder is a copy of the empty cluster, without its list of files', async () => {
  const a = path.join(root, 'a', 'pgdata')
  await copyEmptyCluster(a, PGlite, template)
  assert.ok(fs.existsSync(path.join(template, 'PG_VERSION')))
  assert.ok(fs.existsSync(path.join(template, 'bus-ticketing-files.json')))
  assert.not.ok(fs.existsSync(path.join(a, 'bus-ticketing-files.json')))
  assert.ok(await opens(a))
})

test('an empty cluster a temp cleaner removed files from is made again, and the copy opens', async () => {
  // what a cleaner of old temp files leaves: the folder and PG_VERSION, not the system catalogue
  fs.rmSync(path.join(template, 'global'), { recursive: true, force: true })
  fs.rmSync(path.join(template, 'base'), { recursive: true, force: true })
  const b = path.join(root, 'b', 'pgdata')
  await copyEmptyCluster(b, PGlite, template)
  assert.ok(fs.existsSync(path.join(template, 'global', 'pg_control')))
  assert.ok(await opens(b))
})

test.run()
