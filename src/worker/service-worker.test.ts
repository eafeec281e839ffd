/**
 * The service worker as the build writes it (scripts/service-worker.mjs): the
 * version and file list of a small dist/, and dist/sw.js run in a stand-in
 * worker scope (Cache Storage in memory, a network the test answers).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { writeServiceWorker } from '../../scripts/service-worker.mjs'

const ORIGIN = 'https://tickets.example.com'
const SHELL = (name: string) =>
  `<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="utf-8">\n    <title>${name}</title>\n  </head>\n</html>\n`

let dist: string
const SHELLS = ['index.html', 'search.html', 'login.html', 'reservation/success.html', 'app.html']

test.before.each(() => {
  dist = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-test-')), 'dist')
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true })
  // the shells as build.mjs writes them: index.html, one `<path>.html` per route (some in a folder), app.html
  fs.mkdirSync(path.join(dist, 'reservation'))
  for (const f of SHELLS) fs.writeFileSync(path.join(dist, f), SHELL(f))
  fs.writeFileSync(path.join(dist, 'assets', 'main-AAAA1111.js'), 'console.log(1)')
  fs.writeFileSync(path.join(dist, 'assets', 'styles-BBBB2222.css'), 'body{}')
  fs.writeFileSync(path.join(dist, 'config.js'), "window.__APP_CONFIG__ = { apiBaseUrl: '/api' };\n")
  fs.writeFileSync(path.join(dist, 'meta.json'), '{}')
})

test.after.each(() => {
  fs.rmSync(path.dirname(dist), { recursive: true, force: true })
})

const read = (f: string) => fs.readFileSync(path.join(dist, f), 'utf8')
const versionIn = (html: string) => [...html.matchAll(/<meta name="app-version" content="([0-9a-f]+)">/g)].map((m) => m[1])

test('the build stamps one version into every shell and lists the shells, config.js and every asset', async () => {
  const { version, files } = await writeServiceWorker(dist)
  assert.match(version, /^[0-9a-f]{12}$/)
  for (const f of SHELLS) assert.equal(versionIn(read(f)), [version], f)
  assert.equal(files, [
    '/app.html',
    '/index.html',
    '/login.html',
    '/reservation/success.html',
    '/search.html',
    '/config.js',
    '/assets/main-AAAA1111.js',
    '/assets/styles-BBBB2222.css',
  ])
  assert.ok(read('sw.js').includes(version))
})

test('the version is the same for the same files (a second run too), and changes with a shell or an asset but not with config.js', async () => {
  const first = (await writeServiceWorker(dist)).version
  const sw = read('sw.js')
  assert.is((await writeServiceWorker(dist)).version, first)
  assert.is(read('sw.js'), sw)
  assert.equal(versionIn(read('app.html')), [first])

  fs.writeFileSync(path.join(dist, 'config.js'), "window.__APP_CONFIG__ = { apiBaseUrl: 'https://api.example.com/api' };\n")
  assert.is((await writeServiceWorker(dist)).version, first)

  fs.writeFileSync(path.join(dist, 'assets', 'main-AAAA1111.js'), 'console.log(2)')
  const second = (await writeServiceWorker(dist)).version
  assert.is.not(second, first)
  assert.equal(versionIn(read('index.html')), [second])

  fs.writeFileSync(path.join(dist, 'search.html'), read('search.html').replace('<title>', '<title>New '))
  const third = (await writeServiceWorker(dist)).version
  assert.is.not(third, second)
  fs.writeFileSync(path.join(dist, 'reservation/success.html'), read('reservation/success.html').replace('<title>', '<title>New '))
  assert.is.not((await writeServiceWorker(dist)).version, third)
})

// ---------- the worker in a stand-in scope ----------

type Listener = (event: Record<string, unknown>) => void
type Network = (url: string, init: { cache?: string }) => Promise<Response>

/** dist/sw.js running against an in-memory Cache Storage and `network`; `waitScale` scales its timers (the 4 s wait). */
async function startWorker(network: Network, waitScale = 1) {
  const { version, files } = await writeServiceWorker(dist)
  const listeners = new Map<string, Listener>()
  const stores = new Map<string, Map<string, Response>>()
  const fetched: string[] = []
  let skipped = false
  let claimed = false
  const pathOf = (r: Request | string) => new URL(typeof r === 'string' ? r : r.url, ORIGIN).pathname
  const open = async (name: string) => {
    const store = stores.get(name) ?? new Map<string, Response>()
    stores.set(name, store)
    return {
      async addAll(requests: Request[]) {
        for (const r of requests) {
          const res = await fakeFetch(r)
          if (!res.ok) throw new TypeError(`${r.url}: ${res.status}`)
          store.set(pathOf(r), res)
        }
      },
      async put(key: string, res: Response) {
        store.set(pathOf(key), res)
      },
    }
  }
  const fakeCaches = {
    open,
    async match(key: string, opts: { cacheName: string }) {
      return stores.get(opts.cacheName)?.get(pathOf(key))?.clone()
    },
    async keys() {
      return [...stores.keys()]
    },
    async delete(name: string) {
      return stores.delete(name)
    },
  }
  const fakeFetch = (r: Request | { url: string; cache?: string }) => {
    fetched.push(`${pathOf(r.url)}${r.cache === 'reload' ? ' (reload)' : ''}`)
    return network(r.url, { cache: r.cache })
  }
  const scope = {
    location: new URL(`${ORIGIN}/sw.js`),
    clients: {
      claim: async () => {
        claimed = true
      },
    },
    skipWaiting: async () => {
      skipped = true
    },
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
  }
  // relative URLs resolve against the worker's origin, as in a browser
  const WorkerRequest = class extends Request {
    constructor(url: string, init?: RequestInit) {
      super(new URL(url, ORIGIN), init)
    }
  }
  const timers = {
    set: (fn: () => void, ms: number) => setTimeout(fn, ms * waitScale),
    clear: (t: ReturnType<typeof setTimeout>) => clearTimeout(t),
  }
  new Function('self', 'caches', 'fetch', 'Request', 'setTimeout', 'clearTimeout', read('sw.js'))(
    scope,
    fakeCaches,
    fakeFetch,
    WorkerRequest,
    timers.set,
    timers.clear,
  )

  /** Runs an install, activate or message event to its end. */
  const extendable = async (type: string, extra: Record<string, unknown> = {}) => {
    const work: Promise<unknown>[] = []
    listeners.get(type)!({ ...extra, waitUntil: (p: Promise<unknown>) => work.push(p) })
    await Promise.all(work)
  }
  /** A GET (a page's navigation when `navigate`); the worker's answer, or null when it leaves the request to the browser. */
  const request = async (url: string, opts: { navigate?: boolean; method?: string } = {}) => {
    let answer: Promise<Response> | null = null
    const r = { url: new URL(url, ORIGIN).href, method: opts.method ?? 'GET', mode: opts.navigate ? 'navigate' : 'cors' }
    listeners.get('fetch')!({ request: r, respondWith: (p: Promise<Response>) => (answer = p) })
    return answer ? await (answer as Promise<Response>) : null
  }
  return {
    version,
    files,
    stores,
    fetched,
    extendable,
    request,
    skipped: () => skipped,
    claimed: () => claimed,
  }
}

