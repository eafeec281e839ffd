// Production build: Panda codegen + cssgen, esbuild (ESM, split per lazy page, then the chunks
// merged into a few files per first render: scripts/merge-chunks.mjs), hashed assets, the HTML
// shells, runtime config.js, the service worker, and a size report.
// Usage: node build.mjs
import { build as esbuild, transform } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib'
import { writeServiceWorker } from './scripts/service-worker.mjs'
import { mergeChunks, planGroups, staticClosure } from './scripts/merge-chunks.mjs'
import { BUDGET, checkBudget, formatReport, loadRoutes, sizeReport } from './scripts/size-report.mjs'
import { tsImport } from 'tsx/esm/api'

const root = dirname(fileURLToPath(import.meta.url))
export const ENTRY = 'src/main.tsx'
/** The fetch wrapper (src/api/index.ts loads it on the first call). */
const CLIENT = 'src/api/client.ts'

function panda(...args) {
  execFileSync(process.execPath, [join(root, 'node_modules/@pandacss/dev/bin.js'), ...args, '--silent'], {
    cwd: root,
    stdio: 'inherit',
  })
}

/**
 * Locale files are bundled as pre-parsed ICU ASTs, so the browser never needs
 * the message parser (aliased to its no-parser build below, ~8 KB brotli saved).
 * English is split: `src/i18n.ts` gets the core scopes of locales/core-scopes.json
 * (shell, home page, route titles) in the entry; `src/page-messages.ts` becomes one
 * loader per page, each page's other scopes (src/routes.ts `pageMessages`) a chunk of
 * its own (`locale-page:<page>`), loaded with the page, and a loader of the error
 * catalogue's messages (`locale-page:errors`), loaded right after the first render.
 */
const coreConfig = JSON.parse(readFileSync(join(root, 'locales/core-scopes.json'), 'utf8'))
const coreScopes = new Set(coreConfig.scopes)
const coreErrors = new Set(coreConfig.coreErrors)
const isCore = (id) => coreScopes.has(id.split('.')[0]) || coreErrors.has(id) || /^[a-zA-Z]\w*\.title\w*$/.test(id)
const enFile = join(root, 'locales/en.json')

/**
 * Which ids a page's message chunk holds: those of its `pageMessages` scopes that the
 * page's code names (scripts/message-usage.ts), its own modules and the parts it
 * loads later, not the entry's (core messages).
 */
async function pageMessageIds(page) {
  messageUsage ??= (async () => {
    const { pageMessages, pageFile } = await tsImport(pathToFileURL(join(root, 'src/routes.ts')).href, import.meta.url)
    const usage = await tsImport(pathToFileURL(join(root, 'scripts/message-usage.ts')).href, import.meta.url)
    const entry = usage.entryModules(root, ENTRY)
    return { pageMessages, pageFile, usage, entry, en: JSON.parse(readFileSync(enFile, 'utf8')) }
  })()
  const { pageMessages, pageFile, usage, entry, en } = await messageUsage
  const named = usage.idsNamed(usage.moduleClosure(join(root, pageFile(page)), entry), en)
  const scopes = new Set(pageMessages[page])
  return (id) => named.has(id) && scopes.has(id.split('.')[0])
}
// what every page's message chunk is read against, once per build
let messageUsage

async function compileMessages(file, keep) {
  const { parse } = await import('@formatjs/icu-messageformat-parser')
  const messages = JSON.parse(readFileSync(file, 'utf8'))
  return Object.fromEntries(
    Object.entries(messages)
      .filter(([id]) => keep(id))
      .map(([id, text]) => [id, parse(text)]),
  )
}

