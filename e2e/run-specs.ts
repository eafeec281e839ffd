/**
 * Runs Playwright specs for `npm test`, or, when something they need is missing
 * (Chromium, or PostgreSQL for e2e-pg), reports each of them skipped: one line
 * `SKIPPED: <step> — <spec> › <title>: <reason>` per test (scripts/test.mjs counts
 * them) and exit code 0; under CI the same lines and exit code 1 (scripts/test.mjs
 * then counts each of them as failed).
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { skipLine, underCi } from '../server/test/skip.ts'

const root = path.resolve(import.meta.dirname, '..')
const config = 'e2e/playwright.config.ts'

function playwright(args: string[], env: Record<string, string>, capture: boolean): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    let out = ''
    const child = spawn('npx', ['playwright', 'test', '-c', config, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    })
    child.stdout?.on('data', (d) => (out += d))
    child.on('close', (code) => resolve({ code: code ?? 1, out }))
  })
}

/** Prints a skip line for every test `specs` hold (all specs when none given); answers the exit code (1 under CI). */
async function reportSkipped(step: string, specs: string[], reason: string): Promise<number> {
  // the list reporter only: the configured JSON report would count the listed tests as run and skipped
  const listed = await playwright(['--list', '--reporter=list', ...specs], {}, true)
  // `  booking.spec.ts:165:3 › en: a new user searches…`
  const tests = [...listed.out.matchAll(/^\s+(\S+?\.spec\.ts):\d+:\d+ › (.+)$/gm)].map((m) => `${m[1]} › ${m[2]}`)
  if (listed.code !== 0 || tests.length === 0) {
    console.error(`${step}: could not list the tests to report them skipped\n${listed.out}`)
    return 1
  }
  for (const name of tests) console.log(skipLine(step, name, reason))
  if (!underCi()) return 0
  console.error(`${step}: ${reason} (CI is set, so a skipped test is a failure)`)
  return 1
}

/** Runs `specs` with Playwright (extra `env` for the server), unless `missing` says why they cannot run. */
export async function runSpecs(o: { step: string; specs: string[]; missing: string | null; env?: Record<string, string> }): Promise<number> {
  if (o.missing) return reportSkipped(o.step, o.specs, o.missing)
  return (await playwright(o.specs, o.env ?? {}, false)).code
}
