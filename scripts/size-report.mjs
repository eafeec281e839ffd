// Size report: what the first render of each route downloads (JS and CSS),
// raw / gzip / brotli, and how many scripts. Used by build.mjs and by the benchmarks.
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync, brotliCompressSync, constants } from 'node:zlib'
import { tsImport } from 'tsx/esm/api'
import { staticClosure } from './merge-chunks.mjs'

/** Budgets of every route's first render, in bytes (brotli). */
export const BUDGET = { routeJsBrotli: 100 * 1024, scriptRequests: 8, cssBrotli: 10 * 1024 }

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

export { staticClosure }

/**
 * The app's route table (src/routes.ts, pure data) as [{ path, page, pageKey, data }],
 * where page is the source file of the route's lazily loaded page (from the project
 * root), pageKey its key in the table and data whether it is one of DATA_PAGES.
 */
export async function loadRoutes(root) {
  const { routes, pageFile, DATA_PAGES } = await tsImport(pathToFileURL(join(root, 'src/routes.ts')).href, import.meta.url)
  return routes.map((r) => ({ path: r.path, page: pageFile(r.page), pageKey: r.page, data: DATA_PAGES.has(r.page) }))
}

/**
 * The scripts an HTML shell makes the browser download before the first render: every
 * `<script src>` (classic or module) and `<link rel="modulepreload">`, in document order, as
 * root-relative URLs.
 */
export function shellScripts(html) {
  const urls = []
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>|<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"[^>]*>/g)) {
    const u = m[1] ?? m[2]
    if (!urls.includes(u)) urls.push(u)
  }
  return urls
}

/**
 * Per-route first-render sizes, counted as a browser fetches them: every script the route's
 * shell loads or preloads plus their static imports (metafile), each file compressed on its own.
 * @param {{ metafile: any, root: string, outdir: string, routes: {path:string, page:string, shell:string}[], cssFile: string }} opts
 *   shell: the route's HTML file inside outdir; metafile keys are paths from root.
 * @returns {{ css: {raw:number,gzip:number,brotli:number}, routes: {path:string, page:string, files:string[], requests:number, js:{raw:number,gzip:number,brotli:number}}[] }}
 */
export function sizeReport({ metafile, root, outdir, routes, cssFile }) {
  const cache = new Map()
  const sizeOfFile = (file) => {
    if (!cache.has(file)) cache.set(file, sizesOf(readFileSync(join(root, file))))
    return cache.get(file)
  }
  const rows = routes.map(({ path, page, shell }) => {
    const files = new Set()
    for (const u of shellScripts(readFileSync(join(outdir, shell), 'utf8'))) {
      if (/^(https?:)?\/\//.test(u)) throw new Error(`${shell} loads ${u} from another origin: not counted`)
      staticClosure(
        metafile,
        relative(root, join(outdir, u.split('?')[0]))
          .split('\\')
          .join('/'),
        files,
      )
    }
    let js = { raw: 0, gzip: 0, brotli: 0 }
    for (const f of files) js = addSizes(js, sizeOfFile(f))
    return { path, page, files: [...files], requests: files.size, js }
  })
  return { css: sizesOf(readFileSync(cssFile)), routes: rows }
}

const kb = (n) => (n / 1024).toFixed(1).padStart(7)

/** Formats a report as a fixed-width table. */
export function formatReport(report) {
  const lines = ['route                      JS raw KB  gzip KB  brotli KB  scripts']
  for (const r of report.routes) {
    lines.push(`${r.path.padEnd(26)} ${kb(r.js.raw)}  ${kb(r.js.gzip)}  ${kb(r.js.brotli)}  ${String(r.requests).padStart(7)}`)
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
    if (r.requests > BUDGET.scriptRequests) problems.push(`${r.path} loads ${r.requests} scripts before its first render > ${BUDGET.scriptRequests}`)
  }
  if (report.css.brotli > BUDGET.cssBrotli) {
    problems.push(`CSS ${kb(report.css.brotli).trim()} KB brotli > ${BUDGET.cssBrotli / 1024} KB`)
  }
  return problems
}
