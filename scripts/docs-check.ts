/**
 * What scripts/docs.test.ts checks README.md and docs/ against: the environment variables a
 * source file reads (read from its tokens, the way server/config.ts reads them), and the
 * links, anchors and repository paths a Markdown file names.
 */

/** A token of TypeScript source: comments dropped, strings with their text, `nl` when a line break came before it. */
export interface Token {
  kind: 'id' | 'str' | 'num' | 'punct' | 'regex'
  text: string
  nl: boolean
}

const PUNCT = [
  '>>>=',
  '...',
  '===',
  '!==',
  '**=',
  '<<=',
  '>>=',
  '>>>',
  '&&=',
  '||=',
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '**',
  '<<',
  '>>',
]
// after these a `/` starts a regular expression, not a division
const BEFORE_REGEX = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await'])

/** Index just past the string literal opening at `i` (quote `q`). */
function endOfString(src: string, i: number, q: string): number {
  let j = i + 1
  while (j < src.length && src[j] !== q) j += src[j] === '\\' ? 2 : 1
  return j + 1
}

/** Index just past the template literal opening at `i`; `exprs` receives the source of each `${…}`. */
function endOfTemplate(src: string, i: number, exprs: string[]): number {
  let j = i + 1
  while (j < src.length && src[j] !== '`') {
    if (src[j] === '\\') j += 2
    else if (src[j] === '$' && src[j + 1] === '{') {
      const start = j + 2
      let depth = 1
      j = start
      while (j < src.length && depth > 0) {
        const c = src[j] as string
        if (c === "'" || c === '"') j = endOfString(src, j, c)
        else if (c === '`') j = endOfTemplate(src, j, [])
        else {
          if (c === '{') depth++
          else if (c === '}') depth--
          j++
        }
      }
      exprs.push(src.slice(start, j - 1))
    } else j++
  }
  return j + 1
}

/** The tokens of `src`; a template literal with `${…}` gives the tokens of its expressions, one without gives a string. */
export function tokenize(src: string): Token[] {
  const out: Token[] = []
  let nl = false
  let i = 0
  const push = (kind: Token['kind'], text: string) => {
    out.push({ kind, text, nl })
    nl = false
  }
  while (i < src.length) {
    const c = src[i] as string
    if (c === '\n') {
      nl = true
      i++
    } else if (/\s/.test(c)) i++
    else if (src.startsWith('//', i)) i = src.indexOf('\n', i) < 0 ? src.length : src.indexOf('\n', i)
    else if (src.startsWith('/*', i)) i = src.indexOf('*/', i + 2) < 0 ? src.length : src.indexOf('*/', i + 2) + 2
    else if (c === "'" || c === '"') {
      const end = endOfString(src, i, c)
      push('str', src.slice(i + 1, end - 1))
      i = end
    } else if (c === '`') {
      const exprs: string[] = []
      const end = endOfTemplate(src, i, exprs)
      if (exprs.length === 0) push('str', src.slice(i + 1, end - 1))
      else for (const e of exprs) for (const t of tokenize(e)) push(t.kind, t.text)
      i = end
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[\w$]+/.exec(src.slice(i)) as RegExpExecArray
      push('id', m[0])
      i += m[0].length
    } else if (/\d/.test(c)) {
      const m = /^[\d.]+(?:e[+-]?\d+)?[\w]*/i.exec(src.slice(i)) as RegExpExecArray
      push('num', m[0])
      i += m[0].length
    } else if (c === '/' && regexMayStart(out.at(-1))) {
      let j = i + 1
      let inClass = false
      while (j < src.length && (inClass || src[j] !== '/') && src[j] !== '\n') {
        if (src[j] === '\\') j++
        else if (src[j] === '[') inClass = true
        else if (src[j] === ']') inClass = false
        j++
      }
      j++
      while (j < src.length && /[a-z]/.test(src[j] as string)) j++
      push('regex', src.slice(i, j))
      i = j
    } else {
      const p = PUNCT.find((op) => src.startsWith(op, i) && !(op === '?.' && /\d/.test(src[i + 2] ?? '')))
      push('punct', p ?? c)
      i += p?.length ?? 1
    }
  }
  return out
}

/** Whether a `/` after `prev` starts a regular expression. */
function regexMayStart(prev: Token | undefined): boolean {
  if (!prev) return true
  if (prev.kind === 'id') return BEFORE_REGEX.has(prev.text)
  if (prev.kind === 'punct') return ![')', ']', '}'].includes(prev.text)
  return false
}

