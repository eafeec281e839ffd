/**
 * fast-check arbitraries from zod/mini schemas, for the API fuzz test.
 *
 * `validArbitrary(schema)` walks `schema._zod.def` (object/strictObject, string with
 * regex and length checks, number with int and bounds, boolean, enum, literal, union,
 * optional, nullable, array with length checks, record) and generates values the
 * schema accepts. `contexts` lay real values (one trip's id, date and cities; a
 * passenger's mobile and password...) over generated objects by field name, so that
 * requests reach past "not found". `mutationArbitrary` then breaks a valid value at
 * one place: wrong type, missing, null, extremes, NUL, unpaired surrogates, huge
 * strings, unicode, unknown fields, over-long arrays.
 */
import fc from 'fast-check'

/** Any zod/mini schema (only `_zod.def` and `safeParse` are used). */
export interface Schema {
  _zod: { def: unknown }
  safeParse(v: unknown): { success: boolean }
}

type Def = { type: string; [k: string]: unknown }
type CheckDef = { check: string; [k: string]: unknown }

const defOf = (s: Schema) => s._zod.def as Def
const checksOf = (d: Def) => ((d.checks as { _zod: { def: CheckDef } }[] | undefined) ?? []).map((c) => c._zod.def)

/**
 * A context value computed when the request is sent (a live booking, a fresh SMS
 * code). Within one request each Later is computed once, so values picked from the
 * same Later (a ticket's PNR and PIN) agree. `like`, when given, is a value of the
 * same form: a field whose schema refuses it does not take this Later (two routes
 * may give one field name different meanings: a ticket link's `token`, a queue
 * place's `token`).
 */
export class Later {
  constructor(
    readonly label: string,
    readonly get: (use: (other: Later) => Promise<unknown>) => Promise<unknown>,
    readonly like?: unknown,
  ) {}
  /** A value derived from this one; `like`, a value of its form (see the class). */
  pick(label: string, fn: (v: any) => unknown, like?: unknown): Later {
    return new Later(label, async (use) => fn(await use(this)), like)
  }
  [fc.toStringMethod](): string {
    return `<${this.label}>`
  }
}

/** `v` with every Later (at any depth) replaced by its value, each computed once. */
export async function resolveLater(v: unknown, memo = new Map<Later, Promise<unknown>>()): Promise<unknown> {
  const use = (l: Later): Promise<unknown> => {
    if (!memo.has(l)) memo.set(l, l.get(use))
    return memo.get(l)!
  }
  if (v instanceof Later) return use(v)
  if (Array.isArray(v)) {
    const out: unknown[] = []
    for (const x of v) out.push(await resolveLater(x, memo))
    return out
  }
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) out[k] = await resolveLater(x, memo)
    return out
  }
  return v
}

export interface ArbitraryOptions {
  /**
   * Real values by field name. Four times in five, an object whose shape has any of a
   * context's keys takes that context's values for those keys (one context per object,
   * so values that must agree, such as a trip's date and coach, do). Three times in four
   * that context is one of those naming the most of the object's keys (a sign-up's mobile,
   * code and token together, rather than another context's mobile), so that some valid
   * requests reach the handler's real work; else any context sharing a key.
   */
  contexts?: readonly Record<string, unknown>[]
  /**
   * Whether a context value must be one the field's schema accepts (default). Off where the schema
   * is only a stand-in for values the contract does not describe (path parameters).
   */
  checkContexts?: boolean
  /** Extra rule for generated strings (the server refuses NUL and unpaired surrogates). */
  acceptString?: (s: string) => boolean
}

/** Values `schema` accepts (context values are taken as they are). */
export function validArbitrary(schema: Schema, opts: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  return build(schema, opts)
}

