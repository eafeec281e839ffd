// Runs the uvu test files named on the command line (paths from the repository root) in one process:
// scripts/test.mjs finds them wherever they live, which `uvu <dir> <pattern>` cannot.
import path from 'node:path'
import { run } from 'uvu/run'

const files = process.argv.slice(2)
if (!files.length) {
  console.error('usage: node --import tsx scripts/uvu-files.mjs <file.test.ts>...')
  process.exit(1)
}
await run(files.map((f) => ({ name: f, file: path.resolve(f) })))
