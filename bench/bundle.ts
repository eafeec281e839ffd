/**
 * Part 1, bundle: per route, the JavaScript and CSS its first render needs and
 * what loads after (raw, gzip, brotli), from the esbuild metafile, with the
 * largest packages in each chunk. Sizes and closures come from
 * scripts/size-report.mjs (the same numbers `npm run build` prints).
 */
import fs from 'node:fs'
import path from 'node:path'
import type { BenchBuild, Metafile, Sizes } from './build.ts'
import { sizeReportModule } from './build.ts'
import { fig, kb, root, type Figure, type PartResult } from './lib.ts'

/** The package (node_modules) or source folder an input file belongs to. */
export function packageOf(input: string): string {
  const p = input.replace(/\\/g, '/')
  const nm = p.lastIndexOf('node_modules/')
  if (nm >= 0) {
    const parts = p.slice(nm + 'node_modules/'.length).split('/')
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!
  }
  const parts = p.split('/')
  if (parts[0] === 'src' && parts[1] === 'pages') return parts.slice(0, 3).join('/')
  if ((parts[0] === 'src' || parts[0] === 'design-system') && parts.length > 2) return parts.slice(0, 2).join('/')
  return parts.length > 1 && parts[0] !== 'locales' ? parts[0]! : p
}

/** The largest packages of one output chunk, by bytes in the (minified, uncompressed) output. */
export function largestPackages(metafile: Metafile, file: string, n = 4): { name: string; bytes: number }[] {
  const by = new Map<string, number>()
  for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[file]?.inputs ?? {})) {
    const k = packageOf(input)
    by.set(k, (by.get(k) ?? 0) + bytesInOutput)
  }
  return [...by.entries()]
    .map(([name, bytes]) => ({ name, bytes }))
    .filter((x) => x.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, n)
}

const add = (a: Sizes, b: Sizes): Sizes => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli })
const zero: Sizes = { raw: 0, gzip: 0, brotli: 0 }
const k = (n: number) => (n / 1024).toFixed(1)
const triple = (s: Sizes) => `${k(s.raw)} / ${k(s.gzip)} / ${k(s.brotli)}`

/** A short name for an output chunk: its entry point, else its largest input. */
function chunkLabel(metafile: Metafile, file: string): string {
  const o = metafile.outputs[file]
  const base = path.basename(file)
  // a file the build writes beside the bundle (the shell's early-requests script)
  if (!o) return `${base} (own bundle, loaded by the shell)`
  if (o.entryPoint) return `${base} (${o.entryPoint})`
  return base
}

