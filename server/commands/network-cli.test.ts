/** `npm run import` and production starts: a bad file changes nothing, a busy folder is named, production serves only what was imported and never the demo passenger. */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { buildApp } from '../app.ts'
import { openDb, type Db } from '../db/db.ts'
import { createDeps } from '../deps.ts'
import { migrate } from '../db/migrate.ts'
import { seed } from '../seed/index.ts'
import { DEMO_PASSENGER } from '../seed/passengers.ts'
import { SEED_PASSENGER } from '../seed/demo-sales.ts'
import { addDays, dhakaDate } from '../lib/time.ts'
import { onPostgres, startPostgres } from '../test/pg.ts'
import { call, startServer } from '../../harness/spawn-server.ts'
import { startTestApp, tempDir } from '../test/helpers.ts'
import { TEST_SIGNING_KEY } from '../test/signing-key.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const demoFile = path.join(root, 'data/demo-network.json')

/** Runs `npm run import -- <file>` with the given database settings. */
function runImport(file: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'import', '--', file], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }))
  })
}

async function tableRows(db: Db): Promise<string> {
  const tables = await db.query<{ t: string }>(
    "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
  )
  const out: unknown[] = []
  for (const { t } of tables)
    out.push(t, await db.query(`SELECT coalesce(jsonb_agg(to_jsonb(x) ORDER BY to_jsonb(x)::text), '[]'::jsonb) AS rows FROM ${t} x`))
  return JSON.stringify(out)
}

/** Every setting a production start needs, with dummy values. */
const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://tickets.example.com',
  PAYMENT_PROVIDER: 'sslcommerz',
  SSLCOMMERZ_STORE_ID: 'store',
  SSLCOMMERZ_STORE_PASSWORD: 'secret',
  SSLCOMMERZ_API_URL: 'https://sandbox.sslcommerz.example',
  SMTP_URL: 'smtp://user:pass@127.0.0.1:2525',
  MAIL_FROM: 'tickets@example.com',
  SMS_API_URL: 'https://sms.example/api',
  SMS_API_TOKEN: 'token',
  TICKET_SIGNING_KEY: TEST_SIGNING_KEY,
}

const demoLogin = { mobile: DEMO_PASSENGER.mobile, password: DEMO_PASSENGER.password }

test('a bad file: every error by path, exit status 1, the database unchanged', async () => {
  const dir = tempDir()
  const good = await runImport(demoFile, { DATA_DIR: dir })
  assert.is(good.code, 0, good.stderr)
  let db = await openDb({ dataDir: dir, databaseUrl: '' })
  const before = await tableRows(db)
  await db.close()

  const bad = JSON.parse(fs.readFileSync(demoFile, 'utf8'))
  bad.timetable[0].fares = {}
  bad.timetable[4].layout = 'NIGHT'
  bad.timetable[7].weekdays = ['FRIDAY']
  bad.company.email = 'support-at-example'
  bad.cities[2].counters = []
  bad.routes[0].saleOpens = { daysBefore: 10, at: '8 am' }
  bad.timetable[1].saleOpens = { daysBefore: 0, at: '09:30' }
  const file = path.join(tempDir(), 'bad-network.json')
  fs.writeFileSync(file, JSON.stringify(bad))
  const r = await runImport(file, { DATA_DIR: dir })
  assert.is(r.code, 1)
  for (const line of [
    `${file}: 7 error(s); nothing was imported.`,
    '  timetable[0].fares: missing fare for seat type Standard',
    '  timetable[4].layout: unknown layout NIGHT (not in layouts)',
    '  timetable[7].weekdays[0]: Invalid option: expected one of "MON"|"TUE"|"WED"|"THU"|"FRI"|"SAT"|"SUN"',
    '  company.email: Invalid email address',
    '  cities[2].counters: Too small: expected array to have >=1 items',
    '  routes[0].saleOpens.at: must be a time HH:MM (00:00-23:59)',
    '  timetable[1].saleOpens.at: must open before the coach departs at 09:00 on the travel day (daysBefore 0), not at 09:30',
  ]) {
    assert.ok(r.stderr.includes(line), `missing "${line}" in:\n${r.stderr}`)
  }
  assert.not.ok(r.stdout.includes('Imported'))
  db = await openDb({ dataDir: dir, databaseUrl: '' })
  try {
    assert.is(await tableRows(db), before)
  } finally {
    await db.close()
  }
  const missing = await runImport(path.join(dir, 'nope.json'), { DATA_DIR: dir })
  assert.is(missing.code, 1)
  assert.match(missing.stderr, /Cannot read .*nope\.json/)
})

