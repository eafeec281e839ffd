/**
 * Server entry: opens the database (PGlite in DATA_DIR, or PostgreSQL by
 * DATABASE_URL), then serves on it (serve.ts: migrates and seeds, listens on HOST:PORT).
 * Every environment variable it reads (config.ts, and PORT, HOST, DATA_DIR, DIST_DIR
 * here and in serve.ts) is in docs/configuration.md.
 */
import { performance } from 'node:perf_hooks'
import { describeProblems, readConfig } from './config.ts'
import { DataDirLockedError, openDb, type Db } from './db/db.ts'
import { serve } from './serve.ts'

async function main(): Promise<void> {
  const started = performance.now()
  // Checked before anything else, so a misconfigured production start fails at once.
  const { config, problems } = readConfig()
  if (problems.length > 0) {
    console.error(describeProblems(problems, config.production))
    process.exit(1)
  }
  const port = Number(process.env.PORT ?? 8080)
  const host = process.env.HOST || '127.0.0.1'
  const dataDir = process.env.DATA_DIR ?? '.data'
  let db: Db
  try {
    db = await openDb({ dataDir })
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message)
      process.exit(1)
    }
    throw err
  }
  const where = db.kind === 'pglite' ? `pglite ${dataDir}` : 'postgres'
  const served = await serve(db, { port, host, where, started })

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    console.log(`${signal}: shutting down`)
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    try {
      await served.stop()
    } finally {
      await db.close()
      process.exit(0)
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
}

main().catch((err) => {
  console.error('Failed to start:', err instanceof Error ? err.message : err)
  process.exit(1)
})
