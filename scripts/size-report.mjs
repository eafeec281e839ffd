// Size report: what the first render of each route downloads (JS and CSS),
// raw / gzip / brotli. Used by build.mjs and by the benchmarks.
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync, brotliCompressSync, constants } from 'node:zlib'
import { tsImport } from 'tsx/esm/api'

/** Budgets of every route's first render, in bytes (brotli). */
export const BUDGET = { routeJsBrotli: 100 * 1024, cssBrotli: 10 * 1024 }

/** Raw, gzip (level 9) and brotli (quality 11) sizes of a buffer. */
export function sizesOf(buf) {
  return {
    raw: buf.length,
    gzip: gzipSync(buf, { level: 9 }).length,
    brotli: brotliCompressSync(buf, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length },
    }).length,
  }
}

function addSizes(a, b) {
  return { raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }
}

/** All chunks an output file needs before it runs: itself plus its static imports, transitively. */
export function staticClosure(metafile, outFile, seen = new Set()) {
  if (seen.has(outFile)) return seen
  seen.add(outFile)
  const out = metafile.outputs[outFile]
  for (const imp of out?.imports ?? []) {
    if (imp.kind === 'import-statement' && !imp.external) staticClosure(metafile, imp.path, seen)
  }
  return seen
}

/**
 * The app's route table (src/routes.ts, pure data) as [{ path, page, pageKey }],
 * where page is the source file of the route's lazily loaded page (from the project
 * root) and pageKey its key in the table.
 */
export async function loadRoutes(root) {
  const { routes, pageFile } = await tsImport(pathToFileURL(join(root, 'src/routes.ts')).href, import.meta.url)
  return routes.map((r) => ({ path: r.path, page: pageFile(r.page), pageKey: r.page }))
}

/**
 * The files each route's first render needs beyond the entry's own static imports:
 * its page chunk with that chunk's static imports, and the chunk of the page's English
 * messages (build.mjs, `locale-page:`). Paths as in the metafile.
 * @returns {Map<string, string[]>} route path → files
 */
export function routeFiles({ metafile, entry, routes }) {
  const outputs = Object.entries(metafile.outputs)
  const byEntry = new Map(outputs.filter(([, o]) => o.entryPoint).map(([file, o]) => [o.entryPoint.replace(/\\/g, '/'), file]))
  const entryOut = byEntry.get(entry)
  if (!entryOut) throw new Error(`entry ${entry} not found in metafile`)
  const base = staticClosure(metafile, entryOut)
  return new Map(
    routes.map(({ path, page, pageKey }) => {
      const files = new Set()
      const pageOut = byEntry.get(page.replace(/\\/g, '/'))
      if (!pageOut) throw new Error(`no chunk for ${page} (route ${path}): is it in src/page-loaders.ts?`)
      staticClosure(metafile, pageOut, files)
      const messagesOut = byEntry.get(`locale-page:en-${pageKey}`)
      if (messagesOut) staticClosure(metafile, messagesOut, files)
      return [path, [...files].filter((f) => !base.has(f))]
    }),
  )
}

/**
 * Per-route first-render sizes.
 * @param {{ metafile: any, root: string, entry: string, routes: {path:string,page:string}[], cssFile: string, extraFiles?: (path: string) => string[] }} opts
 *   entry: source path of the entry point (e.g. 'src/main.tsx'); cssFile: absolute path of the CSS asset;
 *   extraFiles: files (relative to root) a route's shell loads besides the bundle (the early-requests script).
 * @returns {{ css: {raw:number,gzip:number,brotli:number}, routes: {path:string, files:string[], js:{raw:number,gzip:number,brotli:number}}[] }}
 */
export function sizeReport({ metafile, root, entry, routes, cssFile, extraFiles = () => [] }) {
  const entryOut = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint?.replace(/\\/g, '/') === entry)?.[0]
  if (!entryOut) throw new Error(`entry ${entry} not found in metafile`)
  const cache = new Map()
  const sizeOfFile = (file) => {
    if (!cache.has(file)) cache.set(file, sizesOf(readFileSync(join(root, file))))
    return cache.get(file)
  }
  const perRoute = routeFiles({ metafile, entry, routes })
  const rows = routes.map(({ path, page }) => {
    const files = new Set([...staticClosure(metafile, entryOut), ...perRoute.get(path), ...extraFiles(path)])
    let js = { raw: 0, gzip: 0, brotli: 0 }
    for (const f of files) js = addSizes(js, sizeOfFile(f))
    return { path, page, files: [...files].map((f) => relative(root, join(root, f))), js }
  })
  return { css: sizesOf(readFileSync(cssFile)), routes: rows }
}

const kb = (n) => (n / 1024).toFixed(1).padStart(7)

/** Formats a report as a fixed-width table. */
export function formatReport(report) {
  const lines = ['route                      JS raw KB  gzip KB  brotli KB']
  for (const r of report.routes) {
    lines.push(`${r.path.padEnd(26)} ${kb(r.js.raw)}  ${kb(r.js.gzip)}  ${kb(r.js.brotli)}`)
  }
  const c = report.css
  lines.push(`${'CSS (all routes)'.padEnd(26)} ${kb(c.raw)}  ${kb(c.gzip)}  ${kb(c.brotli)}`)
  return lines.join('\n')
}

/** Budget violations as human-readable strings (empty when within budget). */
export function checkBudget(report) {
  const problems = []
  for (const r of report.routes) {
    if (r.js.brotli > BUDGET.routeJsBrotli) problems.push(`${r.path} JS ${kb(r.js.brotli).trim()} KB brotli > ${BUDGET.routeJsBrotli / 1024} KB`)
  }
  if (report.css.brotli > BUDGET.cssBrotli) {
    problems.push(`CSS ${kb(report.css.brotli).trim()} KB brotli > ${BUDGET.cssBrotli / 1024} KB`)
  }
  return problems
}