/** A network that serves dist/ as the server does (a shell for every page path: its own, or app.html). */
const served: Network = async (url) => {
  const p = new URL(url).pathname
  const own = p === '/' ? 'index.html' : `${p.slice(1)}.html`
  const file = p.includes('.') ? p.slice(1) : fs.existsSync(path.join(dist, own)) ? own : 'app.html'
  const full = path.join(dist, file)
  return fs.existsSync(full) ? new Response(fs.readFileSync(full)) : new Response('Not found', { status: 404 })
}
const offline: Network = () => Promise.reject(new TypeError('Failed to fetch'))

test('install keeps this version’s shells and config.js past the HTTP cache and hashed assets from it; activate drops older versions, keeps others’ caches, and takes the open pages', async () => {
  const w = await startWorker(served)
  w.stores.set('nodi-app-000000000000', new Map())
  w.stores.set('another-app', new Map())
  await w.extendable('install')
  assert.equal(
    w.fetched,
    w.files.map((f) => (f.startsWith('/assets/') ? f : `${f} (reload)`)),
  )
  assert.equal([...w.stores.get(`nodi-app-${w.version}`)!.keys()], w.files)
  await w.extendable('activate')
  assert.equal([...w.stores.keys()].sort(), ['another-app', `nodi-app-${w.version}`])
  assert.ok(w.claimed())
})

