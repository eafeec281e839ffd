/** The scrypt hash: its parameters, and the lower cost the fuzz test borrows and gives back. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { hashCostForTest, hashPassword, needsRehash, SCRYPT, TEST_SCRYPT, verifyPassword } from './passwords.ts'

const params = (hash: string) => hash.split('$').slice(1, 4).map(Number)

test('hashCostForTest: hashes at the lower cost until given back, then at SCRYPT again; a cheap hash still verifies and needs a rehash', async () => {
  const restore = hashCostForTest(TEST_SCRYPT)
  let cheap: string
  try {
    cheap = await hashPassword('Secret@123')
    assert.equal(params(cheap), [TEST_SCRYPT.N, TEST_SCRYPT.r, TEST_SCRYPT.p])
    assert.not.ok(needsRehash(cheap))
  } finally {
    restore()
  }
  assert.ok(needsRehash(cheap))
  assert.ok(await verifyPassword('Secret@123', cheap))
  assert.not.ok(await verifyPassword('Secret@124', cheap))
  const full = await hashPassword('Secret@123')
  assert.equal(params(full), [SCRYPT.N, SCRYPT.r, SCRYPT.p])
  assert.not.ok(needsRehash(full))
})

test.run()
