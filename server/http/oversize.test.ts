/**
 * Oversize bodies (issue 32): the server reads and drops the rest of a body over its 64 KB
 * limit before the 413, up to OVERSIZE_DRAIN_BYTES, so the answer arrives whole and the
 * connection stays open (a proxy sees no broken connection); a larger body is answered and
 * the connection closed. Behind nginx: proxy-oversize-on-postgres.test.ts.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { OVERSIZE_DRAIN_BYTES } from '../http/oversize.ts'
import { startTestApp, type TestApp } from '../test/helpers.ts'

let t: TestApp
let port: number
test.before(async () => {
  t = await startTestApp({ daysAhead: 0 })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  port = (t.app.server.address() as AddressInfo).port
})
test.after(() => t.close())

/** Requests on one kept-alive connection (at most one socket): status, Connection header and the socket used. */
function onOneConnection(agent: http.Agent, method: string, path: string, body?: Buffer) {
  return new Promise<{ status: number; connection: string | undefined; text: string; socket: unknown }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        agent,
        headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (text += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text, socket: req.socket }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const contact = (bytes: number) => {
  const head = '{"name":"Big","email":"big@example.com","subject":"Big","message":"'
  return Buffer.from(`${head}${'a'.repeat(bytes - head.length - 2)}"}`)
}

test('a body over the limit is read to its end before the 413: the connection stays open for the next request', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  try {
    for (const size of [70 * 1024, 300 * 1024, OVERSIZE_DRAIN_BYTES - 1024]) {
      const refused = await onOneConnection(agent, 'POST', '/api/reservation/contactUs', contact(size))
      assert.is(refused.status, 413, `${size} bytes`)
      assert.is.not(refused.connection, 'close', `${size} bytes`)
      assert.equal(JSON.parse(refused.text).error, { code: 'VALIDATION_FAILED', reason: 'The request is too large.' })
      const next = await onOneConnection(agent, 'GET', '/api/originCities')
      assert.is(next.status, 200)
      assert.is(next.socket, refused.socket, 'the next request goes on the same connection')
    }
  } finally {
    agent.destroy()
  }
})

test('a body over OVERSIZE_DRAIN_BYTES is not read: 413, and the connection closes', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  try {
    const refused = await onOneConnection(agent, 'POST', '/api/reservation/contactUs', contact(OVERSIZE_DRAIN_BYTES + 64 * 1024)).catch(
      (err: Error) => ({ status: 0, connection: err.message, text: '', socket: null }),
    )
    // the answer may be lost when the connection closes under the rest of the body: never kept open
    assert.ok(refused.status === 413 ? refused.connection === 'close' : refused.status === 0, `${refused.status} ${refused.connection}`)
  } finally {
    agent.destroy()
  }
})

test.run()