test('install asks again for a file whose connection dropped or that got a 5xx, and keeps every file', async () => {
  const failed = new Set<string>()
  // the worker's 1 s and 2 s pauses between tries, at a thousandth
  const w = await startWorker(async (url, init) => {
    const p = new URL(url).pathname
    if (!failed.has(p) && p === '/assets/main-AAAA1111.js') {
      failed.add(p)
      throw new TypeError('Failed to fetch')
    }
    if (!failed.has(p) && p === '/search.html') {
      failed.add(p)
      return new Response('Bad gateway', { status: 502 })
    }
    return served(url, init)
  }, 0.001)
  await w.extendable('install')
  assert.equal([...w.stores.get(`nodi-app-${w.version}`)!.keys()].sort(), [...w.files].sort())
  assert.equal(
    w.fetched.filter((f) => f.startsWith('/assets/main-AAAA1111.js')),
    ['/assets/main-AAAA1111.js', '/assets/main-AAAA1111.js (reload)'],
  )
  assert.is(w.fetched.filter((f) => f === '/search.html (reload)').length, 2)
  assert.is(await w.stores.get(`nodi-app-${w.version}`)!.get('/assets/main-AAAA1111.js')!.text(), 'console.log(1)')
})

test('an asset the HTTP cache answers with a 404 (asked before the deploy had finished) is asked past it, and kept', async () => {
  const w = await startWorker(
    async (url, init) =>
      new URL(url).pathname === '/assets/styles-BBBB2222.css' && init.cache !== 'reload'
        ? new Response('Not found', { status: 404 })
        : served(url, init),
    0.001,
  )
  await w.extendable('install')
  assert.equal(
    w.fetched.filter((f) => f.startsWith('/assets/styles')),
    ['/assets/styles-BBBB2222.css', '/assets/styles-BBBB2222.css (reload)'],
  )
  assert.is(await w.stores.get(`nodi-app-${w.version}`)!.get('/assets/styles-BBBB2222.css')!.text(), 'body{}')
})

test('install fails, keeping no half-filled copy, for a file that is not there (asked once) or that fails three times', async () => {
  const gone = await startWorker(async (url, init) =>
    new URL(url).pathname === '/login.html' ? new Response('Not found', { status: 404 }) : served(url, init),
  )
  assert.match(
    String(
      await gone.extendable('install').then(
        () => 'installed',
        (err: unknown) => err,
      ),
    ),
    /login\.html: HTTP 404/,
  )
  assert.is(gone.fetched.filter((f) => f.startsWith('/login.html')).length, 1)
  assert.not.ok(gone.stores.has(`nodi-app-${gone.version}`))

  const down = await startWorker(
    async (url, init) => (new URL(url).pathname === '/config.js' ? Promise.reject(new TypeError('Failed to fetch')) : served(url, init)),
    0.001,
  )
  assert.match(
    String(
      await down.extendable('install').then(
        () => 'installed',
        (err: unknown) => err,
      ),
    ),
    /Failed to fetch/,
  )
  assert.is(down.fetched.filter((f) => f.startsWith('/config.js')).length, 3)
  assert.not.ok(down.stores.has(`nodi-app-${down.version}`))
})

