import { relative } from 'node:path'

// The failed browser tests of a Playwright JSON report, as npm test's Failures list shows them (scripts/test.mjs).

/** Text without the terminal colour codes test runners print (Playwright's messages, uvu's output). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removes the terminal colour codes Playwright's messages hold
export const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '')

/**
 * Each failed browser test of a Playwright JSON report, as the Failures list shows it: the test, then where and how it
 * failed (the error's file and line and its first lines). Playwright's `✘` line alone named the test, not the cause.
 * `root`: the folder the error locations are named from.
 */
export function reportFailures(json, root) {
  const found = []
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const failed = t.status === 'unexpected' ? t.results?.filter((x) => x.status !== 'passed' && x.status !== 'skipped') : []
        for (const x of failed ?? []) {
          found.push(`✘ ${spec.file}:${spec.line} › ${spec.title} (${x.status}, ${Math.round(x.duration / 100) / 10} s)`)
          // a time-out has two: the time-out, then the step it stopped (with its line)
          for (const error of (x.errors?.length ? x.errors : [x.error ?? {}]).slice(0, 2)) {
            const where = error.location ? `${relative(root, error.location.file)}:${error.location.line}` : 'no location'
            const said = strip(error.message ?? String(x.status))
              .split('\n')
              .map((l) => l.trim())
              .filter((l) => l && !/^at /.test(l) && !/^\d+ \||^> \d+ \||^\|/.test(l))
              .slice(0, 3)
            found.push(`    at ${where}: ${said.join(' / ')}`)
          }
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of json.suites ?? []) walk(suite)
  return found
}
