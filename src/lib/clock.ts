/**
 * The time and the timers every store reads (hold and payment countdowns, code
 * resend waits, today's date). One module, so a test moves time for all of them
 * with `fakeClock`.
 */

/** What the stores need from a clock. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number
  /** Runs `fn` every `ms` milliseconds; answers the function that stops it. */
  every(ms: number, fn: () => void): () => void
  /** Runs `task` after the current task (a seat repaints before its lock request is sent). */
  defer(task: () => void): void
}

const systemClock: Clock = {
  now: () => Date.now(),
  every: (ms, fn) => {
    const id = setInterval(fn, ms)
    return () => clearInterval(id)
  },
  defer: (task) => void setTimeout(task, 0),
}

let active: Clock = systemClock

/** Epoch milliseconds. */
export const now = (): number => active.now()

/** Runs `fn` every `ms` milliseconds; answers the function that stops it. */
export const every = (ms: number, fn: () => void): (() => void) => active.every(ms, fn)

/** Runs `task` after the current task. */
export const defer = (task: () => void): void => active.defer(task)

/** A clock a test moves by hand. */
export interface FakeClock {
  /** The time now; setting it moves time without running timers. */
  now: number
  /** Moves time on by `ms`, running each timer as often as it falls due on the way. */
  advance(ms: number): void
  /** Timers running now. */
  readonly timers: number
}

/**
 * Replaces the clock of every store with one that stands at `start` until the
 * test moves it (tests). Deferred tasks run as microtasks.
 */
export function fakeClock(start: number): FakeClock {
  const timers = new Map<number, { ms: number; due: number; fn: () => void }>()
  let next = 1
  const clock: FakeClock = {
    now: start,
    advance(ms) {
      const end = clock.now + ms
      for (;;) {
        const due = [...timers.values()].sort((a, b) => a.due - b.due)[0]
        if (!due || due.due > end) break
        clock.now = due.due
        due.due += due.ms
        due.fn()
      }
      clock.now = end
    },
    get timers() {
      return timers.size
    },
  }
  active = {
    now: () => clock.now,
    every: (ms, fn) => {
      const id = next++
      timers.set(id, { ms, due: clock.now + ms, fn })
      return () => void timers.delete(id)
    },
    defer: (task) => queueMicrotask(task),
  }
  return clock
}
