/** The network file's rushDates (checked with path and reason, imported beside the command's) and `npm run trip -- rush`. */
import fs from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openDb, type Db } from '../db/db.ts'
import { migrate } from '../db/migrate.ts'
import { importNetwork } from './import.ts'
import { validateNetworkText, type Network } from './schema.ts'
import { DEMO_NETWORK_FILE } from '../seed/demo-network.ts'
import { tempDir } from '../test/helpers.ts'
import { parseRushCommand, runRushCommand } from '../commands/rush-command.ts'
import { listRushDates } from '../queue/rush-dates.ts'

const demoText = fs.readFileSync(DEMO_NETWORK_FILE, 'utf8')

function withRush(rushDates: unknown[]): ReturnType<typeof validateNetworkText> {
  return validateNetworkText(JSON.stringify({ ...JSON.parse(demoText), rushDates }))
}

test('rushDates: each bad entry is refused with its path and reason; a file without them is valid', () => {
  assert.ok(validateNetworkText(demoText).ok)
  const v = withRush([
    { date: '2026-03-20', from: 'DHK', to: 'CTG', opensAt: '2026-03-10T08:00:00+06:00', admitPerMinute: 100 },
    { date: '2026-03-20', from: 'DHK', to: 'CTG', opensAt: '2026-03-10T08:00:00+06:00' },
    { date: '2026-02-30', from: 'DHK', to: 'XYZ', opensAt: '08:00' },
    { date: '2026-03-21', from: 'DHK', to: 'CTG', opensAt: '2026-03-22T00:00:00+06:00', admitPerMinute: 0 },
    { date: '2026-03-22', from: 'DHK', to: 'CTG', opensAt: '2026-03-21T08:00:00+06:00', colour: 'red' },
  ])
  assert.not.ok(v.ok)
  const errors = v.ok ? [] : v.errors
  for (const e of [
    'rushDates[1]: DHK-CTG on 2026-03-20 is also rushDates[0]',
    'rushDates[2].date: is not a calendar date',
    'rushDates[2].opensAt: must be a date and time with its offset, e.g. 2026-03-20T08:00:00+06:00',
    'rushDates[2]: no route from DHK to XYZ in routes',
    'rushDates[3].admitPerMinute: Too small: expected number to be >=1',
    'rushDates[3].opensAt: 2026-03-22T00:00:00+06:00 is after the travel date 2026-03-21 has ended',
  ])
    assert.ok(errors.includes(e), `${e}\nnot in\n${errors.join('\n')}`)
  assert.ok(
    errors.some((e) => e.startsWith('rushDates[4]') && e.includes('colour')),
    errors.join('\n'),
  )
})

