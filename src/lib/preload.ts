/**
 * Module preloads from the list build.mjs writes into each HTML page
 * (`<script type="application/json" id="route-files">`): per route path, the files
 * its first render needs beyond the entry, and under '*overlays' the toast and
 * dialog hosts with all messages. A preloaded module is fetched and compiled but
 * not run, and a later import() of it needs no network.
 */
const done = new Set<string>()
let list: Record<string, string[]> | null | undefined

function files(key: string): string[] {
  if (list === undefined) {
    try {
      const text = typeof document === 'undefined' ? null : document.getElementById('route-files')?.textContent
      list = text ? (JSON.parse(text) as Record<string, string[]>) : null
    } catch {
      list = null
    }
  }
  return list?.[key] ?? []
}

/** Adds `<link rel="modulepreload">` for the files listed under `key` (once each). */
export function preloadFiles(key: string): void {
  for (const href of files(key)) {
    if (done.has(href)) continue
    done.add(href)
    const link = document.createElement('link')
    link.rel = 'modulepreload'
    link.href = href
    document.head.append(link)
  }
}
