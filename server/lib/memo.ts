/**
 * Answers of `load` kept in memory for `ttlMs` per key (`key(arg)`, or the argument): calls within that time
 * (including ones made while the first is under way) share one promise, and a
 * failed load is forgotten at once. `ttlMs` 0 or less: no memory, every call loads.
 * `stale(arg, held, ageMs, ttl)` may drop a kept answer sooner: `held` is the argument it was loaded for.
 * At most `max` keys; past that the memory starts over.
 */
export function memoized<A, V>(
  load: (arg: A) => Promise<V>,
  opts: { ttlMs: () => number; max: number; key?: (arg: A) => unknown; stale?: (arg: A, held: A, ageMs: number, ttl: number) => boolean },
): (arg: A) => Promise<V> {
  const memo = new Map<unknown, { at: number; arg: A; value: Promise<V> }>()
  return (arg) => {
    const key = opts.key ? opts.key(arg) : arg
    const ttl = opts.ttlMs()
    const hit = memo.get(key)
    const age = hit ? Date.now() - hit.at : 0
    if (ttl > 0 && hit && age < ttl && !opts.stale?.(arg, hit.arg, age, ttl)) return hit.value
    const value = load(arg)
    if (ttl > 0) {
      if (memo.size >= opts.max) memo.clear()
      memo.set(key, { at: Date.now(), arg, value })
      value.catch(() => memo.delete(key))
    }
    return value
  }
}
