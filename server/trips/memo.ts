/**
 * Answers of `load` kept in memory for `ttlMs` per key (`key(arg)`, or the argument): calls within that time
 * (including ones made while the first is under way) share one promise, and a
 * failed load is forgotten at once. `ttlMs` 0 or less: no memory, every call loads.
 * At most `max` keys; past that the memory starts over.
 */
export function memoized<A, V>(
  load: (arg: A) => Promise<V>,
  opts: { ttlMs: () => number; max: number; key?: (arg: A) => unknown },
): (arg: A) => Promise<V> {
  const memo = new Map<unknown, { at: number; value: Promise<V> }>()
  return (arg) => {
    const key = opts.key ? opts.key(arg) : arg
    const ttl = opts.ttlMs()
    const hit = memo.get(key)
    if (ttl > 0 && hit && Date.now() - hit.at < ttl) return hit.value
    const value = load(arg)
    if (ttl > 0) {
      if (memo.size >= opts.max) memo.clear()
      memo.set(key, { at: Date.now(), value })
      value.catch(() => memo.delete(key))
    }
    return value
  }
}
