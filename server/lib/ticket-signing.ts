/** The operator's Ed25519 key that signs the tickets' QR codes (contract/ticket-code.ts), and its public half. */
import crypto, { type KeyObject } from 'node:crypto'
import { signedPart, type TicketCodePayload, toBase64Url } from '../../contract/ticket-code.ts'

/**
 * The signing key of development and tests, public in this repository: production refuses it
 * (config.ts), so a code it signed is never taken for the operator's.
 */
export const DEV_TICKET_SIGNING_KEY = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEILnPaZLykvDgczgOVjj3LjPyx5c1TFEOMVyBY7y5K1xV
-----END PRIVATE KEY-----`

/** The Ed25519 private key of PEM text (PKCS#8; `\n` written as two characters is taken for a line break), or null. */
export function readSigningKey(pem: string): KeyObject | null {
  try {
    const key = crypto.createPrivateKey(pem.replace(/\\n/g, '\n'))
    return key.asymmetricKeyType === 'ed25519' ? key : null
  } catch {
    return null
  }
}

/** The key tickets are signed with: TICKET_SIGNING_KEY, or the development key where it may be unset. */
export function signingKey(config: { ticketSigningKey?: string }): KeyObject {
  const key = readSigningKey(config.ticketSigningKey ?? DEV_TICKET_SIGNING_KEY)
  if (!key) throw new Error('TICKET_SIGNING_KEY is not an Ed25519 private key')
  return key
}

/** The raw 32-byte public key of `key`, base64url (what the checker imports). */
export function publicKeyOf(key: KeyObject): string {
  const spki = crypto.createPublicKey(key).export({ type: 'spki', format: 'der' })
  // An Ed25519 SPKI is a fixed 12-byte header and the 32-byte key.
  return toBase64Url(new Uint8Array(spki.subarray(spki.length - 32)))
}

/** The QR code of `payload`, signed with `key`. */
export function signTicketCode(key: KeyObject, payload: TicketCodePayload): string {
  const signed = signedPart(payload)
  return `${signed}.${toBase64Url(new Uint8Array(crypto.sign(null, Buffer.from(signed), key)))}`
}
