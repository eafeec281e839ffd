/**
 * A page's data asked for before the page first renders: the first page's module may
 * export `startLoading` (src/page-loaders.ts), which src/app/route-view.tsx runs as soon as
 * the module is there, while the app still renders. The page's own effect then finds the
 * load under way instead of asking again.
 */
const started = new Set<string>()

/** Runs `load` now, for the page that shows `key` to find when it renders. */
export function loadEarly(key: string, load: () => unknown): void {
  started.add(key)
  void load()
}

/** True, once, when the load of `key` was started before the page rendered. */
export function takeEarlyLoad(key: string): boolean {
  return started.delete(key)
}