/** Index of the bracket closing the one at `open`. */
function closing(t: Token[], open: number): number {
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' }
  const want = pairs[t[open]?.text ?? ''] as string
  let depth = 0
  for (let i = open; i < t.length; i++) {
    const x = t[i] as Token
    if (x.kind !== 'punct') continue
    if (x.text === t[open]?.text) depth++
    else if (x.text === want && --depth === 0) return i
  }
  return t.length
}

/** The top-level comma-separated parts of the brackets opening at `open`, as token index ranges. */
function parts(t: Token[], open: number): [number, number][] {
  const end = closing(t, open)
  const out: [number, number][] = []
  let from = open + 1
  let depth = 0
  for (let i = open + 1; i < end; i++) {
    const x = (t[i] as Token).text
    if ((t[i] as Token).kind !== 'punct') continue
    if (x === '(' || x === '[' || x === '{') depth++
    else if (x === ')' || x === ']' || x === '}') depth--
    else if (x === ',' && depth === 0) {
      out.push([from, i])
      from = i + 1
    }
  }
  if (from < end) out.push([from, end])
  return out
}

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/
const NOT_A_FUNCTION = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'typeof', 'await', 'new', 'super'])

interface Binding {
  at: number
  names: string[]
  /** A `for (const k of ['A', 'B'])` loop variable: the strings it takes. */
  values?: string[]
  /** A function's name (its parameters are `names`). */
  fn?: string
}

/** Parameter names of the list whose `(` is at `open` (a destructured parameter gives none). */
function paramNames(t: Token[], open: number): string[] {
  return parts(t, open).map(([a]) => {
    const first = t[a]?.text === '...' ? t[a + 1] : t[a]
    return first?.kind === 'id' ? first.text : ''
  })
}

/** Index of `=>` when the parameter list closing at `close` starts an arrow function (a return type may sit between), else -1. */
function arrowAfter(t: Token[], close: number): number {
  if (t[close + 1]?.text === '=>') return close + 1
  if (t[close + 1]?.text !== ':') return -1
  let depth = 0
  for (let i = close + 2; i < t.length; i++) {
    const x = t[i] as Token
    if (x.kind === 'punct' && ['(', '[', '{', '<'].includes(x.text)) depth++
    else if (x.kind === 'punct' && [')', ']', '}', '>'].includes(x.text)) {
      if (--depth < 0) return -1
    } else if (depth === 0 && x.text === '=>') return i
    else if (depth === 0 && (x.text === ';' || x.text === '=' || x.nl)) return -1
  }
  return -1
}

/** Functions (declared, arrow, methods) and `for … of [literals]` loop variables, in source order. */
function bindings(t: Token[]): Binding[] {
  const out: Binding[] = []
  for (let i = 0; i < t.length; i++) {
    const x = t[i] as Token
    if (x.kind !== 'id') continue
    const next = t[i + 1]
    if (x.text === 'function') {
      const name = t[i + 1]?.kind === 'id' ? (t[i + 1] as Token).text : ''
      const open = name ? i + 2 : i + 1
      if (t[open]?.text === '(') out.push({ at: i, fn: name, names: paramNames(t, open) })
    } else if (x.text === 'for' && next?.text === '(' && ['const', 'let', 'var'].includes(t[i + 2]?.text ?? '') && t[i + 4]?.text === 'of') {
      const arr = i + 5
      if (t[arr]?.text === '[') {
        const values = parts(t, arr).flatMap(([a, b]) => (b === a + 1 && t[a]?.kind === 'str' ? [(t[a] as Token).text] : []))
        out.push({ at: i, names: [(t[i + 3] as Token).text], values })
      }
    } else if (next?.text === '=') {
      // NAME = (params) => …, NAME = async (params) => …, NAME = param => …, NAME = function (params)
      let j = i + 2
      if (t[j]?.text === 'async') j++
      if (t[j]?.text === '(' && arrowAfter(t, closing(t, j)) >= 0) out.push({ at: i, fn: x.text, names: paramNames(t, j) })
      else if (t[j]?.kind === 'id' && t[j + 1]?.text === '=>') out.push({ at: i, fn: x.text, names: [(t[j] as Token).text] })
    } else if (next?.text === '(' && !NOT_A_FUNCTION.has(x.text) && t[i - 1]?.text !== '.' && t[i - 1]?.text !== '?.') {
      // a method: NAME(params) { … } or NAME(params): Type { … }
      const close = closing(t, i + 1)
      const after = t[close + 1]?.text
      if (after === '{' || (after === ':' && t[i - 1]?.text !== '?')) {
        if (after === '{' || arrowAfter(t, close) < 0) out.push({ at: i, fn: x.text, names: paramNames(t, i + 1) })
      }
    }
  }
  return out
}

