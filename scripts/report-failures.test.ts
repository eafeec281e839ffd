/**
 * npm test's Failures list for a browser step names each failed test with where and how it failed, read from the
 * Playwright JSON report (a `✘` line alone left a CI log with no cause: the ticket-link failure of a1208bf's run).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { reportFailures } from './report-failures.mjs'

const red = (s: string) => `\u001b[31m${s}\u001b[39m`
/** A report as Playwright writes it (shape and colours of a real one), with a failed, a passed and a flaky test. */
const report = {
  suites: [
    {
      title: 'ticket-link.spec.ts',
      specs: [
        {
          title: 'the checker, opened once, checks offline',
          file: 'ticket-link.spec.ts',
          line: 89,
          tests: [
            {
              status: 'unexpected',
              results: [
                {
                  status: 'failed',
                  duration: 10_234,
                  errors: [
                    {
                      location: { file: '/repo/e2e/helpers.ts', column: 5, line: 300 },
                      message: `Error: seats A1 of 105-DHK-CTG on 2026-12-07 were taken\n\nexpect(${red('received')}).toBeTruthy()\n\nReceived: ${red('false')}\n\n   at helpers.ts:300\n\n  298 |       locked: true,\n> 300 |   ).toBeTruthy()\n      |     ^\n    at bookThroughApi (/repo/e2e/helpers.ts:300:5)`,
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
      suites: [
        {
          title: 'nested',
          specs: [
            { title: 'passes', file: 'a.spec.ts', line: 3, tests: [{ status: 'expected', results: [{ status: 'passed', duration: 5 }] }] },
            {
              title: 'flaky',
              file: 'a.spec.ts',
              line: 9,
              tests: [
                {
                  status: 'flaky',
                  results: [
                    { status: 'failed', duration: 5, errors: [{ message: 'once' }] },
                    { status: 'passed', duration: 5 },
                  ],
                },
              ],
            },
            {
              title: 'times out',
              file: 'a.spec.ts',
              line: 20,
              tests: [
                {
                  status: 'unexpected',
                  results: [
                    {
                      status: 'timedOut',
                      duration: 60_000,
                      errors: [
                        { message: 'Test timeout of 60000ms exceeded.' },
                        { location: { file: '/repo/e2e/helpers.ts', line: 70 }, message: 'Error: page.evaluate: Test timeout of 60000ms exceeded.' },
                      ],
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ],
}

test('each failed test: the test, then each error’s file and line and its first lines (a time-out’s step too), without colours or code frame', () => {
  assert.equal(reportFailures(report, '/repo'), [
    '✘ ticket-link.spec.ts:89 › the checker, opened once, checks offline (failed, 10.2 s)',
    '    at e2e/helpers.ts:300: Error: seats A1 of 105-DHK-CTG on 2026-12-07 were taken / expect(received).toBeTruthy() / Received: false',
    '✘ a.spec.ts:20 › times out (timedOut, 60 s)',
    '    at no location: Test timeout of 60000ms exceeded.',
    '    at e2e/helpers.ts:70: Error: page.evaluate: Test timeout of 60000ms exceeded.',
  ])
})

test('a report with no failure lists none', () => {
  assert.equal(reportFailures({ suites: [] }, '/repo'), [])
})

test.run()
