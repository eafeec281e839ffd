/** Opaque random tokens: the client holds the token, the database only its SHA-256. */
import { createHash, randomBytes } from 'node:crypto'

/** A new 32-byte random token, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Hex SHA-256 of a token or code, as stored. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}
