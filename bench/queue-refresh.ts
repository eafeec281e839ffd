/**
 * `node --import tsx bench/queue-refresh.ts [places]`: what the waiting room's once-a-second refresh
 * (server/queue/queue.ts refreshRush) costs PostgreSQL with a long queue (default 20,000 places),
 * on a throwaway PostgreSQL 15 with the demo data. Four steps, each refresh one simulated second
 * apart: the first after the places joined, then before the hour with nobody joining, before the
 * hour with EID-like joins (random draws), and after the hour admitting at 600 a minute with joins
 * in arrival order. Prints, per step, wall time and PostgreSQL CPU per refresh, and the rows of
 * queue_places updated (and how many of them in place, HOT). Not part of `npm run bench`.
 */
import { startPostgres } from '../harness/postgres.ts'
import { refreshRush } from '../server/queue/queue.ts'
import { markRushDate } from '../server/queue/rush-dates.ts'
import { openFixture, pickTrip } from '../harness/app-fixture.ts'
import { cpuSeconds, postmasterPid } from './eid.ts'

const PLACES = Number(process.argv[2] ?? 20_000)
const JOINS_A_SECOND = 333
const STEPS = 20

const pg = await startPostgres()
try {
  const url = await pg.createDatabase('refresh')
  const postmaster = postmasterPid(new URL(url).port)
  const t0 = new Date()
  const f = await openFixture({ databaseUrl: url, now: t0 })
  const trip = await pickTrip(f, { minHours: 48 })
  const key = { tripDate: trip.tripDate, originCode: trip.originCode, destinationCode: trip.destinationCode }
  const opensAt = new Date(t0.getTime() + 3_600_000)
  await markRushDate(f.db, { ...key, opensAt, admitPerMinute: 600, admitMinutes: 10 }, 'command')
  const [rush] = await f.db.query<{ id: number }>('SELECT id FROM rush_dates WHERE trip_date = $1 AND origin_code = $2 AND destination_code = $3', [
    key.tripDate,
    key.originCode,
    key.destinationCode,
  ])
  let seq = 0
  /** `n` places join at `at`: before the hour with a random draw, after it in arrival order (as joinQueue draws). */
  const joinMany = async (n: number, at: Date) => {
    const from = seq
    seq += n
    await f.db.query(
      "INSERT INTO queue_devices (token_hash, address, issued_at) SELECT 'bulk-' || i, 'bulk', $3 FROM generate_series($1::int + 1, $2::int) i",
      [from, seq, at],
    )
    await f.db.query(
      `INSERT INTO queue_places (rush_id, token_hash, joined_at, draw)
       SELECT $1, 'bulk-' || i, $4, CASE WHEN $4::timestamptz < $5::timestamptz THEN random() ELSE 1 + extract(epoch FROM $4::timestamptz - $5::timestamptz)::double precision END
         FROM generate_series($2::int + 1, $3::int) i`,
      [rush!.id, from, seq, at, opensAt],
    )
  }
  const updates = async () => {
    const [s] = await f.db.query<{ upd: number; hot: number }>(
      "SELECT n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables WHERE relname = 'queue_places'",
    )
    return s!
  }
  /** Each place's rank (none before migration 063: the old code keeps none). */
  const ranks = async () => {
    try {
      const rows = await f.db.query<{ id: string; rank: number | null }>('SELECT id::text, rank FROM queue_places WHERE rush_id = $1', [rush!.id])
      return new Map(rows.map((r) => [r.id, r.rank]))
    } catch {
      return null
    }
  }
  let clock = new Date(t0.getTime() + 1000)
  const step = async (name: string, steps: number, before: (k: number) => Promise<void>) => {
    let wall = 0
    let cpu = 0
    let rewritten = 0
    for (let k = 0; k < steps; k++) {
      await before(k)
      const r0 = await ranks()
      clock = new Date(clock.getTime() + 1000)
      const c0 = cpuSeconds(postmaster, true)
      const w0 = performance.now()
      await refreshRush(f.deps, rush!.id, clock)
      wall += performance.now() - w0
      cpu += cpuSeconds(postmaster, true) - c0
      const r1 = await ranks()
      if (r0 && r1) for (const [id, rank] of r1) if (r0.get(id) !== rank) rewritten++
    }
    const [r] = await f.db.query<{ waiting: number }>('SELECT waiting FROM rush_dates WHERE id = $1', [rush!.id])
    console.log(
      `${name}: ${steps} refreshes, ${(wall / steps).toFixed(1)} ms wall and ${((cpu * 1000) / steps).toFixed(1)} ms PostgreSQL CPU each, ${Math.round(rewritten / steps)} ranks written each; ${r!.waiting} waiting after`,
    )
  }
  await joinMany(PLACES, t0)
  console.log(`${PLACES} places in a pre-queue; PostgreSQL ${url.replace(/\/\/.*@/, '//')}`)
  await step('first refresh after they joined', 1, async () => {})
  await step('before the hour, nobody joining', STEPS, async () => {})
  await step(`before the hour, ${JOINS_A_SECOND} joining a second (random draws)`, STEPS, () =>
    joinMany(JOINS_A_SECOND, new Date(clock.getTime() + 500)),
  )
  clock = opensAt
  await step(`after the hour, admitting 10 and ${JOINS_A_SECOND} joining a second`, STEPS, () =>
    joinMany(JOINS_A_SECOND, new Date(clock.getTime() + 500)),
  )
  // a poll's statement for the place at the back (its place known from the rank, or counted), and for one joined since the last refresh
  f.setNow(new Date(clock.getTime() + 200))
  const joined = (await f.api('POST', '/api/queue', { ...key, token: null, join: true })).body.data
  let statusSql = ''
  let statusParams: unknown[] = []
  const query = f.db.query.bind(f.db)
  f.db.query = ((sql: string, params?: unknown[]) => {
    if (/FROM rush_dates r/.test(sql)) [statusSql, statusParams] = [sql, params ?? []]
    return query(sql, params)
  }) as typeof f.db.query
  await f.api('POST', '/api/queue', { ...key, token: joined.token })
  f.db.query = query
  const timed = async (name: string, hash: string) => {
    const plan: number[] = []
    const run: number[] = []
    for (let k = 0; k < 100; k++) {
      // the poll's own parameters, another place's token
      const params = statusParams.map((v, i) => (i === 4 ? hash : v))
      const [row] = await f.db.query<Record<string, unknown>>(`EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${statusSql}`, params)
      const raw = Object.values(row!)[0]
      const [x] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { 'Planning Time': number; 'Execution Time': number }[]
      plan.push(x!['Planning Time'])
      run.push(x!['Execution Time'])
    }
    const med = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!.toFixed(3)
    console.log(
      `a poll's statement, ${name}: planning ${med(plan)} ms, execution ${med(run)} ms (medians of 100, EXPLAIN ANALYZE without per-node timing)`,
    )
  }
  await timed(`the last of the ${seq} places`, `bulk-${seq}`)
  const { createHash } = await import('node:crypto')
  await timed('a place joined since the last refresh', createHash('sha256').update(joined.token).digest('hex'))
  // the statistics collector is told at the end of an idle backend's interval
  await new Promise((r) => setTimeout(r, 11_000))
  const u = await updates()
  console.log(`queue_places rows updated in all: ${u.upd}, of them in place (HOT): ${u.hot}`)
  await f.close()
} finally {
  await pg.stop()
}
