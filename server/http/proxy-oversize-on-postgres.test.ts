/**
 * Issue 32: oversize requests must not take backends out. nginx runs README's proxy blocks
 * (harness/nginx.ts: `proxySite`, with `apiUpstream` for several processes) in front of two
 * server processes on one PostgreSQL. One client sends bodies over the API's 64 KB limit
 * (and some over nginx's 1 MB) while another visitor keeps making ordinary requests: every
 * oversize request gets a 413 in the API's error format, and the other visitor never a 502
 * (the server reads and drops an oversize body before answering, server/http/oversize.ts,
 * so nginx never sees a backend break a connection). Without nginx or PostgreSQL every test
 * is reported skipped (a failure under CI).
 */
import http from 'node:http'
import * as assert from 'uvu/assert'
import { apiUpstream, nginxMissing, type Nginx, proxySite, runNginx } from '../../harness/nginx.ts'
import { pgSuite, type ServersOnPostgres, startServersOnPostgres } from '../test/pg.ts'
import { requires } from '../test/skip.ts'
import { freePort } from '../../harness/spawn-server.ts'

const SUITE = 'oversize requests behind nginx on PostgreSQL'
const test = requires(pgSuite(SUITE), SUITE, nginxMissing())

let stack: ServersOnPostgres | undefined
const proxies: Nginx[] = []

test.before(async () => {
  stack = await startServersOnPostgres('oversize', { TRUST_PROXY: '1', RATE_LIMIT_MAX: '100000', AUTH_RATE_LIMIT_MAX: '100000' })
})

test.after(async () => {
  for (const p of proxies.splice(0)) await p.stop()
  await stack?.stop()
})

/** Starts nginx with README's proxy block in front of `upstream` (with `extra` blocks before it). */
async function proxy(upstream: string, extra = ''): Promise<Nginx> {
  const port = await freePort()
  const p = await runNginx(extra + proxySite(port, upstream), `http://127.0.0.1:${port}`, undefined, '/healthz')
  proxies.push(p)
  return p
}

/** One request through nginx on a connection of its own; status 0 when the connection failed before an answer. */
function send(origin: string, method: string, path: string, body?: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    let answered = false
    const req = http.request(
      `${origin}${path}`,
      {
        method,
        agent: false,
        headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        answered = true
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (text += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
        res.on('error', () => resolve({ status: res.statusCode ?? 0, text }))
      },
    )
    // nginx may answer its own 413 before it has read a body over 1 MB: the write error that follows is expected
    req.on('error', (err) => {
      if (!answered) resolve({ status: 0, text: err.message })
    })
    req.end(body)
  })
}

/** A contact message whose JSON body is `bytes` long. */
const oversize = (bytes: number) => {
  const head = '{"name":"Big","email":"big@example.com","subject":"Big","message":"'
  return Buffer.from(`${head}${'a'.repeat(bytes - head.length - 2)}"}`)
}

/**
 * Sends `rounds` oversize bodies (4 at a time, 80 KB to 900 KB, and every fifth one 2 MB, over
 * nginx's limit) while another visitor keeps asking for the origin cities; answers both sides' statuses.
 */
async function oversizeWhileVisiting(origin: string, rounds: number): Promise<{ oversize: { status: number; text: string }[]; visitor: number[] }> {
  const visitor: number[] = []
  let attacking = true
  const visiting = (async () => {
    while (attacking) visitor.push((await send(origin, 'GET', '/api/originCities')).status)
  })()
  const answers: { status: number; text: string }[] = []
  try {
    for (let i = 0; i < rounds; i += 4) {
      const sizes = [0, 1, 2, 3].map((k) => ((i + k) % 5 === 4 ? 2 * 1024 * 1024 : 80 * 1024 + (((i + k) * 97_000) % 820_000)))
      answers.push(...(await Promise.all(sizes.map((n) => send(origin, 'POST', '/api/reservation/contactUs', oversize(n))))))
    }
  } finally {
    attacking = false
    await visiting
  }
  // the visitor goes on after the attack: nothing was taken out
  for (let i = 0; i < 10; i++) visitor.push((await send(origin, 'GET', '/api/originCities')).status)
  return { oversize: answers, visitor }
}

/** How many of each status. */
function count(xs: number[]): Record<number, number> {
  const m: Record<number, number> = {}
  for (const s of xs) m[s] = (m[s] ?? 0) + 1
  return m
}

function assertAllRefusedNoneFailed(result: { oversize: { status: number; text: string }[]; visitor: number[] }) {
  const statuses = result.oversize.map((r) => r.status)
  assert.ok(result.visitor.length >= 10)
  assert.equal(
    { oversize: count(statuses), visitor: count(result.visitor) },
    { oversize: { 413: statuses.length }, visitor: { 200: result.visitor.length } },
    'statuses of the oversize requests, and of the other visitor',
  )
  for (const r of result.oversize) {
    assert.equal(JSON.parse(r.text).error, { code: 'VALIDATION_FAILED', reason: 'The request is too large.' })
  }
}

test("README's upstream of two processes: 413 for every oversize body, never a 502 for the other visitor", async () => {
  const servers = stack!.servers
  const p = await proxy(
    'http://api_servers',
    apiUpstream(
      'api_servers',
      servers.map((s) => new URL(s.url).host),
    ),
  )
  assertAllRefusedNoneFailed(await oversizeWhileVisiting(p.origin, 60))
  assert.not.match(p.logs(), /upstream prematurely closed|Connection reset by peer|Broken pipe|no live upstreams/)
})

test("README's block for one server: 413 for every oversize body, never a 502", async () => {
  const p = await proxy(`http://${new URL(stack!.servers[0]!.url).host}`)
  assertAllRefusedNoneFailed(await oversizeWhileVisiting(p.origin, 60))
  assert.not.match(p.logs(), /upstream prematurely closed|Connection reset by peer|Broken pipe/)
})

test('straight to a server: an oversize body is read and dropped before the 413, and the connection stays open for the next request', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  try {
    const url = new URL(stack!.servers[1]!.url)
    const sockets = new Set<unknown>()
    const one = (body?: Buffer) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = http.request(
          {
            host: url.hostname,
            port: url.port,
            path: body ? '/api/reservation/contactUs' : '/api/originCities',
            method: body ? 'POST' : 'GET',
            agent,
            headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
          },
          (res) => {
            sockets.add(req.socket)
            res.resume()
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }))
          },
        )
        req.on('error', reject)
        req.end(body)
      })
    const refused = await one(oversize(300 * 1024))
    assert.is(refused.status, 413)
    assert.is.not(refused.connection, 'close')
    assert.is((await one()).status, 200)
    assert.is(sockets.size, 1, 'the next request went on the same connection')
  } finally {
    agent.destroy()
  }
})

test.run()
