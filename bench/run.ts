/**
 * `npm run bench [-- part...]`: builds the app, starts the real server on a
 * fresh embedded database with demo data, measures, prints a table and
 * rewrites BENCHMARKS.md. Parts: bundle, lighthouse, seat (interaction), api,
 * live (the live seat map), eid (the Eid advance sale at a crowd's scale);
 * none given = all but eid. Exits 0 even when a budget fails (it is a report; FAIL
 * rows say so); exits 2 on a bad argument.
 */
import { buildApp, type BenchBuild } from './build.ts'
import { runBundle } from './bundle.ts'
import {
  cleanup,
  DEFAULT_PARTS,
  freePort,
  machine,
  PARTS,
  startServer,
  tempDir,
  withTimeout,
  type BenchServer,
  type PartName,
  type PartResult,
} from './lib.ts'
import { printTable, writeBenchmarks } from './report.ts'

const TITLES: Record<PartName, string> = {
  bundle: 'Bundle',
  lighthouse: 'Page load on a slow phone (Lighthouse mobile)',
  seat: 'Interaction at 4x CPU throttling',
  api: 'API and server',
  live: 'Live seat map',
  eid: 'Eid advance sale (two processes on PostgreSQL)',
}

/**
 * Upper bound per part; a part past it is reported as not measured and the run goes on.
 * Lighthouse: 9 routes × 4 deployments × 5 runs of 6–16 s on the shared 2-core host; it starts
 * no run after 60 min (DEADLINE_MS in lighthouse.ts) and a run may take 100 s, retried once. Interaction:
 * seat toggles, 3 booking journeys of 30–60 s at 4x, then the search and home-form runs, none
 * started after 7 min (interaction.ts).
 */
const PART_LIMIT_MS: Record<PartName, number> = {
  bundle: 60_000,
  lighthouse: 3_900_000,
  seat: 600_000,
  api: 300_000,
  live: 420_000,
  eid: 3_600_000,
}

function failed(part: PartName, err: unknown): PartResult {
  const msg = err instanceof Error ? err.message : String(err)
  console.error(`\n[bench] ${part} failed: ${err instanceof Error && err.stack ? err.stack : msg}\n`)
  return { part, title: TITLES[part], date: new Date().toISOString(), figures: [], details: [], errors: [msg] }
}

function parseArgs(argv: string[]): PartName[] {
  const aliases: Record<string, PartName> = { interaction: 'seat', lh: 'lighthouse', size: 'bundle' }
  const parts: PartName[] = []
  for (const a of argv) {
    const p = (aliases[a] ?? a) as PartName
    if (!PARTS.includes(p)) {
      console.error(`unknown part "${a}". Usage: npm run bench [-- ${PARTS.join('|')} ...]`)
      process.exit(2)
    }
    if (!parts.includes(p)) parts.push(p)
  }
  return parts.length ? PARTS.filter((p) => parts.includes(p)) : [...DEFAULT_PARTS]
}

async function main(): Promise<void> {
  const parts = parseArgs(process.argv.slice(2))
  const started = performance.now()
  const mach = machine()
  const log = (s: string) => console.log(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${s}`)
  log(`parts: ${parts.join(', ')}; ${mach}`)
  const results: PartResult[] = []
  const run = async (part: PartName, fn: () => Promise<PartResult>) => {
    log(`${part}…`)
    try {
      results.push(await withTimeout(fn(), PART_LIMIT_MS[part], part))
    } catch (err) {
      results.push(failed(part, err))
    }
    log(`${part} done`)
  }

  try {
    let build: BenchBuild | null = null
    let buildError: unknown = null
    if (parts.some((p) => p !== 'api' && p !== 'live' && p !== 'eid')) {
      log('building the app (build.mjs)…')
      try {
        build = await buildApp()
        log(`built in ${(build.ms / 1000).toFixed(1)} s`)
      } catch (err) {
        buildError = err
        console.error('[bench] build failed:', err)
      }
    }
    if (parts.includes('bundle')) await run('bundle', async () => (build ? runBundle(build) : Promise.reject(buildError)))

    let server: BenchServer | null = null
    let cdnPort = 0
    let plainPort = 0
    const appServer = async () => {
      if (!server) {
        if (!build) throw buildError ?? new Error('the build failed')
        // the static-host origin Lighthouse loads the app from (bench/lighthouse.ts), which may call the API
        cdnPort = await freePort()
        plainPort = await freePort()
        const origins = `https://127.0.0.1:${cdnPort},http://127.0.0.1:${plainPort}`
        server = await startServer({ DATA_DIR: tempDir('app-data'), CORS_ORIGINS: origins }, { dist: build.outdir })
        log(`app server ${server.url} ready in ${(server.readyMs / 1000).toFixed(1)} s (fresh demo data)`)
      }
      return server
    }
    if (parts.includes('lighthouse')) {
      await run('lighthouse', async () => {
        const { runLighthouse } = await import('./lighthouse.ts')
        const { url } = await appServer()
        return runLighthouse({ base: url, dist: build!.outdir, cdnPort, plainPort }, log)
      })
    }
    if (parts.includes('seat')) {
      await run('seat', async () => {
        const { runInteraction } = await import('./interaction.ts')
        return runInteraction((await appServer()).url, log)
      })
    }
    if (server) await (server as BenchServer).stop()
    if (parts.includes('api')) {
      await run('api', async () => {
        const { runApi } = await import('./api.ts')
        return runApi(log)
      })
    }
    if (parts.includes('live')) {
      await run('live', async () => {
        const { runLive } = await import('./live.ts')
        return runLive(log)
      })
    }
    if (parts.includes('eid')) {
      await run('eid', async () => {
        const { runEid } = await import('./eid.ts')
        return runEid(log)
      })
    }
  } finally {
    await cleanup()
  }

  const totalMs = performance.now() - started
  console.log('\n' + printTable(results))
  const file = writeBenchmarks(results, mach, totalMs)
  console.log(`\nWrote ${file} (${(totalMs / 1000).toFixed(0)} s).`)
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    console.error(`\n[bench] ${sig}: stopping child processes`)
    void cleanup().finally(() => process.exit(130))
  })
}

main().then(
  () => process.exit(0),
  async (err) => {
    console.error('[bench] failed:', err)
    await cleanup()
    process.exit(1)
  },
)
