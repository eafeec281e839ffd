// Merges esbuild's split chunks into fewer files, so a route's first render asks for a
// handful of scripts instead of 35–42 (over HTTP/1.1 a browser opens 6 connections per
// origin: every extra file on a slow phone network is a round trip).
//
// esbuild (the design card's bundler) splits by "which entry points reach this module", one
// chunk per set: with a lazy chunk per page that is dozens of small files, and it has no
// option to merge them. Every module must still run once, so a file may not be copied into
// two bundles: here each chunk of the split build goes to exactly one group, and each group is
// bundled again by esbuild into one file whose imports of other groups stay imports:
//   - the entry and its static imports (every route's first render): one group;
//   - the chunks a route's first render needs beyond that, grouped by the set of routes that
//     need them (planGroups), so no route downloads another's page;
//   - every other chunk (loaded later: dialogs, the Bengali locale, lazy widgets) as it was.
// A group imports only groups every route needing it needs too (or lazily), so the groups'
// static imports form no circle and every module runs after the ones it imports, as before.
import { build as esbuild } from 'esbuild'
import { createHash } from 'node:crypto'
import { basename, dirname, join } from 'node:path'

/** All chunks an output file needs before it runs: itself plus its static imports, transitively. */
export function staticClosure(metafile, outFile, seen = new Set()) {
  if (seen.has(outFile)) return seen
  seen.add(outFile)
  for (const imp of metafile.outputs[outFile]?.imports ?? []) {
    if (imp.kind === 'import-statement' && !imp.external) staticClosure(metafile, imp.path, seen)
  }
  return seen
}

/**
 * Which group each chunk of the split build goes to. First, as esbuild would at the level of
 * pages: the entry's closure is `app`, a chunk some first renders need goes with the others
 * those same renders need. Then, while a render needs more than `maxGroups` groups besides
 * `app`, two of its groups are merged (or one, with what it imports, moved into `app`): the
 * merge that makes the fewest bytes (`sizeOf`: of one file holding the chunks) go to renders that do not use them, and never
 * one that would let two groups import each other.
 * A merge that keeps every render within `maxBytes` (its groups and `app`, by `sizeOf`) is
 * taken before one that does not.
 * @param {{ metafile: any, entryOut: string, firstRenders: Map<string, string[]>, maxGroups?: (page: string) => number, maxBytes?: (page: string) => number, sizeOf?: (files: string[]) => number }} opts
 *   firstRenders: per first render (a page), the output files it loads at once (their static
 *   imports are added here).
 * @returns {Map<string, string>} chunk file → group key ('app', 'first:<renders>' or the file itself)
 */
export function planGroups({
  metafile,
  entryOut,
  firstRenders,
  maxGroups = () => Infinity,
  maxBytes = () => Infinity,
  sizeOf = (files) => files.reduce((n, f) => n + metafile.outputs[f].bytes, 0),
}) {
  const app = staticClosure(metafile, entryOut)
  const pages = [...firstRenders.keys()]
  const needers = new Map()
  for (const [name, files] of firstRenders) {
    const closure = new Set()
    for (const f of files) staticClosure(metafile, f, closure)
    for (const f of closure) {
      if (app.has(f)) continue
      if (!needers.has(f)) needers.set(f, [])
      needers.get(f).push(name)
    }
  }
  const groups = new Map()
  for (const file of Object.keys(metafile.outputs)) {
    if (!file.endsWith('.js')) continue
    if (app.has(file)) groups.set(file, 'app')
    else if (needers.has(file)) groups.set(file, `first:${needers.get(file).sort().join('+')}`)
    else groups.set(file, file)
  }
  const sizes = new Map()
  const groupSize = (fs) => {
    const key = fs.join('\n')
    if (!sizes.has(key)) sizes.set(key, sizeOf(fs))
    return sizes.get(key)
  }
  // the groups as they stand: members, size, the groups each imports, and which renders load it
  // (the groups holding chunks a render needs, and every group those import: a file is loaded whole)
  const index = () => {
    const members = new Map()
    for (const [f, k] of groups) members.set(k, [...(members.get(k) ?? []), f])
    const size = new Map([...members].map(([k, fs]) => [k, groupSize(fs)]))
    const edges = new Map()
    for (const [k, fs] of members) {
      const out = new Set()
      for (const f of fs)
        for (const imp of metafile.outputs[f].imports)
          if (imp.kind === 'import-statement' && groups.get(imp.path) !== k) out.add(groups.get(imp.path))
      edges.set(k, out)
    }
    const loads = new Map()
    for (const p of pages) {
      const set = new Set()
      const stack = [...needers].filter(([, ps]) => ps.includes(p)).map(([f]) => groups.get(f))
      while (stack.length) {
        const k = stack.pop()
        if (k === 'app' || set.has(k)) continue
        set.add(k)
        stack.push(...edges.get(k))
      }
      loads.set(p, set)
    }
    const readers = (k) => new Set(pages.filter((p) => loads.get(p).has(k)))
    return { members, size, edges, loads, readers }
  }
  const acyclic = ({ edges }) => {
    const state = new Map()
    const visit = (k) => {
      if (state.get(k) === 'done') return true
      if (state.get(k) === 'open') return false
      state.set(k, 'open')
      for (const e of edges.get(k)) if (!visit(e)) return false
      state.set(k, 'done')
      return true
    }
    return [...edges.keys()].every(visit)
  }
  const over = ({ size, loads }) => Math.max(...pages.map((p) => [...loads.get(p)].reduce((n, k) => n + size.get(k), size.get('app')) - maxBytes(p)))
  for (;;) {
    const now = index()
    const page = pages.find((p) => now.loads.get(p).size > maxGroups(p))
    if (!page) break
    const keys = [...now.loads.get(page)]
    const moveAll = (ks, to) => {
      for (const k of ks) for (const f of now.members.get(k)) groups.set(f, to)
    }
    const options = []
    for (const [i, a] of keys.entries()) {
      const ra = now.readers(a)
      for (const b of keys.slice(i + 1)) {
        const rb = now.readers(b)
        const cost = now.size.get(a) * [...rb].filter((p) => !ra.has(p)).length + now.size.get(b) * [...ra].filter((p) => !rb.has(p)).length
        options.push({ cost, apply: () => moveAll([b], a) })
      }
      // into app, with every group it imports (app imports nothing outside it)
      const moved = new Set([a])
      for (const k of moved) for (const e of now.edges.get(k)) if (e !== 'app') moved.add(e)
      const cost = [...moved].reduce((c, k) => c + now.size.get(k) * (pages.length - now.readers(k).size), 0)
      options.push({ cost, apply: () => moveAll([...moved], 'app') })
    }
    options.sort((x, y) => x.cost - y.cost)
    // the cheapest that keeps every render within its bytes, else the one that overflows least
    const before = new Map(groups)
    const undo = () => {
      for (const [f, k] of before) groups.set(f, k)
    }
    let best = null
    for (const o of options) {
      o.apply()
      const after = index()
      const overflow = acyclic(after) ? over(after) : Infinity
      undo()
      if (overflow <= 0) {
        best = o
        break
      }
      if (overflow < (best?.overflow ?? Infinity)) best = { ...o, overflow }
    }
    best?.apply()
    if (!best) throw new Error(`merge-chunks: the first render of ${page} loads ${keys.length} groups and none can be merged`)
  }
  return groups
}

