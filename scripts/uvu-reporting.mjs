// uvu as the test files import it (`import { suite, test } from 'uvu'`), with one change: an error thrown by a
// suite's before or after hook is printed as a failure with its stack. uvu's runner returns from a `finally` and
// so drops that error: the suite's tests were counted failed with no word of why (a two-process PostgreSQL suite
// whose servers did not start showed only "(0 / 8)"). scripts/uvu-hooks.mjs points the test files' 'uvu' here.
import * as uvu from 'uvu'

/** `fn` as a hook that prints its error, as uvu prints a failed test's, before throwing it on. */
const reported = (where, fn) => async (state) => {
  try {
    return await fn(state)
  } catch (err) {
    const stack = String(err?.stack ?? err)
      .split('\n')
      .slice(0, 8)
      .join('\n    ')
    console.log(`\n   FAIL  ${where}\n    ${stack}\n`)
    throw err
  }
}

/** `t` with its before and after hooks reported. */
function reporting(t, name) {
  const where = (kind) => `${name ? `${name}  ` : ''}"${kind} hook failed: no test of the suite ran after it"`
  const { before, after } = t
  t.before = Object.assign((fn) => before(reported(where('before'), fn)), { each: before.each })
  t.after = Object.assign((fn) => after(reported(where('after'), fn)), { each: after.each })
  return t
}

export const suite = (name, state) => reporting(uvu.suite(name, state), name)
export const test = reporting(uvu.test, '')
export const exec = uvu.exec
