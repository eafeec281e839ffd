import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseTicketCode, pnrHash, signedPart, type TicketCodePayload, toBase64Url, verifyTicketCode } from './ticket-code.ts'

const subtle = globalThis.crypto.subtle
const payload: TicketCodePayload = { p: 'ABCDEFGHJK', t: 41, s: ['A1', 'A2'], n: 'রহিম উদ্দিন', i: 1_795_000_000_000 }

/** A fresh key pair: the raw public key (base64url) and a signer of ticket codes. */
async function keyPair() {
  const pair = (await subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair
  const publicKey = toBase64Url(new Uint8Array(await subtle.exportKey('raw', pair.publicKey)))
  const sign = async (p: TicketCodePayload) => {
    const signed = signedPart(p)
    const sig = new Uint8Array(await subtle.sign({ name: 'Ed25519' }, pair.privateKey, new TextEncoder().encode(signed)))
    return `${signed}.${toBase64Url(sig)}`
  }
  return { publicKey, sign }
}

test('a code signed by the operator verifies and says PNR, trip, seats and name', async () => {
  const { publicKey, sign } = await keyPair()
  const code = await sign(payload)
  assert.equal(await verifyTicketCode(code, [publicKey], subtle), payload)
  assert.equal(await verifyTicketCode(`  ${code}\n`, [publicKey], subtle), payload, 'pasted with spaces')
})

test('an edited code is refused: another seat, trip or name, or a changed signature', async () => {
  const { publicKey, sign } = await keyPair()
  const code = await sign(payload)
  const [head, , sig] = code.split('.')
  for (const edit of [{ s: ['A1', 'A2', 'A3'] }, { t: 42 }, { n: 'Someone Else' }, { p: 'ABCDEFGHJM' }]) {
    const forged = `${signedPart({ ...payload, ...edit })}.${sig}`
    assert.is(await verifyTicketCode(forged, [publicKey], subtle), null, JSON.stringify(edit))
  }
  const flipped = `${code.slice(0, -2)}${code.at(-2) === 'A' ? 'B' : 'A'}${code.at(-1)}`
  assert.is(await verifyTicketCode(flipped, [publicKey], subtle), null)
  assert.ok(head === 'NX1')
})

test('a code signed with another key (a forger, a foreign operator) is refused', async () => {
  const ours = await keyPair()
  const theirs = await keyPair()
  assert.is(await verifyTicketCode(await theirs.sign(payload), [ours.publicKey], subtle), null)
  assert.equal(await verifyTicketCode(await theirs.sign(payload), [ours.publicKey, theirs.publicKey], subtle), payload, 'a key rotated in')
})

test('text that is no ticket code is refused, never thrown', async () => {
  const { publicKey } = await keyPair()
  for (const text of [
    '',
    'PNR:ABCDEFGHJK;PIN:1234',
    'NX1.e30.AAAA',
    'NX1.!!!.AAAA',
    'NX2.a.b',
    `NX1.${toBase64Url(new TextEncoder().encode('{"p":1}'))}.${'A'.repeat(86)}`,
  ]) {
    assert.is(parseTicketCode(text), null, text)
    assert.is(await verifyTicketCode(text, [publicKey], subtle), null, text)
  }
})

test('pnrHash is the hex SHA-256 of the PNR', async () => {
  assert.is(await pnrHash('abc', subtle), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
})

test.run()
