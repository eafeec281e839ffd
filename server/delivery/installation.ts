/**
 * The installation id: 8 random lowercase letters and digits, written once into `settings` by the
 * first process that asks and read by every other. It goes into every message id a provider sees
 * (SSL Wireless `csms_id`, the relay's Idempotency-Key), so two databases sending through one
 * provider account (a second site, a move from PGlite to PostgreSQL) never reuse an id.
 */
import { randomInt } from 'node:crypto'
import type { Queryable } from '../db/db.ts'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** Length of the installation id: with an outbox id of up to 12 digits it fits SSL Wireless's 20-character csms_id. */
export const INSTALLATION_ID_LENGTH = 8

/** This database's installation id, made on first use. */
export async function installationId(db: Queryable): Promise<string> {
  const fresh = Array.from({ length: INSTALLATION_ID_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')
  await db.query("INSERT INTO settings (name, value) VALUES ('installation_id', $1) ON CONFLICT (name) DO NOTHING", [fresh])
  const [row] = await db.query<{ value: string }>("SELECT value FROM settings WHERE name = 'installation_id'")
  return row!.value
}
