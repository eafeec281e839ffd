/** Stamps the build's version into the shells of `outdir` and writes `outdir/sw.js` (scripts/service-worker.mjs). */
export function writeServiceWorker(outdir: string): Promise<{ version: string; files: string[] }>
