// Types of scripts/merge-chunks.mjs (a plain JS module build.mjs runs without a compiler).
export interface MetaOutput {
  imports: { path: string; kind: string; external?: boolean }[]
  exports: string[]
  inputs: Record<string, { bytesInOutput: number }>
  entryPoint?: string
  entryPoints?: string[]
  bytes: number
}
export interface Metafile {
  inputs: Record<string, unknown>
  outputs: Record<string, MetaOutput>
}
export function staticClosure(metafile: Metafile, outFile: string, seen?: Set<string>): Set<string>
export function planGroups(opts: {
  metafile: Metafile
  entryOut: string
  firstRenders: Map<string, string[]>
  maxGroups?: (page: string) => number
  maxBytes?: (page: string) => number
  sizeOf?: (files: string[]) => number
}): Map<string, string>
export function mergeChunks(opts: {
  metafile: Metafile
  files: Map<string, string>
  groups: Map<string, string>
  outBase: string
  root: string
}): Promise<{ outputs: Map<string, string>; fileOf: Map<string, string>; metafile: Metafile }>
