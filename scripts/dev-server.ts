/**
 * `npm run dev`'s server process (started by scripts/dev.mjs): opens the database once and keeps it open, and serves
 * server/serve.ts on it; on a 'reload' message (a file under server/, contract/ or data/ changed) it stops that
 * server and serves the changed code in the same process (tsx's tsImport loads the project's modules afresh, the
 * packages stay loaded), so a change costs no process start and no database start. Answers 'ready' or 'failed'.
 */
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { tsImport } from 'tsx/esm/api'
import { openDb } from '../server/db/db.ts'
import type { Served } from '../server/serve.ts'

const entry = pathToFileURL(path.resolve(import.meta.dirname, '../server/serve.ts')).href
const port = Number(process.env.PORT ?? 8080)
const host = process.env.HOST || '127.0.0.1'
const dataDir = process.env.DATA_DIR ?? '.data'
const db = await openDb({ dataDir })
const where = db.kind === 'pglite' ? `pglite ${dataDir}` : 'postgres'
const send = (message: string) => process.send?.(message)

/** Serves the server code as it is on disk now (the first time, as imported with the process). */
async function start(started: number, fresh: boolean): Promise<Served | null> {
  try {
    const { serve } = (fresh ? await tsImport(entry, import.meta.url) : await import(entry)) as typeof import('../server/serve.ts')
    const served = await serve(db, { port, host, where, started })
    send('ready')
    return served
  } catch (err) {
    console.error('Failed to start:', err instanceof Error ? err.message : err)
    send('failed')
    return null
  }
}

let served = await start(performance.now(), false)
// reloads and the shutdown go one after another
let queue = Promise.resolve()

process.on('message', (message) => {
  if (message !== 'reload') return
  queue = queue.then(async () => {
    const started = performance.now()
    await served?.stop()
    served = await start(started, true)
  })
})

let closing = false
const shutdown = (signal: string) => {
  if (closing) return
  closing = true
  console.log(`${signal}: shutting down`)
  const force = setTimeout(() => process.exit(1), 10_000)
  force.unref()
  queue = queue.then(async () => {
    try {
      await served?.stop()
    } finally {
      await db.close()
      process.exit(0)
    }
  })
}
process.on('SIGINT', () => shutdown('SIGINT'))
process.on('SIGTERM', () => shutdown('SIGTERM'))
process.on('disconnect', () => shutdown('disconnect'))