function build(schema: Schema, o: ArbitraryOptions): fc.Arbitrary<unknown> {
  const d = defOf(schema)
  switch (d.type) {
    case 'string':
      return stringArb(schema, d, o)
    case 'number':
      return numberArb(d)
    case 'boolean':
      return fc.boolean()
    case 'literal':
      return fc.constantFrom(...(d.values as unknown[]))
    case 'enum':
      return fc.constantFrom(...Object.values(d.entries as Record<string, unknown>))
    case 'optional':
      return fc.option(build(d.innerType as Schema, o), { nil: undefined })
    case 'nullable':
      return fc.option(build(d.innerType as Schema, o), { nil: null })
    case 'union':
      return fc.oneof(...(d.options as Schema[]).map((s) => build(s, o)))
    case 'array': {
      const { min, max } = lengthBounds(d)
      return fc.array(build(d.element as Schema, o), { minLength: min, maxLength: Math.min(max, min + 5) }).filter((v) => schema.safeParse(v).success)
    }
    case 'record':
      return fc.dictionary(build(d.keyType as Schema, o) as fc.Arbitrary<string>, build(d.valueType as Schema, o), { maxKeys: 5 })
    case 'object':
      return objectArb(d, o)
    default:
      throw new Error(`validArbitrary: no generator for zod type '${d.type}'`)
  }
}

function objectArb(d: Def, o: ArbitraryOptions): fc.Arbitrary<unknown> {
  const shape = d.shape as Record<string, Schema>
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  const requiredKeys: string[] = []
  for (const [k, s] of Object.entries(shape)) {
    const sd = defOf(s)
    // Optional keys are absent rather than present-and-undefined (JSON drops undefined anyway).
    if (sd.type === 'optional') model[k] = build(sd.innerType as Schema, o)
    else {
      model[k] = build(s, o)
      requiredKeys.push(k)
    }
  }
  const generated = fc.record(model, { requiredKeys }) as fc.Arbitrary<Record<string, unknown>>
  const keys = Object.keys(shape)
  const relevant = (o.contexts ?? []).filter((c) => Object.keys(c).some((k) => keys.includes(k)))
  if (relevant.length === 0) return generated
  const shared = (c: Record<string, unknown>) => keys.filter((k) => k in c).length
  const most = Math.max(...relevant.map(shared))
  const context = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...relevant.filter((c) => shared(c) === most)) },
    { weight: 1, arbitrary: fc.constantFrom(...relevant) },
  )
  // a context's value goes where the field's schema accepts it as sent (JSON: a date object as its string), checked
  // on a Later's `like`, or not at all when a Later is inside it: a value the schema refuses would make a valid
  // request invalid
  const accepts = (k: string, x: unknown) => (shape[k] as Schema).safeParse(x === undefined ? x : JSON.parse(JSON.stringify(x))).success
  const fits = (k: string, x: unknown) => {
    if (o.checkContexts === false) return true
    if (x instanceof Later) return x.like === undefined || accepts(k, x.like)
    return hasLater(x) || accepts(k, x)
  }
  return fc.tuple(generated, fc.option(context, { freq: 5 })).map(([v, c]) => {
    if (!c) return v
    const out = { ...v }
    for (const k of keys) if (k in c && fits(k, c[k])) out[k] = c[k]
    return out
  })
}

/** Whether a Later is in `v`, at any depth. */
function hasLater(v: unknown): boolean {
  if (v instanceof Later) return true
  if (Array.isArray(v)) return v.some(hasLater)
  return v !== null && typeof v === 'object' && Object.values(v).some(hasLater)
}

function lengthBounds(d: Def): { min: number; max: number } {
  let min = 0
  let max = Number.POSITIVE_INFINITY
  for (const c of checksOf(d)) {
    if (c.check === 'min_length') min = Math.max(min, c.minimum as number)
    if (c.check === 'max_length') max = Math.min(max, c.maximum as number)
    if (c.check === 'length_equals') min = max = c.length as number
  }
  return { min, max }
}

const isAnchored = (re: RegExp) => re.source.startsWith('^') && re.source.endsWith('$')