/** The binding in force for identifier `name` at token `at`: the nearest function parameter or loop variable before it. */
function bindingOf(all: Binding[], name: string, at: number): { binding: Binding; index: number } | null {
  for (let k = all.length - 1; k >= 0; k--) {
    const b = all[k] as Binding
    if (b.at >= at) continue
    const index = b.names.indexOf(name)
    if (index >= 0) return { binding: b, index }
  }
  return null
}

/**
 * Environment variables `src` reads: `process.env.X`, `process.env['X']`, `env.X` (any object named `env`, or
 * bound to `process.env`), `const { X } = process.env`, and keys handed to a function that reads `env[key]`
 * (as server/config.ts's `get`, `need`, `int` do), directly or through another such function, as a string
 * or through a `for (const k of ['X', …])` loop. Comments and the text of strings are not code.
 */
export function envReads(src: string): Set<string> {
  const t = tokenize(src)
  const envObjects = new Set(['env'])
  for (let i = 0; i + 3 < t.length; i++) {
    if (t[i + 1]?.text === '=' && t[i + 2]?.text === 'process' && t[i + 3]?.text === '.' && t[i + 4]?.text === 'env' && t[i]?.kind === 'id') {
      envObjects.add((t[i] as Token).text)
    }
  }
  /** Tokens the environment object spans at `i` (0: none there). */
  const envAt = (i: number): number => {
    const x = t[i]
    if (x?.kind !== 'id' || t[i - 1]?.text === '.' || t[i - 1]?.text === '?.') return 0
    if (x.text === 'process' && t[i + 1]?.text === '.' && t[i + 2]?.text === 'env') return 3
    return envObjects.has(x.text) ? 1 : 0
  }
  const all = bindings(t)
  const reads = new Set<string>()
  // function name → the indices of its parameters that are variable names
  const accessors = new Map<string, Set<number>>()
  const keyParams: { name: string; at: number }[] = []
  const addName = (n: string) => ENV_NAME.test(n) && reads.add(n)

  for (let i = 0; i < t.length; i++) {
    const n = envAt(i)
    if (!n) continue
    let k = i + n
    if (t[k]?.text === '?.' && t[k + 1]?.text === '[') k++
    const key = t[k + 1]
    if ((t[k]?.text === '.' || t[k]?.text === '?.') && key?.kind === 'id') addName(key.text)
    else if (t[k]?.text === '[' && t[k + 2]?.text === ']' && key?.kind === 'str') addName(key.text)
    else if (t[k]?.text === '[' && t[k + 2]?.text === ']' && key?.kind === 'id') keyParams.push({ name: key.text, at: k + 1 })
    else if (t[i - 1]?.text === '=' && t[i - 2]?.text === '}') {
      // const { A, B: b, C = '' } = env
      const open = (() => {
        let depth = 0
        for (let j = i - 2; j >= 0; j--) {
          if (t[j]?.text === '}') depth++
          else if (t[j]?.text === '{' && --depth === 0) return j
        }
        return -1
      })()
      if (open >= 0) for (const [a] of parts(t, open)) addName(t[a]?.text ?? '')
    }
  }

  /** Marks the variable `name` used at `at` as an environment key: a function parameter becomes an accessor; a loop's strings are read. */
  const keyVariable = (name: string, at: number): boolean => {
    const b = bindingOf(all, name, at)
    if (!b) return false
    if (b.binding.values) {
      for (const v of b.binding.values) addName(v)
      return false
    }
    const fn = b.binding.fn as string
    const known = accessors.get(fn) ?? new Set<number>()
    if (known.has(b.index)) return false
    accessors.set(fn, known.add(b.index))
    return true
  }
  for (const p of keyParams) keyVariable(p.name, p.at)
  const calls: { fn: string; open: number }[] = []
  for (let i = 0; i + 1 < t.length; i++) {
    const x = t[i] as Token
    if (x.kind === 'id' && t[i + 1]?.text === '(' && t[i - 1]?.text !== '.' && t[i - 1]?.text !== '?.') calls.push({ fn: x.text, open: i + 1 })
  }
  // a function that hands its parameter to an accessor as the key is an accessor too
  for (let changed = true; changed; ) {
    changed = false
    for (const c of calls) {
      const positions = accessors.get(c.fn)
      if (!positions || all.some((b) => b.fn === c.fn && b.at === c.open - 1)) continue
      const args = parts(t, c.open)
      for (const pos of positions) {
        const [a, b] = args[pos] ?? [0, 0]
        if (b !== a + 1) continue
        const arg = t[a] as Token
        if (arg.kind === 'str') addName(arg.text)
        else if (arg.kind === 'id' && keyVariable(arg.text, a)) changed = true
      }
    }
  }
  return reads
}

