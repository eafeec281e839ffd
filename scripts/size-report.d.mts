// Types of scripts/size-report.mjs (a plain JS module build.mjs runs without a compiler).
import type { Metafile } from './merge-chunks.mjs'

export interface Sizes {
  raw: number
  gzip: number
  brotli: number
}
export interface RouteRow {
  path: string
  page: string
  files: string[]
  requests: number
  js: Sizes
}
export interface Report {
  css: Sizes
  routes: RouteRow[]
}
export const BUDGET: { routeJsBrotli: number; scriptRequests: number; cssBrotli: number }
export function sizesOf(buf: Buffer): Sizes
export { staticClosure } from './merge-chunks.mjs'
export function loadRoutes(root: string): Promise<{ path: string; page: string; pageKey: string }[]>
export function shellScripts(html: string): string[]
export function sizeReport(opts: {
  metafile: Metafile
  root: string
  outdir: string
  routes: { path: string; page: string; shell: string }[]
  cssFile: string
}): Report
export function formatReport(report: Report): string
export function checkBudget(report: Report): string[]