const sha = (s) => createHash('sha256').update(s).digest('hex')

/**
 * Bundles each group into one file.
 * @param {{ metafile: any, files: Map<string, string>, groups: Map<string, string>, outBase: string, root: string }} opts
 *   files: chunk file (metafile key) → its code; outBase: the metafile keys' folder (e.g. 'dist/assets').
 * @returns {Promise<{ outputs: Map<string, string>, fileOf: Map<string, string>, metafile: any }>}
 *   outputs: final file name → code; fileOf: chunk file → the final file (metafile key) holding it;
 *   metafile: the final files' graph in esbuild's metafile shape (imports, inputs, entryPoints).
 */
export async function mergeChunks({ metafile, files, groups, outBase, root }) {
  const keys = [...new Set(groups.values())]
  const id = new Map(keys.map((k, i) => [k, `g${i}`]))
  const chunkId = new Map([...groups.keys()].map((f, i) => [f, `c${i}`]))
  const exportsOf = (f) => metafile.outputs[f]?.exports ?? []
  const alias = (f, name) => `${chunkId.get(f)}$${name === 'default' ? 'default' : name}`
  const rel = (from, spec) => join(dirname(from), spec).split('\\').join('/')

  // a dynamic import of another chunk: its group, its exports under their own names again
  function rewriteDynamic(f, code) {
    for (const imp of metafile.outputs[f].imports) {
      if (imp.kind !== 'dynamic-import' || imp.external) continue
      const literal = `import("./${basename(imp.path)}")`
      const names = exportsOf(imp.path)
      const ns = `(m=>({${names.map((n) => `${JSON.stringify(n)}:m.${alias(imp.path, n)}`).join(',')}}))`
      code = code.split(literal).join(`import("group:${id.get(groups.get(imp.path))}").then${ns}`)
    }
    return code
  }

  const built = new Map()
  await Promise.all(
    keys.map(async (key) => {
      const members = [...groups.keys()].filter((f) => groups.get(f) === key)
      // dependencies first, as their importers would have run them
      const ordered = []
      const visit = (f) => {
        if (ordered.includes(f) || groups.get(f) !== key) return
        for (const imp of metafile.outputs[f].imports) if (imp.kind === 'import-statement') visit(imp.path)
        ordered.push(f)
      }
      members.forEach(visit)
      // a group holding a page also exports the page's names as they are: a retry imports the file itself (src/app/route-view.tsx)
      const entries = ordered.filter((f) => metafile.outputs[f].entryPoint)
      const primary = entries.find((f) => /-page\.tsx$/.test(metafile.outputs[f].entryPoint)) ?? (entries.length === 1 ? entries[0] : null)
      const own = primary && exportsOf(primary).length ? [`export { ${exportsOf(primary).join(', ')} } from ${JSON.stringify(primary)}`] : []
      const entry = ordered
        .map((f) =>
          exportsOf(f).length
            ? `export { ${exportsOf(f)
                .map((n) => `${n === 'default' ? 'default' : n} as ${alias(f, n)}`)
                .join(', ')} } from ${JSON.stringify(f)}`
            : `import ${JSON.stringify(f)}`,
        )
        .concat(own)
        .join('\n')
      const result = await esbuild({
        absWorkingDir: root,
        stdin: { contents: entry, resolveDir: root, sourcefile: `group:${id.get(key)}` },
        bundle: true,
        write: false,
        format: 'esm',
        minify: true,
        target: 'es2020',
        platform: 'browser',
        legalComments: 'none',
        logLevel: 'error',
        plugins: [
          {
            name: 'merge-chunks',
            setup(b) {
              b.onResolve({ filter: /^group:/ }, (args) => ({ path: args.path, external: true }))
              b.onResolve({ filter: /.*/ }, (args) => {
                const f = args.namespace === 'chunk' ? rel(args.importer, args.path) : args.path
                if (!groups.has(f)) return { errors: [{ text: `merge-chunks: ${f} is not a chunk of the build` }] }
                if (groups.get(f) === key) return { path: f, namespace: 'chunk' }
                return { path: f, namespace: 'proxy' }
              })
              b.onLoad({ filter: /.*/, namespace: 'chunk' }, (args) => ({ contents: rewriteDynamic(args.path, files.get(args.path)), loader: 'js' }))
              // another group's chunk: its exports, renamed back, from that group's file
              b.onLoad({ filter: /.*/, namespace: 'proxy' }, (args) => {
                const names = exportsOf(args.path)
                const group = `group:${id.get(groups.get(args.path))}`
                return {
                  contents: `export { ${names.map((n) => `${alias(args.path, n)} as ${n}`).join(', ')} } from ${JSON.stringify(group)}`,
                  loader: 'js',
                }
              })
            },
          },
        ],
      })
      built.set(key, { members: ordered, code: result.outputFiles[0].text })
    }),
  )

  // names: each group's hash covers its own code and every group it reaches, so a file
  // whose imports changed gets a new name too (and a CDN never serves it stale)
  const refs = (code) => [...new Set([...code.matchAll(/"group:(g\d+)"/g)].map((m) => m[1]))]
  const byId = new Map(keys.map((k) => [id.get(k), k]))
  const own = new Map(keys.map((k) => [k, sha(built.get(k).code)]))
  const names = new Map()
  for (const key of keys) {
    const reach = new Set([key])
    const stack = [key]
    while (stack.length) for (const r of refs(built.get(stack.pop()).code).map((g) => byId.get(g))) if (!reach.has(r) && reach.add(r)) stack.push(r)
    const hash = sha(
      `${own.get(key)}:${[...reach]
        .map((k) => own.get(k))
        .sort()
        .join('')}`,
    )
      .slice(0, 8)
      .toUpperCase()
    names.set(key, `${groupName(metafile, key, built.get(key).members)}-${hash}.js`)
  }
  const outputs = new Map()
  const final = { inputs: metafile.inputs, outputs: {} }
  for (const key of keys) {
    const { code, members } = built.get(key)
    const text = code.replace(/"group:(g\d+)"/g, (_m, g) => JSON.stringify(`./${names.get(byId.get(g))}`))
    const name = names.get(key)
    outputs.set(name, text)
    const imports = []
    for (const m of code.matchAll(/(import\(|from\s*|import\s*)"group:(g\d+)"/g)) {
      const path = `${outBase}/${names.get(byId.get(m[2]))}`
      const kind = m[1] === 'import(' ? 'dynamic-import' : 'import-statement'
      if (!imports.some((i) => i.path === path && i.kind === kind)) imports.push({ path, kind })
    }
    const inputs = {}
    for (const f of members) Object.assign(inputs, metafile.outputs[f].inputs)
    const entryPoints = members.map((f) => metafile.outputs[f].entryPoint).filter(Boolean)
    final.outputs[`${outBase}/${name}`] = { imports, exports: [], inputs, entryPoint: entryPoints[0], entryPoints, bytes: Buffer.byteLength(text) }
  }
  const fileOf = new Map([...groups].map(([f, key]) => [f, `${outBase}/${names.get(key)}`]))
  return { outputs, fileOf, metafile: final }
}

/** A readable name for a group's file: `main`, the page a first render is for, or the chunk's own name. */
function groupName(metafile, key, members) {
  if (key === 'app') return 'main'
  const page = members.map((f) => metafile.outputs[f].entryPoint).find((e) => e && /-page\.tsx$/.test(e))
  if (page) return basename(page, '.tsx')
  if (key.startsWith('first:')) return 'shared'
  return basename(members[0]).replace(/-[A-Z0-9]{8}\.js$/, '')
}
