/**
 * Security issue 21, item 1: TRUST_PROXY names how the proxy is trusted (a hop count, or
 * the proxies' addresses and CIDR ranges), never "believe every X-Forwarded-For"; and the
 * client address it yields keeps the per-address limits' IPv6 /64 grouping. Through a
 * real nginx and two processes: proxy-on-postgres.test.ts.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readConfig, type TrustProxy } from '../config.ts'
import { startTestApp, type TestApp } from '../test/helpers.ts'

const trust = (v: string | undefined) => readConfig({ TRUST_PROXY: v })

test('TRUST_PROXY: unset is no proxy; a hop count; a list of addresses, CIDR ranges and range names', () => {
  assert.equal(trust(undefined).config.trustProxy, false)
  assert.equal(trust('').config.trustProxy, false)
  assert.equal(trust('1').config.trustProxy, { hops: 1 })
  assert.equal(trust(' 2 ').config.trustProxy, { hops: 2 })
  assert.equal(trust('10.0.0.0/8, 192.0.2.7,2001:db8::/32, loopback').config.trustProxy, {
    addresses: ['10.0.0.0/8', '192.0.2.7', '2001:db8::/32', 'loopback'],
  })
  for (const v of ['1', '10.0.0.0/8', '::1', 'uniquelocal,linklocal']) assert.equal(trust(v).problems, [], v)
})

test('TRUST_PROXY=true, "trust everything" or anything unparseable is refused with what to set instead', () => {
  for (const v of ['true', 'TRUE', 'yes', '*', 'all']) {
    const { problems } = trust(v)
    assert.is(problems.length, 1, v)
    assert.match(problems[0]!, `TRUST_PROXY=${v} would believe any X-Forwarded-For a client writes`)
    assert.match(problems[0]!, 'a hop count (1: the address your one proxy saw)')
  }
  // a /0 range trusts every address: the same message as `true`, not a start-up crash
  for (const v of ['0.0.0.0/0', '::/0', '10.0.0.1, 0.0.0.0/00']) {
    const { problems } = trust(v)
    assert.is(problems.length, 1, v)
    assert.match(problems[0]!, `TRUST_PROXY=${v}: `)
    assert.match(problems[0]!, 'would believe any X-Forwarded-For a client writes')
  }
  for (const v of ['0', '11', '-1', '1.5', 'false', 'nginx', '10.0.0.0/33', '300.1.1.1', '10.0.0.0/8/1', '2001:db8::/129', '10.0.0.1,']) {
    const { problems } = trust(v)
    assert.is(problems.length, 1, `${v}: ${problems}`)
    assert.match(problems[0]!, `TRUST_PROXY=${v}`)
  }
})

/** Answers the address keys the sign-in limit counted for `requests` (socket address, X-Forwarded-For). */
async function countedAs(t: TestApp, requests: [remote: string, forwarded?: string][]): Promise<{ statuses: number[]; keys: string[] }> {
  const statuses: number[] = []
  for (const [i, [remote, forwarded]] of requests.entries()) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/getPassengerByMobile/0171239${String(1000 + i)}`,
      remoteAddress: remote,
      headers: { accept: 'application/json', ...(forwarded ? { 'x-forwarded-for': forwarded } : {}) },
    })
    statuses.push(res.statusCode)
  }
  const rows = await t.db.query<{ key: string }>("SELECT key FROM limit_events WHERE bucket = 'auth:passengerByMobile' ORDER BY id")
  await t.db.query('DELETE FROM limit_events')
  return { statuses, keys: rows.map((r) => r.key) }
}

async function appTrusting(trustProxy: TrustProxy): Promise<TestApp> {
  return startTestApp({ config: { trustProxy }, app: { authRateLimitMax: 3 } })
}

test('hop count 1 (the nginx of docs/operating.md): the address nginx appended counts, never what the client wrote; IPv6 still by its /48', async () => {
  const t = await appTrusting({ hops: 1 })
  try {
    // nginx's $proxy_add_x_forwarded_for: whatever the client sent, then the address nginx saw
    const seen = await countedAs(t, [
      ['127.0.0.1', '6.6.6.6, 2001:db8:1:2::5'],
      ['127.0.0.1', '7.7.7.7, 2001:db8:1:2:aaaa::9'],
      ['127.0.0.1', '2001:db8:1:2::77'],
      ['127.0.0.1', '8.8.8.8, 1.1.1.1, 2001:db8:1:3:ffff:ffff:ffff:ffff'],
      ['127.0.0.1', '2001:db8:2::1'],
      ['127.0.0.1', '203.0.113.9'],
      ['127.0.0.1'],
    ])
    assert.equal(seen.keys, ['2001:db8:1::/48', '2001:db8:1::/48', '2001:db8:1::/48', '2001:db8:2::/48', '203.0.113.9', '127.0.0.1'])
    assert.is(seen.statuses[3], 429, 'a fourth look-up from one /48 (from another /64 in it) is refused')
  } finally {
    await t.close()
  }
})

test('hop count 2 (a CDN in front of nginx): the address the CDN saw counts', async () => {
  const t = await appTrusting({ hops: 2 })
  try {
    // the client's own entry, then the CDN's (the client's address), then nginx's (the CDN edge)
    const seen = await countedAs(t, [['127.0.0.1', '10.9.9.9, 198.51.100.23, 192.0.2.200']])
    assert.equal(seen.keys, ['198.51.100.23'])
  } finally {
    await t.close()
  }
})

test('a list of proxies: only a request from one of them has its X-Forwarded-For believed, through every trusted hop', async () => {
  const t = await appTrusting({ addresses: ['10.0.0.0/8', '192.0.2.200'] })
  try {
    const seen = await countedAs(t, [
      // from the load balancer: the entry before it
      ['10.1.2.3', '6.6.6.6, 203.0.113.5'],
      // through a CDN edge on the list, then the load balancer
      ['10.1.2.3', '6.6.6.6, 203.0.113.6, 192.0.2.200'],
      // straight from a client that is not a proxy: its header is ignored
      ['198.51.100.1', '203.0.113.7'],
    ])
    assert.equal(seen.keys, ['203.0.113.5', '203.0.113.6', '198.51.100.1'])
  } finally {
    await t.close()
  }
})

test('no TRUST_PROXY: X-Forwarded-For is ignored, the socket address counts', async () => {
  const t = await appTrusting(false)
  try {
    const seen = await countedAs(t, [['198.51.100.1', '203.0.113.7']])
    assert.equal(seen.keys, ['198.51.100.1'])
  } finally {
    await t.close()
  }
})

test.run()
