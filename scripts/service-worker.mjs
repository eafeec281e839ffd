// The service worker of a built app (src/worker/service-worker.ts): the build's
// version, a hash of the hashed assets and the HTML shells (every .html outside assets/), written into each
// shell as <meta name="app-version">, and dist/sw.js, the worker bundled with that
// version and the list of files to precache. build.mjs runs it last; it may run
// again on a dist/ whose files changed (the browser tests' next deploy).
import { build } from 'esbuild'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const VERSION_META = /\n?[ \t]*<meta name="app-version" content="[^"]*">/

/**
 * Stamps the version into the shells of `outdir` and writes `outdir/sw.js`.
 * @param {string} outdir
 * @returns {Promise<{ version: string, files: string[] }>}
 */
export async function writeServiceWorker(outdir) {
  // every route's shell (build.mjs `shellFile`) and the fallback app.html
  const shells = readdirSync(outdir, { recursive: true })
    .map((f) => String(f).split('\\').join('/'))
    .filter((f) => f.endsWith('.html') && !f.startsWith('assets/'))
    .sort()
  const assets = readdirSync(join(outdir, 'assets')).sort()
  const hash = createHash('sha256')
  const pages = new Map()
  for (const f of shells) {
    const html = readFileSync(join(outdir, f), 'utf8').replace(VERSION_META, '')
    pages.set(f, html)
    hash.update(`${f}\0${html}\0`)
  }
  for (const f of assets)
    hash
      .update(`assets/${f}\0`)
      .update(readFileSync(join(outdir, 'assets', f)))
      .update('\0')
  const version = hash.digest('hex').slice(0, 12)
  for (const [f, html] of pages) {
    writeFileSync(
      join(outdir, f),
      html.replace('<meta charset="utf-8">', `<meta charset="utf-8">\n    <meta name="app-version" content="${version}">`),
    )
  }
  // config.js is not part of the version: operators edit it in place (the worker asks the network for it first)
  const files = [...shells.map((f) => `/${f}`), '/config.js', ...assets.map((f) => `/assets/${f}`)]
  await build({
    absWorkingDir: root,
    entryPoints: ['src/worker/service-worker.ts'],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2020',
    legalComments: 'none',
    outfile: join(outdir, 'sw.js'),
    define: { __APP_VERSION__: JSON.stringify(version), __PRECACHE__: JSON.stringify(files) },
    logLevel: 'error',
  })
  return { version, files }
}
