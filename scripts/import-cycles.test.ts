// No import circle among the repository's own modules: a circle, even one held only by `import type`, means two
// modules cannot be read, tested or moved apart. Finds the circles with Tarjan's strongly connected components
// over every relative import (static, `import type`, `export … from`, side-effect and dynamic `import()`).
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const root = path.resolve(import.meta.dirname, '..')
/** The folders whose modules are ours (styled-system/, dist/ and node_modules/ are generated or installed). */
const roots = ['src', 'server', 'contract', 'design-system', 'scripts', 'bench', 'e2e', 'harness']
const sourceFile = /\.(ts|tsx|mjs)$/
const skipDirs = new Set(['node_modules', 'dist', '.data', '.tmp'])

function listModules(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name)
    if (e.isDirectory()) return skipDirs.has(e.name) ? [] : listModules(rel)
    return sourceFile.test(e.name) && !e.name.endsWith('.d.ts') && !e.name.endsWith('.d.mts') ? [rel] : []
  })
}

/** The source with comments and template-literal text blanked, so only code is searched for imports. */
function codeOnly(src: string): string {
  let out = ''
  let i = 0
  while (i < src.length) {
    const c = src[i]!
    const next = src[i + 1]
    if (c === '/' && next === '/') {
      const end = src.indexOf('\n', i)
      i = end === -1 ? src.length : end
    } else if (c === '/' && next === '*') {
      const end = src.indexOf('*/', i + 2)
      const stop = end === -1 ? src.length : end + 2
      out += src.slice(i, stop).replace(/[^\n]/g, ' ')
      i = stop
    } else if (c === "'" || c === '"') {
      let j = i + 1
      while (j < src.length && src[j] !== c && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1
      out += src.slice(i, j + 1)
      i = j + 1
    } else if (c === '`') {
      // a template's text (e.g. a script handed to a browser) is not this module's code; `${…}` parts rarely import
      let j = i + 1
      while (j < src.length && src[j] !== '`') j += src[j] === '\\' ? 2 : 1
      out += ' '.repeat(j + 1 - i)
      i = j + 1
    } else {
      out += c
      i++
    }
  }
  return out
}

/** The relative specifiers a module imports, in any form. */
export function relativeImports(src: string): string[] {
  const code = codeOnly(src)
  const found: string[] = []
  const patterns = [
    // import x from './a', import type { T } from './a', export * from './a', export { x } from './a'
    /^[ \t]*(?:import|export)\s+(?:type\s+)?(?:[\w$*\s,]|\{[^}]*\})*?from\s*(['"])(\.{1,2}\/[^'"\n]+)\1/gm,
    // import './a'
    /^[ \t]*import\s*(['"])(\.{1,2}\/[^'"\n]+)\1/gm,
    // import('./a'), typeof import('./a')
    /\bimport\(\s*(['"])(\.{1,2}\/[^'"\n]+)\1\s*\)/g,
  ]
  for (const re of patterns) for (const m of code.matchAll(re)) found.push(m[2]!)
  return found
}

/** Module → the repository modules it imports (paths from the root). */
function importGraph(): Map<string, string[]> {
  const modules = roots.filter((r) => fs.existsSync(path.join(root, r))).flatMap((r) => listModules(r))
  const known = new Set(modules)
  const graph = new Map<string, string[]>()
  for (const file of modules) {
    const targets = relativeImports(fs.readFileSync(path.join(root, file), 'utf8'))
      .map((spec) => {
        const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec))
        return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((p) => known.has(p))
      })
      .filter((p): p is string => p !== undefined)
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/** The import circles of a graph: Tarjan's strongly connected components of more than one node, or one importing itself. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []

  // iterative, so a long import chain cannot overflow the call stack
  for (const start of graph.keys()) {
    if (index.has(start)) continue
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }]
    index.set(start, counter)
    low.set(start, counter++)
    stack.push(start)
    onStack.add(start)
    while (work.length) {
      const frame = work[work.length - 1]!
      const edges = graph.get(frame.node) ?? []
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!
        if (!index.has(to)) {
          index.set(to, counter)
          low.set(to, counter++)
          stack.push(to)
          onStack.add(to)
          work.push({ node: to, next: 0 })
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!))
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.node)
        if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort())
      }
    }
  }
  return cycles
}

/** One shortest circle inside a strongly connected component, as `a -> b -> a`: the imports to cut. */
export function circleIn(graph: Map<string, string[]>, component: string[]): string[] {
  const members = new Set(component)
  const start = component[0]!
  const cameFrom = new Map<string, string>()
  const queue = [start]
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue
      if (to === start) {
        const path = [node]
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!)
        return [...path, start]
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node)
        queue.push(to)
      }
    }
  }
  return [start, start]
}

test('the scanner reads every form of relative import, and no import inside a comment or a template', () => {
  const src = [
    "import { a } from './a.ts'",
    "import type { B } from '../b.ts'",
    'import {',
    '  c,',
    '  type C,',
    "} from './c.ts'",
    "export * from './d.ts'",
    "export { e } from './e.ts'",
    "import './f.ts'",
    "const g = await import('./g.ts')",
    "type H = typeof import('./h.ts')",
    "import fs from 'node:fs'",
    "// import { x } from './commented.ts'",
    "/* import { y } from './blocked.ts' */",
    "const script = `import { z } from './in-template.js'`",
    "export const from = 'x'",
  ].join('\n')
  assert.equal(relativeImports(src).sort(), ['../b.ts', './a.ts', './c.ts', './d.ts', './e.ts', './f.ts', './g.ts', './h.ts'])
})

test("Tarjan's components: a two-module circle, a three-module circle, a self-import; a diamond is no circle", () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['a', 'c']],
    ['c', ['d', 'e']],
    ['d', ['f']],
    ['e', ['f']],
    ['f', []],
    ['x', ['y']],
    ['y', ['z']],
    ['z', ['x', 'f']],
    ['s', ['s']],
  ])
  const cycles = importCycles(graph)
  assert.equal(cycles.map((c) => c.join(' ')).sort(), ['a b', 's', 'x y z'])
  assert.equal(cycles.map((c) => circleIn(graph, c).join(' -> ')).sort(), ['a -> b -> a', 's -> s', 'x -> y -> z -> x'])
})

