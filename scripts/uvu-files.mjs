// Runs the uvu test files named on the command line (paths from the repository root) in one process:
// scripts/test.mjs finds them wherever they live, which `uvu <dir> <pattern>` cannot.
// With `--queue` (a worker of scripts/test.mjs, over its IPC channel) it asks for one file at a time, runs it
// and reports it done with its time, until it is given none: the workers share the files as they free up.
// Each file's output is written at once when it is done, so two workers' files do not interleave.
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { run } from 'uvu/run'

const files = process.argv.slice(2)
if (files[0] === '--queue') await queue()
else if (!files.length) {
  console.error('usage: node --import tsx scripts/uvu-files.mjs <file.test.ts>... | --queue')
  process.exit(1)
} else await run(files.map((f) => ({ name: f, file: path.resolve(f) })))

/** The next file to run from the parent, or null when there is none. */
function next(done) {
  return new Promise((resolve) => {
    process.once('message', (m) => resolve(m.file ?? null))
    process.send(done ?? { ready: true })
  })
}

/**
 * Writes all of `text` to `fd`. The runner's end of the pipe is non-blocking: one write takes what the pipe has
 * room for (64 KB when the runner is behind) and says how much; the rest was dropped, a failure's lines with it.
 */
function writeAll(fd, text) {
  let rest = Buffer.from(text)
  const pause = new Int32Array(new SharedArrayBuffer(4))
  while (rest.length) {
    try {
      rest = rest.subarray(fs.writeSync(fd, rest))
    } catch (err) {
      if (err?.code !== 'EAGAIN') throw err
    }
    // the runner reads the pipe empty meanwhile
    if (rest.length) Atomics.wait(pause, 0, 0, 2)
  }
}

/**
 * Holds what the process writes until `flush`; what is held is written even when the process exits early. With
 * `spool` (a file's path) it is also written there as it comes, and the file emptied at each flush: a process that
 * dies without running its exit handlers (a crash of V8 itself, ended by SIGTRAP or SIGSEGV) leaves there what its
 * current file had printed, for the runner to show.
 */
function holdOutput(spool) {
  const held = []
  let spoolFd = null
  if (spool) {
    fs.writeFileSync(spool, '')
    // appending: after an emptying, the next write starts the file again
    spoolFd = fs.openSync(spool, 'a')
  }
  const hold = (fd) => (chunk, encoding, cb) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
    held.push([fd, text])
    if (spoolFd !== null) fs.writeSync(spoolFd, text)
    if (typeof encoding === 'function') encoding()
    else if (typeof cb === 'function') cb()
    return true
  }
  process.stdout.write = hold(1)
  process.stderr.write = hold(2)
  const flush = () => {
    for (const [fd, text] of held.splice(0)) writeAll(fd, text)
    if (spoolFd !== null) fs.ftruncateSync(spoolFd, 0)
  }
  process.on('exit', flush)
  return { flush }
}

async function queue() {
  globalThis.UVU_DEFER = 1
  const uvu = await import('uvu')
  const out = holdOutput(process.env.UVU_SPOOL)
  let failed = false
  let done = null
  let current = null
  // an error no test awaited ends the worker (as it would a run of its own), said with the file and its stack first,
  // so the runner's summary names the cause and not only that the worker died
  const crash = (kind) => (err) => {
    console.log(
      `${current}\n   FAIL  "${current}" ended the worker: ${kind}\n    ${String(err?.stack ?? err)
        .split('\n')
        .slice(0, 6)
        .join('\n    ')}\n`,
    )
    out.flush()
    process.exit(1)
  }
  process.on('uncaughtException', crash('an uncaught exception'))
  process.on('unhandledRejection', crash('an unhandled rejection'))
  // a signal from outside: what the file printed so far and which signal, then the worker ends by that signal
  // (the runner names it); SIGKILL cannot be caught, and leaves the runner's line alone
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT']) {
    process.once(signal, () => {
      console.log(`${current}\n   FAIL  "${current}" ended the worker: ${signal} from another process\n`)
      out.flush()
      process.kill(process.pid, signal)
    })
  }
  for (let file = await next(); file; file = await next(done)) {
    current = file
    const t0 = performance.now()
    globalThis.UVU_QUEUE = [[file]]
    globalThis.UVU_INDEX = 0
    process.exitCode = 0
    try {
      await import(pathToFileURL(path.resolve(file)).href)
      await uvu.exec()
    } catch (err) {
      // a file that cannot load is one failed test, as in a run of its own
      console.log(`${file}\n   FAIL  "${file}" could not load\n    ${err?.stack ?? err}\n\n  Total:     1\n  Passed:    0\n  Skipped:   0\n`)
      process.exitCode = 1
    }
    failed ||= process.exitCode !== 0
    out.flush()
    done = { done: file, ms: Math.round(performance.now() - t0) }
  }
  process.exitCode = failed ? 1 : 0
  process.disconnect()
}
