/**
 * The PostgreSQL pool under a crowd: long write transactions (a booking, a payment) that hold every pooled
 * connection must not make single-statement reads (a waiting-room poll, a search, a session look-up) wait.
 */
import * as assert from 'uvu/assert'
import { sessionAuthenticator } from '../account/sessions.ts'
import type { Deps } from '../core.ts'
import { queueStatus } from '../queue/queue.ts'
import { pgSuite, startPostgres, type TestPostgres } from '../test/pg.ts'
import { type Db, openDb } from './db.ts'
import { migrate } from './migrate.ts'

const t = pgSuite('database pool on PostgreSQL')
let pg: TestPostgres
let db: Db

t.before(async () => {
  pg = await startPostgres()
  db = await openDb({ databaseUrl: await pg.createDatabase('pool'), max: 2 })
})
t.after(async () => {
  await db?.close()
  await pg?.stop()
})

t('a read answers while write transactions hold as many connections as the pool has', async () => {
  let release!: () => void
  const held = new Promise<void>((r) => {
    release = r
  })
  let open = 0
  const writers = Array.from({ length: 2 }, () =>
    db.transaction(async (tx) => {
      await tx.query('SELECT 1')
      open++
      await held
    }),
  )
  try {
    // both transactions have their connection
    for (let i = 0; i < 200 && open < 2; i++) await new Promise((r) => setTimeout(r, 25))
    assert.is(open, 2)
    const read = db.query<{ n: number }>('SELECT 42 AS n').then((rows) => rows[0]!.n)
    const waited = new Promise<'waited'>((r) => setTimeout(() => r('waited'), 3000))
    assert.is(await Promise.race([read, waited]), 42, 'the read waited for a transaction to end')
  } finally {
    release()
    await Promise.all(writers)
  }
})

t('the waiting-room poll and the session look-up are prepared once per connection, then only executed', async () => {
  // one pooled connection for statements: the catalogue read below sees what the calls before it prepared
  const one = await openDb({ databaseUrl: await pg.createDatabase('prepared'), max: 1 })
  try {
    await migrate(one)
    const now = new Date()
    for (let i = 0; i < 3; i++) {
      assert.is(await sessionAuthenticator(one, () => now)('no-such-token'), null)
      const status = await queueStatus(
        { db: one } as Deps,
        { tripDate: '2026-12-24', originCode: 'DHK', destinationCode: 'CTG' },
        {
          token: null,
          passengerId: null,
          address: '127.0.0.1',
          now,
        },
      )
      assert.is(status.state, 'open')
    }
    const rows = await one.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')
    assert.ok(
      rows.some((r) => r.statement.includes('FROM sessions s JOIN passengers p')),
      'the session look-up is prepared',
    )
    assert.ok(
      rows.some((r) => r.statement.includes('FROM rush_dates r')),
      'the waiting-room poll is prepared',
    )
    // a statement not marked is not kept on the connection
    assert.not.ok(rows.some((r) => r.statement.includes('pg_prepared_statements')))
  } finally {
    await one.close()
  }
})

t.run()
