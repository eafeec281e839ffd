/**
 * Texts in the passenger's language where they are ours: Bengali offer descriptions and
 * time-period labels from the network file, and ledger rows that say why they were written
 * (the app words them in the passenger's language).
 */
import fs from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { api } from '../../contract/api.ts'
import { openDb } from '../db/db.ts'
import { migrate } from '../db/migrate.ts'
import { importNetwork } from '../network/import.ts'
import { validateNetwork, validateNetworkText, type Network } from '../network/schema.ts'
import { DEMO_NETWORK_FILE } from '../seed/demo-network.ts'
import { buyTicket, lastCode, openFixture, pickTrip } from '../test/booking-fixture.ts'
import { tempDir } from '../test/helpers.ts'

const demoText = fs.readFileSync(DEMO_NETWORK_FILE, 'utf8')

function demo(): Network {
  const v = validateNetworkText(demoText)
  if (!v.ok) throw new Error(v.errors.join('\n'))
  return v.network
}

const bengali = /^[\u0980-\u09FF\u0964\s,.:;%()/–-]+$/u

test('the demo network answers Bengali time-period labels and offer descriptions', async () => {
  const f = await openFixture({ daysAhead: 2 })
  try {
    const periods = await f.api('GET', '/api/timePeriods')
    assert.ok(api.timePeriods.response.safeParse(periods.body.data).success, JSON.stringify(periods.body))
    assert.equal(
      periods.body.data.map((p: { label: string; labelBn: string }) => [p.label, p.labelBn]),
      [
        ['Morning', 'সকাল'],
        ['Afternoon', 'দুপুর ও বিকেল'],
        ['Evening/Night', 'সন্ধ্যা ও রাত'],
      ],
    )
    const offers = await f.api('GET', '/api/offers')
    assert.ok(api.offers.response.safeParse(offers.body.data).success, JSON.stringify(offers.body))
    assert.is(offers.body.data.length, 3)
    for (const o of offers.body.data as { descriptionBn: string }[]) assert.match(o.descriptionBn, bengali)
  } finally {
    await f.close()
  }
})

test('labelBn and descriptionBn are optional in the file; an import adds, changes and clears them', async () => {
  const db = await openDb({ dataDir: tempDir(), databaseUrl: '' })
  const now = new Date('2026-06-01T03:00:00Z')
  const load = (net: Network) => db.transaction((tx) => importNetwork(tx, net, { now, daysAhead: 2 }))
  const rows = async () => ({
    periods: await db.query<{ label: string; label_bn: string | null }>('SELECT label, label_bn FROM time_periods ORDER BY sort'),
    offers: await db.query<{ coupon_code: string; description_bn: string | null }>(
      'SELECT coupon_code, description_bn FROM offers ORDER BY coupon_code',
    ),
  })
  try {
    await migrate(db)
    const without = demo()
    for (const p of without.timePeriods) delete p.labelBn
    for (const o of without.offers) delete o.descriptionBn
    await load(without)
    let now1 = await rows()
    assert.ok(
      now1.periods.every((p) => p.label_bn === null),
      'no Bengali label: NULL',
    )
    assert.ok(now1.offers.every((o) => o.description_bn === null))

    const report = await load(demo())
    assert.equal([report.timePeriods.changed, report.offers.changed], [3, 3])
    now1 = await rows()
    assert.equal(
      now1.periods.map((p) => p.label_bn),
      ['সকাল', 'দুপুর ও বিকেল', 'সন্ধ্যা ও রাত'],
    )
    assert.ok(now1.offers.every((o) => o.description_bn && bengali.test(o.description_bn)))
    const again = await load(demo())
    assert.equal([again.timePeriods.changed, again.offers.changed, again.timePeriods.unchanged, again.offers.unchanged], [0, 0, 3, 3])

    const cleared = demo()
    delete cleared.timePeriods[0]!.labelBn
    const back = await load(cleared)
    assert.is(back.timePeriods.changed, 1)
    assert.is((await rows()).periods[0]!.label_bn, null)
  } finally {
    await db.close()
  }
})

test('a Bengali text longer than its English limit is refused by path', () => {
  const j = JSON.parse(demoText)
  j.timePeriods[0].labelBn = 'স'.repeat(41)
  j.offers[1].descriptionBn = 7
  const v = validateNetwork(j)
  assert.is(v.ok, false)
  const errors = v.ok ? [] : v.errors
  assert.ok(
    errors.some((e) => e.startsWith('timePeriods[0].labelBn:')),
    errors.join('\n'),
  )
  assert.ok(
    errors.some((e) => e.startsWith('offers[1].descriptionBn:')),
    errors.join('\n'),
  )
})

test('the account statement says why each row was written: kind, reason, reservation and its PNR', async () => {
  const f = await openFixture({ daysAhead: 6 })
  try {
    const p = await f.passenger({ balance: 20_000 })
    const trip = await pickTrip(f, { minHours: 72 })
    const sold = await buyTicket(f, p, trip, 1)
    await f.api('GET', `/api/reservation/cancelInitialize/${sold.pnr}/${sold.pin}`)
    const c = await f.api('GET', `/api/reservation/cancel/${sold.pnr}/${sold.pin}/${await lastCode(f, p.mobile)}`)
    assert.is(c.status, 200, JSON.stringify(c.body))
    const acc = await f.api('GET', `/api/account/${p.id}`, undefined, { token: p.token })
    assert.is(acc.status, 200, JSON.stringify(acc.body))
    assert.ok(api.account.response.safeParse(acc.body.data).success)
    const rows = acc.body.data.transactions.map((x: Record<string, unknown>) => [x.kind, x.reason, x.reservationId, x.pnr])
    assert.equal(rows, [
      ['REFUND', 'TICKET_CANCELED', sold.id, sold.pnr],
      ['TICKET_PAYMENT', null, sold.id, sold.pnr],
    ])
  } finally {
    await f.close()
  }
})

test.run()