// Printable text as people type it: mostly ASCII, some Bangla, accents, emoji (surrogate pairs), CJK.
const textUnit = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.constantFrom('ঢা', 'কা', 'চট্ট', 'গ্রাম', 'é', 'e\u0301', 'ß', 'İ', '中', '😀', '👍🏽', '\u200d', '١') },
  { weight: 1, arbitrary: fc.integer({ min: 0xa0, max: 0xd7ff }).map((c) => String.fromCharCode(c)) },
)

function stringArb(schema: Schema, d: Def, o: ArbitraryOptions): fc.Arbitrary<unknown> {
  const { min, max } = lengthBounds(d)
  const patterns = checksOf(d)
    .filter((c) => c.check === 'string_format' && c.pattern instanceof RegExp)
    .map((c) => c.pattern as RegExp)
  const anchored = patterns.filter(isAnchored)
  let base: fc.Arbitrary<string>
  if (anchored.length > 0) base = fc.stringMatching(anchored[0]!)
  else {
    const short = fc.string({ unit: textUnit, minLength: min, maxLength: Math.min(max, min + 24) })
    // The longest allowed value too: a column narrower than the contract shows up here.
    base =
      Number.isFinite(max) && max <= 4096
        ? fc.oneof({ weight: 4, arbitrary: short }, { weight: 1, arbitrary: fc.string({ minLength: max, maxLength: max }) })
        : short
  }
  // Unanchored patterns ("has an upper-case letter") each add one exact match.
  const parts = patterns.filter((p) => !isAnchored(p)).map((p) => fc.stringMatching(new RegExp(`^(?:${p.source})$`, p.flags)))
  const joined = parts.length > 0 ? fc.tuple(base, ...parts).map((xs) => xs.join('')) : base
  const accept = o.acceptString ?? (() => true)
  return joined.filter((v) => accept(v) && schema.safeParse(v).success)
}

// zod's integer formats (z.int(), z.int32(), z.uint32()) and their ranges.
const intFormats: Record<string, [number, number]> = {
  safeint: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
}

function numberArb(d: Def): fc.Arbitrary<number> {
  let int = false
  let min = -Number.MAX_SAFE_INTEGER
  let max = Number.MAX_SAFE_INTEGER
  for (const c of checksOf(d)) {
    const range = c.check === 'number_format' ? intFormats[c.format as string] : undefined
    if (range) {
      int = true
      min = Math.max(min, range[0])
      max = Math.min(max, range[1])
    }
    if (c.check === 'greater_than') min = Math.max(min, c.inclusive ? (c.value as number) : (c.value as number) + (int ? 1 : Number.EPSILON))
    if (c.check === 'less_than') max = Math.min(max, c.inclusive ? (c.value as number) : (c.value as number) - (int ? 1 : Number.EPSILON))
  }
  if (!int) return fc.double({ min, max, noNaN: true, noDefaultInfinity: true })
  min = Math.ceil(min)
  max = Math.floor(max)
  const int32 = fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) })
  if (min >= -(2 ** 31) && max <= 2 ** 31 - 1) return int32
  return fc.oneof(
    int32,
    fc.maxSafeInteger().filter((n) => n >= min && n <= max),
  )
}

// ---------- mutations ----------

/** Marks a key to delete. */
export const MISSING = Symbol('missing')

type Path = (string | number)[]

/** One way of breaking a value; `to` gets the value found at the place (undefined when absent). */
interface Breaker {
  label: string
  to: (current: unknown) => unknown
}

const insertNul = (s: string) => s.slice(0, Math.floor(s.length / 2)) + '\u0000' + s.slice(Math.floor(s.length / 2))
const asText = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? 'x' : JSON.stringify(v))
const repeatTo = (v: unknown, n: number) => {
  const xs = Array.isArray(v) && v.length > 0 ? v : [v ?? 'A1']
  return Array.from({ length: n }, (_, i) => xs[i % xs.length])
}