const precompiledLocales = {
  name: 'precompiled-locales',
  setup(b) {
    // read again on every build: scripts/dev.mjs rebuilds in one process, after pages and en.json change
    b.onStart(() => {
      messageUsage = undefined
    })
    b.onResolve({ filter: /[\\/]locales[\\/]en\.json$/ }, (args) => {
      const part = /[\\/]src[\\/]i18n\.ts$/.test(args.importer) ? 'core' : 'all'
      // the part is in the path: one module per part
      return { path: `${join(args.resolveDir, args.path)}#${part}`, namespace: 'locale' }
    })
    b.onResolve({ filter: /[\\/]locales[\\/]bn\.json$/ }, (args) => ({ path: `${join(args.resolveDir, args.path)}#all`, namespace: 'locale' }))
    b.onLoad({ filter: /\.json#\w+$/, namespace: 'locale' }, async (args) => {
      const [file, part] = args.path.split('#')
      const compiled = await compileMessages(file, (id) => part === 'all' || isCore(id))
      return { contents: JSON.stringify(compiled), loader: 'json', watchFiles: [file] }
    })
    b.onLoad({ filter: /[\\/]src[\\/]page-messages\.ts$/ }, async () => {
      const { pageMessages } = await tsImport(pathToFileURL(join(root, 'src/routes.ts')).href, import.meta.url)
      const pages = Object.keys(pageMessages).filter((p) => pageMessages[p].length)
      const loaders = pages.map((p) => `  ${JSON.stringify(p)}: () => import(${JSON.stringify(`locale-page:${p}`)}),`)
      const contents = `export const pageMessageLoaders = {\n${loaders.join('\n')}\n}\nexport const loadErrorMessageChunk = () => import('locale-page:errors')\n`
      return { contents, loader: 'js', watchFiles: [join(root, 'src/routes.ts')] }
    })
    b.onResolve({ filter: /^locale-page:/ }, (args) => ({ path: `en-${args.path.slice('locale-page:'.length)}`, namespace: 'locale-page' }))
    b.onLoad({ filter: /.*/, namespace: 'locale-page' }, async (args) => {
      const page = args.path.slice('en-'.length)
      const keep = page === 'errors' ? (id) => id.startsWith('error.') : await pageMessageIds(page)
      const compiled = await compileMessages(enFile, (id) => !isCore(id) && keep(id))
      return { contents: JSON.stringify(compiled), loader: 'json', watchFiles: [enFile, join(root, 'src/routes.ts')] }
    })
  },
}

/**
 * Panda's generated styled-system/ declares no package, so esbuild keeps every module
 * the recipe index re-exports (each runs `createRecipe` when loaded); they are pure:
 * marked free of side effects, only the recipes a chunk uses stay in it.
 */
const pureStyledSystem = {
  name: 'pure-styled-system',
  setup(b) {
    b.onResolve({ filter: /styled-system/ }, async (args) => {
      if (args.pluginData?.pure) return undefined
      const r = await b.resolve(args.path, { resolveDir: args.resolveDir, importer: args.importer, kind: args.kind, pluginData: { pure: true } })
      return r.errors.length ? undefined : { path: r.path, sideEffects: false }
    })
  },
}

/**
 * @preact/signals-react imports the use-sync-external-store shim, which React 18 and 19 no
 * longer need (React exports useSyncExternalStore itself): it resolves to a one-line
 * re-export, 0.4 KB brotli off every route's first render.
 */
const reactSyncExternalStore = {
  name: 'react-sync-external-store',
  setup(b) {
    b.onResolve({ filter: /^use-sync-external-store\/shim(\/index\.js)?$/ }, () => ({ path: join(root, 'src/lib/sync-external-store.ts') }))
  },
}

/**
 * The client's esbuild options, shared with scripts/dev.mjs: ESM split per lazy page into `outdir`, hashed
 * names, the locale, styled-system and use-sync-external-store plugins, React's `mode` build.
 */
export function clientOptions(outdir, mode) {
  return {
    absWorkingDir: root,
    entryPoints: [ENTRY],
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir,
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    target: 'es2020',
    platform: 'browser',
    jsx: 'automatic',
    metafile: true,
    define: { 'process.env.NODE_ENV': JSON.stringify(mode) },
    loader: { '.json': 'json' },
    plugins: [precompiledLocales, pureStyledSystem, reactSyncExternalStore],
    alias: { '@formatjs/icu-messageformat-parser': '@formatjs/icu-messageformat-parser/no-parser.js' },
  }
}

const hash = (buf) => createHash('sha256').update(buf).digest('hex').slice(0, 8).toUpperCase()

/** Root-relative URL of a file inside dist (works when dist/ is the CDN or site root). */
const url = (outdir, file) => '/' + relative(outdir, join(root, file)).split('\\').join('/')

/** The shell of route `path` in dist/: `<path>.html`, index.html for `/` (server/app.ts, the service worker and docs/nginx-app.conf agree). */
export function shellFile(path) {
  return path === '/' ? 'index.html' : `${path.slice(1)}.html`
}

