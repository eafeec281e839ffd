/**
 * `npm run import -- <file>`: validates a network file and imports it into the
 * database the server uses (DATABASE_URL, or the PGlite folder DATA_DIR, default
 * .data), migrating it first, in one transaction. Prints what changed. A file with
 * errors is refused with every error (path: message) and nothing is written.
 * Exit status: 0 imported, 1 refused or failed, 2 usage.
 */
import fs from 'node:fs'
import path from 'node:path'
import { readConfig } from '../config.ts'
import { DataDirLockedError, openDb, type Db } from '../db/db.ts'
import { migrate } from '../db/migrate.ts'
import { describeReport, importNetwork, type ImportReport } from '../network/import.ts'
import { validateNetworkText } from '../network/schema.ts'
import { networkHash } from '../seed/demo-network.ts'

async function main(): Promise<number> {
  const args = process.argv.slice(2)
  if (args.length !== 1 || args[0]!.startsWith('-')) {
    console.error('Usage: npm run import -- <network.json>\n(see data/demo-network.json for the format)')
    return 2
  }
  const file = args[0]!
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    console.error(`Cannot read ${file}: ${(err as Error).message}`)
    return 1
  }
  const checked = validateNetworkText(text)
  if (!checked.ok) {
    console.error(`${file}: ${checked.errors.length} error(s); nothing was imported.`)
    for (const e of checked.errors) console.error(`  ${e}`)
    return 1
  }
  const { config, problems } = readConfig()
  const bad = problems.filter((p) => p.startsWith('TRIP_DAYS_AHEAD'))
  if (bad.length > 0) {
    console.error(bad.join('\n'))
    return 1
  }

  let db: Db
  try {
    db = await openDb()
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(`${err.message}\nNothing was imported.`)
      return 1
    }
    throw err
  }
  try {
    const sha256 = networkHash(text)
    let report: ImportReport | undefined
    await migrate(db, async (tx) => {
      report = await importNetwork(tx, checked.network, { now: new Date(), daysAhead: config.tripDaysAhead, source: path.basename(file), sha256 })
    })
    const where = db.kind === 'pglite' ? `PGlite ${path.resolve(process.env.DATA_DIR ?? '.data')}` : 'PostgreSQL'
    console.log(`Imported ${file} into ${where}:`)
    console.log(describeReport(report!))
    return 0
  } finally {
    await db.close()
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('Import failed, nothing was imported:', err instanceof Error ? err.message : err)
    process.exit(1)
  },
)
