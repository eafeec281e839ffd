/**
 * Tests that need something this machine may lack (PostgreSQL binaries, Chromium).
 *
 * uvu counts a test as passed when its body returns, so a test that returns early
 * because PostgreSQL is missing would pass without testing anything. Instead such a
 * test is not registered: `t.skip` makes uvu count it under "Skipped", and a line
 * `SKIPPED: <suite> — <test>: <reason>` names it (scripts/test.mjs lists them in its
 * summary). Under CI a skip is a failure: the test is registered with a body that
 * throws the reason, and its suite's hooks (which would start the missing thing) do
 * not run.
 *
 *   const pgTest = requires(test, 'migrations', postgresMissing());
 *   pgTest('two processes migrate once', async () => { ... });
 */
import type { Test } from 'uvu'

/** True when the CI variable is set (any non-empty value but `false` or `0`). */
export function underCi(): boolean {
  const v = process.env.CI
  return !!v && v !== 'false' && v !== '0'
}

/** The machine-readable line of a skipped test, as scripts/test.mjs counts it. */
export function skipLine(suiteName: string, testName: string, reason: string): string {
  return `SKIPPED: ${suiteName} — ${testName}: ${reason}`
}

/**
 * `t` itself when `missing` is null; otherwise a stand-in whose tests are skipped and
 * reported (or, under CI, fail with the reason) and whose hooks never run.
 */
export function requires<T>(t: Test<T>, suiteName: string, missing: string | null): Test<T> {
  if (!missing) return t
  const register = (name: string) => {
    if (underCi()) {
      t(name, () => {
        throw new Error(`${missing} (CI is set, so a skipped test is a failure)`)
      })
      return
    }
    t.skip(name)
    console.log(skipLine(suiteName, name, missing))
  }
  const hook = Object.assign(() => undefined, { each: () => undefined })
  return Object.assign(register, { only: register, skip: t.skip, before: hook, after: hook, run: () => t.run() })
}
