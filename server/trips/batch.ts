/**
 * Natural batching: calls made in the same turn of the event loop, or while
 * `concurrency` batches are already running, go together in one batch. A busy server
 * makes one database call for many requests; an idle one sends each call as soon as
 * the current turn's I/O callbacks are done (setImmediate), with no timer delay.
 *
 * The turn matters for PGlite: its query runs synchronously once started, so without
 * waiting for the turn every request would find the previous call already finished.
 */
export function batched<In, Out>(run: (items: In[]) => Promise<Out[]>, opts: { concurrency: number; maxBatch: number }): (item: In) => Promise<Out> {
  const queue: { item: In; resolve: (v: Out) => void; reject: (e: unknown) => void }[] = []
  let running = 0
  let scheduled = false
  const pump = (): void => {
    scheduled = false
    while (running < opts.concurrency && queue.length > 0) {
      const batch = queue.splice(0, opts.maxBatch)
      running++
      run(batch.map((b) => b.item))
        .then((outs) => {
          if (outs.length !== batch.length) throw new Error(`batch answered ${outs.length} results for ${batch.length} calls`)
          for (const [i, b] of batch.entries()) b.resolve(outs[i]!)
        })
        .catch((err: unknown) => {
          for (const b of batch) b.reject(err)
        })
        .finally(() => {
          running--
          pump()
        })
    }
  }
  return (item) =>
    new Promise<Out>((resolve, reject) => {
      queue.push({ item, resolve, reject })
      if (!scheduled && running < opts.concurrency) {
        scheduled = true
        setImmediate(pump)
      }
    })
}
