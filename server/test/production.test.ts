/**
 * `NODE_ENV=production` as an operator starts it: refused at once without the real
 * channels, never the sandbox, whatever else is set.
 */
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { tempDir } from './helpers.ts'
import { spawnServer } from './proc.ts'
import { TEST_SIGNING_KEY } from './signing-key.ts'

const channels = {
  PUBLIC_URL: 'https://tickets.example.com',
  PAYMENT_PROVIDER: 'sslcommerz',
  SSLCOMMERZ_STORE_ID: 'store',
  SSLCOMMERZ_STORE_PASSWORD: 'secret',
  SSLCOMMERZ_API_URL: 'https://sandbox.sslcommerz.com',
  SMTP_URL: 'smtp://127.0.0.1:2525',
  MAIL_FROM: 'Nodi Express <tickets@example.com>',
  SMS_API_URL: 'http://127.0.0.1:9/sms',
  SMS_API_TOKEN: 'token',
  TICKET_SIGNING_KEY: TEST_SIGNING_KEY,
}

test('a production start without the real channels exits non-zero within seconds, naming every missing variable, and touches no data', async () => {
  const dir = tempDir()
  const started = Date.now()
  const s = await spawnServer({ NODE_ENV: 'production', DATA_DIR: dir })
  const code = await s.exited
  const took = Date.now() - started
  assert.is(code, 1)
  // node + tsx start-up is most of it; the check itself runs before anything else
  assert.ok(took < 20_000, `took ${took} ms`)
  const out = s.output()
  assert.match(out, 'Refusing to start in production (NODE_ENV=production): the real channels are not configured.')
  for (const v of [
    'PUBLIC_URL',
    'PAYMENT_PROVIDER',
    'SSLCOMMERZ_STORE_ID',
    'SSLCOMMERZ_STORE_PASSWORD',
    'SSLCOMMERZ_API_URL',
    'SMTP_URL',
    'MAIL_FROM',
    'SMS_PROVIDER',
  ]) {
    assert.match(out, `${v} is not set`)
  }
  assert.not.match(out, 'Ready on')
  assert.not.ok(fs.existsSync(path.join(dir, 'pgdata')), 'no database was created')
})

test('production never falls back to the sandbox gateway, whatever else is set', async () => {
  const s = await spawnServer({ NODE_ENV: 'production', DATA_DIR: tempDir(), ...channels, PAYMENT_PROVIDER: 'sandbox' })
  assert.is(await s.exited, 1)
  assert.match(s.output(), 'PAYMENT_PROVIDER=sandbox is refused in production')
})

test('production refuses an http PUBLIC_URL, a short METRICS_TOKEN and TRUST_PROXY=true, naming each', async () => {
  const s = await spawnServer({
    NODE_ENV: 'production',
    DATA_DIR: tempDir(),
    ...channels,
    PUBLIC_URL: 'http://tickets.example.com',
    METRICS_TOKEN: 'metrics',
    TRUST_PROXY: 'true',
  })
  // a start that is not refused is stopped and fails the test at once
  const outcome = await Promise.race([s.exited, s.ready.then(() => 'started' as const)])
  if (outcome === 'started') {
    s.kill('SIGKILL')
    await s.exited
  }
  assert.is(outcome, 1, s.output())
  const out = s.output()
  assert.match(out, 'PUBLIC_URL must be https in production, not http://tickets.example.com')
  assert.match(out, 'METRICS_TOKEN must be at least 32 characters in production (it has 7)')
  assert.match(out, 'TRUST_PROXY=true would believe any X-Forwarded-For a client writes')
  assert.not.match(out, 'Ready on')
})

test('TRUST_PROXY=0.0.0.0/0 is refused at start with the configuration message, not a start-up crash', async () => {
  const s = await spawnServer({ NODE_ENV: 'development', DATA_DIR: tempDir(), TRUST_PROXY: '0.0.0.0/0' })
  const outcome = await Promise.race([s.exited, s.ready.then(() => 'started' as const)])
  if (outcome === 'started') {
    s.kill('SIGKILL')
    await s.exited
  }
  assert.is(outcome, 1, s.output())
  assert.match(s.output(), 'TRUST_PROXY=0.0.0.0/0: 0.0.0.0/0 would believe any X-Forwarded-For a client writes')
  assert.not.match(s.output(), 'invalid range')
})

test.run()