test('no import circle among the repository modules', () => {
  const graph = importGraph()
  assert.ok(graph.size > 100, `found only ${graph.size} modules`)
  assert.ok(
    [...graph.values()].some((edges) => edges.length > 0),
    'no import was read',
  )
  const named = importCycles(graph).map((c) => `  ${circleIn(graph, c).join(' -> ')}${c.length > 2 ? ` (circles among: ${c.join(', ')})` : ''}`)
  assert.ok(named.length === 0, `${named.length} import circle(s); move the shared type or value into a module both can import:\n${named.join('\n')}`)
})

test('no module outside the tests imports from one (the benchmark and the harness own what they share with tests)', () => {
  // the test folders' fixtures, and every test file (server tests live beside their domains)
  const testModule = /^(server\/test|e2e)\/|\.test\.tsx?$/
  const crossings = [...importGraph()].flatMap(([from, to]) =>
    testModule.test(from) ? [] : to.filter((t) => testModule.test(t)).map((t) => `  ${from} -> ${t}`),
  )
  assert.ok(crossings.length === 0, `imports from a test folder or file:\n${crossings.join('\n')}`)
})

/** Every repository module `from` reaches through its imports, itself excluded. */
export function reachable(graph: Map<string, string[]>, from: string[]): Set<string> {
  const seen = new Set<string>()
  const queue = [...from]
  for (let i = 0; i < queue.length; i++)
    for (const to of graph.get(queue[i]!) ?? []) {
      if (seen.has(to)) continue
      seen.add(to)
      queue.push(to)
    }
  return seen
}

test('reachable: through every import, once each, cycles included', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c', 'a']],
    ['c', []],
    ['d', ['a']],
  ])
  assert.equal([...reachable(graph, ['a'])].sort(), ['a', 'b', 'c'])
  assert.equal([...reachable(graph, ['c'])], [])
})

// The seat page and booking talk one way: the seat page model receives the booking model (linkBooking, an
// interface it declares), and neither side reaches the other through its imports, nor a store module both reach
// (a registry one side fills and the other calls, as seat-page-link.ts once was).
const seatSide = ['seat-map', 'lock-queue', 'hold', 'live-feed', 'seat-page'].map((n) => `src/models/${n}.ts`)
const bookingSide = ['src/models/booking.ts']
test('seat page and booking: neither imports the other, nor a store both share (the session and notifications they use are passed in)', () => {
  const graph = importGraph()
  for (const m of [...seatSide, ...bookingSide]) assert.ok(graph.has(m), `${m} is not a module any more: update this test`)
  const fromSeats = reachable(graph, seatSide)
  const fromBooking = reachable(graph, bookingSide)
  const seatsToBooking = bookingSide.filter((m) => fromSeats.has(m))
  assert.ok(seatsToBooking.length === 0, `the seat page side imports ${seatsToBooking.join(', ')}`)
  const bookingToSeats = seatSide.filter((m) => fromBooking.has(m))
  assert.ok(bookingToSeats.length === 0, `the booking side imports ${bookingToSeats.join(', ')}`)
  const shared = [...fromSeats].filter((m) => fromBooking.has(m) && m.startsWith('src/stores/'))
  assert.ok(shared.length === 0, `stores both sides import (a way for one to call the other): ${shared.join(', ')}`)
})

test.run()