export async function runBundle(b: BenchBuild): Promise<PartResult> {
  const sr = await sizeReportModule()
  const { metafile } = b
  const date = new Date().toISOString()
  const cssFile = b.cssFiles[0]
  if (!cssFile) throw new Error('index.html links no stylesheet')
  const routesAll = await sr.loadRoutes(root)
  // one row per page; its paths listed together
  const pages = new Map<string, string[]>()
  for (const r of routesAll) pages.set(r.page, [...(pages.get(r.page) ?? []), r.path])
  const routes = [...pages.entries()].map(([page, paths]) => ({
    path: paths[0]!,
    page,
    paths,
    pageKey: routesAll.find((r) => r.page === page)!.pageKey,
  }))
  const report = sr.sizeReport({ metafile, root, outdir: b.outdir, routes: routes.map((r) => ({ ...r, shell: b.shellFile(r.path) })), cssFile })

  // the files holding a page (a merged file may hold shared chunks with it)
  const pageOutputs = new Set(
    Object.entries(metafile.outputs)
      .filter(([, o]) => (o.entryPoints ?? []).some((e) => routes.some((r) => r.page === e.replace(/\\/g, '/'))))
      .map(([f]) => f),
  )
  const sizeCache = new Map<string, Sizes>()
  const sizeOf = (f: string) => {
    if (!sizeCache.has(f)) sizeCache.set(f, sr.sizesOf(fs.readFileSync(path.join(root, f))))
    return sizeCache.get(f)!
  }
  const css = b.cssFiles.map((f) => sr.sizesOf(fs.readFileSync(f))).reduce(add, zero)
  // CSS chunks esbuild emitted (CSS imported from JS), if any
  const cssChunk = (files: Iterable<string>) =>
    [...files]
      .filter((f) => f.endsWith('.css'))
      .map(sizeOf)
      .reduce(add, zero)

  const figures: Figure[] = []
  const detailRows: string[] = []
  const usedChunks = new Set<string>()
  for (const r of report.routes) {
    // report.files are relative to root already; match the metafile's keys
    const first = new Set(r.files.map((f) => f.split(path.sep).join('/')))
    for (const f of first) usedChunks.add(f)
    // what the route's files load later (lazy widgets, locale, API client), other pages excluded
    const later = new Set<string>()
    for (const f of first) {
      for (const imp of metafile.outputs[f]?.imports ?? []) {
        if (imp.kind !== 'dynamic-import' || imp.external || first.has(imp.path) || pageOutputs.has(imp.path)) continue
        for (const g of sr.staticClosure(metafile, imp.path)) if (!first.has(g)) later.add(g)
      }
    }
    for (const f of later) usedChunks.add(f)
    const laterJs = [...later]
      .filter((f) => f.endsWith('.js'))
      .map(sizeOf)
      .reduce(add, zero)
    const firstCss = add(css, cssChunk(first))
    const paths = pages.get(r.page) ?? [r.path]
    const isHome = paths.includes('/')
    figures.push(fig(`${paths.join(', ')} first-render JS (brotli)`, r.js.brotli, kb, { max: sr.BUDGET.routeJsBrotli }))
    figures.push(fig(`${paths.join(', ')} scripts before the first render`, r.requests, (n) => String(n), { max: sr.BUDGET.scriptRequests }))
    if (isHome) figures.push(fig(`${paths.join(', ')} first-render CSS (brotli)`, firstCss.brotli, kb, { max: sr.BUDGET.cssBrotli }))
    if (isHome) figures.push(fig(`${paths.join(', ')} JS loaded after first render (brotli)`, laterJs.brotli, kb))
    const laterNames = [...later].map((f) => path.basename(f).replace(/-[A-Z0-9]{8}\.js$/, '')).join(', ')
    detailRows.push(`| ${paths.join(', ')} | ${triple(r.js)} | ${first.size} | ${triple(firstCss)} | ${triple(laterJs)} | ${laterNames || '—'} |`)
  }

  const chunkRows = [...usedChunks]
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ f, s: sizeOf(f) }))
    .sort((a, b) => b.s.brotli - a.s.brotli)
    .map(
      ({ f, s }) =>
        `| ${chunkLabel(metafile, f)} | ${triple(s)} | ${largestPackages(metafile, f)
          .map((p) => `${p.name} ${k(p.bytes)}`)
          .join(', ')} |`,
    )

  return {
    part: 'bundle',
    title: 'Bundle',
    date,
    figures,
    details: [
      `Built with \`build.mjs\` in ${(b.ms / 1000).toFixed(1)} s. Sizes in KB as raw / gzip (level 9) / brotli (quality 11); ` +
        "first render = every script the route's HTML shell loads or preloads (config.js, the early requests on the data routes, the entry, the route's files) with their static imports, each file compressed on its own, as a browser downloads them; " +
        '"after" = chunks those files import lazily (widgets, the Bengali locale, the API client), other pages excluded. ' +
        'One stylesheet serves every route.',
      '',
      '| route | first-render JS | files | first-render CSS | JS loaded after | loaded after |',
      '|---|---|---|---|---|---|',
      ...detailRows,
      '',
      'Chunks (largest packages by minified bytes in the chunk, KB):',
      '',
      '| chunk | raw / gzip / brotli KB | largest packages |',
      '|---|---|---|',
      ...chunkRows,
    ],
    errors: [],
  }
}
