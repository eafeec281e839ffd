/**
 * The printed table and BENCHMARKS.md. Each part's section sits between
 * markers with its figures as JSON, so a run of some parts keeps the other
 * parts' previous sections (and their dates) and the summary covers all.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { PARTS, root, type Figure, type PartName, type PartResult } from './lib.ts'

const FILE = path.join(root, 'BENCHMARKS.md')

const verdict = (f: Figure) => (f.pass === true ? 'pass' : f.pass === false ? 'FAIL' : '')

/** The console table of every figure of the parts that ran. */
export function printTable(results: PartResult[]): string {
  const rows: string[][] = [['part', 'figure', 'median', 'spread (min – max)', 'budget', '']]
  for (const r of results) {
    for (const f of r.figures) rows.push([r.part, f.name, f.value, f.spread, f.budget, verdict(f)])
    for (const e of r.errors) rows.push([r.part, `ERROR: ${e.split('\n')[0]!.slice(0, 110)}`, '', '', '', 'FAIL'])
  }
  const widths = rows[0]!.map((_, i) => Math.min(70, Math.max(...rows.map((r) => r[i]!.length))))
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()
  const out = [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)]
  const fails = results.flatMap((r) => [
    ...r.figures.filter((f) => f.pass === false).map((f) => `${r.part}: ${f.name} = ${f.value} (budget ${f.budget})`),
    ...r.errors.map((e) => `${r.part}: ${e.split('\n')[0]}`),
  ])
  out.push('')
  out.push(fails.length ? `FAIL — ${fails.length} budget(s) not met or not measured:\n  ${fails.join('\n  ')}` : 'All budgets met.')
  return out.join('\n')
}

/** The commit the measured tree is at (with "+ changes" when the tree differs from it). */
export function measuredCommit(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim()
    const head = git('rev-parse', '--short=12', 'HEAD')
    return git('status', '--porcelain', '--untracked-files=no') ? `${head} + uncommitted changes` : head
  } catch {
    return 'unknown (not a git checkout)'
  }
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')

interface Section {
  part: PartName
  date: string
  title: string
  figures: Figure[]
  body: string
}

function renderSection(r: PartResult, machine: string): Section {
  const lines = [
    `## ${r.title}`,
    '',
    `Measured ${r.date.replace('T', ' ').slice(0, 16)} UTC on ${machine}, at commit ${measuredCommit()}.`,
    '',
    '| figure | median | spread (min – max) | budget | result |',
    '|---|---|---|---|---|',
    ...r.figures.map(
      (f) => `| ${cell(f.name)} | ${cell(f.value)} | ${cell(f.spread)} | ${cell(f.budget)} | ${f.pass === false ? '**FAIL**' : verdict(f)} |`,
    ),
    ...r.errors.map((e) => `| **not measured**: ${cell(e.split('\n')[0]!)} | | | | **FAIL** |`),
    '',
    ...r.details,
  ]
  return { part: r.part, date: r.date, title: r.title, figures: r.figures, body: lines.join('\n').trimEnd() }
}

function readSections(text: string): Map<PartName, Section> {
  const map = new Map<PartName, Section>()
  const re = /<!-- bench:(\w+) (.*?) -->\n([\s\S]*?)\n<!-- \/bench:\1 -->/g
  for (const m of text.matchAll(re)) {
    const part = m[1] as PartName
    if (!PARTS.includes(part)) continue
    try {
      const meta = JSON.parse(m[2]!) as { date: string; title: string; figures: Figure[] }
      map.set(part, { part, date: meta.date, title: meta.title, figures: meta.figures, body: m[3]! })
    } catch {
      // a hand-edited marker: drop that section
    }
  }
  return map
}

/** Rewrites BENCHMARKS.md with the new sections, keeping the other parts' previous ones. */
export function writeBenchmarks(results: PartResult[], machine: string, totalMs: number): string {
  const old = fs.existsSync(FILE) ? readSections(fs.readFileSync(FILE, 'utf8')) : new Map<PartName, Section>()
  const ran = new Set(results.map((r) => r.part))
  for (const r of results) old.set(r.part, renderSection(r, machine))
  const sections = PARTS.map((p) => old.get(p)).filter((s): s is Section => !!s)
  const now = new Date().toISOString()
  const summary: string[] = []
  for (const s of sections) {
    for (const f of s.figures) {
      if (!f.budget) continue
      summary.push(
        `| ${s.title} | ${cell(f.name)} | ${cell(f.value)} | ${cell(f.spread)} | ${cell(f.budget)} | ${f.pass === false ? '**FAIL**' : verdict(f)} | ${s.date.slice(0, 10)}${ran.has(s.part) ? '' : ' (earlier run)'} |`,
      )
    }
  }
  const text = [
    '# Benchmarks',
    '',
    'What passengers on cheap Android phones and slow mobile networks feel, measured by `npm run bench`',
    '(`npm run bench -- bundle|lighthouse|seat|api|live|eid` runs some parts, `eid` only when named; the others keep their previous section and date).',
    'Medians over repeated runs with their spread: the machines are shared and noisy. Generated — do not edit by hand.',
    '',
    `Last run: ${now.replace('T', ' ').slice(0, 16)} UTC, parts: ${[...ran].join(', ')}, ${(totalMs / 1000).toFixed(0)} s.`,
    `Machine: ${machine}.`,
    '',
    '## Budgets',
    '',
    '| part | figure | median | spread (min – max) | budget | result | measured |',
    '|---|---|---|---|---|---|---|',
    ...summary,
    '',
    ...sections.flatMap((s) => [
      `<!-- bench:${s.part} ${JSON.stringify({ date: s.date, title: s.title, figures: s.figures }).replace(/>/g, '\\u003e')} -->`,
      s.body,
      `<!-- /bench:${s.part} -->`,
      '',
    ]),
  ].join('\n')
  fs.writeFileSync(FILE, text)
  return FILE
}