/** Bad values, each tried at any place of a request. */
export const breakers: readonly Breaker[] = [
  { label: 'missing', to: () => MISSING },
  { label: 'null', to: () => null },
  { label: 'true', to: () => true },
  { label: '0', to: () => 0 },
  { label: '-1', to: () => -1 },
  { label: '-0', to: () => -0 },
  { label: '1.5', to: () => 1.5 },
  { label: '2^31-1', to: () => 2 ** 31 - 1 },
  { label: '2^31', to: () => 2 ** 31 },
  { label: '2^53', to: () => 2 ** 53 },
  { label: '1e308', to: () => 1e308 },
  { label: '-1e308', to: () => -1e308 },
  { label: 'number as text', to: (v) => (typeof v === 'number' ? String(v) : '12') },
  { label: 'text as number', to: (v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : 42) },
  { label: '"NaN"', to: () => 'NaN' },
  { label: '"Infinity"', to: () => 'Infinity' },
  { label: '"-1"', to: () => '-1' },
  { label: 'empty text', to: () => '' },
  { label: 'blank text', to: () => '   ' },
  { label: 'NUL inside', to: (v) => insertNul(asText(v)) },
  { label: 'NUL alone', to: () => '\u0000' },
  { label: 'unpaired high surrogate', to: (v) => asText(v) + '\ud800' },
  { label: 'reversed surrogate pair', to: () => '\ude00\ud83d' },
  { label: '100 kB text', to: () => 'x'.repeat(100 * 1024) },
  { label: '60 kB Bangla text', to: () => 'ক'.repeat(20_000) },
  { label: '400 digits', to: () => '9'.repeat(400) },
  { label: 'Bangla', to: () => 'ঢাকা-চট্টগ্রাম' },
  { label: 'emoji', to: () => '😀👍🏽👨‍👩‍👧' },
  { label: 'combining marks', to: () => 'e\u0301\u0301\u0301' },
  { label: 'right-to-left override', to: (v) => '\u202e' + asText(v) },
  { label: 'full-width digits', to: () => '０１７１２３４５６７８' },
  { label: 'zero-width space', to: (v) => asText(v) + '\u200b' },
  { label: 'SQL', to: () => "' OR 1=1; DROP TABLE passengers; --" },
  { label: 'path', to: () => '../../etc/passwd' },
  { label: 'percent-encoded NUL', to: () => '%00' },
  { label: 'ISO date far out', to: () => '9999-12-31' },
  { label: 'ISO date year 1', to: () => '0001-01-01' },
  { label: '30 February', to: () => '2026-02-30' },
  { label: 'instant far out', to: () => '+275760-09-13T00:00:00Z' },
  { label: 'one more', to: (v) => (typeof v === 'number' ? v + 1 : v) },
  { label: 'lower case', to: (v) => (typeof v === 'string' ? v.toLowerCase() : v) },
  { label: 'padded with spaces', to: (v) => (typeof v === 'string' ? ` ${v} ` : v) },
  { label: 'first element twice', to: (v) => (Array.isArray(v) && v.length > 0 ? [...v, v[0]] : v) },
  { label: 'empty array', to: () => [] },
  { label: 'wrapped in an array', to: (v) => [v] },
  { label: '6 elements', to: (v) => repeatTo(v, 6) },
  { label: '1000 elements', to: (v) => repeatTo(v, 1000) },
  { label: 'empty object', to: () => ({}) },
  {
    label: 'unknown field',
    to: (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...v, unknownField: 'x' } : { unknownField: v }),
  },
  {
    label: 'constructor field',
    to: (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...v, constructor: { prototype: {} } } : { constructor: v }),
  },
]

/** A value broken at one place: what, where, and the result. */
export interface Broken {
  value: unknown
  at: string
  how: string
}

