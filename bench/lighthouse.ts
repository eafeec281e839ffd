/**
 * Part 2, page load on a slow phone: Lighthouse 12 in its default mobile mode
 * (emulated Moto G Power, simulated slow 4G and 4x CPU) with Debian Chromium,
 * on `/`, a `/search?…` URL and a `/reservation?…` URL of demo data; median of
 * 3 runs each, runs interleaved so machine noise spreads over all URLs.
 */
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromiumArgs, chromiumPath } from '../e2e/browser.ts'
import {
  dhakaDate,
  doubleDeckTrip,
  fig,
  int,
  kb,
  median,
  ms,
  num,
  onCleanup,
  reservationPath,
  searchPath,
  withTimeout,
  type Figure,
  type PartResult,
} from './lib.ts'

const RUNS = 3
const RUN_LIMIT_MS = 100_000
const DEADLINE_MS = 300_000
const CHROME_FLAGS = ['--headless=new', ...chromiumArgs]

interface Target {
  label: string
  path: string
  /** Performance score budget (0–100), when the route has one. */
  perfMin?: number
}

interface Sample {
  perf: number
  a11y: number
  bp: number
  fcp: number
  lcp: number
  tbt: number
  cls: number
  bytes: number
  /** `id: title` of failing accessibility / best-practices audits, with details. */
  failing: string[]
  /** Failed requests (HTTP ≥ 400) seen by Lighthouse. */
  badRequests: string[]
  /** Host CPU speed Lighthouse measured (higher is faster; ~1000+ on a quiet desktop). */
  benchmarkIndex: number
  /** Why the performance score is what it is: LCP element, shifting elements, main costs. */
  perfNotes: string[]
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr']

const short = (s: string, n = 140) => (s.length > n ? s.slice(0, n - 1) + '…' : s).replace(/\s+/g, ' ')

/** Failing audits of a category, with the first items of their details (console errors, nodes). */
function failingAudits(lhr: Lhr, category: string): string[] {
  const out: string[] = []
  for (const ref of lhr.categories[category]?.auditRefs ?? []) {
    const a = lhr.audits[ref.id]
    if (!a || a.score === null || a.score >= 1) continue
    if (!['binary', 'numeric', 'metricSavings'].includes(a.scoreDisplayMode)) continue
    const items = ((a.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? []).slice(0, 3).map((it) => {
      const node = it.node as { snippet?: string; explanation?: string } | undefined
      const src = it.source ?? it.url ?? it.scriptUrl ?? ''
      const text = it.description ?? node?.explanation ?? node?.snippet ?? it.error ?? ''
      return short(
        `${node?.snippet && text !== node.snippet ? node.snippet + ' ' : ''}${typeof src === 'string' && src ? src + ': ' : ''}${String(text)}`,
      )
    })
    out.push(`${category}/${ref.id} (${a.title})${items.length ? ': ' + items.join(' · ') : ''}`)
  }
  return out
}

/** Node snippets found anywhere inside an audit's details. */
function snippets(details: unknown, n = 3): string[] {
  const out: string[] = []
  const walk = (v: unknown) => {
    if (out.length >= n || !v || typeof v !== 'object') return
    const o = v as Record<string, unknown>
    if (o.type === 'node' && typeof o.snippet === 'string') {
      out.push(short(o.snippet, 100))
      return
    }
    for (const x of Object.values(o)) walk(x)
  }
  walk(details)
  return out
}

function perfNotesOf(lhr: Lhr): string[] {
  const notes: string[] = []
  const a = lhr.audits
  const lcpEl = snippets(a['largest-contentful-paint-element']?.details, 1)
  if (lcpEl.length) notes.push(`LCP element ${lcpEl[0]}`)
  const shifts = ((a['layout-shifts']?.details as { items?: { node?: unknown; score?: number }[] } | undefined)?.items ?? []).slice(0, 3)
  if (shifts.length) {
    notes.push(`layout shifts: ${shifts.map((x) => `${snippets(x.node, 1)[0] ?? '(unknown)'} ${(x.score ?? 0).toFixed(3)}`).join('; ')}`)
  }
  const boot = ((a['bootup-time']?.details as { items?: { url: string; total: number; scripting: number }[] } | undefined)?.items ?? []).slice(0, 3)
  if (boot.length) notes.push(`script time: ${boot.map((x) => `${x.url.replace(/^https?:\/\/[^/]+/, '')} ${Math.round(x.total)} ms`).join(', ')}`)
  const rb = ((a['render-blocking-resources']?.details as { items?: { url: string; wastedMs: number }[] } | undefined)?.items ?? []).slice(0, 3)
  if (rb.length) notes.push(`render-blocking: ${rb.map((x) => `${x.url.replace(/^https?:\/\/[^/]+/, '')} ${Math.round(x.wastedMs)} ms`).join(', ')}`)
  for (const id of ['server-response-time', 'network-rtt', 'mainthread-work-breakdown']) {
    const x = a[id]
    if (x?.displayValue) notes.push(`${id} ${x.displayValue}`)
  }
  return notes
}

function sampleOf(lhr: Lhr): Sample {
  const num = (id: string) => Number(lhr.audits[id]?.numericValue ?? NaN)
  const score = (c: string) => (lhr.categories[c]?.score ?? NaN) * 100
  const requests = ((lhr.audits['network-requests']?.details as { items?: { url: string; statusCode: number }[] } | undefined)?.items ?? [])
    .filter((r) => r.statusCode >= 400)
    .map((r) => `${r.statusCode} ${r.url}`)
  return {
    perf: score('performance'),
    a11y: score('accessibility'),
    bp: score('best-practices'),
    fcp: num('first-contentful-paint'),
    lcp: num('largest-contentful-paint'),
    tbt: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    bytes: num('total-byte-weight'),
    failing: [...failingAudits(lhr, 'accessibility'), ...failingAudits(lhr, 'best-practices')],
    badRequests: requests,
    benchmarkIndex: Number(lhr.environment?.benchmarkIndex ?? NaN),
    perfNotes: perfNotesOf(lhr),
  }
}

/** Chromium for Lighthouse, relaunched when it dies. */
class Chrome {
  private chrome: chromeLauncher.LaunchedChrome | null = null
  private readonly unregister = onCleanup(() => this.close())
  async port(): Promise<number> {
    if (!this.chrome) {
      this.chrome = await chromeLauncher.launch({ chromePath: chromiumPath(), chromeFlags: CHROME_FLAGS, logLevel: 'silent' })
    }
    return this.chrome.port
  }
  close(): void {
    try {
      this.chrome?.kill()
    } catch {
      // already gone
    }
    this.chrome = null
  }
  dispose(): void {
    this.close()
    this.unregister()
  }
}

async function runOnce(chrome: Chrome, url: string): Promise<Sample> {
  const port = await chrome.port()
  const result = await withTimeout(
    lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'] }),
    RUN_LIMIT_MS,
    `Lighthouse ${url}`,
  ).catch((err) => {
    // a hung run leaves Chromium in an unknown state: start a new one
    chrome.close()
    throw err
  })
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`)
  if (result.lhr.runtimeError) throw new Error(`Lighthouse ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`)
  return sampleOf(result.lhr)
}

export async function runLighthouse(base: string, log: (s: string) => void): Promise<PartResult> {
  const date = new Date().toISOString()
  const { trip, doubleDeck } = await doubleDeckTrip(base)
  const targets: Target[] = [
    { label: '/', path: '/', perfMin: 95 },
    { label: '/search', path: searchPath('DHK', 'CTG', dhakaDate(1)), perfMin: 95 },
    { label: '/reservation', path: reservationPath(trip) },
  ]
  const samples = new Map<string, Sample[]>(targets.map((t) => [t.label, []]))
  const errors: string[] = []
  const lastError = new Map<string, string>()
  // stop starting runs after this, so a slow machine still gets a report
  const deadline = Date.now() + DEADLINE_MS
  const chrome = new Chrome()
  try {
    for (let round = 0; round < RUNS; round++) {
      for (const t of targets) {
        if (Date.now() > deadline) {
          log(`lighthouse: time limit reached, skipping ${t.label} run ${round + 1}`)
          continue
        }
        const t0 = performance.now()
        let s: Sample | null = null
        // one retry: Lighthouse sometimes loses the trace (NO_NAVSTART) on a busy machine
        for (let attempt = 0; attempt < 2 && !s; attempt++) {
          try {
            s = await runOnce(chrome, base + t.path)
            // dist/ rewritten by a concurrent build during the run: measure again
            if (s.badRequests.some((r) => r.includes('/assets/')) && attempt === 0) {
              log(`lighthouse ${t.label}: asset requests failed (${s.badRequests[0]}), running again`)
              s = null
            }
          } catch (err) {
            const msg = (err as Error).message
            log(`lighthouse ${t.label} run ${round + 1} attempt ${attempt + 1} failed: ${msg}`)
            lastError.set(t.label, msg)
          }
        }
        if (s) {
          samples.get(t.label)!.push(s)
          log(
            `lighthouse ${t.label} run ${round + 1}: perf ${s.perf.toFixed(0)}, LCP ${ms(s.lcp)}, TBT ${ms(s.tbt)}, CLS ${s.cls.toFixed(3)} (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
          )
        }
      }
    }
  } finally {
    chrome.dispose()
  }

  const figures: Figure[] = []
  const details: string[] = [
    `Lighthouse 12, default mobile config (simulated throttling: slow 4G, 4x CPU slowdown, Moto G Power screen), Chromium \`${CHROME_FLAGS.join(' ')}\`; median of ${RUNS} runs per URL, interleaved.`,
    '',
    'URLs (demo data, tomorrow in Asia/Dhaka):',
    '',
    ...targets.map((t) => `- ${t.label}: \`${t.path}\``),
    `- The /reservation URL is the one the search results link to (\`tripId\`, \`from\`, \`to\`, \`date\`), for tomorrow's DHK→CTG ${doubleDeck ? 'double-deck sleeper' : 'largest (no double-deck found)'} trip ${trip.coachCode}; the page loads the trip from the URL, so no in-app state is needed. Each run starts with empty storage (a new visitor).`,
    '',
  ]
  for (const t of targets) {
    const s = samples.get(t.label)!
    if (!s.length) {
      errors.push(`${t.label}: no Lighthouse run succeeded (${lastError.get(t.label) ?? 'unknown error'})`)
      continue
    }
    type Metric = 'perf' | 'a11y' | 'bp' | 'fcp' | 'lcp' | 'tbt' | 'cls' | 'bytes' | 'benchmarkIndex'
    const pick = (k: Metric) => s.map((x) => x[k])
    const m = (k: Metric) => median(pick(k))
    const pre = `${t.label} `
    figures.push(fig(`${pre}performance score`, m('perf'), int, { samples: pick('perf'), ...(t.perfMin ? { min: t.perfMin } : {}) }))
    figures.push(fig(`${pre}FCP`, m('fcp'), ms, { samples: pick('fcp') }))
    figures.push(fig(`${pre}LCP`, m('lcp'), ms, { samples: pick('lcp') }))
    figures.push(fig(`${pre}TBT`, m('tbt'), ms, { samples: pick('tbt') }))
    // "CLS 0" as Lighthouse shows it (3 decimals)
    const cls = m('cls')
    figures.push({ ...fig(`${pre}CLS`, cls, num(3), { samples: pick('cls'), max: 0.0005, budget: '= 0' }) })
    figures.push(fig(`${pre}bytes transferred`, m('bytes'), kb, { samples: pick('bytes') }))
    figures.push(fig(`${pre}accessibility score`, m('a11y'), int, { samples: pick('a11y'), exact: 100 }))
    figures.push(fig(`${pre}best-practices score`, m('bp'), int, { samples: pick('bp'), exact: 100 }))
    // failing audits, with how many runs flagged each
    const counts = new Map<string, number>()
    for (const x of s) for (const f of new Set(x.failing)) counts.set(f, (counts.get(f) ?? 0) + 1)
    const bad = new Set(s.flatMap((x) => x.badRequests))
    details.push(`Failing accessibility / best-practices audits on ${t.label}: ${counts.size ? '' : 'none.'}`)
    if (counts.size) details.push('', ...[...counts.entries()].map(([f, n]) => `- ${f} (${n}/${s.length} runs)`))
    if (bad.size) details.push('', `Failed requests on ${t.label}: ${[...bad].slice(0, 5).join(', ')}`)
    // the median-performance run's diagnostics
    const mid = [...s].sort((a, b) => a.perf - b.perf)[s.length >> 1]!
    details.push(
      '',
      `Performance diagnostics on ${t.label} (median run, host benchmarkIndex ${int(mid.benchmarkIndex)}): ${mid.perfNotes.join('; ') || 'none'}.`,
    )
    details.push('')
  }
  const bi = [...samples.values()].flat().map((x) => x.benchmarkIndex)
  figures.push(fig('host CPU benchmarkIndex (Lighthouse; higher = faster)', median(bi), int, { samples: bi }))
  details.push(
    'Lighthouse simulates the slow phone from what it observes on this machine: on a loaded shared host (low benchmarkIndex) the ' +
      'simulated CPU work (TBT, LCP) grows and the performance score drops; compare runs by benchmarkIndex.',
  )
  return { part: 'lighthouse', title: 'Page load on a slow phone (Lighthouse mobile)', date, figures, details, errors }
}
