/**
 * A ticket's QR code: `NX1.<payload>.<signature>`, both base64url. The payload is the JSON of
 * the ticket's PNR, trip, seats, passenger name and when it was signed; the signature is the
 * operator's Ed25519 signature of the ASCII text `NX1.<payload>` (server/bookings/ticket-codes.ts
 * signs; the checker page verifies with WebCrypto and the public key, no network needed).
 * No Node or DOM imports: the server, the app and uvu use it alike.
 */

/** What a ticket's QR code says. */
export interface TicketCodePayload {
  /** PNR. */
  p: string
  /** Trip id. */
  t: number
  /** Seat names. */
  s: string[]
  /** Passenger name. */
  n: string
  /** When it was signed, epoch milliseconds. */
  i: number
}

/** The prefix (and version) of every ticket code. */
export const TICKET_CODE_PREFIX = 'NX1'

/** Base64url of bytes, without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** Bytes of base64url text, or null when it is not base64url. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null
  try {
    const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4))
    return Uint8Array.from(bin, (c) => c.charCodeAt(0))
  } catch {
    return null
  }
}

/** The text that is signed for `payload`: `NX1.<base64url JSON>`. */
export function signedPart(payload: TicketCodePayload): string {
  return `${TICKET_CODE_PREFIX}.${toBase64Url(new TextEncoder().encode(JSON.stringify(payload)))}`
}

const isPayload = (v: unknown): v is TicketCodePayload => {
  const x = v as TicketCodePayload
  return (
    !!x &&
    typeof x === 'object' &&
    typeof x.p === 'string' &&
    Number.isInteger(x.t) &&
    Array.isArray(x.s) &&
    x.s.every((s) => typeof s === 'string') &&
    typeof x.n === 'string' &&
    Number.isFinite(x.i)
  )
}

/** A code split into what was signed, its payload and its signature; null when it is not a ticket code. */
export function parseTicketCode(code: string): { signed: string; payload: TicketCodePayload; signature: Uint8Array<ArrayBuffer> } | null {
  const parts = code.trim().split('.')
  if (parts.length !== 3 || parts[0] !== TICKET_CODE_PREFIX) return null
  const body = fromBase64Url(parts[1] ?? '')
  const signature = fromBase64Url(parts[2] ?? '')
  if (!body || !signature || signature.length !== 64) return null
  try {
    const payload: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body))
    return isPayload(payload) ? { signed: `${parts[0]}.${parts[1]}`, payload, signature } : null
  } catch {
    return null
  }
}

/**
 * The payload of `code` when one of `publicKeys` (raw Ed25519 keys, base64url) signed it; null
 * when it is not a ticket code or its signature fails (an edited or foreign code).
 */
export async function verifyTicketCode(code: string, publicKeys: readonly string[], subtle: SubtleCrypto): Promise<TicketCodePayload | null> {
  const parsed = parseTicketCode(code)
  if (!parsed) return null
  const data = new TextEncoder().encode(parsed.signed)
  for (const k of publicKeys) {
    const raw = fromBase64Url(k)
    if (raw?.length !== 32) continue
    try {
      const key = await subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify'])
      if (await subtle.verify({ name: 'Ed25519' }, key, parsed.signature, data)) return parsed.payload
    } catch {
      // a browser without Ed25519 in WebCrypto: the code cannot be checked here
    }
  }
  return null
}

/** Hex SHA-256 of a PNR, as the revocation list names tickets. */
export async function pnrHash(pnr: string, subtle: SubtleCrypto): Promise<string> {
  const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(pnr)))
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')
}