test('pages come from the network first (a new deploy shows); without it, this version’s shell for the path', async () => {
  let network = served
  const w = await startWorker((url, init) => network(url, init))
  await w.extendable('install')
  fs.writeFileSync(path.join(dist, 'app.html'), SHELL('deployed since'))
  assert.match(await (await w.request('/ticket-operation?pnr=ABCDEFGHJK', { navigate: true }))!.text(), 'deployed since')

  network = offline
  for (const [page, shell] of [
    ['/', 'index.html'],
    ['/home', 'index.html'],
    ['/home/', 'index.html'],
    ['/search?from=DHK&to=CTG', 'search.html'],
    ['/login', 'login.html'],
    ['/login/', 'login.html'],
    ['/reservation/success?paymentId=p1', 'reservation/success.html'],
    ['/ticket-operation?pnr=ABCDEFGHJK', 'app.html'],
    ['/reservation?tripId=1', 'app.html'],
    ['/login/more', 'app.html'],
  ] as const) {
    const html = await (await w.request(page, { navigate: true }))!.text()
    assert.match(html, `<title>${shell}</title>`, page)
  }
  // a proxy's error page is no answer either
  network = async () => new Response('Bad gateway', { status: 502 })
  assert.match(await (await w.request('/profile', { navigate: true }))!.text(), '<title>app.html</title>')
})

test('a page whose network answer is slow gets the shell after the wait (a flaky connection)', async () => {
  // the worker's 4 s wait, at a hundredth
  const w = await startWorker(() => new Promise<Response>(() => undefined), 0.01)
  const store = new Map([['/app.html', new Response(SHELL('kept'))]])
  w.stores.set(`nodi-app-${w.version}`, store)
  const late = new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000))
  const answer = await Promise.race([w.request('/faq', { navigate: true }), late])
  assert.ok(answer, 'the worker waited for the network past its wait')
  assert.match(await answer.text(), '<title>kept</title>')
})

test('hashed assets come from the cache; config.js from the network first, its latest answer kept', async () => {
  let network = served
  const w = await startWorker((url, init) => network(url, init))
  await w.extendable('install')
  w.fetched.length = 0
  assert.is(await (await w.request('/assets/main-AAAA1111.js'))!.text(), 'console.log(1)')
  assert.equal(w.fetched, [])

  fs.writeFileSync(path.join(dist, 'config.js'), 'window.__APP_CONFIG__ = { serviceWorker: false };\n')
  assert.match(await (await w.request('/config.js'))!.text(), 'serviceWorker: false')
  network = offline
  // the answer is kept after it was given (no waitUntil): wait until the cache holds it
  const kept = async () => {
    for (const store of w.stores.values()) if ((await store.get('/config.js')?.clone().text())?.includes('serviceWorker: false')) return true
    return false
  }
  for (const deadline = Date.now() + 5000; !(await kept()); ) {
    if (Date.now() > deadline) throw new Error('config.js was not kept in the cache')
    await new Promise((r) => setImmediate(r))
  }
  assert.match(await (await w.request('/config.js'))!.text(), 'serviceWorker: false')
})

test('the API, the server’s own pages, other origins, other files and anything but GET are left to the browser', async () => {
  const w = await startWorker(served)
  await w.extendable('install')
  for (const url of ['/api/originCities', '/sandbox/gateway/pay_1', '/dev/outbox', '/healthz', 'https://api.example.com/api/originCities']) {
    assert.is(await w.request(url), null, url)
    assert.is(await w.request(url, { navigate: true }), null, `${url} (navigate)`)
  }
  // a file this version does not list (an older deploy's chunk)
  assert.is(await w.request('/assets/chunk-OLDOLD11.js'), null)
  assert.is(await w.request('/', { method: 'POST', navigate: true }), null)
})

test('the page asks the worker for its version and tells a waiting worker to take over', async () => {
  const w = await startWorker(served)
  const answers: unknown[] = []
  await w.extendable('message', { data: { type: 'version' }, ports: [{ postMessage: (m: unknown) => answers.push(m) }] })
  assert.equal(answers, [w.version])
  assert.not.ok(w.skipped())
  await w.extendable('message', { data: { type: 'activate' }, ports: [] })
  assert.ok(w.skipped())
})

test('a page the active worker does not control asks to be taken over', async () => {
  const w = await startWorker(served)
  assert.not.ok(w.claimed())
  await w.extendable('message', { data: { type: 'claim' }, ports: [] })
  assert.ok(w.claimed())
})

test.run()
