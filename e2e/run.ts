/** The browser tests as `npm test` runs them: `node --import tsx e2e/run.ts [spec...]` (reported skipped without Chromium). */
import { chromiumMissing } from '../harness/browser.ts'
import { exitWhenWritten } from '../scripts/exit-when-written.mjs'
import { runSpecs } from './run-specs.ts'

await exitWhenWritten(await runSpecs({ step: 'e2e', specs: process.argv.slice(2), missing: chromiumMissing() }))