test('production start: no demo passenger, no network; the import is refused while it runs, then served after a restart', async () => {
  const dir = tempDir()
  let server = await startServer({ ...PRODUCTION, DATA_DIR: dir })
  try {
    const login = await call(server.url, 'POST', '/api/checkPassenger', demoLogin)
    assert.is(login.body.error?.code, 'BAD_CREDENTIALS')
    assert.equal((await call(server.url, 'GET', '/api/originCities')).body.data, [])
    assert.equal((await call(server.url, 'GET', '/api/routes')).body.data, [])
    assert.equal((await call(server.url, 'GET', '/api/offers')).body.data, [])

    const busy = await runImport(demoFile, { DATA_DIR: dir })
    assert.is(busy.code, 1)
    assert.match(busy.stderr, /is in use by another server process \(pid \d+\)/)
    assert.match(busy.stderr, /Nothing was imported\./)
  } finally {
    await server.kill()
  }

  const imported = await runImport(demoFile, { DATA_DIR: dir })
  assert.is(imported.code, 0, imported.stderr)
  assert.match(imported.stdout, /Imported .*demo-network\.json into PGlite/)
  assert.match(imported.stdout, /timetable +146 added/)
  assert.match(imported.stdout, /The network was updated\./)

  server = await startServer({ ...PRODUCTION, DATA_DIR: dir })
  try {
    assert.is((await call(server.url, 'GET', '/api/originCities')).body.data.length, 14)
    const tomorrow = addDays(dhakaDate(), 1)
    const trips = await call(server.url, 'POST', '/api/reservation/tripSearch', { originCode: 'DHK', destinationCode: 'CTG', tripDate: tomorrow })
    assert.equal(
      trips.body.data.map((t: { coachCode: string }) => t.coachCode),
      ['101-DHK-CTG', '102-DHK-CTG', '103-DHK-CTG', '104-DHK-CTG', '105-DHK-CTG'],
    )
    // no demo sales in production: every seat is free
    assert.ok(trips.body.data.every((t: { availableSeats: number; totalSeats: number }) => t.availableSeats === t.totalSeats))
    const login = await call(server.url, 'POST', '/api/checkPassenger', demoLogin)
    assert.is(login.body.error?.code, 'BAD_CREDENTIALS')
  } finally {
    await server.kill()
  }
  const db = await openDb({ dataDir: dir, databaseUrl: '' })
  try {
    assert.equal(await db.query('SELECT mobile FROM passengers'), [])
    assert.equal(await db.query('SELECT id FROM reservations'), [])
  } finally {
    await db.close()
  }
})

test('production through the start-up seeding: nothing demo on an empty database; a database a development start seeded loses its demo passenger and demo sales', async () => {
  const prod = await startTestApp({ production: true })
  try {
    const login = await prod.call('POST', '/api/checkPassenger', { body: demoLogin })
    assert.is(login.body.error.code, 'BAD_CREDENTIALS')
    assert.equal((await prod.call('GET', '/api/originCities')).body.data, [])
    assert.equal(await prod.db.query('SELECT count(*)::int AS n FROM trips'), [{ n: 0 }])
    assert.equal(await prod.db.query('SELECT count(*)::int AS n FROM passengers'), [{ n: 0 }])
  } finally {
    await prod.close()
  }

  const db = await openDb({ dataDir: tempDir(), databaseUrl: '' })
  try {
    const dev = createDeps(db, { production: false })
    await migrate(db, (tx) => seed(tx, dev, { daysAhead: 3 }))
    const demoSales = `SELECT count(*)::int AS n FROM reservations x JOIN passengers p ON p.id = x.passenger_id JOIN trips t ON t.id = x.trip_id
                        WHERE p.mobile = '${SEED_PASSENGER.mobile}' AND t.departure_at > $1`
    const [sales] = await db.query<{ n: number }>(demoSales, [new Date()])
    assert.ok(sales!.n > 0)
    const devApp = await buildApp(dev, { logLevel: false, distDir: path.join(tempDir(), 'no-dist') })
    const session = await devApp.inject({ method: 'POST', url: '/api/checkPassenger', payload: demoLogin })
    assert.is(session.statusCode, 200)
    const { token, passenger } = session.json().data as { token: string; passenger: { id: number } }
    await devApp.close()

    const prodDeps = createDeps(db, { config: { production: true } })
    await migrate(db, (tx) => seed(tx, prodDeps, { daysAhead: 3 }))
    const app = await buildApp(prodDeps, { logLevel: false, distDir: path.join(tempDir(), 'no-dist') })
    try {
      const login = await app.inject({ method: 'POST', url: '/api/checkPassenger', payload: demoLogin })
      assert.is(login.json().error.code, 'BAD_CREDENTIALS')
      const profile = await app.inject({ method: 'GET', url: `/api/profile/${passenger.id}`, headers: { authorization: `Bearer ${token}` } })
      assert.is(profile.statusCode, 401)
      assert.equal(await db.query(demoSales, [new Date()]), [{ n: 0 }])
      // the imported network stays: production serves what is there
      assert.is((await app.inject({ method: 'GET', url: '/api/originCities' })).json().data.length, 14)
    } finally {
      await app.close()
    }
  } finally {
    await db.close()
  }
})

onPostgres(test, 'network import')('PostgreSQL: npm run import with DATABASE_URL, twice: the second changes nothing', async () => {
  const pg = await startPostgres()
  try {
    const url = await pg.createDatabase('network_import')
    const first = await runImport(demoFile, { DATABASE_URL: url })
    assert.is(first.code, 0, first.stderr)
    assert.match(first.stdout, /into PostgreSQL/)
    const second = await runImport(demoFile, { DATABASE_URL: url })
    assert.is(second.code, 0, second.stderr)
    assert.match(second.stdout, /timetable +146 unchanged/)
    assert.match(second.stdout, /Nothing changed\./)
    const db = await openDb({ databaseUrl: url })
    try {
      assert.equal(await db.query('SELECT source FROM network_imports ORDER BY id'), [
        { source: 'demo-network.json' },
        { source: 'demo-network.json' },
      ])
    } finally {
      await db.close()
    }
  } finally {
    await pg.stop()
  }
})

test.run()
