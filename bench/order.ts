/**
 * Order statistics of the Eid sale's waiting room (bench/eid.ts): how far admission order follows
 * arrival order. Pure functions, unit-tested in order.test.ts.
 */

/** Ranks 1..n of the values, ties sharing their average rank. */
export function ranks(xs: number[]): number[] {
  const idx = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!)
  const r = new Array<number>(xs.length)
  for (let i = 0; i < idx.length; ) {
    let j = i
    while (j + 1 < idx.length && xs[idx[j + 1]!] === xs[idx[i]!]) j++
    // ranks i+1 … j+1 share their mean
    for (let k = i; k <= j; k++) r[idx[k]!] = (i + j) / 2 + 1
    i = j + 1
  }
  return r
}

/** Spearman's rank correlation of paired samples (Pearson's r of their ranks, ties averaged); NaN for fewer than 3 pairs or a constant side. */
export function spearman(xs: number[], ys: number[]): number {
  if (xs.length !== ys.length) throw new Error('spearman: samples of different lengths')
  const n = xs.length
  if (n < 3) return Number.NaN
  const rx = ranks(xs)
  const ry = ranks(ys)
  const mean = (n + 1) / 2
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    const dx = rx[i]! - mean
    const dy = ry[i]! - mean
    sxy += dx * dy
    sxx += dx * dx
    syy += dy * dy
  }
  return sxx === 0 || syy === 0 ? Number.NaN : sxy / Math.sqrt(sxx * syy)
}

/** One place in a queue: when it came (or its place in the queue) and when it was served (null: not yet). */
export interface Served {
  came: number
  served: number | null
}

/**
 * Places served out of turn: each one served strictly before another that came more than `tolerance` earlier and
 * was served later or is still waiting. 0 means first come, first served (ties in either order are no violation);
 * a tolerance forgives places that came within it of each other (requests still in flight when the server served).
 */
export function fifoViolations(places: Served[], tolerance = 0): number {
  const byCame = [...places].sort((a, b) => a.came - b.came)
  let violations = 0
  // the latest service (Infinity: one still waiting) among places that came more than `tolerance` before the current one
  let latestBefore = Number.NEGATIVE_INFINITY
  let k = 0
  for (const p of byCame) {
    while (k < byCame.length && byCame[k]!.came < p.came - tolerance) {
      latestBefore = Math.max(latestBefore, byCame[k]!.served ?? Number.POSITIVE_INFINITY)
      k++
    }
    if (p.served !== null && p.served < latestBefore) violations++
  }
  return violations
}