/** Every place in `value` (the value itself, each key and element), plus keys of `schema` the value leaves out. */
export function placesOf(value: unknown, schema?: Schema): Path[] {
  const out: Path[] = []
  const walk = (v: unknown, s: Schema | undefined, path: Path) => {
    out.push(path)
    const d = s ? unwrap(s) : undefined
    if (v instanceof Later) return
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, d?.type === 'array' ? (d.element as Schema) : undefined, [...path, i])
    } else if (v !== null && typeof v === 'object') {
      const shape = d?.type === 'object' ? (d.shape as Record<string, Schema>) : {}
      for (const k of new Set([...Object.keys(v), ...Object.keys(shape)])) walk((v as Record<string, unknown>)[k], shape[k], [...path, k])
    }
  }
  walk(value, schema, [])
  return out
}

function unwrap(s: Schema): Def {
  let d = defOf(s)
  while (d.type === 'optional' || d.type === 'nullable') d = defOf(d.innerType as Schema)
  return d
}

/** `value` with the place at `path` replaced (or deleted with MISSING). */
export function replaceAt(value: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next === MISSING ? undefined : next
  const [head, ...rest] = path
  if (Array.isArray(value)) {
    const copy = [...value]
    if (rest.length === 0 && next === MISSING) copy.splice(head as number, 1)
    else copy[head as number] = replaceAt(copy[head as number], rest, next)
    return copy
  }
  const copy: Record<string, unknown> = { ...(value as object) }
  if (rest.length === 0 && next === MISSING) delete copy[head!]
  else copy[head!] = replaceAt(copy[head!], rest, next)
  return copy
}

function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined), value)
}

/** `valid` broken at one of its places by one breaker (or by arbitrary JSON). */
export function mutationArbitrary(valid: fc.Arbitrary<unknown>, schema?: Schema): fc.Arbitrary<Broken> {
  return valid.chain((v) => {
    const places = placesOf(v, schema)
    const breaker = fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...breakers) },
      {
        weight: 1,
        arbitrary: fc.jsonValue({ maxDepth: 2 }).map((j): Breaker => ({ label: `JSON ${JSON.stringify(j)?.slice(0, 40)}`, to: () => j })),
      },
    )
    return fc.tuple(fc.constantFrom(...places), breaker).map(([path, b]) => ({
      value: replaceAt(v, path, b.to(valueAt(v, path))),
      at: path.join('.') || '(whole)',
      how: b.label,
    }))
  })
}

/** Path parameters that no route should take, URL-encoded as sent (`raw`). */
export const badPathSegments: readonly { label: string; raw: string }[] = [
  { label: 'NUL', raw: '%00' },
  { label: 'NUL inside', raw: 'AB%00CD' },
  { label: 'unpaired surrogate (bad UTF-8)', raw: '%ED%A0%80' },
  { label: 'bad UTF-8', raw: '%FF%FE' },
  { label: 'lone percent', raw: '%' },
  { label: 'dot dot', raw: '..' },
  { label: 'encoded dot dot', raw: '%2E%2E' },
  { label: 'encoded slash', raw: 'a%2Fb' },
  { label: 'space', raw: '%20' },
  { label: 'zero', raw: '0' },
  { label: 'minus one', raw: '-1' },
  { label: '2^31', raw: '2147483648' },
  { label: '30 digits', raw: '9'.repeat(30) },
  { label: 'exponent', raw: '1e3' },
  { label: 'fraction', raw: '1.5' },
  { label: 'NaN', raw: 'NaN' },
  { label: '101 characters', raw: 'A'.repeat(101) },
  { label: '3000 characters', raw: 'A'.repeat(3000) },
  { label: 'Bangla', raw: encodeURIComponent('ঢাকা') },
  { label: 'emoji', raw: encodeURIComponent('😀') },
  { label: 'quote', raw: encodeURIComponent("'") },
  { label: 'SQL', raw: encodeURIComponent("1' OR '1'='1") },
]
