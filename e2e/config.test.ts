/**
 * The browser tests' artifacts (a failure's trace and screenshot) survive `npm test`: Playwright empties its output
 * folder at the start of a run, and the e2e-pg step runs after e2e with the same config (e2e/on-postgres.ts sets
 * E2E_DATABASE_URL), so each step has its own folder.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const root = path.resolve(import.meta.dirname, '..')

/** The config's outputDir as Playwright would load it, with `env` added. */
function outputDir(env: Record<string, string>): string {
  const { E2E_DATABASE_URL: _, ...rest } = process.env
  const code = "const c = (await import('./e2e/playwright.config.ts')).default; console.log(c.outputDir)"
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: root,
    env: { ...rest, E2E_DATA_DIR: path.join(root, '.tmp', 'config-test-unused'), ...env },
    encoding: 'utf8',
  })
  return out.trim().split('\n').at(-1)!
}

test('the e2e and e2e-pg steps keep their failures in separate folders', () => {
  const e2e = outputDir({})
  const pg = outputDir({ E2E_DATABASE_URL: 'postgres://127.0.0.1:1/unused' })
  assert.is(path.relative(root, e2e), path.join('test-results', 'artifacts'))
  assert.is(path.relative(root, pg), path.join('test-results', 'artifacts-e2e-pg'))
})

test.run()
