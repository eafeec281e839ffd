import type { Opener } from '../../api/streams.ts'
import { afterPaint } from '../../lib/page-shown.ts'

/** What followAfterPaint waits for and loads (the page's own; tests pass stand-ins). */
export interface FollowDeps {
  afterPaint: (fn: () => void) => void
  loadOpener: () => Promise<Opener>
}

const pageDeps: FollowDeps = {
  afterPaint,
  loadOpener: () => import('../../api/streams.ts').then((m) => m.openStream),
}

/**
 * Starts the live seat map (`start`, given the stream opener) once the seat map has painted, in a
 * task of its own: the stream's code (its zod schemas) and its snapshot's render then do not
 * lengthen the task that shows the seats. Returns the stop, which also stops a start not made yet.
 * A stream code that cannot be fetched (offline) leaves the seats as loaded, as a stream that is down does.
 */
export function followAfterPaint(start: (open: Opener) => () => void, deps: FollowDeps = pageDeps): () => void {
  let live = true
  let stop: (() => void) | undefined
  deps.afterPaint(() => {
    if (!live) return
    deps.loadOpener().then(
      (open) => {
        if (live) stop = start(open)
      },
      () => undefined,
    )
  })
  return () => {
    live = false
    stop?.()
  }
}