/** A heading's anchor as GitHub makes it (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-')
}

/** `md` without its fenced code blocks (their lines left empty, so line numbers hold). */
export function withoutFences(md: string): string {
  let fence: string | null = null
  return md
    .split('\n')
    .map((line) => {
      const m = /^\s*(`{3,}|~{3,})/.exec(line)
      if (fence) {
        if (m && (m[1] as string).startsWith(fence)) fence = null
        return ''
      }
      if (m) {
        fence = m[1] as string
        return ''
      }
      return line
    })
    .join('\n')
}

/** The anchors of `md`'s headings, numbered as GitHub numbers repeats (`name`, `name-1`, …). */
export function anchors(md: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const m of withoutFences(md).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1] as string)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    out.add(n ? `${base}-${n}` : base)
  }
  return out
}

/** The targets of `md`'s links and images outside code (fenced blocks and `code spans`). */
export function linkTargets(md: string): string[] {
  const text = withoutFences(md).replace(/`[^`\n]*`/g, '')
  return [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] as string)
}

/** Folders at the repository's root whose paths the docs name in `code spans`. */
export const REPO_FOLDERS = ['src', 'server', 'contract', 'e2e', 'scripts', 'harness', 'bench', 'docs', 'design-system', 'locales', 'data', '.ci']

/**
 * Repository paths `md` names in `code spans` outside fenced blocks (from the root: `server/config.ts`,
 * `server/trips/`); one with a placeholder (`server/<domain>/README.md`) or a pattern (`*.test.ts`) is no path.
 */
export function codePaths(md: string): string[] {
  const folders = REPO_FOLDERS.map((f) => f.replace('.', '\\.')).join('|')
  const re = new RegExp(`^(?:${folders})/[\\w./-]*$`)
  return [...withoutFences(md).matchAll(/`([^`\n]+)`/g)].map((m) => m[1] as string).filter((p) => re.test(p))
}

/** The `CONSTANT_NAMES` (upper case, with an underscore) `md` names in `code spans` outside fenced blocks. */
export function constantNames(md: string): Set<string> {
  return new Set([...withoutFences(md).matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)].map((m) => m[1] as string))
}

/** `NAME` in `path` (and `A`, `B` in `path`, `A` and `B` in `path`) claims of `md`: the names and the path they are said to live in. */
export function declaredIn(md: string): { names: string[]; path: string }[] {
  const text = withoutFences(md)
  const re = /((?:`[A-Za-z_$][\w$]*`(?:,\s*|\s+and\s+))*`[A-Za-z_$][\w$]*`)\s+in\s+`([^`\n]+)`/g
  return [...text.matchAll(re)].map((m) => ({ names: [...(m[1] as string).matchAll(/`([^`]+)`/g)].map((n) => n[1] as string), path: m[2] as string }))
}

/** Whether `src` declares `name` (a const, let, function, class, type or interface; in SQL, a function). */
export function declares(src: string, name: string): boolean {
  const n = name.replace(/\$/g, '\\$')
  return new RegExp(`\\b(?:const|let|var|function|FUNCTION|class|interface|type|enum)\\s+${n}\\b`).test(src)
}

/** The variables named in the first cell of `md`'s table rows (header and separator rows excepted), with how many rows name each. */
export function documentedVariables(md: string): Map<string, number> {
  const counts = new Map<string, number>()
  const lines = withoutFences(md).split('\n')
  lines.forEach((line, i) => {
    if (!line.startsWith('|') || /^\|[\s|:-]+\|?\s*$/.test(line)) return
    // the header row is the one above the separator
    if (/^\|[\s|:-]+\|?\s*$/.test(lines[i + 1] ?? '')) return
    const cell = line.split('|')[1] ?? ''
    for (const m of cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) counts.set(m[1] as string, (counts.get(m[1] as string) ?? 0) + 1)
  })
  return counts
}
