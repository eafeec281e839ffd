// Preloaded into the unit and server test processes (and every node process they spawn, through NODE_OPTIONS)
// when TEST_NOW is set (an ISO instant, e.g. `TEST_NOW=2026-11-27T00:05:00+06:00 npm test -- unit server`):
// `Date.now()` and `new Date()` then start at that instant and advance in real time from it, so timers and expiry
// still work while the tests run at the hour given (from when the first process read it: TEST_NOW_ANCHOR). Dates built from a value, and performance.now(), are untouched.
const at = process.env.TEST_NOW
if (at) {
  const start = Date.parse(at)
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(at) || Number.isNaN(start)) throw new Error(`TEST_NOW is not an ISO instant: ${at}`)
  const RealDate = Date
  // One offset for this process and every process it starts (they inherit the env): a server spawned minutes
  // later keeps the same time as the test talking to it, instead of starting at TEST_NOW again.
  process.env.TEST_NOW_ANCHOR ??= String(RealDate.now())
  const offset = start - Number(process.env.TEST_NOW_ANCHOR)
  const now = () => RealDate.now() + offset
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length ? args : [now()], newTarget),
    apply: () => new RealDate(now()).toString(),
    get: (target, prop, receiver) => (prop === 'now' ? now : Reflect.get(target, prop, receiver)),
  })
}