test('import keeps the file’s rush dates, and leaves the ones the command marked; the command marks, lists and unmarks', async () => {
  const db: Db = await openDb({ dataDir: tempDir(), databaseUrl: '' })
  try {
    await migrate(db)
    const now = new Date('2026-03-01T00:00:00Z')
    const load = (net: Network) => db.transaction((tx) => importNetwork(tx, net, { now, daysAhead: 3 }))
    const entry = { date: '2026-03-20', from: 'DHK', to: 'CTG', opensAt: '2026-03-10T08:00:00+06:00' }
    const first = withRush([entry])
    if (!first.ok) throw new Error(first.errors.join('\n'))
    assert.equal((await load(first.network)).rushDates, { added: 1, changed: 0, removed: 0, unchanged: 0 })
    assert.equal((await load(first.network)).rushDates, { added: 0, changed: 0, removed: 0, unchanged: 1 })

    const cmd = parseRushCommand(['mark', '2026-03-21', 'DHK-CTG', '--opens', '2026-03-11T08:00:00+06:00', '--rate', '30'], 'usage')
    assert.type(cmd, 'object')
    assert.is(await runRushCommand(db, cmd as Exclude<typeof cmd, string>), 0)
    const noRoute = parseRushCommand(['mark', '2026-03-21', 'DHK-ZZZ', '--opens', '2026-03-11T08:00:00+06:00'], 'usage')
    assert.is(await runRushCommand(db, noRoute as Exclude<typeof noRoute, string>), 1)
    assert.match(parseRushCommand(['mark', '2026-03-21', 'DHK-CTG', '--opens', '8am'], 'usage') as string, '--opens takes a date and time')
    assert.match(
      parseRushCommand(['mark', '2026-03-21', 'DHK-CTG', '--opens', '2026-03-11T08:00:00+06:00', '--rate', '0'], 'usage') as string,
      '--rate takes',
    )

    const second = withRush([{ ...entry, admitPerMinute: 40 }])
    if (!second.ok) throw new Error(second.errors.join('\n'))
    assert.equal((await load(second.network)).rushDates, { added: 0, changed: 1, removed: 0, unchanged: 0 })
    // a rate from the seats left: "auto" in the file, --rate auto in the command
    const auto = withRush([{ ...entry, admitPerMinute: 'auto' }])
    if (!auto.ok) throw new Error(auto.errors.join('\n'))
    assert.equal((await load(auto.network)).rushDates, { added: 0, changed: 1, removed: 0, unchanged: 0 })
    assert.equal((await load(auto.network)).rushDates, { added: 0, changed: 0, removed: 0, unchanged: 1 })
    assert.is((await listRushDates(db)).find((r) => r.source === 'network')?.admitPerMinute, 'auto')
    assert.equal(parseRushCommand(['mark', '2026-03-22', 'DHK-CTG', '--opens', '2026-03-11T08:00:00+06:00', '--rate', 'auto'], 'usage'), {
      kind: 'rush-mark',
      rush: {
        tripDate: '2026-03-22',
        originCode: 'DHK',
        destinationCode: 'CTG',
        opensAt: new Date('2026-03-11T08:00:00+06:00'),
        admitPerMinute: 'auto',
        admitMinutes: null,
      },
    })
    const none = validateNetworkText(demoText)
    if (!none.ok) throw new Error(none.errors.join('\n'))
    assert.equal((await load(none.network)).rushDates, { added: 0, changed: 0, removed: 1, unchanged: 0 })
    const left = await listRushDates(db)
    assert.equal(
      left.map((r) => [r.tripDate, r.source, r.admitPerMinute]),
      [['2026-03-21', 'command', 30]],
      'the import removed its own, not the command’s',
    )
    const unmark = parseRushCommand(['unmark', '2026-03-21', 'DHK-CTG'], 'usage')
    assert.is(await runRushCommand(db, unmark as Exclude<typeof unmark, string>), 0)
    assert.equal(await listRushDates(db), [])
  } finally {
    await db.close()
  }
})

test("a rush date without an opening instant opens at its trips' sale hour; the command refuses one whose trips have none", async () => {
  const db: Db = await openDb({ dataDir: tempDir(), databaseUrl: '' })
  try {
    await migrate(db)
    const now = new Date('2026-03-01T00:00:00Z')
    const demo = JSON.parse(demoText) as { routes: { from: string; to: string }[] }
    const routes = demo.routes.map((r) => (r.from === 'DHK' && r.to === 'CTG' ? { ...r, saleOpens: { daysBefore: 10, at: '08:00' } } : r))
    const v = validateNetworkText(JSON.stringify({ ...demo, routes, rushDates: [{ date: '2026-03-03', from: 'DHK', to: 'CTG' }] }))
    if (!v.ok) throw new Error(v.errors.join('\n'))
    await db.transaction((tx) => importNetwork(tx, v.network, { now, daysAhead: 3 }))
    const [rush] = await listRushDates(db)
    assert.is(rush?.opensAt.toISOString(), '2026-02-21T02:00:00.000Z', '08:00 in Dhaka, 10 days before')

    const always = parseRushCommand(['mark', '2026-03-03', 'DHK-SYL'], 'usage')
    assert.type(always, 'object', 'no --opens is allowed')
    assert.is(await runRushCommand(db, always as Exclude<typeof always, string>), 1)
    assert.is((await listRushDates(db)).length, 1, 'nothing marked for a route always on sale')
  } finally {
    await db.close()
  }
})

test.run()