/**
 * An HTML shell: the stylesheet, config.js, the early script (data routes), the entry, the route's preloads and `body` in #root.
 * A prerendered body is not painted before its header is whole: `rel=expect` holds rendering until #main (the page
 * after the header) is parsed, or the document is; a first paint of half a header (HTML arriving in parts on a slow
 * network, a busy phone's parser yielding) put the navigation 51 px off, moved when LOGIN came (e2e/shell.spec.ts).
 */
export function indexHtml({ cssHref, entryHref, earlyHref, preloads, routeFiles, body = '' }) {
  const preloadTags = preloads.map((h) => `    <link rel="modulepreload" href="${h}">`).join('\n')
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="description" content="Book intercity bus tickets across Bangladesh: search trips, choose seats and pay online.">
    <meta name="theme-color" content="#0b6e4f">
    <title>Nodi Express</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="${cssHref}">${body ? '\n    <link rel="expect" href="#main" blocking="render">' : ''}
    <script defer fetchpriority="high" src="/config.js"></script>${earlyHref ? `\n    <script defer fetchpriority="high" src="${earlyHref}"></script>` : ''}
    <script type="module" src="${entryHref}"></script>
${preloadTags}
    <script type="application/json" id="route-files">${JSON.stringify(routeFiles).replaceAll('<', '\\u003c')}</script>
  </head>
  <body>
    <div id="root"${body ? ' data-prerendered' : ''}>${body}</div>
    <noscript>This site needs JavaScript to book tickets. Please enable JavaScript and reload.</noscript>
  </body>
</html>
`
}

/**
 * Panda's base layer gives every element and pseudo-element ~30 custom properties
 * (`*,::before,::after{--blur: ;…;--scale-x:1}`) for filter, gradient, transform and
 * scroll-snap utilities. Custom properties set on every element make each one's style its own,
 * which slows every style recalculation on a phone; drop those no rule reads.
 */
function dropUnusedElementVars(css) {
  return css.replace(/(\*,[^{}]*)\{((?:--[\w-]+:[^;{}]*;?)+)\}/g, (_rule, selector, body) => {
    const kept = body.split(';').filter((d) => d.trim() && css.includes(`var(${d.split(':')[0].trim()}`))
    return kept.length ? `${selector}{${kept.join(';')}}` : ''
  })
}

/**
 * Renders pages to static markup with React in Node (src/prerender.tsx).
 * A failure only costs the early paint: the build goes on with an empty root.
 */
async function prerenderPages(paths, log) {
  const file = join(root, 'node_modules', '.cache', 'prerender', 'prerender.mjs')
  try {
    await esbuild({
      absWorkingDir: root,
      entryPoints: ['src/prerender.tsx'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: file,
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      plugins: [precompiledLocales, pureStyledSystem],
      alias: { '@formatjs/icu-messageformat-parser': '@formatjs/icu-messageformat-parser/no-parser.js' },
      // CommonJS dependencies (react-dom/server) require Node built-ins
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      logLevel: 'error',
    })
    const { prerender } = await import(`${pathToFileURL(file).href}?t=${Date.now()}`)
    const out = []
    for (const path of paths) out.push(await prerender(path))
    log(`prerendered ${paths.map((p) => p ?? 'the shell').join(', ')} (${out.map((h) => (h.length / 1024).toFixed(1) + ' KB').join(', ')})`)
    return out
  } catch (err) {
    console.warn('warning: could not prerender; the pages start empty:', err?.message ?? err)
    return paths.map(() => '')
  }
}

/**
 * src/early/start.ts bundled on its own (no shared chunks) into assets/early-<hash>.js, which
 * every data route's shell loads after config.js, both asked for before the entry and the page's
 * preloads (on HTTP/1.1's 6 connections they are not queued behind them): scripts that wait for
 * the document run in order, so it runs once config.js has, before the entry, which is still
 * loading. A file, not an inline script, so a Content-Security-Policy of `script-src 'self'`
 * (server/app.ts) allows it.
 * Returns its path.
 */
async function writeEarlyScript(assets) {
  const out = await esbuild({
    entryPoints: [join(root, 'src/early/start.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    minify: true,
    target: 'es2020',
    platform: 'browser',
    legalComments: 'none',
    logLevel: 'error',
  })
  const code = out.outputFiles[0].contents
  const file = join(assets, `early-${hash(code)}.js`)
  writeFileSync(file, code)
  return file
}

/**
 * Writes `<file>.gz` (gzip level 9) and `<file>.br` (brotli quality 11) beside every script,
 * stylesheet and HTML shell of dist/, for a static host to send as they are (nginx
 * `gzip_static on;`, and `brotli_static on;` with Debian's libnginx-mod-http-brotli-static)
 * instead of compressing each answer quickly and worse. Never config.js: operators edit it
 * in place, and a stale config.js.gz would win. Returns how many files were packed.
 */
function writePrecompressed(outdir) {
  let n = 0
  for (const rel of readdirSync(outdir, { recursive: true }).map(String)) {
    if (!/\.(js|css|html)$/.test(rel) || rel === 'config.js') continue
    const file = join(outdir, rel)
    const buf = readFileSync(file)
    writeFileSync(`${file}.gz`, gzipSync(buf, { level: 9 }))
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(buf, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: buf.length } }),
    )
    n++
  }
  return n
}

/**
 * Builds the app into `outdir` and returns { metafile, report, problems } (metafile: the merged files, in esbuild's shape).
 * @param {{ outdir?: string, quiet?: boolean }} [opts]
 */
export async function build({ outdir = process.env.DIST_DIR ? resolve(process.env.DIST_DIR) : join(root, 'dist'), quiet = false } = {}) {
  const log = quiet ? () => {} : (...a) => console.log(...a)
  rmSync(outdir, { recursive: true, force: true })
  const assets = join(outdir, 'assets')
  mkdirSync(assets, { recursive: true })

  panda('codegen')
  const rawCssFile = join(root, 'styled-system', 'styles.css')
  panda('cssgen', '--outfile', rawCssFile)

  const { code: minified } = await transform(readFileSync(rawCssFile, 'utf8'), {
    loader: 'css',
    minify: true,
    target: ['chrome90', 'firefox90', 'safari15'],
  })
  const css = dropUnusedElementVars(minified)
  const cssName = `styles-${hash(css)}.css`
  const cssFile = join(assets, cssName)
  writeFileSync(cssFile, css)

  // the split build (kept in memory), then its chunks merged into a few files (scripts/merge-chunks.mjs)
  const split = await esbuild({
    ...clientOptions(assets, 'production'),
    write: false,
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: quiet ? 'error' : 'warning',
  })
  const splitMeta = split.metafile
  const splitByEntry = new Map(
    Object.entries(splitMeta.outputs)
      .filter(([, o]) => o.entryPoint)
      .map(([file, o]) => [o.entryPoint.replace(/\\/g, '/'), file]),
  )
  const splitOut = (entryPoint) => {
    const file = splitByEntry.get(entryPoint)
    if (!file) throw new Error(`no chunk for ${entryPoint}: is it in src/page-loaders.ts?`)
    return file
  }
  const routes = await loadRoutes(root)
  // what each page's first render loads at once: its page and messages, and on the data
  // routes the API client, which their first render needs for the server's answer
  const firstRenders = new Map()
  for (const r of routes) {
    const files = [splitOut(r.page)]
    if (splitByEntry.has(`locale-page:en-${r.pageKey}`)) files.push(splitOut(`locale-page:en-${r.pageKey}`))
    if (r.data) files.push(splitOut(CLIENT))
    firstRenders.set(r.pageKey, [...(firstRenders.get(r.pageKey) ?? []), ...files])
  }
  const outBase = relative(root, assets).split('\\').join('/')
  const splitFiles = new Map(split.outputFiles.map((f) => [relative(root, f.path).split('\\').join('/'), f.text]))
  // within the budget of scripts per first render, with config.js, the entry's group and on the
  // data routes the early requests; a margin of bytes, as the chunks are measured each on its own
  const brotliSize = (fs) =>
    brotliCompressSync(fs.map((f) => splitFiles.get(f)).join('\n'), { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }).length
  const isData = (pageKey) => routes.some((r) => r.pageKey === pageKey && r.data)
  const groups = planGroups({
    metafile: splitMeta,
    entryOut: splitOut(ENTRY),
    firstRenders,
    maxGroups: (pageKey) => BUDGET.scriptRequests - (isData(pageKey) ? 3 : 2),
    maxBytes: (pageKey) => BUDGET.routeJsBrotli - (isData(pageKey) ? 1536 : 512),
    sizeOf: brotliSize,
  })
  const merged = await mergeChunks({ metafile: splitMeta, files: splitFiles, groups, outBase, root })
  for (const [name, code] of merged.outputs) writeFileSync(join(assets, name), code)
  const { metafile } = merged
  writeFileSync(join(outdir, 'meta.json'), JSON.stringify(metafile))
  const fileOfEntry = (entryPoint) => merged.fileOf.get(splitOut(entryPoint))

  const entryOut = fileOfEntry(ENTRY)
  // the files a first render asks for beyond the entry's
  const entryFiles = staticClosure(metafile, entryOut)
  const beyondEntry = (splitFilesList) => {
    const out = new Set()
    for (const f of splitFilesList) staticClosure(metafile, merged.fileOf.get(f), out)
    return [...out].filter((f) => !entryFiles.has(f))
  }

  // what each route's first render needs beyond the entry: its shell preloads them, and
  // main.tsx preloads a route's files when the router moves to it ('*overlays': the toast
  // and dialog hosts with all messages, fetched without running them when the page is idle,
  // so notices still work after the network drops)
  const routeFileMap = Object.fromEntries(routes.map((r) => [r.path, beyondEntry(firstRenders.get(r.pageKey)).map((f) => url(outdir, f))]))
  routeFileMap['*overlays'] = beyondEntry(['src/app/toast-host.tsx', 'src/app/dialog-host.tsx'].map(splitOut)).map((f) => url(outdir, f))
  // the shell's early requests (src/early/start.ts)
  const earlyFile = await writeEarlyScript(assets)
  const page = { cssHref: `/assets/${cssName}`, entryHref: url(outdir, entryOut), preloads: [], routeFiles: routeFileMap }
  const earlyHref = url(outdir, relative(root, earlyFile))
  // Every route's first render in its own shell, `<path>.html` (index.html for / and
  // /home), which also preloads the route's own files; app.html, the SPA fallback
  // for any other path, only the header and footer, so no other page flashes there.
  const shellRoutes = routes.filter((r) => r.path !== '/home')
  const bodies = await prerenderPages([...shellRoutes.map((r) => r.path), null], log)
  for (const [i, { path, data }] of shellRoutes.entries()) {
    const file = join(outdir, shellFile(path))
    mkdirSync(dirname(file), { recursive: true })
    // the data routes' shells send their reads, and the start-up lookups, before the app has
    // loaded (src/early/requests.ts); elsewhere the lookups wait for the app
    const early = data ? { earlyHref } : {}
    writeFileSync(file, indexHtml({ ...page, ...early, preloads: routeFileMap[path], body: bodies[i] }))
  }
  writeFileSync(join(outdir, 'app.html'), indexHtml({ ...page, body: bodies.at(-1) }))
  // Runtime configuration, not hashed: operators edit it in place without rebuilding.
  writeFileSync(join(outdir, 'config.js'), `window.__APP_CONFIG__ = { apiBaseUrl: '/api' };\n`)
  // the shells and assets are final: the worker precaches exactly these
  const worker = await writeServiceWorker(outdir)
  log(`service worker: version ${worker.version}, ${worker.files.length} files precached`)
  // last, so the worker's list and the shells' version are final and no .gz/.br is precached
  const packed = writePrecompressed(outdir)
  log(`precompressed ${packed} files (.gz, .br) for static hosts (docs/nginx-app.conf: gzip_static)`)

  const seenPages = new Set()
  const uniqueRoutes = routes.filter((r) => {
    if (seenPages.has(r.page)) return false
    seenPages.add(r.page)
    return true
  })
  // counted as a browser fetches them: what each route's shell loads or preloads, and their imports
  const report = sizeReport({ metafile, root, outdir, routes: uniqueRoutes.map((r) => ({ ...r, shell: shellFile(r.path) })), cssFile })
  log('\nFirst render per route: every script its shell loads or preloads, with their static imports, each compressed on its own:')
  log(formatReport(report))
  const problems = checkBudget(report)
  if (problems.length) {
    console.error('\nOVER BUDGET:\n  ' + problems.join('\n  '))
  } else {
    log(
      `\nWithin budget (every route's first render ≤ ${BUDGET.routeJsBrotli / 1024} KB of script brotli in ≤ ${BUDGET.scriptRequests} requests, CSS ≤ ${BUDGET.cssBrotli / 1024} KB brotli).`,
    )
  }
  return { metafile, report, problems }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { problems } = await build()
  if (problems.length) process.exitCode = 1
}
