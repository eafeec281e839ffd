/**
 * The fuzz test's "nothing was written" check (fuzz/db-fingerprint.ts): it sees an
 * insert, an update and a delete in any table, ignores what a refusal may change
 * (otps.attempts), and reports nothing for reads and rolled-back writes.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openFixture, type Fixture } from '../test/booking-fixture.ts'
import { diff, fingerprint, writeWatch } from '../test/fuzz/db-fingerprint.ts'

const t = suite('db fingerprint')
let f: Fixture

t.before(async () => {
  f = await openFixture()
})
t.after(async () => {
  await f.close()
})

t('writeWatch names the tables written to, and nothing else', async () => {
  const w = writeWatch(f.db)
  await w.before()
  await f.db.query('SELECT count(*) FROM trips')
  assert.equal(await w.changed(), [], 'a read writes nothing')

  await w.before()
  await f.db.query(
    "INSERT INTO contact_messages (name, email, mobile, subject, message, created_at) VALUES ('a', 'a@example.com', NULL, 's', 'm', now())",
  )
  assert.equal(await w.changed(), ['contact_messages'])

  await w.before()
  await f.db.query("UPDATE trips SET coach_code = coach_code || 'X' WHERE id = (SELECT min(id) FROM trips)")
  await f.db.query('DELETE FROM contact_messages')
  assert.equal(await w.changed(), ['contact_messages', 'trips'])

  await w.before()
  const rollBack = new Error('roll back')
  const ended = await f.db
    .transaction(async (tx) => {
      await tx.query("UPDATE passengers SET full_name = 'Rolled Back'")
      throw rollBack
    })
    .catch((e: unknown) => e)
  assert.is(ended, rollBack, 'the write ran and the transaction ended by the deliberate rollback')
  assert.equal(await w.changed(), [], 'a rolled-back write leaves nothing')
})

t('a wrong one-time code may be counted (otps.attempts); any other change to otps is seen', async () => {
  await f.db.query(
    "INSERT INTO otps (mobile, purpose, ref, code_hash, attempts, sent_at, expires_at) VALUES ('01712000001', 'LOGIN', '', 'h', 0, $1, $1::timestamptz + interval '5 minutes')",
    [new Date()],
  )
  const w = writeWatch(f.db)
  await w.before()
  await f.db.query("UPDATE otps SET attempts = attempts + 1 WHERE mobile = '01712000001'")
  assert.equal(await w.changed(), [])
  await w.before()
  await f.db.query("UPDATE otps SET consumed_at = now() WHERE mobile = '01712000001'")
  assert.equal(await w.changed(), ['otps'])
})

t('fingerprint and diff compare whole tables', async () => {
  const a = await fingerprint(f.db)
  assert.ok(Object.keys(a).includes('reservations') && !Object.keys(a).includes('limit_events'), 'limit_events is left out on purpose')
  await f.db.query("UPDATE company SET phone = phone || '0'")
  assert.equal(diff(a, await fingerprint(f.db)), ['company'])
})

t.run()
