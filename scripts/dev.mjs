// npm run dev: the app as `npm start` serves it (the server with its demo data, on PORT and HOST), rebuilt as
// files change. The client is one esbuild context rebuilt incrementally (split, not minified, not merged) with
// Panda's CSS extracted again from the changed file only; the shells, config.js and the assets are written to
// DEV_DIST_DIR (.tmp/dev-dist) and served by the server from there. The server runs in one process that keeps the
// database open (scripts/dev-server.ts): a change under server/, contract/ or data/ serves the changed code in
// that process; a change to what it holds itself (the database adapter) starts the process again. No
// prerendering, no service worker (config.js turns it off, so an old one from `npm start` is removed), no early
// script, no size report.
// Usage: npm run dev
import { context } from 'esbuild'
import { loadConfigAndCreateContext } from '@pandacss/node'
import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { clientOptions, ENTRY, indexHtml } from '../build.mjs'

const root = path.resolve(import.meta.dirname, '..')
const outdir = path.resolve(root, process.env.DEV_DIST_DIR || '.tmp/dev-dist')
const assets = path.join(outdir, 'assets')
const log = (...a) => console.log('[dev]', ...a)
const ms = (t0) => `${Math.round(performance.now() - t0)} ms`
const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 8).toUpperCase()
/** What a file change asks for: the client rebuilt, or the server restarted. */
const clientDirs = ['src', 'design-system', 'locales']
const serverDirs = ['server', 'contract', 'data']
const isTest = (rel) => /\.test\.tsx?$/.test(rel) || /(^|\/)test\//.test(rel)
/** Files the server process holds for its whole life: a change starts it again. */
const hostFiles = new Set(['server/db/db.ts', 'scripts/dev-server.ts'])

function pandaCodegen() {
  execFileSync(process.execPath, [path.join(root, 'node_modules/@pandacss/dev/bin.js'), 'codegen', '--silent'], { cwd: root, stdio: 'inherit' })
}

/** Panda's context kept between rebuilds: a changed source file is parsed again alone; a changed config (preset, recipes) reloads it all. */
async function pandaContext() {
  const ctx = await loadConfigAndCreateContext({ cwd: root })
  ctx.parseFiles()
  const deps = new Set((ctx.conf.dependencies ?? []).map((f) => path.resolve(root, f)))
  return { ctx, deps }
}

function cssOf(ctx) {
  const sheet = ctx.createSheet()
  ctx.appendLayerParams(sheet)
  ctx.appendBaselineCss(sheet)
  ctx.appendParserCss(sheet)
  return ctx.getCss(sheet)
}

fs.rmSync(outdir, { recursive: true, force: true })
fs.mkdirSync(assets, { recursive: true })
const started = performance.now()
pandaCodegen()
let panda = await pandaContext()
let cssName = ''
/** The files of the last two builds: a tab still on the previous one can load its lazy pages. */
let kept = [new Set(), new Set()]

/** How many styles Panda has collected: they only grow, so while this stays the same so does the CSS. */
function styleCount(ctx) {
  const e = ctx.encoder
  let n = e.atomic.size + e.compound_variants.size
  for (const set of [...e.recipes.values(), ...e.recipes_base.values()]) n += set.size
  return n
}

function writeCss() {
  const css = cssOf(panda.ctx)
  const name = `styles-${hash(css)}.css`
  if (name !== cssName) fs.writeFileSync(path.join(assets, name), css)
  cssName = name
}

/** The shells (index.html answers / and /home, app.html every other page) and config.js, naming this build's files. */
function writeShells(entryHref) {
  const html = indexHtml({ cssHref: `/assets/${cssName}`, entryHref, preloads: [], routeFiles: {} })
  fs.writeFileSync(path.join(outdir, 'index.html'), html)
  fs.writeFileSync(path.join(outdir, 'app.html'), html)
  fs.writeFileSync(path.join(outdir, 'config.js'), `window.__APP_CONFIG__ = { apiBaseUrl: '/api', serviceWorker: false };\n`)
}

/** Removes the assets of builds before the last two. */
function prune(files) {
  kept = [kept[1], new Set([...files, `assets/${cssName}`])]
  const keep = new Set([...kept[0], ...kept[1]])
  for (const f of fs.readdirSync(assets, { recursive: true }).map(String)) {
    const rel = `assets/${f.split(path.sep).join('/')}`
    if (!keep.has(rel) && !keep.has(rel.replace(/\.map$/, '')) && fs.statSync(path.join(assets, f)).isFile()) fs.rmSync(path.join(assets, f))
  }
}

const esbuild = await context({ ...clientOptions(assets, 'development'), sourcemap: 'linked', logLevel: 'warning' })

