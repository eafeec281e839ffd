/**
 * Development only: the demo network (data/demo-network.json) is imported at start
 * while the database holds no network or an older copy of it; a network imported
 * with `npm run import` is left alone. Checking costs one file read and one query.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Queryable } from '../db/db.ts'
import type { ImportReport } from '../network/import.ts'

/** The demo network file. */
export const DEMO_NETWORK_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/demo-network.json')

/** How `network_imports.source` names the imports this start-up makes. */
export const DEMO_SOURCE = 'demo network (development start)'

/** SHA-256 of a file's text, as recorded in `network_imports`. */
export function networkHash(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** Imports the demo network when needed; answers the report, or null when it was not needed. */
export async function seedDemoNetwork(tx: Queryable, now: Date, daysAhead: number): Promise<ImportReport | null> {
  const text = fs.readFileSync(DEMO_NETWORK_FILE, 'utf8')
  const sha256 = networkHash(text)
  const [last] = await tx.query<{ source: string; sha256: string }>('SELECT source, sha256 FROM network_imports ORDER BY id DESC LIMIT 1')
  if (last && (last.source !== DEMO_SOURCE || last.sha256 === sha256)) return null
  // Loaded only when importing: zod and the importer are not needed on most starts.
  const { validateNetworkText } = await import('../network/schema.ts')
  const { importNetwork } = await import('../network/import.ts')
  const checked = validateNetworkText(text)
  if (!checked.ok) throw new Error(`${DEMO_NETWORK_FILE} is not a valid network file:\n${checked.errors.map((e) => `  ${e}`).join('\n')}`)
  return importNetwork(tx, checked.network, { now, daysAhead, source: DEMO_SOURCE, sha256 })
}
