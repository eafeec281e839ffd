/**
 * Builds the app once for the benchmark with `build.mjs` and the helpers of
 * `scripts/size-report.mjs` (typed here; both are plain JS modules).
 *
 * The build goes to a private folder, not the shared `dist/`: other engineers
 * rebuild `dist/` while the benchmark runs. The bench server serves this
 * private build (see `stagedRoot` in lib.ts).
 */
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { root, tempDir } from './lib.ts'

export interface Sizes {
  raw: number
  gzip: number
  brotli: number
}

export interface MetaImport {
  path: string
  kind: string
  external?: boolean
}
export interface MetaOutput {
  imports: MetaImport[]
  entryPoint?: string
  /** Every entry point the file holds (build.mjs merges chunks: a file may hold a page and shared code). */
  entryPoints?: string[]
  inputs: Record<string, { bytesInOutput: number }>
  bytes: number
}
export interface Metafile {
  outputs: Record<string, MetaOutput>
}

/** The exports of scripts/size-report.mjs the benchmark uses. */
export interface SizeReportModule {
  BUDGET: { routeJsBrotli: number; scriptRequests: number; cssBrotli: number }
  sizesOf(buf: Buffer): Sizes
  staticClosure(metafile: Metafile, outFile: string, seen?: Set<string>): Set<string>
  loadRoutes(root: string): Promise<{ path: string; page: string; pageKey: string }[]>
  sizeReport(opts: { metafile: Metafile; root: string; outdir: string; routes: { path: string; page: string; shell: string }[]; cssFile: string }): {
    css: Sizes
    routes: { path: string; page: string; files: string[]; requests: number; js: Sizes }[]
  }
}

interface BuildModule {
  build(opts: { outdir?: string; quiet?: boolean }): Promise<{ metafile: Metafile; problems: string[] }>
  shellFile(path: string): string
}

/** Imports a JS module of the repository by path (kept out of the type checker's module resolution). */
export async function importRepoModule<T>(rel: string): Promise<T> {
  return (await import(pathToFileURL(path.join(root, rel)).href)) as T
}

export function sizeReportModule(): Promise<SizeReportModule> {
  return importRepoModule<SizeReportModule>('scripts/size-report.mjs')
}

/** The result of the benchmark's build. */
export interface BenchBuild {
  /** Private output folder holding exactly the files the metafile names. */
  outdir: string
  metafile: Metafile
  /** Stylesheets index.html links (absolute paths inside outdir). */
  cssFiles: string[]
  /** The HTML shell of a route path inside outdir (build.mjs). */
  shellFile: (path: string) => string
  ms: number
}

/** Runs build.mjs into a private temp folder. */
export async function buildApp(): Promise<BenchBuild> {
  const outdir = tempDir('dist')
  const t0 = performance.now()
  const { build, shellFile } = await importRepoModule<BuildModule>('build.mjs')
  const { metafile } = await build({ outdir, quiet: true })
  const ms = performance.now() - t0
  const html = fs.readFileSync(path.join(outdir, 'index.html'), 'utf8')
  const cssFiles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\/([^"]+)"/g)].map((m) => path.join(outdir, m[1]!))
  return { outdir, metafile, cssFiles, shellFile, ms }
}