/** One client build: CSS, scripts, shells. Answers whether it succeeded (esbuild printed the errors). */
async function buildClient(css = true) {
  if (css) writeCss()
  let result
  try {
    result = await esbuild.rebuild()
  } catch {
    return false
  }
  // the metafile's paths are from the root; the server's from outdir
  const outputs = Object.entries(result.metafile.outputs).map(([f, o]) => [path.relative(outdir, path.resolve(root, f)).split(path.sep).join('/'), o])
  writeShells(`/${outputs.find(([, o]) => o.entryPoint === ENTRY)[0]}`)
  prune(outputs.map(([f]) => f))
  return true
}

await buildClient()
log(`client built in ${ms(started)} (${path.relative(root, outdir)})`)

let server = null
let stopping = false

/** Starts the server process; it opens the database and serves (scripts/dev-server.ts). */
function startServer() {
  const t0 = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev-server.ts'], {
    cwd: root,
    env: { ...process.env, DIST_DIR: outdir },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  })
  child.stdout.on('data', (d) => process.stdout.write(d))
  child.once('message', (m) => m === 'ready' && log(`server ready ${ms(t0)} after its start`))
  child.on('exit', (code, signal) => {
    if (server === child) server = null
    if (!stopping && !signal && code) log(`the server exited (${code}); it starts again on the next change under ${serverDirs.join(', ')}/`)
  })
  server = child
}

/** Serves the changed server code in the running server process; answers whether it serves. */
function reloadServer(child = server) {
  return new Promise((resolve) => {
    const exited = () => resolve(false)
    child.once('exit', exited)
    child.once('message', (m) => {
      child.off('exit', exited)
      resolve(m === 'ready')
    })
    child.send('reload')
  })
}

/** Stops a server (SIGTERM: it closes the database) and waits for it. */
function stopServer(child = server) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

// changes seen while a rebuild or restart runs wait for it, then go as one
const pending = { client: new Set(), server: new Set() }
let busy = false
let timer = null

async function drain() {
  if (busy) return
  busy = true
  while (pending.client.size || pending.server.size) {
    const client = [...pending.client]
    const serverFiles = [...pending.server]
    pending.client.clear()
    pending.server.clear()
    if (serverFiles.length) {
      const t0 = performance.now()
      const names = serverFiles.map((f) => path.relative(root, f).split(path.sep).join('/'))
      if (!server?.connected || names.some((f) => hostFiles.has(f))) {
        log(`${names.join(', ')} changed: starting the server process again`)
        await stopServer()
        startServer()
      } else {
        log(`${names.join(', ')} changed: serving the new server code`)
        if (await reloadServer()) log(`server reloaded in ${ms(t0)} (the database kept open)`)
      }
    }
    if (client.length) {
      const t0 = performance.now()
      const styles = styleCount(panda.ctx)
      let css = true
      if (client.some((f) => panda.deps.has(f))) {
        log('the Panda config changed: generating styled-system/ again')
        pandaCodegen()
        panda = await pandaContext()
      } else {
        for (const f of client.filter((f) => /\.(ts|tsx)$/.test(f) && !isTest(path.relative(root, f)))) {
          if (!fs.existsSync(f)) panda.ctx.project.removeSourceFile(f)
          else {
            panda.ctx.project.createSourceFile(f)
            panda.ctx.parseFile(f)
          }
        }
        css = styleCount(panda.ctx) !== styles
      }
      if (await buildClient(css)) log(`client rebuilt in ${ms(t0)} (${client.map((f) => path.relative(root, f)).join(', ')})`)
    }
  }
  busy = false
}

function watch(dirs, kind) {
  for (const dir of dirs) {
    if (!fs.existsSync(path.join(root, dir))) continue
    fs.watch(path.join(root, dir), { recursive: true }, (_event, name) => {
      if (!name) return
      const rel = path.posix.join(dir, String(name).split(path.sep).join('/'))
      if (kind === 'server' && isTest(rel)) return
      pending[kind].add(path.join(root, rel))
      // an editor's save is often several writes: they go as one
      clearTimeout(timer)
      timer = setTimeout(drain, 20)
    })
  }
}

watch(clientDirs, 'client')
watch(serverDirs, 'server')
fs.watch(path.join(root, 'scripts'), (_event, name) => {
  if (name !== 'dev-server.ts') return
  pending.server.add(path.join(root, 'scripts', name))
  clearTimeout(timer)
  timer = setTimeout(drain, 20)
})
fs.watch(root, (_event, name) => {
  if (name !== 'panda.config.ts') return
  pending.client.add(path.join(root, name))
  clearTimeout(timer)
  timer = setTimeout(drain, 20)
})
startServer()

async function shutdown() {
  if (stopping) return
  stopping = true
  await stopServer()
  await esbuild.dispose()
  process.exit(0)
}
process.on('SIGINT', () => void shutdown())
process.on('SIGTERM', () => void shutdown())
